"""Celery application; configured from the ``CELERY_``-prefixed Django settings."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

app = Celery("scorekeeper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
