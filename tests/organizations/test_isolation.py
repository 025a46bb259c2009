"""Organization isolation over EVERY object route of the API.

The routes are read from the URL configuration, so a new route joins this test by itself;
it fails until `OBJECT_FACTORIES` knows how to make an object for the route's collection.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from audit.models import AuditEvent
from legal_documents.models import DocumentationPackage
from organizations.models import Role
from register.models import RegisterImport
from reviews.models import Review
from tests.assets.factories import AssetFactory
from tests.conftest import make_caller
from tests.factories import ClientCompanyFactory, LegalDocumentFactory
from tests.register.factories import ProcessingActivityFactory, TransferFactory, VendorFactory
from tests.webhooks.factories import WebhookEndpointFactory

# The path of a route up to its id -> a factory of an object of that kind in an organization.
OBJECT_FACTORIES: dict[str, Callable[[Any], Any]] = {
    "client-companies": lambda organization: ClientCompanyFactory(organization=organization),
    "webhooks": lambda organization: WebhookEndpointFactory(organization=organization),
    "legal-documents": lambda organization: LegalDocumentFactory(organization=organization),
    "assets": lambda organization: AssetFactory(organization=organization),
    "documentation-packages": lambda organization: DocumentationPackage.objects.create(
        organization=organization
    ),
    "processing-activities": lambda organization: ProcessingActivityFactory(
        organization=organization
    ),
    "vendors": lambda organization: VendorFactory(organization=organization),
    "transfers": lambda organization: TransferFactory(organization=organization),
    "processing-activities/imports": lambda organization: RegisterImport.objects.create(
        organization=organization, file_name="register.csv"
    ),
    "reviews": lambda organization: Review.objects.create(
        organization=organization,
        asset=AssetFactory(organization=organization),
        document_type="DATA_PROCESSING_AGREEMENT",
        language="en",
    ),
}
# Values for path parameters other than the object id (e.g. a version number).
OTHER_PARAMETERS = {"n": "1", "version": "1"}
_NAMED_GROUP = re.compile(r"\(\?P<(?P<name>\w+)>[^)]*\)")


def _walk(patterns: list, prefix: str = "") -> list[tuple[str, URLPattern]]:
    routes = []
    for pattern in patterns:
        regex = pattern.pattern.regex.pattern if hasattr(pattern.pattern, "regex") else ""
        text = prefix + regex.lstrip("^").rstrip("$").replace("\\Z", "")
        if isinstance(pattern, URLResolver):
            routes.extend(_walk(pattern.url_patterns, text))
        else:
            routes.append((text, pattern))
    return routes


def object_routes() -> list[tuple[str, str, str]]:
    """(path template, HTTP method, collection) for each /api/v1 route that takes an id."""
    found = []
    for regex, pattern in _walk(get_resolver().url_patterns):
        if not regex.startswith("api/v1/") or "(?P<pk>" not in regex:
            continue
        path = "/" + _NAMED_GROUP.sub(lambda m: "{" + m["name"] + "}", regex).replace("/?", "")
        collection = path.split("/{pk}")[0].removeprefix("/api/v1/")
        actions = getattr(pattern.callback, "actions", None) or {"get": "get"}
        found.extend((path, method.upper(), collection) for method in sorted(actions))
    return sorted(set(found))


ROUTES = object_routes()


def test_there_are_object_routes_to_check():
    assert any(collection == "client-companies" for _, _, collection in ROUTES)


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "method", "collection"), ROUTES)
def test_another_organization_gets_404_on_every_object_route(dpo, path, method, collection):
    # An admin of the other organization: the role that may use every route (a DPO's delete
    # of a webhook is refused by role before any lookup).
    outsider = make_caller(Role.ADMIN)
    assert collection in OBJECT_FACTORIES, f"add a factory for {collection} to OBJECT_FACTORIES"
    foreign_object = OBJECT_FACTORIES[collection](dpo.organization)
    url = path.replace("{pk}", str(foreign_object.pk))
    for name, value in OTHER_PARAMETERS.items():
        url = url.replace("{" + name + "}", value)
    response = outsider.client.generic(method, url, data="{}", content_type="application/json")
    assert response.status_code == 404, (url, method, response.content[:300])
    assert response.json()["error"]["code"] == "NOT_FOUND"
    assert AuditEvent.objects.filter(
        organization=outsider.organization, outcome="denied", object_id=str(foreign_object.pk)
    ).exists()
    # The owner's trail records the attempt too, anonymised (tests/audit/test_foreign_attempts).
    owners = AuditEvent.objects.get(
        organization=dpo.organization, outcome="denied", object_id=str(foreign_object.pk)
    )
    assert owners.actor == f"member of another organization (key {outsider.key.split('_')[1]})"
    assert owners.actor_user_id is None
