"""factory-boy factories shared by every test folder."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from organizations.models import ClientCompany, Membership, Organization, Plan, Role
from organizations.services import api_key_create


class OrganizationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organization

    name = factory.Sequence(lambda n: f"Organization {n}")
    slug = factory.Sequence(lambda n: f"org-{n}")
    plan = Plan.BUSINESS


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}@example.com")
    email = factory.SelfAttribute("username")
    password = factory.django.Password("correct horse battery staple")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    organization = factory.SubFactory(OrganizationFactory)
    role = Role.DPO


class ClientCompanyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClientCompany

    organization = factory.SubFactory(OrganizationFactory)
    name = factory.Sequence(lambda n: f"Client {n} GmbH")
    details = "Hauptstraße 1, 10115 Berlin"


def issue_key(membership: Membership) -> str:
    return api_key_create(membership=membership, name="test").raw_key


class LegalDocumentFactory(factory.django.DjangoModelFactory):
    """A completed document with a little content (no generation run)."""

    class Meta:
        model = "legal_documents.LegalDocument"

    organization = factory.SubFactory(OrganizationFactory)
    creator = factory.LazyAttribute(
        lambda document: MembershipFactory(organization=document.organization).user
    )
    document_type = "DPIA"
    ruleset_version = "dpia-test"
    inputs = factory.LazyFunction(lambda: {"companyName": "Acme"})
    status = "completed"
    stage = "draft"
    version = 1
    content_markdown = "# Data Protection Impact Assessment\n\nAcme.\n"
