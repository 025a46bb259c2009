"""The snippet highlighter of one search: a 2,000-character query, k=50 hits.

``assets.search.highlight`` marks the query's words in each hit with one regular-expression
alternation, which Python tries word by word at every character of the text: its cost
grows with the number of distinct words. A query is at most 2,000 characters; before
``SEARCH_MAX_TERMS`` every word of it was an alternative (measured: ~0.5 s of web CPU for
k=50). Pure Python, no database: the hits are chunks of generated prose of about 1,000
characters (``CHUNK_SIZE``), like bench/bench_search.py's.

Queries: ``distinct words`` (666 distinct two-letter words, the worst case for the
alternation), ``prose`` (2,000 characters of the same generated prose: ~300 words, many
repeated). Each is timed as the 50 snippets of one search, capped at SEARCH_MAX_TERMS (32)
and uncapped (SEARCH_MAX_TERMS set past the query's length: the former behaviour).

To measure the code of another checkout (e.g. before a change), run this file with
``BENCH_SOURCE_ROOT=/path/to/checkout``: its ``assets.search.highlight`` is timed.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import statistics
import string
import sys
import time
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_SOURCE_ROOT") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))

from django.conf import settings  # noqa: E402

settings.configure(SEARCH_MAX_TERMS=32, USE_I18N=False)

from assets import search  # noqa: E402
from tests.support.large_files import paragraph, sentence_pool  # noqa: E402

K = 50
QUERY_CHARACTERS = 2000
ROUNDS = int(os.environ.get("BENCH_HIGHLIGHT_ROUNDS", "15"))
CAP = 32
UNCAPPED = 10**6


def queries(rng: random.Random, pool: list[str]) -> dict[str, str]:
    pairs = ["".join(pair) for pair in itertools.product(string.ascii_lowercase, repeat=2)]
    rng.shuffle(pairs)
    distinct = " ".join(pairs)[:QUERY_CHARACTERS].rsplit(" ", 1)[0]
    prose = paragraph(rng, pool, 40)[:QUERY_CHARACTERS].rsplit(" ", 1)[0]
    return {"distinct words": distinct, "prose": prose}


def one_search_ms(texts: list[str], query: str) -> float:
    """The highlighting of one search's hits, as ``hybrid_chunk_search`` does it: the
    pattern once, then one snippet per hit (a checkout without ``highlight_pattern``
    made the pattern for every hit)."""
    width = search.SNIPPET_CHARACTERS
    started = time.perf_counter()
    if hasattr(search, "highlight_pattern"):
        pattern = search.highlight_pattern(query)
        for text in texts:
            search.snippet(text=text, pattern=pattern, width=width)
    else:
        for text in texts:
            search.highlight(text=text, query=query, width=width)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    rng = random.Random(7)
    pool = sentence_pool(rng, size=2000)
    texts = [paragraph(rng, pool, rng.randint(6, 10)) for _ in range(K)]
    results: dict[str, dict[str, float]] = {}
    rows = []
    for name, query in queries(rng, pool).items():
        words = len(query.split())
        # A checkout without the cap (before SEARCH_MAX_TERMS) has one behaviour only.
        capped = hasattr(search, "searched_words")
        for label, cap in (("capped", CAP), ("uncapped", UNCAPPED))[: 2 if capped else 1]:
            settings.SEARCH_MAX_TERMS = cap
            one_search_ms(texts, query)  # compiles the pattern once, as a warm process has
            timings = sorted(one_search_ms(texts, query) for _ in range(ROUNDS))
            median = round(statistics.median(timings), 2)
            p95 = round(timings[int(0.95 * (len(timings) - 1))], 2)
            results.setdefault(name, {})[f"{label if capped else 'former'}MedianMs"] = median
            rows.append({
                "metric": f"highlighter, one search (k={K}), {len(query)}-character query of "
                          f"{words} words ({name}), "
                          + (f"first {CAP} words" if cap == CAP and capped else
                             "every word (former)"),
                "median": median, "p95": p95, "unit": "ms", "peakMemoryMB": None,
                "target": "< 50 ms" if cap == CAP and capped else None,
            })  # fmt: skip
    print(json.dumps({"k": K, "rounds": ROUNDS, "source": str(ROOT), "queries": results,
                      "summary": rows}))  # fmt: skip


if __name__ == "__main__":
    main()
