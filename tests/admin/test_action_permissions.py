"""Every admin action declares its permissions; auditors and DPOs cannot run the others' ones.

The actions are read from the admin site's registry (site-wide ones like `delete_selected`
included), so an action added later is covered without touching this file.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

from assets.models import Asset, AssetChunk
from audit.models import AuditEvent
from legal_documents.models import DocumentationPackage, DocumentVersion, LegalDocument
from organizations.models import ApiKey
from reminders.models import ReminderPreference, SentReminder
from reviews.models import Review
from tests.factories import ClientCompanyFactory, issue_key
from tests.register.factories import ProcessingActivityFactory, TransferFactory
from tests.webhooks.factories import WebhookDeliveryFactory, WebhookEndpointFactory

pytestmark = pytest.mark.django_db

# What a DPO may do in bulk (organizations/auditors.py documents it): documents and packages
# are their work, assets they upload and delete; keys, members and endpoints are not theirs.
DPO_ACTIONS = {
    ("legaldocument", "export_selected"),
    ("documentationpackage", "rebuild_selected"),
    ("asset", "delete_selected"),
    # The processing register is theirs to keep (deleted through register.services).
    ("processingactivity", "delete_selected"),
    ("vendor", "delete_selected"),
    # A redirect to the review's form (reviews/admin.py), which starts the review.
    ("asset", "review_document"),
}
# Reads that change nothing; auditors may run them too.
READ_ACTIONS = {("legaldocument", "export_selected")}
# Written by every admin request (reads are audited, messages live in the session); not
# part of "what changed".
CHANGING_ON_READ = {AuditEvent, Session}


def every_action() -> list[tuple[Any, str, Any]]:
    """(model admin, action name, action function) for every action of every registered admin."""
    found = []
    for model, model_admin in admin.site._registry.items():
        for function, name, _ in model_admin._get_base_actions():
            found.append((model_admin, name, function))
            assert model is model_admin.model
    return found


ACTIONS = every_action()


def database_state() -> str:
    """A digest of every row of every model, but the audit trail (reads append to it)."""
    digest = hashlib.sha256()
    for model in apps.get_models():
        if model in CHANGING_ON_READ or model._meta.proxy:
            continue
        rows = sorted(
            json.dumps(row, default=str, sort_keys=True) for row in model.objects.values()
        )
        digest.update(f"{model._meta.label}:{len(rows)}:".encode())
        for row in rows:
            digest.update(row.encode())
    return digest.hexdigest()


@pytest.fixture
def rows(dpo, document) -> None:  # type: ignore[no-untyped-def]
    """One row (at least) of every model an action could act upon, in the DPO's organization."""
    issue_key(dpo.membership)
    ClientCompanyFactory(organization=dpo.organization)
    DocumentationPackage.objects.create(organization=dpo.organization, filters={})
    WebhookDeliveryFactory(endpoint=WebhookEndpointFactory(organization=dpo.organization))
    asset = Asset.objects.create(
        organization=dpo.organization, original_file_name="a.txt", sha256="b" * 64,
        media_type="text/plain", file_size=1,
    )  # fmt: skip
    AssetChunk.objects.create(
        asset=asset, organization=dpo.organization, index=0, text="x",
        embedding=[0.1] * settings.EMBEDDING_DIMENSIONS,
    )  # fmt: skip
    transfer = TransferFactory(organization=dpo.organization)
    ProcessingActivityFactory(organization=dpo.organization).vendors.add(transfer.vendor)
    Review.objects.create(
        organization=dpo.organization, asset=asset, vendor=transfer.vendor,
        document_type="DATA_PROCESSING_AGREEMENT", language="en",
    )  # fmt: skip
    ReminderPreference.objects.create(user=dpo.membership.user)
    SentReminder.objects.create(
        organization=dpo.organization, user=dpo.membership.user, kind="stale-documents",
        subject_id=str(dpo.organization.pk), occurrence="2026-W10", language="en",
        recipient=dpo.membership.user.email, subject="s", body="b", sent_at=timezone.now(),
    )  # fmt: skip
    assert DocumentVersion.objects.exists() and LegalDocument.objects.exists()


def test_every_admin_action_declares_its_permissions():
    assert ACTIONS, "no admin action found"
    undeclared = [
        f"{model_admin.model._meta.label}.{name}"
        for model_admin, name, function in ACTIONS
        if not getattr(function, "allowed_permissions", None)
    ]
    assert undeclared == []


def post_action(staff, model_admin, name: str):  # type: ignore[no-untyped-def]
    opts = model_admin.model._meta
    changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    selected = [str(pk) for pk in model_admin.model._default_manager.values_list("pk", flat=True)]
    assert selected, f"no {opts.label} row to select"
    return staff.client.post(
        changelist, {"action": name, "_selected_action": selected, "post": "yes"}
    )


def refused_cases() -> list[Any]:
    """(role, action) for every action a role is not documented to run."""
    cases = []
    for role, allowed in (("auditor", READ_ACTIONS), ("dpo", DPO_ACTIONS)):
        for model_admin, name, _ in ACTIONS:
            if (model_admin.model._meta.model_name, name) in allowed:
                continue
            case_id = f"{role}-{model_admin.model._meta.label}.{name}"
            cases.append(pytest.param(role, model_admin, name, id=case_id))
    return cases


@pytest.mark.parametrize(("role", "model_admin", "name"), refused_cases())
def test_an_auditor_or_a_dpo_changes_nothing_with_an_action_outside_their_role(
    request, rows, role, model_admin, name
):
    staff = request.getfixturevalue(f"{role}_staff")
    before = database_state()
    response = post_action(staff, model_admin, name)
    # Refused: the changelist again ("No action selected": Django's answer to an action the
    # user is not offered), or 403 for a model the role cannot open at all. Never a 500.
    assert response.status_code in (200, 302, 403), response.status_code
    assert database_state() == before
    if response.status_code == 302:
        page = staff.client.get(response["Location"])
        assert "No action selected" in page.content.decode()


def test_a_dpo_runs_the_actions_documented_for_dpos(dpo_staff, rows):
    registry = {(m.model._meta.model_name, name): m for m, name, _ in ACTIONS}
    before = database_state()
    package = registry[("documentationpackage", "rebuild_selected")]
    post_action(dpo_staff, package, "rebuild_selected")
    assert DocumentationPackage.objects.count() == 2
    assert database_state() != before
    export = post_action(
        dpo_staff, registry[("legaldocument", "export_selected")], "export_selected"
    )
    assert export["Content-Type"] == "application/zip"


def test_an_auditor_cannot_revoke_api_keys_from_the_admin(auditor_staff, dpo_staff, rows):
    changelist = reverse("admin:organizations_apikey_changelist")
    keys = [str(pk) for pk in ApiKey.objects.values_list("pk", flat=True)]
    for staff in (auditor_staff, dpo_staff):
        staff.client.post(changelist, {"action": "revoke_selected", "_selected_action": keys})
    assert not ApiKey.objects.filter(revoked_at__isnull=False).exists()
    assert get_user_model().objects.filter(is_active=True).count() >= 2
