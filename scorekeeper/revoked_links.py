"""Why a table link no longer works: a small registry that other apps plug into.

The core app revokes table links itself (a new link, "revoke") and says so generically.
Other apps revoke links for their own reasons (a tournament round that closed); the
core must not import them, so they register an *explainer* here, usually in their
``AppConfig.ready()``. The table-link page asks each explainer in turn about a revoked
link; the first that answers with an :class:`Explanation` is shown instead of the
generic "link gone" page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest

from .models import TableLink
from .registry import Registry

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Explanation:
    """What the page says: a heading, a sentence, and optionally a link onwards."""

    title: str
    message: str
    link_url: str = ""
    link_text: str = ""


Explainer = Callable[[HttpRequest, TableLink], Explanation | None]

_explainers: Registry[Explainer] = Registry()
#: Add an explainer (once: registering it again changes nothing); a decorator too.
register = _explainers.register
unregister = _explainers.unregister


def explain(request: HttpRequest, link: TableLink) -> Explanation | None:
    """The first explanation an explainer gives for the revoked ``link`` (as seen by the
    request's user), or None. An explainer that fails is logged and skipped: the
    generic page is always there."""
    for explainer in _explainers:
        try:
            found = explainer(request, link)
        except Exception:
            logger.exception("explaining revoked table link %s failed", link.pk)
            continue
        if found is not None:
            return found
    return None
