from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from . import selectors
from .health import report


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness/readiness probe: database, broker and cache reported separately; 503 when
    the database is away (the broker's or the cache's absence is reported, with a 200:
    the site still works)."""
    body, status = report()
    return JsonResponse(body, status=status)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Signed in: your clubs (straight to the club when there is one), and the invitation
    you signed up from until you answer it. Otherwise: what this is."""
    clubs = list(selectors.clubs_visible_to(request.user))
    invitation = selectors.invitation_to_join(request.user)
    if len(clubs) == 1 and invitation is None:
        return redirect("club", slug=clubs[0].slug)
    return render(request, "scorekeeper/home.html", {"clubs": clubs, "invitation": invitation})


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page names: the app's icon."""
    return redirect(static("icons/icon-192.png"))
