"""Shared fixtures for the foundation tests."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from pytest_django import Settings


def pytest_report_header(config: pytest.Config) -> list[str]:
    db = settings.DATABASES["default"]
    broker = settings.CELERY_BROKER_URL
    return [
        f"scorekeeper: database={db['ENGINE'].rsplit('.', 1)[-1]} "
        f"celery={'eager (in-process)' if settings.CELERY_TASK_ALWAYS_EAGER else broker}"
    ]


@pytest.fixture(scope="session", autouse=True)
def collected_static(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Run the production static pipeline (WhiteNoise manifest storage) into a temp dir.

    Templates use ``{% static %}``, which needs the manifest written by collectstatic.
    """
    root = tmp_path_factory.mktemp("staticfiles")
    with override_settings(STATIC_ROOT=root):
        call_command("collectstatic", interactive=False, verbosity=0)
        yield root


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Settings) -> None:
    """Tests make many users; the production password hasher would take seconds each."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
