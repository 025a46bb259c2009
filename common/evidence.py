"""Signing evidence with a key held outside the database (`EVIDENCE_SIGNING_KEY`).

The audit chain, the version chain of each document and the manifest of each inspection
package are SHA-256 chains: they show that a row was changed, unless whoever changed it
recomputed every hash after it, which anyone with database access can do. A signature with
a key that the database never sees closes that gap: a rewritten chain no longer matches
its signed head.

HMAC-SHA256, not Ed25519: everything that signs or verifies runs inside the service (the
append path, `verify_audit_chain`, `verify_package`, the `verify` endpoint), so a shared
secret suffices, needs no key pair to manage and no new dependency. The cost is that a
third party cannot check a signature without the secret; they check the SHA-256 chains,
and the operator checks the signatures.

Every signature names its key by id (a fingerprint of the key, not the key), so after a
rotation the previous keys, listed in `EVIDENCE_SIGNING_OLD_KEYS`, still verify what they
signed; new signatures always use `EVIDENCE_SIGNING_KEY`. Each kind of evidence signs
under its own purpose, so a signature of one kind can never be passed off as another.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from common.canonical import canonical_json

ALGORITHM = "HMAC-SHA256"
MINIMUM_KEY_LENGTH = 32

AUDIT_CHECKPOINT = "legaldocs/audit-checkpoint/1"
AUDIT_LINK = "legaldocs/audit-link/1"
DOCUMENT_VERSION = "legaldocs/document-version/1"
PACKAGE_MANIFEST = "legaldocs/package-manifest/1"


@dataclass(frozen=True, slots=True)
class Signature:
    key_id: str
    value: str


@lru_cache(maxsize=16)
def key_id(secret: str) -> str:
    """A short public name of a key: it tells which key signed, and reveals nothing of it."""
    return hashlib.sha256(f"legaldocs-evidence-key-id:{secret}".encode()).hexdigest()[:16]


def _checked(name: str, secret: str) -> bytes:
    if len(secret) < MINIMUM_KEY_LENGTH:
        raise ImproperlyConfigured(f"{name} must be at least {MINIMUM_KEY_LENGTH} characters")
    return secret.encode()


def _current_key() -> tuple[str, bytes]:
    secret = settings.EVIDENCE_SIGNING_KEY
    return key_id(secret), _checked("EVIDENCE_SIGNING_KEY", secret)


def _verification_keys() -> dict[str, bytes]:
    keys = {
        key_id(secret): _checked("EVIDENCE_SIGNING_OLD_KEYS", secret)
        for secret in settings.EVIDENCE_SIGNING_OLD_KEYS
    }
    current_id, current = _current_key()
    keys[current_id] = current
    return keys


def _mac(key: bytes, purpose: str, payload: Mapping[str, Any]) -> str:
    message = purpose.encode() + b"\n" + canonical_json(payload)
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def sign(*, purpose: str, payload: Mapping[str, Any]) -> Signature:
    """The signature of `payload` (JSON-serialisable) with the current key."""
    current_id, current = _current_key()
    return Signature(key_id=current_id, value=_mac(current, purpose, payload))


def signature_by(*, purpose: str, payload: Mapping[str, Any], key_id: str) -> str | None:
    """The signature value of `payload` by the configured key named `key_id` (None: no such
    key is configured): what a verifier recomputes when the signed value is stored alone."""
    key = _verification_keys().get(key_id)
    return None if key is None else _mac(key, purpose, payload)


def signature_problem(
    *, purpose: str, payload: Mapping[str, Any], signature: Signature | None
) -> str | None:
    """None when `signature` is a valid signature of `payload` by a configured key.

    Otherwise why not: no signature, a key that is neither the current nor an old one, or
    a signature that does not match (the payload was changed, or signed with another key).
    """
    if signature is None or not signature.key_id or not signature.value:
        return "not signed"
    key = _verification_keys().get(signature.key_id)
    if key is None:
        return f"signed with an unknown key ({signature.key_id})"
    if not hmac.compare_digest(_mac(key, purpose, payload), signature.value):
        return "signature does not match"
    return None
