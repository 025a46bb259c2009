"""Test settings: the suite's own embedded servers (unless URLs are given), fast hashing."""

import os
from pathlib import Path

# Before base is imported: tests get their own data directory, so `make test` never touches
# the data of a running `make run`.
os.environ.setdefault("DATA_DIR", str(Path(__file__).resolve().parents[2] / ".data" / "test"))

from config.settings.base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEBUG = False

# Lexical embeddings: fast and deterministic; a test that needs another provider overrides it.
EMBEDDING_PROVIDER = "hashing"
