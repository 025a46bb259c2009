"""The API docs page (Swagger UI) is served entirely from this service, as in production.

A page that pulls Swagger UI from a public CDN is blank on a network without Internet and
runs a third party's script on our origin.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.test import Client, override_settings

from tests.support.html import references

# Production (config/settings/production.py, collectstatic in the Dockerfile) uses WhiteNoise's
# CompressedManifestStaticFilesStorage: this parent class's hashed names and manifest, plus
# .gz/.br copies of each file, which take ~90 s to write here and change nothing served.
PRODUCTION_STATIC_STORAGE = {
    "BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"
}


@pytest.fixture(scope="module")
def collected_static(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Static files collected as the image build does (hashed names, a manifest)."""
    root = tmp_path_factory.mktemp("staticfiles")
    storages = {**django_settings.STORAGES, "staticfiles": PRODUCTION_STATIC_STORAGE}
    with override_settings(STATIC_ROOT=str(root), STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture
def production_static(settings, collected_static: Path) -> Iterator[Client]:  # type: ignore[no-untyped-def]
    """A client of the app serving the collected files through WhiteNoise, no finders."""
    settings.STATIC_ROOT = str(collected_static)
    settings.STORAGES = {**settings.STORAGES, "staticfiles": PRODUCTION_STATIC_STORAGE}
    settings.WHITENOISE_USE_FINDERS = False
    settings.WHITENOISE_AUTOREFRESH = False
    yield Client()  # a new client builds the middleware (WhiteNoise) on these settings


def test_the_docs_page_loads_every_asset_from_our_own_origin(production_static: Client):
    page = production_static.get("/api/docs/")

    assert page.status_code == 200
    html = page.content.decode()
    urls = references(html)
    assert any("/swagger-ui-dist/swagger-ui-bundle." in url for url in urls), urls
    assert any("/swagger-ui-dist/swagger-ui." in url and url.endswith(".css") for url in urls)
    assert "//cdn" not in html
    for url in urls:
        parts = urlsplit(url)
        assert not parts.netloc or parts.netloc == "testserver", url
        assert parts.scheme in {"", "http", "https"}, url
    for url in urls:
        response = production_static.get(url)
        assert response.status_code == 200, url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert body, url


def test_the_docs_page_names_no_other_host_anywhere(production_static: Client):
    html = production_static.get("/api/docs/").content.decode()

    for scheme in ("http://", "https://"):
        start = 0
        while (index := html.find(scheme, start)) != -1:
            host = urlsplit(html[index : index + 200].split('"')[0]).netloc
            assert host == "testserver", html[index : index + 80]
            start = index + len(scheme)
