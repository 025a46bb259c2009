from django.apps import AppConfig


class LegalDocumentsConfig(AppConfig):
    name = "legal_documents"

    def ready(self) -> None:
        from common.content_security import allow_style_block
        from legal_documents.rendering import PAGE_STYLE

        # The admin previews rendered documents in a frame that inherits the site's policy.
        allow_style_block(PAGE_STYLE)
