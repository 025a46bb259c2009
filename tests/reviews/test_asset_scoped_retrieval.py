"""What a review reads of assets: one asset's chunks in order, and the hybrid search
restricted to that asset (assets.selectors), never another asset's or organization's."""

from __future__ import annotations

import pytest

from assets.selectors import SearchMode, asset_chunks, asset_search
from tests.reviews.conftest import process, upload

pytestmark = pytest.mark.django_db

SAME_WORDS = b"The processor notifies the controller of a personal data breach without delay.\n"


@pytest.mark.parametrize("mode", list(SearchMode))
def test_a_search_restricted_to_an_asset_never_returns_another_assets_chunks(dpo, outsider, mode):
    mine = upload(dpo, "mine.txt", b"Audit rights. " + SAME_WORDS)
    other = upload(dpo, "other.txt", b"Breach clause. " + SAME_WORDS)
    foreign = upload(outsider, "foreign.txt", b"Foreign clause. " + SAME_WORDS)
    for asset_id in (mine, other, foreign):
        process(asset_id)
    query = "personal data breach notification controller"

    everywhere = asset_search(organization=dpo.organization, query=query, mode=mode)
    assert {hit.asset_id for hit in everywhere} == {mine, other}  # both match

    scoped = asset_search(organization=dpo.organization, query=query, mode=mode, asset_id=mine)
    assert scoped and {hit.asset_id for hit in scoped} == {mine}
    # Another organization's asset, named by id, gives nothing.
    organization = dpo.organization
    assert asset_search(organization=organization, query=query, mode=mode, asset_id=foreign) == []


def test_a_search_restricted_to_an_asset_not_completed_finds_nothing(dpo):
    waiting = upload(dpo, "waiting.txt", SAME_WORDS)

    assert asset_search(organization=dpo.organization, query="breach", asset_id=waiting) == []


def test_the_chunks_of_an_asset_come_in_reading_order_and_only_to_its_organization(dpo, outsider):
    clause = "The processor keeps records. " * 20
    paragraphs = [f"Clause {number}. {clause}" for number in range(6)]
    asset_id = upload(dpo, "long.txt", "\n\n".join(paragraphs).encode())
    process(asset_id)

    chunks = asset_chunks(organization_id=dpo.organization.pk, asset_id=asset_id)

    assert len(chunks) > 1
    assert [chunk.index for chunk in chunks] == sorted(chunk.index for chunk in chunks)
    assert chunks[0].text.startswith("Clause 0.")
    index, text, location = chunks[0]  # (index, text, location)
    assert (index, text, location) == (chunks[0].index, chunks[0].text, chunks[0].location)
    assert asset_chunks(organization_id=outsider.organization.pk, asset_id=asset_id) == []
