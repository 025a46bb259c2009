"""The review of a document the organization did not write (issue 28).

A vendor's data processing agreement or an old privacy notice is checked item by item
against the checklists of docs/LEGAL.md: each item is `present`, `weak`, `missing`,
`not-applicable` or `needs-human-check`, with verbatim quotes of the document and where they
are. Framework-free like the rest of gdpr: the caller (the reviews app) gives the
document's passages in reading order and stores the report.
"""
