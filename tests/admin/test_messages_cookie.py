"""Secrets shown once in the admin (new API keys) never travel in a cookie (webhook secrets:
tests/webhooks/test_roles.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from organizations.keys import hash_key
from organizations.models import ApiKey, Role
from tests.admin.conftest import other_member
from tests.admin.support import readable

pytestmark = pytest.mark.django_db


def test_a_new_api_keys_secret_is_shown_but_never_set_in_a_cookie(dpo):
    admin_member = other_member(dpo.organization, Role.ADMIN)
    response = admin_member.client.post(
        reverse("admin:organizations_apikey_add"),
        {"membership": str(dpo.membership.pk), "name": "ci"},
    )
    assert response.status_code == 302, response.content
    api_key = ApiKey.objects.get(name="ci")
    page = admin_member.client.get(response["Location"])
    # The one-time message is on the next page.
    raw_key = re.search(rf"ld_{api_key.prefix}_[\w-]+", page.content.decode()).group(0)
    assert hash_key(raw_key) == api_key.key_hash
    for morsel in [*response.cookies.values(), *page.cookies.values()]:
        assert raw_key not in readable(morsel.value), morsel.key
