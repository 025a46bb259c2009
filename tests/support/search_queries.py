"""What a search asked PostgreSQL for, read back from the statements it sent.

The full-text ranker's query is whatever text reaches ``websearch_to_tsquery``; these
helpers capture the statements of a request (Django's CaptureQueriesContext), take that
text as the SQL literal it was sent as, and let PostgreSQL itself parse it, so a test sees
the lexemes the ranker really searched for, not a re-implementation of the parser. A
second connection can hold a table lock, to make a search wait inside the database.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

# psycopg binds client-side: the parameter is inlined as a quoted literal.
_WEBSEARCH = re.compile(r"websearch_to_tsquery\('simple',\s*(E?'(?:[^']|'')*')\)")
_LEXEME = re.compile(r"'(?:[^']|'')*'")


@contextlib.contextmanager
def captured_statements() -> Iterator[CaptureQueriesContext]:
    with CaptureQueriesContext(connection) as captured:
        yield captured


def searched_tsqueries(captured: CaptureQueriesContext) -> list[str]:
    """The tsqueries (PostgreSQL's text form) the captured searches were run with."""
    literals = [
        literal
        for statement in captured.captured_queries
        for literal in _WEBSEARCH.findall(statement["sql"])
    ]
    with connection.cursor() as cursor:
        parsed = []
        for literal in literals:
            cursor.execute(f"SELECT websearch_to_tsquery('simple', {literal})::text")
            parsed.append(cursor.fetchone()[0])
    return parsed


def lexemes(tsquery: str) -> list[str]:
    """The quoted lexemes of a tsquery's text form, repeated ones included."""
    return [item[1:-1].replace("''", "'") for item in _LEXEME.findall(tsquery)]


@contextlib.contextmanager
def table_locked(table: str) -> Iterator[None]:
    """Hold an ACCESS EXCLUSIVE lock on ``table`` from a second connection: statements of
    the test's connection that read it wait until the block ends (or their timeout)."""
    other = connections.create_connection("default")
    try:
        other.set_autocommit(False)
        with other.cursor() as cursor:
            # Fail fast, not hang, should the test's own transaction hold a lock on it.
            cursor.execute("SET LOCAL lock_timeout = '2s'")
            cursor.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        yield
    finally:
        with contextlib.suppress(Exception):
            other.rollback()
        other.close()
