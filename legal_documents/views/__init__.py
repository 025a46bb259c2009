"""Legal document endpoints, one module per concern, all on the `legal-documents` prefix."""
