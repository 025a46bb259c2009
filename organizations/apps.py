from django.apps import AppConfig
from django.db.models.signals import post_migrate


class OrganizationsConfig(AppConfig):
    name = "organizations"

    def ready(self) -> None:
        from organizations import schema  # noqa: F401 - registers the OpenAPI extensions
        from organizations.auditors import sync_auditors_group

        # Models added by later migrations get their view permission in the group too.
        post_migrate.connect(sync_auditors_group, sender=self)
