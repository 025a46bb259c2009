"""The SSRF guard: only https to public addresses, at registration and at every delivery."""

from __future__ import annotations

import pytest

from webhooks import ssrf
from webhooks.models import WebhookEndpoint

URL = "/api/v1/webhooks"


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("https://127.0.0.1/hook", "loopback"),
        ("https://[::1]/hook", "loopback"),
        ("https://169.254.169.254/latest/meta-data/", "link-local"),
        ("https://10.0.0.7/hook", "private"),
        ("https://192.168.1.10/hook", "private"),
        ("https://172.16.5.4/hook", "private"),
        ("https://100.64.0.1/hook", "carrier-grade NAT"),
        ("https://0.0.0.0/hook", "unspecified"),
        ("https://224.0.1.1/hook", "multicast"),
        ("https://[::ffff:10.0.0.1]/hook", "private"),
        ("https://[64:ff9b::a9fe:a9fe]/hook", "link-local"),
        ("https://[fd00::1]/hook", "private"),
        ("https://[fe80::1]/hook", "link-local"),
        ("https://240.0.0.1/hook", "reserved"),
    ],
)
def test_non_public_addresses_are_refused(url, reason, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    with pytest.raises(ssrf.UnsafeTargetError, match=reason):
        ssrf.vet_url(url)


def test_a_name_resolving_to_any_private_address_is_refused(dns, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    dns["metadata.example.com"] = ["93.184.215.14", "169.254.169.254"]
    with pytest.raises(ssrf.UnsafeTargetError, match=r"169\.254\.169\.254, a link-local"):
        ssrf.vet_url("https://metadata.example.com/hook")


def test_a_public_https_target_is_vetted_with_the_address_to_connect_to(dns):
    dns["hooks.example.com"] = ["93.184.215.14"]
    target = ssrf.vet_url("https://hooks.example.com:8443/in")
    assert (target.host, target.port, target.address) == (
        "hooks.example.com",
        8443,
        "93.184.215.14",
    )


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://hooks.example.com/hook", "Only https"),
        ("ftp://hooks.example.com/hook", "Only https"),
        ("https://user:pass@hooks.example.com/hook", "Credentials"),
        ("https://unknown.invalid/hook", "does not resolve"),
    ],
)
def test_other_unsafe_urls_are_refused(url, message, settings):
    settings.WEBHOOKS_ALLOW_HTTP = False
    with pytest.raises(ssrf.UnsafeTargetError, match=message):
        ssrf.vet_url(url)


def test_the_development_switches_admit_http_and_loopback(settings):
    settings.WEBHOOKS_ALLOW_HTTP = True
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    assert ssrf.vet_url("http://127.0.0.1:8080/hook").address == "127.0.0.1"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "https://169.254.169.254/latest/meta-data/",
        "https://127.0.0.1/hook",
        "https://internal.example.com/hook",
        "http://hooks.example.com/hook",
    ],
)
def test_registration_refuses_unsafe_targets_with_the_reason(org_admin, dns, settings, url):
    settings.WEBHOOKS_ALLOW_HTTP = False
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    dns["internal.example.com"] = ["10.1.2.3"]
    response = org_admin.client.post(
        URL, {"url": url, "events": ["document.created"]}, format="json"
    )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert error["details"]["url"][0]
    assert not WebhookEndpoint.objects.exists()
