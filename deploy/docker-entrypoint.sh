#!/bin/sh
# Entry point of the application image. One image, one role per container:
#   web [--migrate]     uvicorn, WEB_CONCURRENCY workers (--migrate: migrate first; for a
#                       single machine without the `migrate` one-shot service)
#   worker [QUEUE]      a Celery worker for one queue (generation, ingestion, webhooks, packages,
#                       imports, staleness;
#                       default WORKER_QUEUE, which the health check also reads),
#                       CELERY_WORKER_CONCURRENCY processes (CELERY_WORKER_POOL=threads:
#                       threads of one process, e.g. ingestion around one model)
#   beat                the Celery scheduler (exactly one in the whole deployment)
#   migrate             apply database migrations, then exit
#   backup              `manage.py backup_database` now, then every BACKUP_INTERVAL_SECONDS
#                       (default 86400); each success touches /tmp/backup-succeeded, which
#                       the compose health check reads
#   anything else       run as given (e.g. `python manage.py create_api_key ...`)
set -eu

if [ -n "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
    # Samples of a previous run of this container must not be added to the new ones.
    rm -rf "$PROMETHEUS_MULTIPROC_DIR"
    mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
fi

role="${1:-web}"
case "$role" in
    web)
        if [ "${2:-}" = "--migrate" ]; then
            python manage.py migrate --no-input
        fi
        # --proxy-headers: the client address of the audit trail, of the invalid-key limit and
        # of the /metrics check is the one the proxy saw, taken from X-Forwarded-For only on
        # connections from FORWARDED_ALLOW_IPS (the proxy; loopback by default). Every other
        # caller is known by its real peer address, whatever header it sends.
        exec uvicorn config.asgi:application \
            --host 0.0.0.0 --port 8000 \
            --workers "${WEB_CONCURRENCY:-2}" \
            --proxy-headers --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1}" \
            --no-access-log --lifespan off
        ;;
    worker)
        queue="${2:-${WORKER_QUEUE:?usage: worker QUEUE (generation, ingestion, webhooks, packages, imports or staleness)}}"
        exec celery -A config worker \
            --queues "$queue" \
            --hostname "$queue@%h" \
            --pool "${CELERY_WORKER_POOL:-prefork}" \
            --concurrency "${CELERY_WORKER_CONCURRENCY:-2}" \
            --loglevel "${LOG_LEVEL:-INFO}" \
            --task-events \
            --without-mingle
        ;;
    beat)
        exec celery -A config beat \
            --loglevel "${LOG_LEVEL:-INFO}" \
            --schedule "${DATA_DIR:-/app/data}/celerybeat-schedule"
        ;;
    migrate)
        exec python manage.py migrate --no-input
        ;;
    backup)
        interval="${BACKUP_INTERVAL_SECONDS:-86400}"
        # `docker compose stop`: leave at once (a dump cut short stores nothing).
        trap 'exit 0' TERM INT
        while :; do
            if python manage.py backup_database; then
                touch /tmp/backup-succeeded
            else
                # Logged, and tried again at the next interval; the health check turns
                # unhealthy when no dump succeeded within two intervals.
                echo "backup failed; next attempt in ${interval} s" >&2
            fi
            sleep "$interval" &
            wait $!
        done
        ;;
    *)
        exec "$@"
        ;;
esac
