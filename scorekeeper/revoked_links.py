"""Why a table link no longer works: a small registry that other apps plug into.

The core app revokes table links itself (a new link, "revoke") and says so generically.
Other apps revoke links for their own reasons (a tournament round that closed); the
core must not import them, so they register an *explainer* here, usually in their
``AppConfig.ready()``. The table-link page asks each explainer in turn about a link that
no longer lets anyone in: revoked (its row is given), or gone with its game (only its
token is known: e.g. a tournament round's publishing taken back, its table cards still
printed); the first that answers with an :class:`Explanation` is shown instead of the
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


#: (request, the link's token, its row while it exists) -> what to say, or None
Explainer = Callable[[HttpRequest, str, TableLink | None], Explanation | None]

_explainers: Registry[Explainer] = Registry()
#: Add an explainer (once: registering it again changes nothing); a decorator too.
register = _explainers.register
unregister = _explainers.unregister


def explain(request: HttpRequest, token: str, link: TableLink | None) -> Explanation | None:
    """The first explanation an explainer gives for the table link ``token`` (``link``:
    its row, revoked; None once it is gone), as seen by the request's user, or None. An
    explainer that fails is logged and skipped: the generic page is always there."""
    for explainer in _explainers:
        try:
            found = explainer(request, token, link)
        except Exception:
            logger.exception("explaining table link %s failed", link.pk if link else "(gone)")
            continue
        if found is not None:
            return found
    return None
