# syntax=docker/dockerfile:1
# The application image: web (uvicorn), Celery workers and beat, and one-shot commands.
#
#   docker build -t legaldocs .                         # without local embeddings
#   docker build --build-arg EXTRAS=local -t legaldocs .  # + onnxruntime embeddings (no torch)
#
# Stage 1 has the compilers (some dependencies build from source); stage 2 only copies the
# finished virtualenv and the source tree, and runs as an unprivileged user.

ARG PYTHON_IMAGE=python:3.11.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS builder
ARG EXTRAS=""
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential pkg-config \
    && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src
COPY pyproject.toml README.md ./
COPY config ./config
COPY common ./common
COPY organizations ./organizations
COPY audit ./audit
COPY legal_documents ./legal_documents
COPY assets ./assets
COPY gdpr ./gdpr
# The project's dependencies, never the dev extra. The project itself is then removed from
# the venv: it runs from /app, where its templates, fonts and other data files are.
RUN pip install ".${EXTRAS:+[$EXTRAS]}" \
    && pip uninstall -y legaldocs \
    && if pip show torch >/dev/null 2>&1; then \
         echo "torch must not be in the image (local embeddings use onnxruntime)" >&2; exit 1; \
       fi

FROM ${PYTHON_IMAGE} AS runtime
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
    CMD ["python", "/app/deploy/healthcheck.py", "http"]
ENTRYPOINT ["/app/deploy/docker-entrypoint.sh"]
CMD ["web"]
