"""Helpers for the foundation tests: which services does this run use?"""

from django.conf import settings


def using_postgresql() -> bool:
    return bool(settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql")


def using_broker() -> bool:
    return not settings.CELERY_TASK_ALWAYS_EAGER
