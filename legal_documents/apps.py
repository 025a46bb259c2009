from django.apps import AppConfig


class LegalDocumentsConfig(AppConfig):
    name = "legal_documents"
