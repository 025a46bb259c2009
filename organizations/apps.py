from django.apps import AppConfig
from django.db.models.signals import post_migrate


class OrganizationsConfig(AppConfig):
    name = "organizations"

    def ready(self) -> None:
        from organizations import (
            events,
            key_cache,
            schema,  # noqa: F401 - registers the OpenAPI extensions
        )
        from organizations.auditors import sync_admin_groups
        from organizations.second_factor import required_roles

        required_roles()  # an unknown role in ADMIN_OTP_REQUIRED_ROLES stops the start
        key_cache.connect_signals()
        events.connect_signals()
        # Not tied to this app: the groups need the permissions of apps migrated after it.
        post_migrate.connect(sync_admin_groups, dispatch_uid="organizations.sync_admin_groups")
