"""Canonical JSON: the one way the service turns a value into bytes to hash or sign.

Keys are sorted, so the same value always gives the same bytes. The audit chain, the
document version chain and the evidence signatures all hash through `canonical_json`; their
layouts differ only where hashes already stored fix them, and those are named here:
- signatures (`common.evidence`): compact, UTF-8 (the default);
- audit events (`audit.chain`): compact, non-ASCII escaped (`ascii_only=True`);
- document versions (`legal_documents.versioning`): `", "` / `": "` separators, non-ASCII
  escaped (`compact=False, ascii_only=True`).
Changing a layout would make every stored hash of that kind fail verification.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(value: Any, *, compact: bool = True, ascii_only: bool = False) -> bytes:
    """`value` as sorted-key JSON bytes; values JSON cannot represent are written as str."""
    return json.dumps(
        value,
        sort_keys=True,
        separators=(",", ":") if compact else (", ", ": "),
        ensure_ascii=ascii_only,
        default=str,
    ).encode()


def canonical_sha256(value: Any, *, compact: bool = True, ascii_only: bool = False) -> str:
    """The hex SHA-256 of `canonical_json(value, ...)`."""
    return hashlib.sha256(canonical_json(value, compact=compact, ascii_only=ascii_only)).hexdigest()
