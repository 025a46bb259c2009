"""Recall of the search API over the whole real-world corpus (tests/fixtures/corpus).

Every well-formed file is uploaded through the API and processed; then, for each file, the
first search phrase that SOURCES.md lists for it must find that file among the top five
results of `GET /api/v1/assets/search` (default mode, hybrid). Once with the test
settings' `hashing` embedder, once with the `local` MiniLM model that deployments use.
"""

from __future__ import annotations

import pytest

from assets.models import AssetStatus
from tests.assets.conftest import process, upload
from tests.support.corpus import corpus_file, well_formed_first_phrases

TOP = 5


def _upload_the_corpus(client) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Upload and process every well-formed corpus file: asset id -> relative path."""
    assets: dict[str, str] = {}
    for relative in well_formed_first_phrases():
        path = corpus_file(relative)
        response = upload(client, path.name, path.read_bytes())
        assert response.status_code == 201, (relative, response.content)
        asset = process(response.json()["id"])
        assert asset.status == AssetStatus.COMPLETED, (relative, asset.error_message)
        assets[str(asset.pk)] = relative
    return assets


def _misses(client, assets: dict[str, str]) -> list[str]:  # type: ignore[no-untyped-def]
    """The files whose first phrase does not find them in the top five, with what it found."""
    misses = []
    for relative, phrase in well_formed_first_phrases().items():
        response = client.get("/api/v1/assets/search", {"q": phrase, "k": TOP})
        assert response.status_code == 200, response.content
        found = [assets[hit["assetId"]] for hit in response.json()["results"]]
        if relative not in found:
            misses.append(f"{relative}: {phrase!r} found {found}")
    return misses


def test_the_first_phrase_of_every_corpus_file_finds_it_in_the_top_five(dpo):
    assets = _upload_the_corpus(dpo.client)

    assert len(assets) == len(well_formed_first_phrases()) == 46
    assert _misses(dpo.client, assets) == []


@pytest.mark.model
@pytest.mark.timeout(600)  # ~1,240 chunks through the real model: a minute on an idle machine
def test_with_the_local_minilm_model_too(dpo, settings):
    settings.EMBEDDING_PROVIDER = "local"
    settings.EMBEDDING_LOCAL_MODEL = "minilm"  # not the default (e5-small) any more
    assets = _upload_the_corpus(dpo.client)

    assert _misses(dpo.client, assets) == []
