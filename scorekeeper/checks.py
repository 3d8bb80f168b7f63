"""The site's own deploy checks (``manage.py check --deploy``), beside Django's."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

#: What SITE_URL is when nobody set it: right for ``make run`` on this machine only.
LOCAL_SITE_URL = "http://127.0.0.1:8000"


@register(Tags.security, deploy=True)
def site_url_set(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """Links in what background jobs send (the emails telling players where they sit)
    start with SITE_URL: left at its local default, they lead nowhere."""
    if settings.SITE_URL == LOCAL_SITE_URL:
        return [
            Warning(
                f"SITE_URL is not set: emailed table links start with {LOCAL_SITE_URL}",
                hint="Set SITE_URL to the site's address, e.g. https://score.example.org.",
                id="scorekeeper.W001",
            )
        ]
    return []
