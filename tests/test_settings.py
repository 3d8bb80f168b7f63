"""Settings: embedded default vs. configured services."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from scorekeeper.settings import BASE_DIR, _persistent_secret_key
from tests.support import using_postgresql

# Runs in a child process so the environment is parsed from scratch.
_DUMP_SETTINGS = """
import json
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "CSRF_TRUSTED_ORIGINS": settings.CSRF_TRUSTED_ORIGINS,
    "SECRET_KEY": settings.SECRET_KEY,
    "ENGINE": db["ENGINE"], "NAME": str(db["NAME"]), "HOST": db.get("HOST", ""),
    "OPTIONS": db.get("OPTIONS", {}), "CONN_MAX_AGE": db.get("CONN_MAX_AGE"),
    "ATOMIC_REQUESTS": db["ATOMIC_REQUESTS"],
    "BROKER": settings.CELERY_BROKER_URL, "BACKEND": settings.CELERY_RESULT_BACKEND,
    "EAGER": settings.CELERY_TASK_ALWAYS_EAGER,
    "IGNORE_RESULT": settings.CELERY_TASK_IGNORE_RESULT,
    "BROKER_TIMEOUT": settings.CELERY_BROKER_CONNECTION_TIMEOUT,
    "SSL_REDIRECT": settings.SECURE_SSL_REDIRECT, "HSTS": settings.SECURE_HSTS_SECONDS,
    "SESSION_COOKIE_SECURE": settings.SESSION_COOKIE_SECURE,
}))
"""

_OUR_VARS = (
    "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "DATABASE_URL",
    "CONN_MAX_AGE", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "SECURE_SSL",
)  # fmt: skip


def settings_with_env(**env: str) -> dict[str, object]:
    child_env = {k: v for k, v in os.environ.items() if k not in _OUR_VARS}
    child_env.update(env, DJANGO_SETTINGS_MODULE="scorekeeper.settings")
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + _DUMP_SETTINGS],
        cwd=BASE_DIR,
        env=child_env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_embedded_default_without_environment() -> None:
    s = settings_with_env()
    assert s["DEBUG"] is False
    assert s["ENGINE"] == "django.db.backends.sqlite3"
    assert s["NAME"] == str(BASE_DIR / "var" / "db.sqlite3")
    assert s["OPTIONS"] == {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
        "PRAGMA foreign_keys=ON;",
    }
    assert s["ATOMIC_REQUESTS"] is False
    assert s["EAGER"] is True
    assert s["BROKER"] == "memory://"
    assert s["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1", "[::1]", "testserver"]
    # The generated key is persisted in the git-ignored var/ and reused.
    key_file = BASE_DIR / "var" / "secret_key"
    assert s["SECRET_KEY"] == key_file.read_text().strip()
    assert len(str(s["SECRET_KEY"])) >= 50
    assert settings_with_env()["SECRET_KEY"] == s["SECRET_KEY"]
    assert s["SSL_REDIRECT"] is False


def test_services_from_environment() -> None:
    s = settings_with_env(
        DEBUG="true",
        SECRET_KEY="from-env",
        ALLOWED_HOSTS="score.example.org,.example.net",
        CSRF_TRUSTED_ORIGINS="https://score.example.org",
        DATABASE_URL="postgres://alice:pw@db.internal:5433/scores",
        CONN_MAX_AGE="60",
        CELERY_BROKER_URL="redis://cache.internal:6379/2",
    )
    assert s["DEBUG"] is True
    assert s["SECRET_KEY"] == "from-env"
    assert s["ALLOWED_HOSTS"] == ["score.example.org", ".example.net"]
    assert s["CSRF_TRUSTED_ORIGINS"] == ["https://score.example.org"]
    assert s["ENGINE"] == "django.db.backends.postgresql"
    assert (s["NAME"], s["HOST"]) == ("scores", "db.internal")
    assert s["CONN_MAX_AGE"] == 60
    assert s["ATOMIC_REQUESTS"] is False
    assert "journal_mode" not in json.dumps(s["OPTIONS"])
    assert s["EAGER"] is False
    assert s["BROKER"] == "redis://cache.internal:6379/2"
    assert s["BACKEND"] is None and s["IGNORE_RESULT"] is True  # no result is read
    # An unreachable broker holds a request for about 1 s: two tries of 0.5 s at most.
    assert s["BROKER_TIMEOUT"] == 0.5


def test_a_result_store_only_when_one_is_named() -> None:
    s = settings_with_env(
        CELERY_BROKER_URL="redis://cache.internal:6379/2",
        CELERY_RESULT_BACKEND="redis://cache.internal:6379/3",
    )
    assert s["BACKEND"] == "redis://cache.internal:6379/3"
    assert s["IGNORE_RESULT"] is False


def test_postgresql_connections_are_kept_open_by_default() -> None:
    s = settings_with_env(DATABASE_URL="postgres://alice:pw@db.internal:5433/scores")
    assert s["CONN_MAX_AGE"] == 60
    off = settings_with_env(DATABASE_URL="postgres://a@db/scores", CONN_MAX_AGE="0")
    assert off["CONN_MAX_AGE"] == 0


def test_secure_ssl_switches_on_secure_cookies_and_hsts() -> None:
    on = settings_with_env(SECURE_SSL="true")
    assert on["SSL_REDIRECT"] is True
    assert on["SESSION_COOKIE_SECURE"] is True
    assert isinstance(on["HSTS"], int) and on["HSTS"] > 0
    # Never in DEBUG (the dev server speaks plain HTTP).
    dev = settings_with_env(SECURE_SSL="true", DEBUG="true")
    assert dev["SSL_REDIRECT"] is False
    assert dev["HSTS"] == 0


def test_secret_key_file_created_once_and_private(tmp_path: Path) -> None:
    path = tmp_path / "secret_key"
    key = _persistent_secret_key(path)
    assert len(key) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert _persistent_secret_key(path) == key


def test_celery_json_only_and_late_acks() -> None:
    from scorekeeper.celery import app

    assert app.conf.task_serializer == "json"
    assert app.conf.result_serializer == "json"
    assert list(app.conf.accept_content) == ["json"]
    assert app.conf.task_acks_late is True
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.timezone == "UTC"
    app.loader.import_default_modules()  # what a worker does at start: find the tasks
    assert "scorekeeper.health_check" in app.tasks


@pytest.mark.django_db
@pytest.mark.skipif(using_postgresql(), reason="SQLite-only check; this run uses PostgreSQL")
def test_sqlite_wal_and_pragmas_in_effect() -> None:
    assert connection.vendor == "sqlite"
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 1  # NORMAL
        cursor.execute("PRAGMA foreign_keys")
        assert cursor.fetchone()[0] == 1
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] == 20_000
    assert connection.transaction_mode == "IMMEDIATE"


@pytest.mark.django_db
@pytest.mark.skipif(not using_postgresql(), reason="PostgreSQL-only check; this run uses SQLite")
def test_postgresql_via_psycopg3() -> None:
    import psycopg

    assert connection.vendor == "postgresql"
    connection.ensure_connection()
    assert isinstance(connection.connection, psycopg.Connection)
    assert settings.DATABASES["default"]["ATOMIC_REQUESTS"] is False
    with connection.cursor() as cursor:
        cursor.execute("SHOW TimeZone")
        assert cursor.fetchone()[0] == "UTC"
