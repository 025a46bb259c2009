"""Roles (auditors read only) and per-user rate limits."""

import pytest

from audit.models import AuditEvent

pytestmark = pytest.mark.django_db

LIST_URL = "/api/v1/client-companies"


def test_an_auditor_reads_but_cannot_write(auditor):
    assert auditor.client.get(LIST_URL).status_code == 200
    response = auditor.client.post(LIST_URL, {"name": "Acme"}, format="json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "PERMISSION_DENIED"
    assert AuditEvent.objects.filter(
        organization=auditor.organization, outcome="denied", action="client_company.post"
    ).exists()


def test_a_dpo_cannot_read_the_audit_trail_but_an_auditor_and_an_admin_can(dpo, auditor, org_admin):
    assert dpo.client.get("/api/v1/audit-events").status_code == 403
    assert auditor.client.get("/api/v1/audit-events").status_code == 200
    assert org_admin.client.get("/api/v1/audit-events").status_code == 200


def test_the_eleventh_write_in_a_minute_is_rate_limited_while_reads_go_on(dpo):
    for number in range(10):
        response = dpo.client.post(LIST_URL, {"name": f"Client {number}"}, format="json")
        assert response.status_code == 201, response.content
    response = dpo.client.post(LIST_URL, {"name": "One too many"}, format="json")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "RATE_LIMITED"
    assert 1 <= int(response["Retry-After"]) <= 60
    assert dpo.client.get(LIST_URL).status_code == 200


def test_rate_limits_are_per_user(dpo, org_admin):
    for number in range(10):
        dpo.client.post(LIST_URL, {"name": f"Client {number}"}, format="json")
    assert dpo.client.post(LIST_URL, {"name": "x"}, format="json").status_code == 429
    assert org_admin.client.post(LIST_URL, {"name": "y"}, format="json").status_code == 201


def test_the_read_limit_is_its_own_setting(dpo, settings):
    settings.RATE_LIMIT_READS = "2/min"
    assert dpo.client.get(LIST_URL).status_code == 200
    assert dpo.client.get(LIST_URL).status_code == 200
    assert dpo.client.get(LIST_URL).status_code == 429
