"""Who may call the API: API keys (Bearer, X-API-Key), sessions, and what happens otherwise."""

import pytest
from django.db import connection
from rest_framework.test import APIClient

from audit.models import AuditEvent
from organizations.models import ApiKey
from organizations.services import api_key_revoke
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

LIST_URL = "/api/v1/client-companies"


def test_it_accepts_a_bearer_key(dpo):
    assert dpo.client.get(LIST_URL).status_code == 200


def test_it_accepts_an_x_api_key_header(dpo):
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=dpo.key)
    assert client.get(LIST_URL).status_code == 200


def test_it_accepts_a_logged_in_session(dpo):
    client = APIClient()
    client.force_login(dpo.membership.user)
    assert client.get(LIST_URL).status_code == 200


def test_a_session_write_needs_the_csrf_token(dpo):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(dpo.membership.user)
    response = client.post(LIST_URL, {"name": "Acme"}, format="json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "PERMISSION_DENIED"


def test_it_asks_for_credentials_with_a_bearer_challenge(anonymous):
    response = anonymous.get(LIST_URL)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bearer"
    assert response.json()["error"]["code"] == "AUTHENTICATION_REQUIRED"


@pytest.mark.parametrize(
    "bad_key", ["nonsense", "ld_0123456789_wrongsecret", "ld_short_x", "Bearer"]
)
def test_it_refuses_an_unknown_key_and_records_the_attempt(anonymous, bad_key):
    anonymous.credentials(HTTP_AUTHORIZATION=f"Bearer {bad_key}")
    response = anonymous.get(LIST_URL)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bearer"
    assert response.json()["error"]["code"] == "INVALID_API_KEY"
    assert AuditEvent.objects.filter(action="auth.api_key", outcome="denied").exists()


def test_it_refuses_a_key_with_the_right_prefix_but_a_wrong_secret(dpo, anonymous):
    prefix = dpo.key.split("_")[1]
    anonymous.credentials(HTTP_AUTHORIZATION=f"Bearer ld_{prefix}_forged")
    assert anonymous.get(LIST_URL).json()["error"]["code"] == "INVALID_API_KEY"


def test_it_refuses_a_revoked_key(dpo):
    api_key = ApiKey.objects.get(membership=dpo.membership)
    api_key_revoke(api_key=api_key)
    response = dpo.client.get(LIST_URL)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "INVALID_API_KEY"
    denied = AuditEvent.objects.filter(organization=dpo.organization, outcome="denied")
    assert denied.filter(action="auth.api_key", details__reason="revoked key").exists()


def test_it_records_when_a_key_was_last_used(dpo):
    assert ApiKey.objects.get(membership=dpo.membership).last_used_at is None
    dpo.client.get(LIST_URL)
    assert ApiKey.objects.get(membership=dpo.membership).last_used_at is not None


def test_keys_are_never_stored_in_clear(dpo):
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM organizations_apikey")
        rows = cursor.fetchall()
    secret = dpo.key.split("_", 2)[2]
    assert rows
    for row in rows:
        for value in row:
            assert secret not in str(value)
            assert dpo.key not in str(value)


def test_a_user_without_an_organization_is_refused(db):
    client = APIClient()
    client.force_login(UserFactory())
    response = client.get(LIST_URL)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "PERMISSION_DENIED"


def test_membership_factory_gives_each_member_one_organization():
    membership = MembershipFactory()
    assert membership.user.membership == membership


def test_a_deactivated_user_s_key_is_refused(dpo):
    user = dpo.membership.user
    user.is_active = False
    user.save(update_fields=["is_active"])
    response = dpo.client.get(LIST_URL)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "INVALID_API_KEY"
    assert AuditEvent.objects.filter(details__reason="deactivated user", outcome="denied").exists()


def test_an_address_guessing_keys_is_slowed_down_without_flooding_the_audit_trail(
    anonymous, settings
):
    settings.AUTH_FAILURES_PER_MINUTE = 3
    anonymous.credentials(HTTP_AUTHORIZATION="Bearer ld_0123456789_guess")
    codes = [anonymous.get(LIST_URL).status_code for _ in range(6)]
    assert codes == [401, 401, 401, 429, 429, 429]
    # Aggregated: the first failure of the minute, and the one that reached the limit.
    assert AuditEvent.objects.filter(action="auth.api_key", outcome="denied").count() == 2


def test_a_denied_attempt_with_a_hostile_id_is_still_recorded(auditor):
    hostile = "x" * 100 + "%00"
    response = auditor.client.delete(f"/api/v1/client-companies/{hostile}")
    assert response.status_code in {403, 404}
    assert AuditEvent.objects.filter(outcome="denied", organization=auditor.organization).exists()


def test_a_known_key_is_resolved_without_a_database_query(dpo, django_assert_num_queries):
    from organizations.authentication import authenticate_raw_key

    authenticate_raw_key(dpo.key, ip="127.0.0.1")  # fills the cache (and lastUsedAt)
    with django_assert_num_queries(0):
        api_key = authenticate_raw_key(dpo.key, ip="127.0.0.1")
    assert api_key.membership.organization == dpo.organization
    assert api_key.membership.user == dpo.membership.user


def test_a_revocation_a_deactivation_and_a_new_role_apply_to_the_very_next_request(dpo):
    assert dpo.client.get(LIST_URL).status_code == 200  # the key is cached now
    membership = dpo.membership
    membership.role = "auditor"
    membership.save()
    assert dpo.client.post(LIST_URL, {"name": "x"}, format="json").status_code == 403
    user = membership.user
    user.is_active = False
    user.save()
    assert dpo.client.get(LIST_URL).status_code == 401
    user.is_active = True
    user.save()
    assert dpo.client.get(LIST_URL).status_code == 200
    api_key_revoke(api_key=ApiKey.objects.get(membership=membership))
    assert dpo.client.get(LIST_URL).status_code == 401
