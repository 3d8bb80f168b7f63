"""Helpers for the foundation tests: which services does this run use?"""

import ast
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

from bench.serving import answers, free_port

ROOT = Path(__file__).resolve().parents[1]


def using_postgresql() -> bool:
    return bool(settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql")


def using_broker() -> bool:
    return not settings.CELERY_TASK_ALWAYS_EAGER


@contextmanager
def gunicorn(*args: str, env: dict[str, str]) -> Iterator[str]:
    """A gunicorn process serving the app (from the checkout, with ``args``) on a free
    port; yields its URL once /healthz answers, and stops it afterwards."""
    port = free_port()
    env = {**os.environ, "GUNICORN_BIND": f"127.0.0.1:{port}", **env}
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "gunicorn", *args, "-b", f"127.0.0.1:{port}"]
    # Its log goes to a file, not a pipe: a full pipe would stall the server.
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [*command, "scorekeeper.wsgi"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        try:
            if not answers(f"{url}/healthz", process, timeout=30, pause=0.2):
                process.kill()
                log.seek(0)
                message = log.read().decode(errors="replace")[-2000:]
                raise RuntimeError(f"gunicorn did not answer: {message}")
            yield url
        finally:
            process.terminate()
            process.wait(timeout=20)


def top_level_imports(package: Path) -> set[str]:
    """The top-level names of every absolute import in the package's modules."""
    imported: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                imported.add(node.module.split(".")[0])
    return imported


def assert_plain_python(package: Path) -> None:
    """The package's modules import only the standard library and their own top-level
    package (``rules_engine``, ``tournaments``)."""
    imported = top_level_imports(package)
    assert "django" not in imported
    assert imported <= set(sys.stdlib_module_names) | {package.relative_to(ROOT).parts[0]}


def loads_django(code: str) -> bool:
    """Whether running ``code`` in a fresh Python loads Django or Django REST framework."""
    check = "print(any(m.split('.')[0] in ('django', 'rest_framework') for m in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", f"import sys; {code}; {check}"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert result.stdout.strip() in ("True", "False"), result.stdout
    return result.stdout.strip() == "True"
