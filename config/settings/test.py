"""Test settings: the suite's own data directory, fast hashing.

PostgreSQL and Redis are real: `make test` (config/launcher.py), or the pytest plugin
(config/pytest_plugin.py) when pytest is run directly, starts the embedded servers of
.data/test and sets DATABASE_URL / REDIS_URL before these settings are read.
"""

import os
from pathlib import Path

# Before base is imported: tests get their own data directory, so `make test` never touches
# the data of a running `make run` (config/local_stack.py uses the same default).
os.environ.setdefault("DATA_DIR", str(Path(__file__).resolve().parents[2] / ".data" / "test"))

from config.settings.base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEBUG = False

# Lexical embeddings: fast and deterministic; a test that needs another provider overrides it.
EMBEDDING_PROVIDER = "hashing"

# WhiteNoise (base MIDDLEWARE) reads STATIC_ROOT and warns when it is missing; the suite does
# not collect static files, except the tests of what production serves (into their own).
Path(STATIC_ROOT).mkdir(parents=True, exist_ok=True)  # noqa: F405

# A test-only app with one kind of background work (tests/common/test_background_*.py).
INSTALLED_APPS = [*INSTALLED_APPS, "tests.background_app"]  # noqa: F405
