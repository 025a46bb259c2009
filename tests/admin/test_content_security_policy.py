"""Content-Security-Policy on the admin, the API and the Swagger UI page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.admin.conftest import staff
from tests.admin.support import change_url

pytestmark = pytest.mark.django_db

HEADER = "Content-Security-Policy"


def directives(policy: str) -> dict[str, list[str]]:
    parsed = {}
    for part in policy.split(";"):
        name, *values = part.split()
        parsed[name] = values
    return parsed


def test_admin_pages_allow_only_their_own_scripts(dpo):
    member = staff(dpo)
    for response in (Client().get("/admin/login/"), member.client.get("/admin/")):
        policy = directives(response[HEADER])
        assert policy["script-src"] == ["'self'"]
        assert policy["object-src"] == ["'none'"]
        assert policy["frame-ancestors"] == ["'none'"]
        assert "'unsafe-inline'" not in policy["style-src"]


def test_admin_pages_have_no_inline_script_or_event_handler(dpo, document):
    member = staff(dpo)
    html = member.client.get(change_url(document)).content.decode()
    inline_scripts = [tag for tag in re.findall(r"<script\b[^>]*>", html) if "src=" not in tag]
    assert inline_scripts == []
    assert not re.search(r"\son[a-z]+\s*=", html)
    assert "<style" not in html
    assert ' style="' not in html


def test_api_responses_carry_a_policy_that_runs_nothing(dpo):
    response = dpo.client.get("/api/v1/client-companies")
    policy = directives(response[HEADER])
    assert policy["default-src"] == ["'none'"]
    assert "script-src" not in policy
    assert policy["frame-ancestors"] == ["'none'"]


def test_the_swagger_ui_page_loads_every_script_from_an_allowed_source():
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    policy = directives(response[HEADER])
    html = response.content.decode()
    tags = re.findall(r"<script\b[^>]*>", html)
    assert tags and all("src=" in tag for tag in tags), tags  # no inline script
    for source in re.findall(r'<script[^>]*src="([^"]+)"', html):
        origin = re.match(r"https?://[^/]+", source)
        assert (origin.group(0) if origin else "'self'") in policy["script-src"], source
