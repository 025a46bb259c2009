from django.apps import AppConfig


class LegalDocumentsConfig(AppConfig):
    name = "legal_documents"

    def ready(self) -> None:
        from common.content_security import allow_style_block
        from legal_documents.rendering import PAGE_STYLE

        # The admin previews rendered documents in a frame that inherits the site's policy.
        allow_style_block(PAGE_STYLE)

        from legal_documents.staleness import on_register_changed
        from register.signals import register_changed

        # Documents written from a register entry go stale when it changes (staleness.py).
        register_changed.connect(on_register_changed, dispatch_uid="legal_documents.staleness")

        from common.background import kinds
        from legal_documents.work import DOCUMENT_JOB, PACKAGE_BUILD

        # The one sweeper of background work (common.background) finds its kinds here.
        kinds.register(DOCUMENT_JOB)
        kinds.register(PACKAGE_BUILD)
