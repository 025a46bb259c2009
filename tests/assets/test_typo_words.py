"""Typo queries through the organization's words (assets.models.ChunkWord, migration 0014).

A typo or a word inside a longer one finds its organization's similar words through their
trigram index, then the chunks holding them through the full-text index. The words are
written by a trigger on the chunk table, whatever writes the chunks (COPY or INSERT).
"""

from __future__ import annotations

from django.db import connection

from assets.models import AssetChunk, ChunkWord
from assets.search import SearchMode, hybrid_chunk_search

SEARCH_URL = "/api/v1/assets/search"


def _search(client, q: str, **params):  # type: ignore[no-untyped-def]
    response = client.get(SEARCH_URL, {"q": q, "mode": "text", **params})
    assert response.status_code == 200, response.content
    return response.json()["results"]


def _words(organization) -> set[str]:  # type: ignore[no-untyped-def]
    return set(ChunkWord.objects.filter(organization=organization).values_list("word", flat=True))


def test_the_words_of_chunks_stored_by_copy_and_by_insert_are_the_organizations(uploaded, dpo):
    asset = uploaded("seed.txt", b"Seed text.\n")
    embedding = AssetChunk.objects.get(asset=asset).embedding
    AssetChunk.objects.create(
        asset=asset, organization=dpo.organization, index=1, text="Zephyrine's ledger",
        embedding=embedding,
    )  # fmt: skip
    columns = "asset_id, organization_id, index, text, location, sheet_name, embedding_model"
    columns += ", embedding_next_model"
    rows = [(2, "Oakenshaw at http://example.org/o'brien"), (3, "삼성카드의")]
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY assets_assetchunk ({columns}) FROM STDIN") as copy,
    ):
        for index, text in rows:
            copy.write_row([asset.pk, dpo.organization.pk, index, text, "", "", "", ""])

    assert {"seed", "text", "zephyrine", "ledger", "oakenshaw", "example.org/o'brien"} <= (
        _words(dpo.organization)
    )
    assert [hit["chunkIndex"] for hit in _search(dpo.client, "Zephyrien")] == [1]
    assert [hit["chunkIndex"] for hit in _search(dpo.client, "Oakenshw")] == [2]
    # A word with a quote is looked for as it is written (tsquery's quoting).
    assert [hit["chunkIndex"] for hit in _search(dpo.client, "exmple.org/o'brein")] == [2]
    assert [hit["chunkIndex"] for hit in _search(dpo.client, "삼성카드")] == [3]


def test_another_organizations_words_never_take_the_place_of_the_organizations_own(
    uploaded, dpo, outsider
):
    mine = uploaded("history.txt", b"pyPdf was written by Mathieu Fenniak in 2005.\n")
    # Closer to the typo than "fenniak", and more than the similar words kept per query word.
    theirs = " ".join(["fenniac", *(f"fenniac{n}" for n in range(12))])
    AssetChunk.objects.create(
        asset=mine, organization=outsider.organization, index=1, text=theirs,
        embedding=AssetChunk.objects.get(asset=mine).embedding,
    )  # fmt: skip

    results = _search(dpo.client, "Fenniac")

    assert [(hit["assetId"], hit["chunkIndex"]) for hit in results] == [(str(mine.pk), 0)]
    assert results[0]["rankers"] == ["trigram"]
    assert "fenniac" not in _words(dpo.organization)


def test_a_misspelt_name_among_many_chunks_finds_its_chunk_first(uploaded, dpo):
    lines = [f"Clause {n}: the processor keeps payroll records for {n} years." for n in range(30)]
    lines.insert(17, "Clause 99: Zephyrine Oakenshaw is the controller's representative.")
    uploaded("contract.txt", "\n\n".join(lines).encode())

    for typo in ("Oakenshw", "Zephyrien Oakenshaw", "zephyrine oakenshow"):
        results = _search(dpo.client, typo)
        assert "Oakenshaw" in results[0]["text"], typo
        assert results[0]["rankers"] == ["trigram"], typo


def test_a_noun_finds_the_word_it_begins_before_its_particle(uploaded, dpo):
    uploaded("privacy.txt", "고객의 개인정보를 안전하게 보관합니다.\n".encode())
    uploaded("other.txt", "주유 할인과 포인트 적립.\n".encode())

    results = _search(dpo.client, "개인정보")

    assert [hit["originalFileName"] for hit in results] == ["privacy.txt"]
    assert results[0]["rankers"] == ["trigram"]
    assert "<mark>개인정보</mark>" in results[0]["snippet"]


def test_a_deleted_assets_words_find_nothing_and_the_others_are_still_found(uploaded, dpo):
    first = uploaded("first.txt", b"Mathieu Fenniak wrote pyPdf.\n")
    uploaded("second.txt", b"Fenniak maintained it until 2010.\n")

    assert dpo.client.delete(f"/api/v1/assets/{first.pk}").status_code == 204

    assert [hit["originalFileName"] for hit in _search(dpo.client, "Fenniac")] == ["second.txt"]
    assert _search(dpo.client, "Mathiue") == []
    # The words stay (assets.models.ChunkWord): they only propose words no chunk holds.
    assert "mathieu" in _words(dpo.organization)


def test_a_typo_searched_in_one_asset_finds_only_that_assets_chunks(uploaded, dpo):
    first = uploaded("first.txt", b"Mathieu Fenniak wrote pyPdf.\n")
    second = uploaded("second.txt", b"Fenniak maintained it until 2010.\n")

    for asset in (first, second):
        hits = hybrid_chunk_search(
            organization_id=dpo.organization.pk, query="Fenniac", vector=None, k=10,
            mode=SearchMode.TEXT, asset_id=asset.pk,
        )  # fmt: skip
        assert [(hit.asset_id, hit.rankers) for hit in hits] == [(str(asset.pk), ["trigram"])]


def test_words_between_angle_brackets_are_indexed_and_found_with_a_typo(uploaded, dpo):
    # PostgreSQL's parser reads "<j...>" as an HTML tag and drops its words (migration 0015).
    uploaded("mail.txt", b"From: Jane Roe <jane.roe@example.org>\nFIELD <<Odd-page section>>\n")

    assert {"jane.roe@example.org", "odd-page", "section"} <= _words(dpo.organization)
    assert [hit["originalFileName"] for hit in _search(dpo.client, "Odd-page secton")] == [
        "mail.txt"
    ]
    assert [hit["originalFileName"] for hit in _search(dpo.client, "jane.roe@example.org")] == [
        "mail.txt"
    ]
