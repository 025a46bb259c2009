"""What keeps hybrid search fast on large organizations (bench/bench_search.py measures it).

The trigram ranker rechecks every candidate its GIN index proposes with ``word_similarity``
over the whole chunk: for words common in the organization's texts that was most chunks
(10 s at 20,000 chunks of prose under load). So it runs only when the full-text ranker
found nothing (a typo, a word inside a longer one), and its index leads with the
organization, so that other organizations' chunks are never rechecked.
"""

from __future__ import annotations

from django.db import connection, transaction

from assets import search

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


def test_the_trigram_candidates_come_from_the_organizations_own_index_entries(uploaded, dpo):
    uploaded("history.txt", b"pyPdf was written by Mathieu Fenniak in 2005.\n")
    params = {
        "organization_id": dpo.organization.pk, "query": "Mathieu Fenniac", "vector": None,
        "use_vector": False, "use_text": True, "use_trigram": True, "candidates": 40,
        "trigram_scan_limit": search.TRIGRAM_SCAN_LIMIT, "rrf_k": search.RRF_K, "k": 10,
        "vector_model": None,
    }  # fmt: skip

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + search._SEARCH_SQL, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())

    trigram_scan = next(line for line in plan.splitlines() if "%>" in line)
    assert "organization_id" in trigram_scan, plan


def test_the_vector_ranker_reads_the_hnsw_index_not_every_chunk_of_the_organization(uploaded, dpo):
    for number in range(3):
        uploaded(f"policy-{number}.txt", f"Badge readers log entries, site {number}.\n".encode())
    params = {
        "organization_id": dpo.organization.pk, "query": "badge", "use_vector": True,
        "vector": search._vector_literal([1.0] + [0.0] * 383), "use_text": False,
        "use_trigram": False, "candidates": 40,
        "trigram_scan_limit": search.TRIGRAM_SCAN_LIMIT, "rrf_k": search.RRF_K, "k": 10,
        "vector_model": None,
    }  # fmt: skip

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + search._SEARCH_SQL, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert "asset_chunk_embedding_hnsw" in plan, plan
