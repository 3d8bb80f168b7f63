"""Shared fixtures for the foundation tests."""

from collections.abc import Iterator
from pathlib import Path

import hypothesis
import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.test import override_settings
from pytest_django import Settings

from scorekeeper import outbox
from scorekeeper.celery import app

# Property tests check what holds, not how fast: on a busy two-core machine (CI runs the
# suite beside its browsers) an example may take longer than Hypothesis' 200 ms default.
hypothesis.settings.register_profile("scorekeeper", deadline=None)
hypothesis.settings.load_profile("scorekeeper")


def pytest_report_header(config: pytest.Config) -> list[str]:
    db = settings.DATABASES["default"]
    broker = settings.CELERY_BROKER_URL
    return [
        f"scorekeeper: database={db['ENGINE'].rsplit('.', 1)[-1]} "
        f"celery={'eager (in-process)' if settings.CELERY_TASK_ALWAYS_EAGER else broker} "
        f"cache={settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}"
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


@pytest.fixture(autouse=True)
def _broker_not_taken_as_away() -> None:
    """A broker refused by an earlier test is not taken as away by this one's requests."""
    outbox.forget_refusals()


@pytest.fixture(autouse=True)
def _fresh_cache(request: pytest.FixtureRequest) -> Iterator[None]:
    """Rate limits count in the shared cache: every test starts from zero. The database
    cache's rows go with each test's transaction, but not with a flush (tests that commit)."""
    shared = "DatabaseCache" not in settings.CACHES["default"]["BACKEND"]
    if not shared and {"transactional_db", "live_server"} & set(request.fixturenames):
        request.getfixturevalue("transactional_db")
        shared = True
    if shared:
        cache.clear()
    yield
    if shared:
        cache.clear()


@pytest.fixture
def tasks_in_process() -> Iterator[None]:
    """Background jobs sent on commit run in-process, even when a broker is configured
    (the suite's PostgreSQL + Redis run): the test reads what the job wrote."""
    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = before
