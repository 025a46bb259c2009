"""Template text of each document type's checklist items, one module per type."""
