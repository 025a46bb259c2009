"""The Celery application; tasks live in each app's `tasks.py`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("legaldocs")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
