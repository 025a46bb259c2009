"""Writing chunks with PostgreSQL ``COPY``: one statement streams a whole batch.

Row INSERTs (``bulk_create``) make PostgreSQL parse and plan a statement of thousands of
parameters, and every vector travels as text that the server parses float by float. A
binary ``COPY ... FROM STDIN`` sends each row's values in their wire format: a vector is
its 4-byte floats as pgvector's binary form (``vector_recv``), a uuid its 16 bytes. The
rows are the same as ``bulk_create`` wrote (tests/assets/test_chunk_copy.py): the
generated ``search_vector`` is computed by the server, the id by its sequence.

Runs on the connection of the caller's transaction (Django's), so that a caller checks
its lease and writes the chunks atomically (``assets.ingestion._store_batch``).
"""

from __future__ import annotations

import struct
import sys
import uuid
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.db import connection

from assets.models import AssetChunk

# Every column a new chunk has but the id (its sequence) and the generated search_vector;
# tests/assets/test_chunk_copy.py fails when the table gains one this list lacks.
COLUMNS = (
    "asset_id",
    "organization_id",
    "index",
    "text",
    "location",
    "page_number",
    "sheet_name",
    "slide_number",
    "embedding",
    "embedding_model",
    "embedding_next",
    "embedding_next_model",
)
# The client-side dumpers of the binary COPY. The vector goes as "bytea": its bytes are
# already pgvector's binary form, which the server reads with the column's own receive
# function (binary COPY carries no type oid), so no type has to be registered.
_TYPES = (
    "uuid", "uuid", "int4", "text", "text", "int4", "text", "int4", "bytea", "text", "bytea",
    "text",
)  # fmt: skip
_SQL = f"COPY {AssetChunk._meta.db_table} ({', '.join(COLUMNS)}) FROM STDIN (FORMAT BINARY)"
_LOCATION_MAX = 200
_VECTOR_HEADER = struct.Struct(">HH")


@dataclass(frozen=True, slots=True)
class NewChunk:
    """A chunk to write: its place in the asset, text, extractor's location and vector."""

    index: int
    text: str
    location: str | None
    embedding: Sequence[float] | np.ndarray
    embedding_model: str


def copy_chunks(*, asset_id: Any, organization_id: Any, chunks: Iterable[NewChunk]) -> int:
    """Write ``chunks`` of one asset with one COPY on Django's connection; the row count.

    NUL characters (which PostgreSQL text cannot hold) are left out of the text and the
    location, the location is cut to its column's size and structured as
    ``AssetChunk.location_fields`` says. Call inside the caller's transaction: a failure
    (a duplicate (asset, index), a vector of the wrong size) aborts it with nothing written.
    """
    asset_id, organization_id = _uuid(asset_id), _uuid(organization_id)
    written = 0
    # Django's CursorWrapper holds the psycopg 3 cursor of the current connection; its
    # errors are turned into Django's (IntegrityError...) as the wrapper's own would be.
    with (
        connection.cursor() as wrapper,
        connection.wrap_database_errors,
        wrapper.cursor.copy(_SQL) as copy,
    ):
        copy.set_types(_TYPES)
        for chunk in chunks:
            copy.write_row(_row(asset_id, organization_id, chunk))
            written += 1
    return written


def vector_bytes(values: Sequence[float] | np.ndarray) -> bytes:
    """pgvector's binary form of a vector: dimensions, a reserved 0, big-endian float4s."""
    if isinstance(values, np.ndarray):
        return _VECTOR_HEADER.pack(len(values), 0) + values.astype(">f4", copy=False).tobytes()
    # A list of Python floats (the providers' output): the array module converts it about
    # twice as fast as numpy (24 against 45 ms per 1,000 vectors of 384).
    floats = array("f", values)
    if sys.byteorder == "little":
        floats.byteswap()
    return _VECTOR_HEADER.pack(len(floats), 0) + floats.tobytes()


def _uuid(value: Any) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


def _row(asset_id: Any, organization_id: Any, chunk: NewChunk) -> tuple[Any, ...]:
    location = (chunk.location or "").replace("\x00", "")
    fields = AssetChunk.location_fields(location)
    return (
        asset_id,
        organization_id,
        chunk.index,
        chunk.text.replace("\x00", ""),
        location[:_LOCATION_MAX],
        fields.get("page_number"),
        fields.get("sheet_name", ""),
        fields.get("slide_number"),
        vector_bytes(chunk.embedding),
        chunk.embedding_model,
        None,
        "",
    )
