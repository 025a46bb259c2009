"""Hybrid search: full-text and trigram rankings fused with the vector ranking (RRF)."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection

from assets import embedding
from assets.models import AssetChunk
from assets.processing.errors import EmbeddingProviderUnavailable
from tests.assets.conftest import process, upload
from tests.assets.samples import pdf_bytes, pptx_bytes, xlsx_bytes
from tests.support.corpus import corpus_file

SEARCH_URL = "/api/v1/assets/search"
MODES = ["hybrid", "vector", "text"]
# The files whose own phrase vector search alone (hashing embedder) did not find in the top
# five, among the corpus's largest files.
NAMES_AND_IDENTIFIERS = {
    "xlsx/2023-half-year-analyses-by-segment.xlsx": "Nestlé Health Science",
    "txt/fake-text.txt": "Doylestown, PA 18901",
    "md/history.md": "Mathieu Fenniak",
    "xlsx/vodafone.xlsx": "Fixed broadband customers",
    "pdf/korean-text-with-tables.pdf": "삼성카드",
}
DISTRACTORS = ["html/fake-html-pre.htm", "csv/constituents.csv", "csv/country-codes.csv"]


def _search(client, q: str, **params):  # type: ignore[no-untyped-def]
    response = client.get(SEARCH_URL, {"q": q, **params})
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_names_and_identifiers_are_found_by_the_text_and_trigram_rankers(uploaded, dpo):
    assets = {}
    for relative in [*NAMES_AND_IDENTIFIERS, *DISTRACTORS]:
        path = corpus_file(relative)
        assets[str(uploaded(path.name, path.read_bytes()).pk)] = relative

    for relative, phrase in NAMES_AND_IDENTIFIERS.items():
        text = _search(dpo.client, phrase, mode="text", k=5)
        hybrid = _search(dpo.client, phrase, k=5)

        assert assets[text[0]["assetId"]] == relative, phrase
        assert {"text", "trigram"} & set(text[0]["rankers"]), phrase
        assert "vector" not in text[0]["rankers"]
        assert relative in [assets[hit["assetId"]] for hit in hybrid], phrase


def test_a_misspelt_name_is_found_by_the_trigram_ranker_alone(uploaded, dpo):
    uploaded("history.txt", b"pyPdf was written by Mathieu Fenniak in 2005.\n")
    uploaded("other.txt", b"The retention schedule of payroll records.\n")

    results = _search(dpo.client, "Mathieu Fenniac", mode="text")

    assert [hit["originalFileName"] for hit in results] == ["history.txt"]
    assert results[0]["rankers"] == ["trigram"]


def test_korean_text_is_found_inside_longer_words_and_highlighted(uploaded, dpo):
    uploaded("samsung.txt", "삼성카드의 적립한도는 월 10만원입니다.\n".encode())
    uploaded("hyundai.txt", "현대카드 혜택 안내: 주유 할인과 포인트 적립.\n".encode())

    for mode in MODES:
        results = _search(dpo.client, "삼성카드", mode=mode, k=2)
        assert results[0]["originalFileName"] == "samsung.txt", mode
    hit = _search(dpo.client, "삼성카드")[0]
    assert "trigram" in hit["rankers"]
    assert "<mark>삼성카드</mark>" in hit["snippet"]


@pytest.mark.parametrize("mode", MODES)
def test_another_organizations_identical_chunk_is_never_returned(uploaded, dpo, outsider, mode):
    content = b"Badge readers log entries at the Doylestown, PA 18901 office.\n"
    mine = uploaded("badges.txt", content)
    theirs = process(upload(outsider.client, "badges.txt", content).json()["id"])

    for query in ("Doylestown, PA 18901", "badge readers", "Doylestwon"):
        my_results = _search(dpo.client, query, mode=mode, k=50)
        their_results = _search(outsider.client, query, mode=mode, k=50)
        assert {hit["assetId"] for hit in my_results} <= {str(mine.pk)}, (query, mode)
        assert {hit["assetId"] for hit in their_results} <= {str(theirs.pk)}, (query, mode)
    assert _search(dpo.client, "Doylestown", mode=mode)[0]["assetId"] == str(mine.pk)


def test_pending_assets_are_not_found_in_any_mode(uploaded, dpo):
    uploaded("done.txt", b"Doylestown office badge policy.\n")
    upload(dpo.client, "pending.txt", b"Doylestown office visitor policy.\n")

    for mode in MODES:
        names = {hit["originalFileName"] for hit in _search(dpo.client, "Doylestown", mode=mode)}
        assert names == {"done.txt"}, mode


def test_each_mode_uses_its_own_rankers(uploaded, dpo):
    uploaded("cctv.txt", b"CCTV footage of the lobby is kept for 72 hours.\n")

    hybrid = _search(dpo.client, "CCTV footage")[0]
    vector = _search(dpo.client, "CCTV footage", mode="vector")[0]
    text = _search(dpo.client, "CCTV footage", mode="text")[0]

    # The trigram ranker runs only when the full-text ranker found nothing
    # (tests/assets/test_search_scaling.py).
    assert hybrid["rankers"] == ["vector", "text"]
    assert vector["rankers"] == ["vector"]
    assert text["rankers"] == ["text"]
    assert _search(dpo.client, "CCTV footgae", mode="text")[0]["rankers"] == ["trigram"]
    assert 0 < vector["score"] <= 1
    # Reciprocal rank fusion: 1/(60 + 1) per ranker that ranked the chunk first.
    assert hybrid["score"] == pytest.approx(2 / 61, abs=1e-6)


@pytest.mark.parametrize("mode", ["semantic", "HYBRID", "vector,text"])
def test_an_unknown_mode_is_a_validation_error(dpo, mode):
    response = dpo.client.get(SEARCH_URL, {"q": "x", "mode": mode})

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert "mode" in response.json()["error"]["details"]


def test_text_mode_needs_no_embedding_service(uploaded, dpo, monkeypatch):
    uploaded("notes.txt", b"Payroll records are kept ten years.\n")

    def unavailable(model: str):  # type: ignore[no-untyped-def]
        raise EmbeddingProviderUnavailable(f"{model} is not installed here")

    # The chunks' model cannot embed the query (a provider that cannot be built here).
    monkeypatch.setattr(embedding, "provider_for", unavailable)

    assert dpo.client.get(SEARCH_URL, {"q": "payroll"}).status_code == 503
    assert _search(dpo.client, "payroll", mode="text")[0]["originalFileName"] == "notes.txt"


def test_results_carry_the_page_sheet_or_slide(uploaded, dpo):
    uploaded("facilities.pdf", pdf_bytes(["Introduction", "Biometric access in Lisbon"]))
    uploaded("budget.xlsx", xlsx_bytes({"Costs": [["Item"], ["Biometric readers Porto"]]}))
    uploaded("deck.pptx", pptx_bytes([("Intro", "Hello"), ("Access", "Biometric gates Faro")]))

    by_file = {}
    for hit in _search(dpo.client, "Biometric", mode="text", k=10):
        by_file.setdefault(hit["originalFileName"], hit)

    assert (by_file["facilities.pdf"]["pageNumber"], by_file["facilities.pdf"]["location"]) == (
        2,
        "page 2",
    )
    assert by_file["budget.xlsx"]["sheetName"] == "Costs"
    assert by_file["deck.pptx"]["slideNumber"] == 2
    assert by_file["facilities.pdf"]["sheetName"] is None
    assert by_file["budget.xlsx"]["pageNumber"] is None


def test_the_snippet_is_escaped_html_with_the_query_words_marked(uploaded, dpo):
    uploaded("page.txt", b"<script>alert(1)</script> Our retention & deletion policy.\n")

    snippet = _search(dpo.client, "retention policy")[0]["snippet"]

    assert "&lt;script&gt;" in snippet
    assert "<script>" not in snippet
    assert "<mark>retention</mark> &amp; deletion <mark>policy</mark>" in snippet


def test_the_migration_fills_the_locations_of_existing_chunks(uploaded, dpo):
    asset = uploaded("old.txt", b"Some text.\n")
    chunk = AssetChunk.objects.get(asset=asset)
    template = {"asset": asset, "organization": dpo.organization, "embedding": chunk.embedding}
    rows = [
        AssetChunk.objects.create(index=1, location="page 12", text="a", **template),
        AssetChunk.objects.create(index=2, location="sheet Q3 Revenue", text="b", **template),
        AssetChunk.objects.create(index=3, location="slide 4", text="c", **template),
        AssetChunk.objects.create(index=4, location="header", text="d", **template),
    ]
    migration = importlib.import_module("assets.migrations.0004_chunk_search_fields")

    with connection.cursor() as cursor:
        cursor.execute(migration.FILL_LOCATIONS)

    filled = [
        AssetChunk.objects.values_list("page_number", "sheet_name", "slide_number").get(pk=r.pk)
        for r in rows
    ]
    assert filled == [(12, "", None), (None, "Q3 Revenue", None), (None, "", 4), (None, "", None)]
    # The same rule as the one ingestion applies to new chunks.
    assert [AssetChunk.location_fields(r.location) for r in rows] == [
        {"page_number": 12},
        {"sheet_name": "Q3 Revenue"},
        {"slide_number": 4},
        {},
    ]


def test_the_openapi_schema_documents_the_mode_and_the_new_fields(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    operation = schema["paths"]["/api/v1/assets/search"]["get"]
    mode = next(p for p in operation["parameters"] if p["name"] == "mode")
    assert mode["schema"]["enum"] == ["hybrid", "vector", "text"]
    assert mode["schema"]["default"] == "hybrid"
    hit = schema["components"]["schemas"]["SearchHit"]["properties"]
    assert {"rankers", "pageNumber", "sheetName", "slideNumber", "snippet", "score"} <= set(hit)
