from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .health import all_ok, run_checks


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness/readiness probe: 200 when every check is ok, 503 otherwise."""
    results = run_checks()
    return JsonResponse(results, status=200 if all_ok(results) else 503)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "scorekeeper/home.html")
