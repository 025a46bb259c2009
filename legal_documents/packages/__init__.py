"""Documentation index and inspection packages (what an auditor or authority asks for).

- `index`: the organization's documents with version, hash and completeness (JSON, CSV);
- `manifest`: `manifest.json` of a package and the check of a ZIP against it;
- `builder`: the files of a package and the ZIP holding them;
- `services`: requesting and building a `DocumentationPackage`, opening its file.
"""
