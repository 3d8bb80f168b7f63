from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from . import selectors
from .health import all_ok, run_checks


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness/readiness probe: 200 when every check is ok, 503 otherwise."""
    results = run_checks()
    return JsonResponse(results, status=200 if all_ok(results) else 503)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Signed in: your clubs (straight to the club when there is one). Otherwise: what this is."""
    clubs = list(selectors.clubs_visible_to(request.user))
    if len(clubs) == 1:
        return redirect("club", slug=clubs[0].slug)
    return render(request, "scorekeeper/home.html", {"clubs": clubs})
