"""The "Auditors" group holds the view permission of every model a DPO works with."""

from typing import Any

from django.contrib.auth.models import Group, Permission

AUDITORS_GROUP = "Auditors"
VIEWED_APPS = ("organizations", "audit", "legal_documents", "assets")


def sync_auditors_group(**kwargs: Any) -> None:
    group, _ = Group.objects.get_or_create(name=AUDITORS_GROUP)
    group.permissions.set(
        Permission.objects.filter(
            content_type__app_label__in=VIEWED_APPS, codename__startswith="view_"
        )
    )
