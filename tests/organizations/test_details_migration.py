"""The migration of client company details from text to JSON keeps every existing text."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from organizations.models import ClientCompany
from tests.factories import OrganizationFactory

BEFORE = [("organizations", "0002_auditors_group")]
AFTER = [("organizations", "0003_client_company_details_json")]


def migrate(targets: list[tuple[str, str]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.fixture(autouse=True)
def _every_app_migrated_afterwards():
    """Going back to BEFORE also unapplies the apps depending on organizations (register...):
    the tests after this one need every app's latest migration again."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_existing_texts_survive_as_json_strings_and_blanks_become_objects():
    organization = OrganizationFactory()
    migrate(BEFORE)
    rows = {uuid.uuid4(): "Łódź, ul. Piotrkowska 1 {not json}", uuid.uuid4(): ""}
    with connection.cursor() as cursor:
        for pk, details in rows.items():
            cursor.execute(
                "INSERT INTO organizations_clientcompany"
                " (id, organization_id, name, details, created_at)"
                " VALUES (%s, %s, 'Client', %s, now())",
                [pk, organization.pk, details],
            )
    migrate(AFTER)
    stored = {company.pk: company.details for company in ClientCompany.objects.all()}
    assert stored == {pk: (text if text else {}) for pk, text in rows.items()}

    migrate(BEFORE)  # and back: the texts come back as they were
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, details FROM organizations_clientcompany")
        assert dict(cursor.fetchall()) == rows
    migrate(AFTER)
