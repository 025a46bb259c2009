"""Endpoint signing secrets: Standard Webhooks `whsec_<base64>`, encrypted at rest.

A secret must stay usable for signing, so it cannot be hashed like an API key. It is stored
encrypted with Fernet under a key derived (HKDF-SHA256) from SECRET_KEY; keys derived from
SECRET_KEY_FALLBACKS still decrypt, so SECRET_KEY can be rotated the Django way. A secret
encrypted under a key that is gone raises `SecretUnavailableError`: the endpoint must be
registered again.
"""

from __future__ import annotations

import base64
import secrets

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

SECRET_PREFIX = "whsec_"  # noqa: S105 - the format's prefix, not a secret
SECRET_BYTES = 32  # HMAC-SHA256 key length; Standard Webhooks allows 24..64
_KEY_PURPOSE = b"legaldocs.webhooks.endpoint-secret.v1"


class SecretUnavailableError(Exception):
    """The stored secret cannot be decrypted with SECRET_KEY or its fallbacks."""


def generate_secret() -> str:
    """A new random signing secret in the Standard Webhooks format."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def _fernet_key(secret_key: str) -> bytes:
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_KEY_PURPOSE).derive(
        secret_key.encode()
    )
    return base64.urlsafe_b64encode(derived)


def _cipher() -> MultiFernet:
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return MultiFernet([Fernet(_fernet_key(key)) for key in keys])


def encrypt_secret(secret: str) -> str:
    return _cipher().encrypt(secret.encode()).decode()


def decrypt_secret(token: str) -> str:
    try:
        return _cipher().decrypt(token.encode()).decode()
    except InvalidToken:
        raise SecretUnavailableError(
            "The endpoint's signing secret cannot be decrypted (was SECRET_KEY changed "
            "without keeping the old one in SECRET_KEY_FALLBACKS?); register the endpoint again."
        ) from None
