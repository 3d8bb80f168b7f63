"""Foundation URLs: home, health probe, API schema and docs."""

import re
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import OperationalError
from django.test import Client, override_settings
from django.utils import timezone

from scorekeeper.models import OutboxJob
from tests.broker import HAVE_REDIS, celery_broker, redis_server
from tests.support import free_port

pytestmark = pytest.mark.django_db


def test_home_page_is_phone_first(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "user-scalable=no" not in html and "maximum-scale" not in html
    # WhiteNoise manifest storage rewrote the stylesheet URL with a content hash.
    assert "/static/css/site." in html and 'site.css"' not in html


@pytest.mark.parametrize(
    ("path", "words", "not_words"),
    [
        ("/accounts/login/", ["Sign in", "Sign in"], ["Sign In"]),
        ("/accounts/signup/", ["Sign up", "Sign up"], ["Sign Up", "Signup"]),
        ("/accounts/password/reset/", ["Password reset", "Reset my password"], ["My Password"]),
    ],
)
def test_the_account_pages_speak_in_sentence_case(
    client: Client, path: str, words: list[str], not_words: list[str]
) -> None:
    """As every other page: "Sign in" (the site's wording of django-allauth's, locale/):
    the page's heading and its button."""
    html = client.get(path).content.decode()
    heading = re.search(r"<h1[^>]*>\s*([^<]*?)\s*</h1>", html)
    button = re.search(r'<button[^>]*type="submit"[^>]*>\s*([^<]*?)\s*</button>', html)
    assert heading is not None and button is not None
    assert [heading.group(1), button.group(1)] == words
    assert not any(word in html for word in not_words)


def test_favicon_is_the_apps_icon(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert "/static/icons/icon-192." in response["Location"]
    assert client.get(response["Location"]).status_code == 200


def test_healthz_ok(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    broker = "in-process" if settings.CELERY_TASK_ALWAYS_EAGER else "ok"
    assert body == {
        "status": "ok",
        "database": "ok",
        "broker": broker,
        "cache": "ok",
        "jobs_waiting": 0,
    }
    assert "no-cache" in response["Cache-Control"]


def test_healthz_reports_a_broker_that_is_down_without_failing(client: Client) -> None:
    with celery_broker(f"redis://127.0.0.1:{free_port()}/0"):  # nobody listens there
        started = time.monotonic()
        response = client.get("/healthz")
        took = time.monotonic() - started
    assert response.status_code == 200  # the site works: jobs wait in the outbox
    body = response.json()
    assert body["status"] == "degraded" and body["database"] == body["cache"] == "ok"
    assert body["broker"].startswith("error: ") and "refused" in body["broker"].lower()
    assert took < 3, f"/healthz took {took:.1f} s with the broker down"


@pytest.mark.skipif(not HAVE_REDIS, reason="redis-server is not installed on this machine")
def test_healthz_reports_a_broker_that_answers(client: Client, tmp_path: Path) -> None:
    with redis_server(tmp_path) as redis, celery_broker(redis.url):
        body = client.get("/healthz").json()
    assert body["broker"] == "ok" and body["status"] == "ok"


def test_healthz_reports_a_cache_that_is_down_without_failing(client: Client) -> None:
    away = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    with override_settings(CACHES=away):
        assert "RedisCache" in type(caches["default"]).__name__  # a new cache, for the test
        response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded" and body["cache"].startswith("error: ")
    assert body["database"] == "ok"


def test_old_outbox_jobs_are_counted_as_waiting(client: Client) -> None:
    job = OutboxJob.objects.create(task="scorekeeper.send_email", args=[1])
    OutboxJob.objects.filter(pk=job.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    OutboxJob.objects.create(task="scorekeeper.send_email", args=[2])  # just written
    assert client.get("/healthz").json()["jobs_waiting"] == 1


def test_healthz_reports_failing_database(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.db import connection

    def broken_cursor(*args: object, **kwargs: object) -> None:
        raise OperationalError("database is unreachable")

    monkeypatch.setattr(connection, "cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["database"].startswith("error: OperationalError")
    assert "unreachable" in body["database"]


def test_openapi_schema(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Scorekeeper API"
    assert isinstance(schema["paths"], dict)


def test_api_docs_served_offline(client: Client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
    assert "cdn.jsdelivr.net" not in html


def test_admin_login_page(client: Client) -> None:
    response = client.get("/admin/login/")
    assert response.status_code == 200
    assert b"csrfmiddlewaretoken" in response.content


def test_pages_send_a_content_security_policy(client: Client) -> None:
    response = client.get("/accounts/login/")
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy


def test_no_template_holds_an_inline_script_or_style() -> None:
    """The policy forbids them: a page that had one would lose it in the browser."""
    import re
    from pathlib import Path

    templates = Path(__file__).resolve().parents[1] / "templates"
    offenders = []
    for template in templates.rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        if re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text) or re.search(r"\sstyle=\"", text):
            offenders.append(str(template.relative_to(templates)))
        if re.search(r"\son[a-z]+=", text) or "<style" in text:
            offenders.append(str(template.relative_to(templates)))
    assert offenders == []
