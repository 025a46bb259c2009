"""create_api_key and revoke_api_key, as docs/API.md describes them."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from organizations.models import ApiKey, Membership, Organization

pytestmark = pytest.mark.django_db


def create_key(*args: str) -> str:
    out = StringIO()
    call_command("create_api_key", *args, stdout=out, stderr=StringIO())
    return out.getvalue().strip().splitlines()[-1]


def test_it_creates_the_organization_and_user_and_prints_a_working_key():
    key = create_key(
        "--org", "acme", "--email", "dpo@acme.example", "--plan", "enterprise", "--create"
    )
    assert Organization.objects.get(slug="acme").plan == "enterprise"
    assert Membership.objects.get(user__email="dpo@acme.example").role == "dpo"
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert client.get("/api/v1/client-companies").status_code == 200


def test_it_refuses_to_create_without_the_flag():
    with pytest.raises(CommandError, match="--create"):
        create_key("--org", "nobody", "--email", "x@nobody.example")


def test_a_second_key_for_an_existing_member_with_a_role():
    create_key("--org", "acme", "--email", "a@acme.example", "--create")
    create_key("--org", "acme", "--email", "a@acme.example", "--role", "auditor")
    assert Membership.objects.get(user__email="a@acme.example").role == "auditor"
    assert ApiKey.objects.filter(membership__user__email="a@acme.example").count() == 2


def test_revoke_makes_the_key_useless():
    key = create_key("--org", "acme", "--email", "r@acme.example", "--create")
    call_command("revoke_api_key", key, stdout=StringIO())
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert client.get("/api/v1/client-companies").status_code == 401
