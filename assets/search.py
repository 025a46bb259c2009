"""Hybrid chunk search: vector, full-text and trigram rankings fused in one SQL query.

Each ranker proposes its best candidates among the organization's chunks of COMPLETED
assets; reciprocal rank fusion (RRF, Cormack et al. 2009) adds ``1 / (60 + rank)`` over the
rankers that found a chunk, so a chunk ranked well by several wins without calibrating
their scores against each other:

* ``vector``: cosine distance (meaning, paraphrases), on the organization's own HNSW index
  when it has one (assets.tenant_indexes) together with the chunks written since the index's
  watermark (the tail) ranked exactly, else over its chunks exactly;
* ``text``: ``websearch_to_tsquery('simple', q)`` on the generated ``search_vector`` (all
  words present; quotes, ``or`` and ``-`` as on a web search engine);
* ``trigram``: ``word_similarity`` of pg_trgm (typos, inflected or agglutinated words such
  as Korean particles), which full-text tokens miss: each query word's similar words
  among the organization's words (``assets.models.ChunkWord``), then the chunks holding
  them through the full-text index; it runs only when the full-text ranker found nothing.

The organization and status filters are in every ranker's own WHERE clause, so no ranker
can propose another organization's chunk.

Bounds: only the first ``SEARCH_MAX_TERMS`` words of the query reach the full-text and
trigram rankers and the highlighter (``searched_words``), and the statement runs under
``SEARCH_STATEMENT_TIMEOUT_MS`` (past it: ``SearchTimedOut``, 503 SEARCH_TIMEOUT).
"""

from __future__ import annotations

import html
import itertools
import math
import re
from dataclasses import dataclass, field
from enum import StrEnum

from django.conf import settings
from django.db import OperationalError, connection, transaction

from assets import tenant_indexes
from assets.exceptions import SearchTimedOut
from assets.models import TenantVectorIndex

RRF_K = 60
# The longest query accepted (API and admin; 400 VALIDATION_ERROR beyond): a paragraph.
MAX_QUERY_CHARACTERS = 2000
# HNSW candidate list (hnsw.ef_search, see ef_search): at least this, or a few times k
# (recall against latency). 40 left a query of clustered vectors stuck in the wrong cluster
# of a 50,000-chunk organization's graph (recall@10 0.0 for it, 0.982 on average over 60
# queries); 80: 0.998 and at least 0.9, at the same latency within noise
# (bench/bench_search_tenants.py).
MIN_EF_SEARCH = 80
# A larger graph needs a longer list for the same recall: ef_search grows with the square
# root of the indexed chunks past EF_SEARCH_REFERENCE_CHUNKS, up to MAX_EF_SEARCH. Measured
# on the bench's organization of 500,000 clustered vectors (bench/bench_search_tenants.py,
# its 50 recall queries, recall@10 against exact search): 80: 0.927 on 40 of them (one at
# 0.0); 400: 0.940 (one at 0.0); 566: 0.940; 632: 0.958 (the worst 0.7); 800 and 1,000:
# 0.958. The vector ranker took 8-17 ms at each, within noise. On other data the edge will
# be elsewhere: recall is worth checking on the deployment's own vectors.
EF_SEARCH_REFERENCE_CHUNKS = 8_000
MAX_EF_SEARCH = 800
MIN_CANDIDATES = 40
MAX_CANDIDATES = 200
# Identifiers and names are short; a long query (a grounding query is a paragraph) rarely
# has all its words in one chunk, and each of its words is one more trigram index lookup.
MAX_TRIGRAM_QUERY_CHARACTERS = 200
# pg_trgm's default is 0.6; a little lower tolerates a typo or a particle in short names.
TRIGRAM_THRESHOLD = 0.5
SNIPPET_CHARACTERS = 240
# At most this many chunks holding similar words are scored (see trigram_matches in the SQL).
TRIGRAM_SCAN_LIMIT = 2000
# At most this many full-text matches are ranked (see text_matches in the SQL): each one
# read from the table and ranked costs. The organization of 500,000 chunks, where a name
# matches 4 % of the chunks: hybrid p50 22.0 ms at 1,000, 19.5 ms at 500 (two consecutive
# runs of bench/bench_search_tenants.py); the matches past the bound are the physical
# order's, not the worst ones, so a lower bound loses more of the best text matches.
TEXT_SCAN_LIMIT = 500
# The similar words of one query word looked for in the chunks, the most similar first.
TRIGRAM_SIMILAR_WORDS = 10
# PostgreSQL's SQLSTATE of a statement cancelled by statement_timeout (or a cancel request).
QUERY_CANCELED = "57014"


class SearchMode(StrEnum):
    HYBRID = "hybrid"
    VECTOR = "vector"
    TEXT = "text"

    @property
    def needs_embedding(self) -> bool:
        return self is not SearchMode.TEXT


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One chunk found by a search.

    ``score``: higher is better; the cosine similarity in ``vector`` mode, the RRF sum of
    the rankers that found the chunk otherwise. ``rankers`` names those rankers.
    """

    asset_id: str
    original_file_name: str
    chunk_index: int
    text: str
    location: str
    score: float
    rankers: list[str] = field(default_factory=list)
    page_number: int | None = None
    sheet_name: str | None = None
    slide_number: int | None = None
    snippet: str = ""


_SEARCH_SQL = """
WITH
completed_assets AS (
    SELECT id FROM assets_asset
    WHERE organization_id = %(organization_id)s AND status = 'COMPLETED'
),
vector_ranked AS (
    SELECT id, row_number() OVER (ORDER BY distance, id) AS rank, distance
    FROM (
        SELECT chunk.id, chunk.embedding <=> %(vector)s::vector AS distance
        FROM assets_assetchunk chunk
        WHERE %(use_vector)s
          -- The organization as a constant (parameters are bound client-side): the planner
          -- proves the predicate of the organization's own partial HNSW index
          -- (assets.tenant_indexes), used only once it is ready. The status is checked on
          -- the index scan's rows (iterative scan): given a join on the asset, the planner
          -- read every chunk of the organization and sorted them all instead (measured:
          -- 640 ms for 10,000 chunks of one organization out of 100,000, under load).
          AND chunk.organization_id = %(organization_id)s
          AND (SELECT asset.status FROM assets_asset asset WHERE asset.id = chunk.asset_id)
              = 'COMPLETED'
          -- The query's vector is of the model of the column (a re-embedding that swapped
          -- the column after the query was embedded turns this ranker off, once).
          AND (%(vector_model)s::text IS NULL OR EXISTS (
              SELECT 1 FROM assets_embeddingindex WHERE active_model = %(vector_model)s))
        ORDER BY distance
        LIMIT %(candidates)s
    ) nearest_chunks
),
text_matches AS MATERIALIZED (
    -- A bound, as for typo queries below: words common in a large organization's texts
    -- match most of its chunks, and every match was ranked (ts_rank_cd reads its whole
    -- vector): 250 ms for "words" queries at 50,000 chunks of one organization, growing
    -- with it (bench/bench_search_tenants.py). Only the first matches the index gives are
    -- ranked; the best ones beyond them are lost to this ranker, the vector ranker remains.
    SELECT chunk.id, chunk.asset_id, chunk.search_vector
    FROM assets_assetchunk chunk
    WHERE %(use_text)s
      AND chunk.organization_id = %(organization_id)s
      AND chunk.search_vector @@ websearch_to_tsquery('simple', %(query)s)
    LIMIT %(text_scan_limit)s
),
text_ranked AS (
    SELECT id, row_number() OVER (ORDER BY relevance DESC, id) AS rank
    FROM (
        SELECT match.id, ts_rank_cd(match.search_vector, query, 1) AS relevance
        FROM text_matches match, websearch_to_tsquery('simple', %(query)s) query
        WHERE match.asset_id IN (SELECT id FROM completed_assets)
        ORDER BY relevance DESC
        LIMIT %(candidates)s
    ) matching_chunks
),
-- Typo queries, as pg_trgm's documentation integrates trigrams with text search: each
-- query word (a lexeme, as the chunks' search_vector makes them) finds its organization's
-- most similar words in assets_chunkword (its own trigram index; `<%%`: the word is similar
-- to a part of the stored one, so a Korean noun finds it before its particle), then the
-- full-text index finds the chunks holding, for every query word with similar words, one
-- of them. No chunk text is rechecked. Only when the full-text ranker found nothing (a
-- one-time filter): words found as such need no second ranker, whose exact matches would
-- only repeat the full-text ones.
trigram_words AS MATERIALIZED (
    SELECT query_word.position, similar_word.similarity,
           -- The word as one lexeme of a tsquery, never parsed again (tsquery's quoting).
           ('''' || replace(replace(similar_word.word, '\\', '\\\\'), '''', '''''')
            || '''')::tsquery AS lexeme
    FROM unnest(tsvector_to_array(to_tsvector('simple', %(query)s)))
         WITH ORDINALITY AS query_word(word, position)
    CROSS JOIN LATERAL (
        SELECT chunk_word.word, word_similarity(query_word.word, chunk_word.word) AS similarity
        FROM assets_chunkword chunk_word
        WHERE chunk_word.organization_id = %(organization_id)s
          AND query_word.word <%% chunk_word.word
        ORDER BY similarity DESC, chunk_word.word
        LIMIT %(trigram_similar_words)s
    ) similar_word
    WHERE %(use_trigram)s
      AND NOT EXISTS (SELECT FROM text_ranked)
),
-- Each query word's similar words OR-ed, the query words AND-ed (a word without any
-- similar word is left out, as a word of the query that matches nothing).
trigram_query AS MATERIALIZED (
    SELECT string_agg(alternatives, ' & ')::tsquery AS query
    FROM (
        SELECT '(' || string_agg(lexeme::text, ' | ') || ')' AS alternatives
        FROM trigram_words
        GROUP BY position
    ) per_query_word
),
-- A bound, so that a typo as close to common words as "dta" cannot score every chunk of
-- a large organization (the best matches beyond it are lost, the other rankers remain).
trigram_matches AS MATERIALIZED (
    SELECT chunk.id, chunk.asset_id, chunk.search_vector
    FROM assets_assetchunk chunk
    WHERE chunk.organization_id = %(organization_id)s
      AND chunk.search_vector @@ (SELECT query FROM trigram_query)
    LIMIT %(trigram_scan_limit)s
),
-- A chunk scores, for each query word, the similarity of its best similar word it holds.
trigram_ranked AS (
    SELECT id, row_number() OVER (ORDER BY similarity DESC, id) AS rank
    FROM (
        SELECT match.id, (
            SELECT sum(best) FROM (
                SELECT max(word.similarity) AS best
                FROM trigram_words word
                WHERE match.search_vector @@ word.lexeme
                GROUP BY word.position
            ) best_words
        ) AS similarity
        FROM trigram_matches match
        WHERE match.asset_id IN (SELECT id FROM completed_assets)
        ORDER BY similarity DESC
        LIMIT %(candidates)s
    ) similar_chunks
),
fused AS (
    SELECT id,
           sum(1.0 / (%(rrf_k)s + rank)) AS rrf,
           array_agg(ranker ORDER BY ranker_order) AS rankers,
           min(distance) AS distance
    FROM (
        SELECT id, rank, 'vector' AS ranker, 1 AS ranker_order, distance FROM vector_ranked
        UNION ALL
        SELECT id, rank, 'text', 2, NULL FROM text_ranked
        UNION ALL
        SELECT id, rank, 'trigram', 3, NULL FROM trigram_ranked
    ) ranked
    GROUP BY id
    ORDER BY rrf DESC, id
    LIMIT %(k)s
)
SELECT chunk.asset_id, asset.original_file_name, chunk.index, chunk.text, chunk.location,
       chunk.page_number, chunk.sheet_name, chunk.slide_number,
       fused.rrf, fused.distance, fused.rankers
FROM fused
JOIN assets_assetchunk chunk ON chunk.id = fused.id
JOIN assets_asset asset ON asset.id = chunk.asset_id
ORDER BY fused.rrf DESC, fused.id
"""


def _ranked_exactly(sql: str) -> str:
    """The search SQL whose vector ranker reads the organization's chunks of COMPLETED assets
    exactly instead of an HNSW index: an organization without its own index (fewer than
    ``TENANT_VECTOR_INDEX_MIN_CHUNKS`` chunks, or one still building), and one asset. Its
    chunks are found through the (asset, index) unique index of its completed assets, every
    one of them is compared with the query: exact, and fast while they are few
    (bench/bench_search_tenants.py), where a scan of a graph of other organizations' vectors
    would walk them until it had found enough of its own.
    """
    start = sql.index("vector_ranked AS (")
    end = sql.index("text_matches AS MATERIALIZED (")
    exact = """vector_ranked AS (
    SELECT id, row_number() OVER (ORDER BY distance, id) AS rank, distance
    FROM (
        SELECT chunk.id, chunk.embedding <=> %(vector)s::vector AS distance
        FROM assets_assetchunk chunk
        WHERE %(use_vector)s
          AND chunk.asset_id IN (SELECT id FROM completed_assets)
          AND chunk.organization_id = %(organization_id)s
          AND (%(vector_model)s::text IS NULL OR EXISTS (
              SELECT 1 FROM assets_embeddingindex WHERE active_model = %(vector_model)s))
        -- An expression no HNSW index can serve: the chunks, ranked exactly.
        ORDER BY (chunk.embedding <=> %(vector)s::vector) + 0
        LIMIT %(candidates)s
    ) nearest_chunks
),
"""
    return sql[:start] + exact + sql[end:]


def _scoped_to_one_asset(sql: str) -> str:
    """The search SQL over one asset's chunks (``%(asset_id)s``), derived from the
    organization-wide one so that the rankers and their fusion stay one definition.

    The vector ranker reads the asset's chunks exactly (``_ranked_exactly``): one document
    has few chunks (a 150 KB contract: about a hundred), while an HNSW scan filtered down to
    one asset would walk the whole organization's graph for them. The text and trigram
    rankers keep their indexes; the asset filter is added to their candidates.
    """
    replacements = {
        # The asset itself, if it is the organization's and COMPLETED: the text and trigram
        # rankers keep only its chunks through this CTE.
        "WHERE organization_id = %(organization_id)s AND status = 'COMPLETED'\n": (
            "WHERE organization_id = %(organization_id)s AND status = 'COMPLETED'\n"
            "      AND id = %(asset_id)s\n"
        ),
        "      AND chunk.search_vector @@ websearch_to_tsquery('simple', %(query)s)\n": (
            "      AND chunk.search_vector @@ websearch_to_tsquery('simple', %(query)s)\n"
            "      AND chunk.asset_id = %(asset_id)s\n"
        ),
        "      AND chunk.search_vector @@ (SELECT query FROM trigram_query)\n": (
            "      AND chunk.search_vector @@ (SELECT query FROM trigram_query)\n"
            "      AND chunk.asset_id = %(asset_id)s\n"
        ),
    }
    for old, new in replacements.items():
        assert sql.count(old) == 1, old
        sql = sql.replace(old, new)
    return _ranked_exactly(sql)


def _ranked_with_tail(sql: str) -> str:
    """The search SQL whose vector ranker takes an organization's candidates from its HNSW
    index up to the index's watermark (``%(indexed_through_id)s``: the index's predicate
    says ``id <= W``) and from the chunks past it (the tail) exactly, then keeps the nearest
    of both. Chunks written after the index was built are in no graph (no HNSW insert on
    the write path, assets.tenant_indexes): the tail is found through the (organization_id,
    id) btree and every chunk of it is compared with the query, as long as it is smaller
    than ``TENANT_VECTOR_INDEX_REBUILD_FRACTION`` of the index (the reconcile rebuilds it
    past that).

    Both branches are the indexed ranker's own query (its status and model checks), each
    with its side of the watermark; bound client-side like the organization, the watermark
    is a constant, so the planner proves the index's predicate for the first branch.
    """
    start = sql.index("vector_ranked AS (")
    end = sql.index("text_matches AS MATERIALIZED (")
    ranker = sql[start:end]
    nearest = ranker[ranker.index("        SELECT chunk.id") : ranker.index("    ) nearest_chunks")]
    organization = "          AND chunk.organization_id = %(organization_id)s\n"
    assert nearest.count(organization) == 1 and nearest.count("ORDER BY distance\n") == 1
    indexed = nearest.replace(
        organization, organization + "          AND chunk.id <= %(indexed_through_id)s\n"
    )
    tail = nearest.replace(
        organization, organization + "          AND chunk.id > %(indexed_through_id)s\n"
    ).replace(
        # An expression no HNSW index can serve: the tail, ranked exactly.
        "ORDER BY distance\n",
        "ORDER BY (chunk.embedding <=> %(vector)s::vector) + 0\n",
    )
    # Both branches' text is the constant SQL above: nothing from outside is formatted in.
    both = "".join([
        "        SELECT id, distance FROM (\n",
        "        (", indexed.strip(), ")\n",
        "        UNION ALL\n",
        "        (", tail.strip(), ")\n",
        "        ) indexed_and_tail\n",
        "        ORDER BY distance\n",
        "        LIMIT %(candidates)s\n",
    ])  # fmt: skip
    return sql[:start] + ranker.replace(nearest, both) + sql[end:]


_EXACT_SEARCH_SQL = _ranked_exactly(_SEARCH_SQL)
_INDEXED_AND_TAIL_SEARCH_SQL = _ranked_with_tail(_SEARCH_SQL)
_ASSET_SEARCH_SQL = _scoped_to_one_asset(_SEARCH_SQL)


def hybrid_chunk_search(
    *,
    organization_id: object,
    query: str,
    vector: list[float] | None,
    k: int,
    mode: SearchMode = SearchMode.HYBRID,
    vector_model: str | None = None,
    asset_id: object = None,
) -> list[SearchHit]:
    """The ``k`` best chunks of the organization's COMPLETED assets for ``query``.

    ``vector`` (the query's embedding) is required unless ``mode`` is ``text``;
    ``vector_model``, the model that made it: the vector ranker finds nothing unless it is
    the active model (assets.embedding), checked in the same statement. ``asset_id``: only
    that asset's chunks (still of the organization, still COMPLETED; a review reads one
    document), ranked exactly (``_ASSET_SEARCH_SQL``). One query
    to PostgreSQL, after the ``SET LOCAL`` of the HNSW iterative scan in the same
    transaction (docs/PITFALLS.md): with it, the organization filter cannot starve the
    vector candidates. Database errors propagate.
    """
    words, candidates = searched_words(query), _candidates(k)
    timeout_ms = settings.SEARCH_STATEMENT_TIMEOUT_MS
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            sql, params = search_statement(
                organization_id=organization_id, query=query, vector=vector, k=k, mode=mode,
                vector_model=vector_model, asset_id=asset_id,
            )  # fmt: skip
            # set_config(..., true) is SET LOCAL: it ends with this transaction. The planner
            # scanned an organization's chunks sequentially while it believed them few
            # (measured: 180 ms for 1,240 chunks, against 4 ms through the GIN indexes): no
            # sequential scans. The statement timeout bounds what no index can (a busy database, a
            # costly query): PostgreSQL cancels the statement, SearchTimedOut below.
            cursor.execute(
                "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                "set_config('hnsw.ef_search', %s, true), "
                "set_config('pg_trgm.word_similarity_threshold', %s, true), "
                "set_config('enable_seqscan', 'off', true), "
                "set_config('statement_timeout', %s, true)",
                [
                    str(params.get("ef_search", max(MIN_EF_SEARCH, candidates))),
                    str(TRIGRAM_THRESHOLD),
                    str(timeout_ms),
                ],
            )
            cursor.execute(sql, params)
            rows = cursor.fetchall()
            # The search writes nothing: ending it with a rollback undoes its SET LOCALs even
            # inside a caller's transaction (a released savepoint would keep them, the
            # timeout included, until the caller's commit).
            transaction.set_rollback(True)
    except OperationalError as error:
        if getattr(error.__cause__, "sqlstate", None) == QUERY_CANCELED:
            raise SearchTimedOut(timeout_ms) from error
        raise
    pattern = highlight_pattern(words)
    hits = [
        SearchHit(
            asset_id=str(asset_id),
            original_file_name=name,
            chunk_index=index,
            text=text,
            location=location,
            score=round(
                1.0 - float(distance) if mode is SearchMode.VECTOR else float(rrf), 6
            ),
            rankers=list(rankers),
            page_number=page_number,
            sheet_name=sheet_name or None,
            slide_number=slide_number,
            snippet=snippet(text=text, pattern=pattern, width=SNIPPET_CHARACTERS),
        )
        for (
            asset_id, name, index, text, location, page_number, sheet_name, slide_number,
            rrf, distance, rankers,
        ) in rows
    ]  # fmt: skip
    if mode is SearchMode.VECTOR:
        # relaxed_order may return neighbours slightly out of order.
        hits.sort(key=lambda hit: -hit.score)
    return hits


def search_statement(
    *,
    organization_id: object,
    query: str,
    vector: list[float] | None,
    k: int,
    mode: SearchMode = SearchMode.HYBRID,
    vector_model: str | None = None,
    asset_id: object = None,
) -> tuple[str, dict[str, object]]:
    """The search SQL and its parameters for these arguments, as ``hybrid_chunk_search``
    runs them (also what the plan tests EXPLAIN). The organization's index is read once:
    the SQL and the watermark it binds are of the same index. ``params["ef_search"]``, with
    an index: the HNSW candidate list for its size (``ef_search``), not a parameter of the
    SQL but of the transaction."""
    params = search_parameters(
        organization_id=organization_id, query=query, vector=vector, k=k, mode=mode,
        vector_model=vector_model, asset_id=asset_id,
    )  # fmt: skip
    index = None
    if asset_id is None and mode.needs_embedding:
        index = tenant_indexes.ready_index(organization_id)
    if index is not None:
        params["indexed_through_id"] = index.indexed_through_id
        # Not in the SQL: the transaction's hnsw.ef_search (hybrid_chunk_search).
        params["ef_search"] = ef_search(
            candidates=_candidates(k), indexed_chunks=index.chunks_when_built
        )
    return _search_sql(asset_id=asset_id, use_vector=mode.needs_embedding, index=index), params


def search_parameters(
    *,
    organization_id: object,
    query: str,
    vector: list[float] | None,
    k: int,
    mode: SearchMode = SearchMode.HYBRID,
    vector_model: str | None = None,
    asset_id: object = None,
) -> dict[str, object]:
    """The parameters of the search SQL for these arguments (``hybrid_chunk_search``'s;
    also what the benches EXPLAIN). ``indexed_through_id``, the watermark of the
    organization's index, is ``search_statement``'s to set."""
    if mode.needs_embedding and vector is None:
        raise ValueError(f"mode {mode} needs the query's vector")
    candidates = _candidates(k)
    use_vector = mode.needs_embedding
    use_lexical = mode is not SearchMode.VECTOR
    words = searched_words(query)
    return {
        "organization_id": organization_id,
        "query": words,
        "vector": vector_literal(vector) if use_vector and vector is not None else None,
        "use_vector": use_vector,
        "vector_model": vector_model if use_vector else None,
        "use_text": use_lexical,
        "use_trigram": use_lexical and len(words) <= MAX_TRIGRAM_QUERY_CHARACTERS,
        "candidates": candidates,
        "trigram_scan_limit": TRIGRAM_SCAN_LIMIT,
        "text_scan_limit": TEXT_SCAN_LIMIT,
        "trigram_similar_words": TRIGRAM_SIMILAR_WORDS,
        "rrf_k": RRF_K,
        "k": k,
        "asset_id": asset_id,
        "indexed_through_id": None,
    }


def _candidates(k: int) -> int:
    """Each ranker's candidates for ``k`` results."""
    return max(MIN_CANDIDATES, min(MAX_CANDIDATES, 4 * k))


def ef_search(*, candidates: int, indexed_chunks: int) -> int:
    """hnsw.ef_search for a walk of a graph of ``indexed_chunks`` vectors that must yield
    ``candidates``: MIN_EF_SEARCH up to EF_SEARCH_REFERENCE_CHUNKS, then grown with the
    square root of the size (80 at 8,000, 155 at 30,000, 283 at 100,000, 632 at 500,000),
    never above MAX_EF_SEARCH unless the candidates ask for more."""
    grown = round(MIN_EF_SEARCH * math.sqrt(max(0, indexed_chunks) / EF_SEARCH_REFERENCE_CHUNKS))
    return max(candidates, MIN_EF_SEARCH, min(MAX_EF_SEARCH, grown))


def _search_sql(*, asset_id: object, use_vector: bool, index: TenantVectorIndex | None) -> str:
    """One asset's search; the organization's through its own HNSW ``index`` once it is
    ready, with the tail past its watermark ranked exactly (an index built before
    watermarks covers every chunk: no tail); else the organization's with its vectors
    ranked exactly."""
    if asset_id is not None:
        return _ASSET_SEARCH_SQL
    if not use_vector or index is None:
        return _EXACT_SEARCH_SQL
    if index.indexed_through_id is None:
        return _SEARCH_SQL
    return _INDEXED_AND_TAIL_SEARCH_SQL


def vector_literal(vector: list[float]) -> str:
    """pgvector's text form of ``vector`` (a ``%s::vector`` parameter; also assets.reembedding)."""
    return "[" + ",".join(repr(float(value)) for value in vector) + "]"


_WORD = re.compile(r"\w+")
# Words, and the quotes of websearch's phrases (a quote inside a word also starts one).
_TOKEN = re.compile(r'"|[^\s"]+')
_QUOTE = '"'


def _is_word_character(character: str) -> bool:
    return character.isalpha() or "0" <= character <= "9"


def _is_ambiguous(character: str) -> bool:
    """A character PostgreSQL's parser may read as a letter (any non-ASCII one in the C
    locale: '٣', '²', a combining accent, a typographic apostrophe) or as a separator (in a
    UTF-8 locale)."""
    return character > "\x7f" and not character.isalpha() and not character.isspace()


def _runs(token: str) -> list[int]:
    """Where each run of letters and ASCII digits of ``token`` ends, and each ambiguous
    character (one run of its own): the most parts its lexemes can be made of."""
    ends, position = [], 0
    for is_word, group in itertools.groupby(token, key=_is_word_character):
        for character in group:
            position += 1
            if not is_word and _is_ambiguous(character):
                ends.append(position)
        if is_word:
            ends.append(position)
    return ends


def searched_words(query: str, *, max_terms: int | None = None) -> str:
    """The beginning of ``query`` that makes at most ``max_terms`` tsquery terms.

    ``max_terms`` defaults to ``SEARCH_MAX_TERMS``. The text is cut, never rewritten, so
    quotes, ``or`` and ``-`` keep their meaning for ``websearch_to_tsquery``; what follows
    the cut is ignored (as web search engines ignore words past their limit). Counted
    from above so the bound holds whatever PostgreSQL's parser makes of a token: a plain
    word (letters and digits only) is one term, any other token (``e-mail``, ``a_b``,
    ``x.y@z``, ``-x``) at most two per run of letters and digits plus one, an ``or``
    between two terms is websearch's operator (no term; any other ``or`` is a word), a
    quote is no term. A token over what is left is cut after a run.
    """
    budget = settings.SEARCH_MAX_TERMS if max_terms is None else max_terms
    end = 0
    in_quotes = after_term = False
    pending_or: re.Match[str] | None = None  # an ``or`` after a term, before the next token
    for chunk in _TOKEN.finditer(query):
        token = chunk.group()
        if token == _QUOTE:  # websearch's phrase delimiter, no term
            in_quotes = not in_quotes
            continue
        if not in_quotes and after_term and token.casefold() == "or":
            pending_or, after_term = chunk, False
            continue
        runs = _runs(token)
        # A plain word is one lexeme. Anything else may be split anywhere ("-1y": '-1' and
        # 'y'; "19http://": '19' and 'http'), indexed in parts and whole ("e-mail":
        # 'e-mail', 'e', 'mail'), or be a path without letters ('/_'): at most two per run,
        # and one. (A negated word "-x" counts three: websearch's "-" is rare enough.)
        cost = 1 if all(map(_is_word_character, token)) else 2 * len(runs) + 1
        if cost > budget:
            # Keep what fits of the token: its first runs, or its first word.
            if budget >= 3 and runs:
                end = chunk.start() + runs[(budget - 1) // 2 - 1]
            elif budget and _is_word_character(token[0]):
                end = chunk.start() + runs[0]
            break
        budget -= cost
        end = chunk.end()
        after_term, pending_or = True, None
    else:
        # An ``or`` ending the query is a word for websearch_to_tsquery.
        if pending_or and budget:
            end = pending_or.end()
    return query[:end]


def highlight_pattern(query: str) -> re.Pattern[str] | None:
    """The highlighter's pattern: the distinct words (two letters or more) among the
    searched words of ``query``, at most ``SEARCH_MAX_TERMS``, longest first; None without
    any."""
    words = (word.casefold() for word in _WORD.findall(searched_words(query)) if len(word) > 1)
    distinct = list(dict.fromkeys(words))[: settings.SEARCH_MAX_TERMS]
    terms = sorted(distinct, key=len, reverse=True)
    return re.compile("|".join(map(re.escape, terms)), re.IGNORECASE) if terms else None


def highlight(*, text: str, query: str, width: int = SNIPPET_CHARACTERS) -> str:
    """An HTML-escaped excerpt of ``text`` around the query's words, each in ``<mark>``.

    Words match case-insensitively anywhere in the text (also inside a longer word, as a
    Korean noun before its particle); one-letter words are not marked, nor the words past
    the first ``SEARCH_MAX_TERMS`` (``searched_words``). Without any match, the start of the
    text.
    """
    return snippet(text=text, pattern=highlight_pattern(query), width=width)


def snippet(*, text: str, pattern: re.Pattern[str] | None, width: int) -> str:
    """``highlight`` with the query's pattern already made (once per search)."""
    flat = " ".join(text.split())
    matches = pattern.finditer(flat) if pattern else iter(())
    first = next(matches, None)
    start = 0
    if first:
        start = max(0, first.start() - width // 4)
        # Start at a word boundary, not inside a word.
        if start:
            space = flat.find(" ", start)
            start = space + 1 if 0 <= space < first.start() else start
    end = min(len(flat), start + width)
    parts: list[str] = ["…" if start else ""]
    position = start
    # Matches are found lazily: none is looked for past the end of the excerpt.
    for match in itertools.chain([first] if first else [], matches):
        if match.start() < position:
            continue
        if match.end() > end:
            break
        parts += [html.escape(flat[position : match.start()]), "<mark>"]
        parts += [html.escape(match.group()), "</mark>"]
        position = match.end()
    parts.append(html.escape(flat[position:end]))
    if end < len(flat):
        parts.append("…")
    return "".join(parts)
