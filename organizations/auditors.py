"""The admin's groups: what each role may do in the back-office.

- "Auditors": the view permission of every model a DPO works with (webhook endpoints and
  their deliveries included), nothing else.
- "DPOs": the same views, plus running the document flow, requesting packages, uploading
  and deleting assets and keeping the client companies.
- "Organization admins": a DPO's permissions plus API keys and webhook endpoints.

Bulk actions declare the permission they need (`@admin.action(permissions=...)`): DPOs
export documents, rebuild packages and delete assets; revoking keys, deleting members,
endpoints or anything else is not theirs; auditors only export (a read).

Rows are always limited to the member's organization by OrganizationScopedAdmin; these
groups only decide which models and buttons a member gets, the groups of the member's
current role (organizations/admin_permissions.py), whatever groups the user is in. Synced
after every migrate (and flush), so models added by later migrations get their permissions
too.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib.auth.models import Group, Permission
from django.db.models import Q

AUDITORS_GROUP = "Auditors"
DPOS_GROUP = "DPOs"
ORGANIZATION_ADMINS_GROUP = "Organization admins"
# Webhook endpoints and their deliveries are listed by every role (as in the API); only
# organization admins add, change or delete endpoints.
VIEWED_APPS = (
    "organizations", "audit", "legal_documents", "assets", "webhooks", "register", "reviews",
)  # fmt: skip

DPO_PERMISSIONS = (
    "legal_documents.add_legaldocument",
    "legal_documents.change_legaldocument",
    "legal_documents.add_documentationpackage",
    "assets.add_asset",
    "assets.delete_asset",
    "organizations.add_clientcompany",
    "organizations.change_clientcompany",
    # The processing register: DPOs keep it (transfers follow from it: view only).
    "register.add_processingactivity",
    "register.change_processingactivity",
    "register.delete_processingactivity",
    "register.add_vendor",
    "register.change_vendor",
    "register.delete_vendor",
    # Reviews of uploaded documents: DPOs start them; the review task writes the rest.
    "reviews.add_review",
)
ORGANIZATION_ADMIN_PERMISSIONS = (
    *DPO_PERMISSIONS,
    "organizations.add_apikey",
    "organizations.change_apikey",
    "webhooks.add_webhookendpoint",
    "webhooks.change_webhookendpoint",
    "webhooks.delete_webhookendpoint",
)


def _view_permissions() -> Q:
    return Q(content_type__app_label__in=VIEWED_APPS, codename__startswith="view_")


def _named(permissions: tuple[str, ...]) -> Q:
    query = Q(pk__in=[])
    for dotted in permissions:
        app_label, codename = dotted.split(".")
        query |= Q(content_type__app_label=app_label, codename=codename)
    return query


def sync_auditors_group(**kwargs: Any) -> None:
    group, _ = Group.objects.get_or_create(name=AUDITORS_GROUP)
    group.permissions.set(Permission.objects.filter(_view_permissions()))


def sync_dpo_groups(**kwargs: Any) -> None:
    for name, granted in (
        (DPOS_GROUP, DPO_PERMISSIONS),
        (ORGANIZATION_ADMINS_GROUP, ORGANIZATION_ADMIN_PERMISSIONS),
    ):
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.set(Permission.objects.filter(_view_permissions() | _named(granted)))


def sync_admin_groups(app_config: Any = None, **kwargs: Any) -> None:
    """post_migrate receiver: runs once, after the last app's permissions were created."""
    with_models = [config for config in apps.get_app_configs() if config.models_module]
    if app_config is not None and with_models and app_config is not with_models[-1]:
        return
    sync_auditors_group()
    sync_dpo_groups()
