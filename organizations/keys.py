"""API key format and hashing: `ld_<prefix>_<secret>`, stored as SHA-256 only.

The keys carry 256 bits of randomness, so a plain SHA-256 (no salt, no slow hash) cannot be
reversed, and it keeps authentication to one indexed lookup and one constant-time compare.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

KEY_SCHEME = "ld"
PREFIX_LENGTH = 10


@dataclass(frozen=True)
class ParsedKey:
    prefix: str
    raw: str


def new_raw_key() -> tuple[str, str]:
    """Return (prefix, full key)."""
    prefix = secrets.token_hex(PREFIX_LENGTH // 2)
    return prefix, f"{KEY_SCHEME}_{prefix}_{secrets.token_urlsafe(32)}"


def hash_key(raw_key: str) -> str:
    return hashlib.sha256(raw_key.encode()).hexdigest()


def parse_key(raw_key: str) -> ParsedKey | None:
    parts = raw_key.strip().split("_", 2)
    if len(parts) != 3 or parts[0] != KEY_SCHEME or len(parts[1]) != PREFIX_LENGTH:
        return None
    return ParsedKey(prefix=parts[1], raw=raw_key.strip())


def key_matches(raw_key: str, stored_hash: str) -> bool:
    return hmac.compare_digest(hash_key(raw_key), stored_hash)
