"""What bounds the cost of one search: its words, its time in the database, its rate.

A query is at most 2,000 characters, but 400 one-letter words joined by ``or`` made a
tsquery that ranked every chunk and a highlighter that tried 400 alternatives at every
character of every hit. Only the first ``SEARCH_MAX_TERMS`` words reach the word rankers
and the highlighter; the statement runs under ``SEARCH_STATEMENT_TIMEOUT_MS`` (a search
past it is 503 ``SEARCH_TIMEOUT``, not a 500); and searches have their own budget per user
(``RATE_LIMIT_SEARCH``). bench/bench_highlight.py measures the highlighter.
"""

from __future__ import annotations

import random
import string

import pytest
from django.db import connection, transaction

from assets.search import highlight, searched_words
from tests.support.search_queries import (
    captured_statements,
    lexemes,
    searched_tsqueries,
    table_locked,
)

SEARCH_URL = "/api/v1/assets/search"
LIST_URL = "/api/v1/assets"
CHARACTERS = string.ascii_lowercase + string.digits
# 400 one-character words joined by "or": 1,997 characters, within the 2,000 allowed.
FOUR_HUNDRED_ORS = " or ".join(CHARACTERS[n % len(CHARACTERS)] for n in range(400))
# Forty distinct words: the last eight are beyond the default cap of 32.
FORTY_WORDS = [f"zq{n:02d}" for n in range(40)]
# Shapes whose words PostgreSQL's parser counts differently from a split on spaces: a
# quoted phrase, hyphenated compounds (each also indexed whole), underscores, negations,
# a run of "or", e-mail and URL-like tokens.
HOSTILE_QUERIES = {
    "or": FOUR_HUNDRED_ORS,
    "phrase": '"' + " ".join(CHARACTERS[n % 36] for n in range(400)) + '"',
    "hyphens": "-".join(CHARACTERS[n % 36] for n in range(400)),
    "hyphenated words": " ".join(f"e-{CHARACTERS[n % 36]}" for n in range(300)),
    "underscores": "_".join(CHARACTERS[n % 36] for n in range(400)),
    "negations": " ".join(f"-{CHARACTERS[n % 36]}" for n in range(400)),
    "only or": " ".join(["or"] * 400),
    "or in quotes": '"' + " ".join(["or"] * 400) + '"',
    "mixed": " ".join(f'x{n}-y{n}_z{n} "p{n} or q{n}" or -r{n}.s{n}@t.u/v' for n in range(40)),
}


@pytest.fixture
def default_limits(settings):  # type: ignore[no-untyped-def]
    """The documented defaults, whatever the environment of the test run says."""
    settings.SEARCH_MAX_TERMS = 32
    settings.RATE_LIMIT_SEARCH = "60/min"
    return settings


def _text_search(client, q: str, **params):  # type: ignore[no-untyped-def]
    response = client.get(SEARCH_URL, {"q": q, "mode": "text", **params})
    assert response.status_code == 200, response.content
    return response.json()["results"]


@pytest.mark.parametrize("shape", list(HOSTILE_QUERIES))
def test_the_tsquery_of_a_hostile_query_holds_at_most_the_term_cap(
    uploaded, dpo, default_limits, shape
):
    uploaded("register.txt", b"Entry a of the register, kept for b years.\n")

    with captured_statements() as captured:
        _text_search(dpo.client, HOSTILE_QUERIES[shape], k=50)

    tsqueries = searched_tsqueries(captured)
    assert tsqueries, "the search sent no full-text query"
    for tsquery in tsqueries:
        assert len(lexemes(tsquery)) <= 32, (shape, tsquery)


# Pieces PostgreSQL's parser reads in unusual ways: paths, URLs, hosts, signed numbers,
# other scripts' digits, combining accents, typographic apostrophes, websearch's syntax.
FRAGMENTS = [
    *"abxyz019", " ", " ", " ", " or ", " OR ", '"', "-", "--", ".", "_", "@", "/", ":", "'",
    "\u2019", "&", "!", "|", "(", ")", "<", ">", "*", "\\", "\t", ",", "http://", "www.", ".com",
    "-1", "1.5", "1,000", "e-", "v1.2-beta", "foo_bar", "O'Brien", "é", "ß", "ﬁ", "²", "½",
    "٣", "\u0301", "삼성", "हि",
]  # fmt: skip


@pytest.mark.parametrize("cap", [1, 3, 8, 32])
def test_no_query_makes_more_terms_than_the_cap(db, cap):
    rng = random.Random(cap)
    with connection.cursor() as cursor:
        for _ in range(300):
            query = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 600)))
            words = searched_words(query, max_terms=cap)
            cursor.execute("SELECT websearch_to_tsquery('simple', %s)::text", [words])
            assert len(lexemes(cursor.fetchone()[0])) <= cap, (query, words)
            assert query.startswith(words)
            assert searched_words(words, max_terms=cap) == words


def test_plain_words_count_one_each_and_the_text_is_cut_not_rewritten():
    query = 'Retention of "CCTV recordings" or video -backups: e-mail, 72 hours'

    assert searched_words(query, max_terms=100) == query
    assert searched_words(query, max_terms=5) == 'Retention of "CCTV recordings" or video'
    # "-backups" may be read as up to three terms: it does not fit in two.
    assert searched_words(query, max_terms=6) == 'Retention of "CCTV recordings" or video'
    assert searched_words(query, max_terms=8) == 'Retention of "CCTV recordings" or video -backups:'


def test_the_first_words_of_a_long_or_query_are_the_ones_searched(uploaded, dpo, default_limits):
    with captured_statements() as captured:
        _text_search(dpo.client, FOUR_HUNDRED_ORS)

    (tsquery,) = set(searched_tsqueries(captured))
    assert lexemes(tsquery) == [CHARACTERS[n] for n in range(32)]
    assert tsquery == " | ".join(f"'{CHARACTERS[n]}'" for n in range(32))


def test_words_beyond_the_cap_find_nothing(uploaded, dpo, default_limits):
    uploaded("first.txt", b"Entry zq00 of the register.\n")
    uploaded("last.txt", b"Entry zq39 of the register.\n")

    results = _text_search(dpo.client, " or ".join(FORTY_WORDS))

    assert [hit["originalFileName"] for hit in results] == ["first.txt"]


def test_the_cap_is_a_setting(uploaded, dpo, settings):
    settings.SEARCH_MAX_TERMS = 5

    with captured_statements() as captured:
        _text_search(dpo.client, FOUR_HUNDRED_ORS)

    (tsquery,) = set(searched_tsqueries(captured))
    assert lexemes(tsquery) == ["a", "b", "c", "d", "e"]


def test_the_highlighter_marks_only_the_first_words_of_the_query(default_limits):
    snippet = highlight(
        text="Entry zq00, then zq31, then zq32 and zq39.", query=" ".join(FORTY_WORDS)
    )

    assert snippet == "Entry <mark>zq00</mark>, then <mark>zq31</mark>, then zq32 and zq39."


def test_the_snippets_of_a_search_mark_only_the_searched_words(uploaded, dpo, default_limits):
    uploaded("both.txt", b"Entry zq00 and entry zq39 of the register.\n")

    (hit,) = _text_search(dpo.client, " or ".join(FORTY_WORDS))

    assert hit["snippet"] == "Entry <mark>zq00</mark> and entry zq39 of the register."


def test_a_search_that_outlasts_its_statement_timeout_is_a_503_in_the_envelope(dpo, settings):
    settings.SEARCH_STATEMENT_TIMEOUT_MS = 200
    with connection.cursor() as cursor:
        # Without a statement timeout the search would wait for the lock: end that, too.
        cursor.execute("SET lock_timeout = '5s'")

    with table_locked("assets_asset"):
        response = dpo.client.get(SEARCH_URL, {"q": "retention", "mode": "text"})

    assert response.status_code == 503, response.content
    error = response.json()["error"]
    assert error["code"] == "SEARCH_TIMEOUT"
    assert error["details"] == {"timeoutMs": 200}
    assert "Traceback" not in response.content.decode()
    assert int(response["Retry-After"]) >= 1
    # The connection is usable afterwards: the caller's transaction was not poisoned.
    assert dpo.client.get(LIST_URL).status_code == 200


def test_the_searchs_settings_end_with_the_search(uploaded, dpo, default_limits):
    uploaded("register.txt", b"Entry zq00 of the register.\n")

    def current() -> tuple[str, str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_setting('statement_timeout'), "
                           "current_setting('enable_seqscan')")  # fmt: skip
            return cursor.fetchone()

    with transaction.atomic():  # a caller's transaction, as a Celery task may hold
        before = current()
        _text_search(dpo.client, "zq00")
        after = current()

    assert after == before


def test_searches_have_their_own_budget_per_user(dpo, org_admin, settings):
    settings.RATE_LIMIT_SEARCH = "2/min"

    assert dpo.client.get(SEARCH_URL, {"q": "retention", "mode": "text"}).status_code == 200
    assert dpo.client.get(SEARCH_URL, {"q": "deletion", "mode": "text"}).status_code == 200
    refused = dpo.client.get(SEARCH_URL, {"q": "erasure", "mode": "text"})

    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "RATE_LIMITED"
    assert 1 <= int(refused["Retry-After"]) <= 60
    # Other reads, and other users' searches, are not counted against it.
    assert dpo.client.get(LIST_URL).status_code == 200
    assert org_admin.client.get(SEARCH_URL, {"q": "retention", "mode": "text"}).status_code == 200


def test_the_openapi_schema_says_which_words_are_searched(client, default_limits):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    operation = schema["paths"]["/api/v1/assets/search"]["get"]
    q = next(p for p in operation["parameters"] if p["name"] == "q")
    assert "first 32 words" in q["description"]
    assert q["schema"]["maxLength"] == 2000
