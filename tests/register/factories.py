"""Factories of the register: activities, vendors and transfers (rows written directly)."""

from __future__ import annotations

import factory

from register.models import ProcessingActivity, Transfer, Vendor
from tests.factories import OrganizationFactory


class VendorFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Vendor

    organization = factory.SubFactory(OrganizationFactory)
    name = factory.Sequence(lambda n: f"Vendor {n} GmbH")
    country = "Germany"
    role = "processor"
    dpa_status = "signed"


class ProcessingActivityFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ProcessingActivity

    organization = factory.SubFactory(OrganizationFactory)
    name = factory.Sequence(lambda n: f"Processing activity {n}")
    purposes = factory.LazyFunction(lambda: ["Customer support"])
    legal_bases = factory.LazyFunction(lambda: [{"code": "contract", "wording": "contract"}])


class TransferFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Transfer

    organization = factory.SubFactory(OrganizationFactory)
    vendor = factory.SubFactory(
        VendorFactory, organization=factory.SelfAttribute("..organization"), country="US"
    )
    recipient = factory.SelfAttribute("vendor.name")
    country = "US"
    mechanism = "standard-contractual-clauses"
