"""What keeps hybrid search fast on large organizations (bench/bench_search.py measures it).

The trigram ranker used to recheck ``word_similarity`` over every whole chunk a GIN trigram
index of the texts proposed: for words common in the organization's texts that was most
chunks (10 s at 20,000 chunks of prose under load). It now compares the query's words with
the organization's words (assets_chunkword, their own trigram index, the organization
first) and finds the chunks holding the similar ones through the full-text index; it
still runs only when the full-text ranker found nothing. The full-text index leads with the
organization too: common words fetch only the organization's own matching chunks.
"""

from __future__ import annotations

import re

from django.db import connection, transaction

from assets import search, tenant_indexes
from assets.models import ChunkWord

SEARCH_URL = "/api/v1/assets/search"


def test_words_found_as_such_are_not_rechecked_by_trigrams(uploaded, dpo):
    uploaded("register.txt", b"Zephyrine Oakenshaw signed the retention covenant.\n")
    uploaded("other.txt", b"The retention schedule of payroll records.\n")

    for mode in ("text", "hybrid"):
        response = dpo.client.get(
            SEARCH_URL, {"q": "Zephyrine Oakenshaw retention covenant", "mode": mode}
        )
        results = response.json()["results"]
        assert results[0]["originalFileName"] == "register.txt", mode
        assert all("trigram" not in hit["rankers"] for hit in results), (mode, results)


def test_the_full_text_ranker_ranks_a_bounded_number_of_matches(uploaded, dpo, monkeypatch):
    # A word common to every chunk of a large organization must not rank all of them.
    for number in range(6):
        uploaded(f"notice-{number}.txt", f"Retention notice number {number}.\n".encode())
    monkeypatch.setattr(search, "TEXT_SCAN_LIMIT", 4)

    hits = search.hybrid_chunk_search(
        organization_id=dpo.organization.pk, query="retention", vector=None, k=10,
        mode=search.SearchMode.TEXT,
    )  # fmt: skip

    assert len(hits) == 4, hits
    assert all(hit.rankers == ["text"] for hit in hits), hits


def test_a_typo_reads_the_organizations_words_and_the_full_text_index_never_chunk_texts(
    uploaded, dpo
):
    uploaded("history.txt", b"pyPdf was written by Mathieu Fenniak in 2005.\n")
    # An organization's vocabulary: with a handful of words, reading them all is cheaper.
    ChunkWord.objects.bulk_create(
        ChunkWord(organization=dpo.organization, word=f"term{number}") for number in range(3000)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE assets_chunkword")

    plan = _plan(_lexical_params(dpo.organization.pk, "Mathieu Fenniac"))

    lines = plan.splitlines()
    trigram_lines = [line for line in lines if re.search(r"<%|%>|word_similarity", line)]
    assert trigram_lines, plan
    # Every trigram comparison is with a word of assets_chunkword, none with a chunk text.
    assert all("chunk_word.word" in line for line in trigram_lines), plan
    assert not any(re.search(r"\bchunk(_\d+)?\.text\b", line) for line in trigram_lines), plan
    # The similar words are the organization's, from the trigram index of the words.
    word_scan = next(line for line in lines if "%>" in line and "Index Cond" in line)
    assert "organization_id" in word_scan, plan
    assert _scan_of(lines, word_scan).endswith("chunk_word_org_trigram"), plan
    # Their chunks come from the organization's entries of the full-text index.
    chunk_scan = next(line for line in lines if "@@ (InitPlan" in line and "Index Cond" in line)
    assert "organization_id" in chunk_scan, plan
    assert _scan_of(lines, chunk_scan).endswith("asset_chunk_org_text_search"), plan


def _scan_of(lines: list[str], condition: str) -> str:
    """The index scan line (its index name last) that ``condition`` belongs to."""
    at = lines.index(condition)
    scan = next(line for line in reversed(lines[:at]) if "Index Scan" in line)
    return scan.split("  (cost=")[0]


def test_the_vector_ranker_reads_the_organizations_hnsw_index_not_every_chunk(
    uploaded, dpo, settings
):
    # Large enough for its own index (assets.tenant_indexes; tests/assets/
    # test_tenant_vector_indexes.py has the rest), built here inside the test's transaction.
    settings.TENANT_VECTOR_INDEX_MIN_CHUNKS = 3
    for number in range(3):
        uploaded(f"policy-{number}.txt", f"Badge readers log entries, site {number}.\n".encode())
    tenant_indexes.reconcile()
    sql, params = search.search_statement(
        organization_id=dpo.organization.pk, query="badge", k=10,
        vector=[1.0] + [0.0] * 383, mode=search.SearchMode.VECTOR,
    )  # fmt: skip

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert tenant_indexes.index_name(dpo.organization.pk) in plan, plan


def _plan(params: dict[str, object]) -> str:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN VERBOSE " + search._SEARCH_SQL, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def _lexical_params(organization_id: object, query: str) -> dict[str, object]:
    return search.search_parameters(
        organization_id=organization_id,
        query=query,
        vector=None,
        k=10,
        mode=search.SearchMode.TEXT,
    )


def test_the_full_text_candidates_come_from_the_organizations_own_index_entries(uploaded, dpo):
    # Without the organization in the index, common words fetched every organization's
    # matching chunks from the table before the organization filter dropped them.
    uploaded("retention.txt", b"Payroll records are kept for ten years.\n")

    plan = _plan(_lexical_params(dpo.organization.pk, "payroll records"))

    full_text_scan = next(line for line in plan.splitlines() if "@@" in line)
    assert "organization_id" in full_text_scan, plan
    assert "asset_chunk_org_text_search" in plan, plan


def test_planning_never_scores_chunk_texts_for_the_trigram_estimate(uploaded, dpo):
    # pg_trgm's selectivity estimate of `<%` runs word_similarity over the chunk texts of
    # the column's statistics histogram when it has 10 entries or more: 9.4 ms of planning
    # for every search at 100,000 chunks (bench/bench_search.py). Migration 0008 keeps it
    # below that, should a query compare with chunk texts again (none does since 0014).
    for number in range(15):  # enough distinct texts for a histogram of 10 entries or more
        uploaded(f"note-{number}.txt", f"Retention note {number}, site {number}.\n".encode())
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE assets_assetchunk")
        cursor.execute(
            "SELECT coalesce(array_length(histogram_bounds::text::text[], 1), 0) FROM pg_stats "
            "WHERE tablename = 'assets_assetchunk' AND attname = 'text'"
        )
        (histogram_entries,) = cursor.fetchone()
        cursor.execute(
            "SELECT attstattarget FROM pg_attribute "
            "WHERE attrelid = 'assets_assetchunk'::regclass AND attname = 'text'"
        )
        (target,) = cursor.fetchone()

    assert histogram_entries < 10
    assert target is not None and 0 <= target < 10
