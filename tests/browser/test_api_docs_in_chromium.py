"""The API docs page renders in a real browser that can reach nothing but the service."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Route, expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_swagger_ui_renders_the_operations_with_the_network_limited_to_the_service(
    page, admin_server, screenshots
):
    service = urlsplit(admin_server.url).netloc
    elsewhere: list[str] = []

    def only_the_service(route: Route) -> None:
        # As on a network without Internet: anything not addressed to the service fails.
        if urlsplit(route.request.url).netloc == service:
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort("internetdisconnected")

    page.context.route("**/*", only_the_service)
    page.goto(f"{admin_server.url}/api/docs/")

    expect(page.locator(".swagger-ui .info .title")).to_contain_text(
        "Legal Documents and Assets Service"
    )
    expect(
        page.locator(".opblock-summary-path", has_text="/api/v1/legal-documents").first
    ).to_be_visible()
    expect(page.locator(".opblock-tag", has_text="assets").first).to_be_visible()
    page.screenshot(path=screenshots / "api-docs.png", full_page=False)
    assert elsewhere == []
