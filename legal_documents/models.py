"""Models of legal_documents."""
