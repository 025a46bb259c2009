"""Factories of assets (rows only: no stored file, no processing)."""

from __future__ import annotations

import hashlib

import factory

from assets.models import Asset, AssetStatus
from tests.factories import OrganizationFactory


class AssetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Asset

    organization = factory.SubFactory(OrganizationFactory)
    original_file_name = factory.Sequence(lambda n: f"policy-{n}.txt")
    original_file = factory.LazyAttribute(
        lambda asset: f"{asset.organization.container_name}/assets/x/{asset.original_file_name}"
    )
    file_size = 42
    sha256 = factory.Sequence(lambda n: hashlib.sha256(f"asset {n}".encode()).hexdigest())
    media_type = "text/plain"
    status = AssetStatus.COMPLETED
