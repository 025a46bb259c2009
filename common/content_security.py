"""Content-Security-Policy: the admin runs only its own scripts; API answers run nothing.

Django 5.2 has no CSP support of its own; this middleware sets one header per response (a
view that set its own keeps it).

- The admin and every other page: scripts, styles, images and fonts from this site only; no
  inline script, event handler attribute or inline style (the project's admin templates keep
  theirs in static files), but the hashed styles of the document preview (below).
- API answers (JSON, files, the HTML export): nothing may run; inline styles are kept for an
  exported HTML document opened in the browser.
- The Swagger UI page (/api/docs/): its assets from this site, or from the origin of
  SPECTACULAR_SETTINGS["SWAGGER_UI_DIST"] while that points to a CDN; Swagger UI sets inline
  styles and shows data: images.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from functools import lru_cache
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from common.api_paths import is_api_path

HEADER = "Content-Security-Policy"
DOCS_PATH = "/api/docs/"


def _style_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


# Style attribute values allowed by hash ('unsafe-hashes' covers exactly these): the table
# alignments markdown-it writes into a document, and simple-history's history list paginator.
STYLE_ATTRIBUTES = (
    "text-align:left", "text-align:center", "text-align:right", "border-top: 0",
)  # fmt: skip


# Whole <style> blocks allowed by hash, registered by the apps that render them at start-up
# (legal_documents: the rendered document's page style, previewed in the admin).
_ALLOWED_STYLE_BLOCKS: list[str] = []


def allow_style_block(text: str) -> None:
    """Allow this exact <style> block on admin pages; call it from an AppConfig.ready()."""
    _ALLOWED_STYLE_BLOCKS.append(text)
    site_policy.cache_clear()


def _document_preview_styles() -> str:
    """The admin previews a rendered document in a sandboxed srcdoc frame, which inherits
    this policy: allow exactly the registered <style> blocks and the style attributes above."""
    blocks = " ".join(_style_hash(text) for text in _ALLOWED_STYLE_BLOCKS)
    hashes = " ".join(_style_hash(text) for text in STYLE_ATTRIBUTES)
    return f"{blocks} 'unsafe-hashes' {hashes}".strip()


@lru_cache(maxsize=1)
def site_policy() -> str:
    return (
        "default-src 'self'; script-src 'self'; "
        f"style-src 'self' {_document_preview_styles()}; img-src 'self' data:; "
        "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
        "form-action 'self'; frame-ancestors 'none'"
    )


API_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)


def _swagger_origins() -> str:
    """The origins Swagger UI's files come from besides this site ("" when served locally)."""
    spectacular = getattr(settings, "SPECTACULAR_SETTINGS", {})
    origins = set()
    for name, default in (
        ("SWAGGER_UI_DIST", "https://cdn.jsdelivr.net"),
        ("SWAGGER_UI_FAVICON_HREF", "https://cdn.jsdelivr.net"),
    ):
        parts = urlsplit(str(spectacular.get(name, default)))
        if parts.scheme in ("http", "https") and parts.netloc:
            origins.add(f"{parts.scheme}://{parts.netloc}")
    return "".join(f" {origin}" for origin in sorted(origins))


def docs_policy() -> str:
    extra = _swagger_origins()
    return (
        f"default-src 'self'; script-src 'self'{extra}; style-src 'self' 'unsafe-inline'{extra}; "
        f"img-src 'self' data:{extra}; font-src 'self'{extra}; connect-src 'self'; "
        "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )


def policy_for(path: str) -> str:
    if path.startswith(DOCS_PATH):
        return docs_policy()
    if is_api_path(path):
        return API_POLICY
    return site_policy()


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = policy_for(request.path)
        return response
