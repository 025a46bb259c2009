"""The Celery application; tasks live in each app's `tasks.py`."""

import os

from celery import Celery

from common import health, metrics
from config import logging as structured_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("legaldocs")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Task log lines carry the task and request ids; a worker serves its metrics (docs/DEPLOY.md).
structured_logging.connect_celery_signals()
metrics.connect_celery_signals()
# Workers write the heartbeat that /readyz (and /healthz) reads (common/health.py).
health.connect_celery_signals()
