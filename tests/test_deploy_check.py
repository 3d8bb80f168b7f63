"""``manage.py check --deploy`` is clean under the README's production settings: the
``export`` lines of its Production section, read from the README itself."""

from __future__ import annotations

import os
import re
import secrets
import shlex
import subprocess
import sys

from scorekeeper.settings import BASE_DIR


def readme_production_env() -> dict[str, str]:
    readme = (BASE_DIR / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Production\n", 1)[1].split("\n## ", 1)[0]
    block = section.split("```", 2)[1]
    env: dict[str, str] = {}
    for line in block.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if words[:1] == ["export"]:
            for word in words[1:]:
                name, _, value = word.partition("=")
                env[name] = value
    return env


def check_deploy(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not re.match(r"^(CELERY|DATABASE|CACHE)_", k)}
    # Not the test run's own (DJANGO_ALLOW_ASYNC_UNSAFE: set by the browser tests).
    ours = ("DEBUG", "SECRET_KEY", "SECURE_SSL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    base = {k: v for k, v in base.items() if k not in ours}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env={**base, **env, "DJANGO_SETTINGS_MODULE": "scorekeeper.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_readme_names_the_production_settings() -> None:
    env = readme_production_env()
    assert {"DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "SECRET_KEY", "ALLOWED_HOSTS"} <= set(
        env
    )
    assert env["SECURE_SSL"] == "true"
    assert env["SITE_URL"].startswith("https://")


def test_check_deploy_is_clean_under_the_readmes_production_settings() -> None:
    env = readme_production_env()
    env["SECRET_KEY"] = secrets.token_urlsafe(50)  # the README says "..."
    result = check_deploy(env)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout

    # Without the site's address the emailed links lead nowhere: the check says so.
    unnamed = check_deploy({k: v for k, v in env.items() if k != "SITE_URL"})
    assert unnamed.returncode != 0 and "scorekeeper.W001" in unnamed.stderr

    # The check would tell: without HTTPS settings it fails.
    env.pop("SECURE_SSL")
    insecure = check_deploy(env)
    assert insecure.returncode != 0 and "security.W008" in insecure.stderr
