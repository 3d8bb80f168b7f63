"""Limits every request body meets before any view runs.

* A body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (``MAX_BODY_BYTES``) is answered 413.
* A JSON body is parsed once, here: JSON that is not valid is left to the view (the API
  answers it with its parse error); JSON nested deeper than ``MAX_JSON_DEPTH`` is answered
  400. The API's parser then reuses what was parsed (:mod:`scorekeeper.api.parsers`).

Under ``/api/`` the answers are in the API's one error format; elsewhere they are short
plain-text pages. Either way nothing is written and no traceback is shown.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve

from . import access
from .api.errors import error_body

PARSED_JSON = "_scorekeeper_json"
"""The attribute of the request that holds its parsed JSON body."""

NOT_PARSED: Final = object()
"""What :func:`parsed_json` gives for a request whose body was not parsed here."""

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def parsed_json(request: HttpRequest) -> Any:
    """The JSON body this middleware parsed, or :data:`NOT_PARSED`."""
    return getattr(request, PARSED_JSON, NOT_PARSED)


def json_depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar is 0), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        stack.extend((child, depth) for child in children)
    return deepest


def _content_length(request: HttpRequest) -> int:
    try:
        return max(int(request.META.get("CONTENT_LENGTH") or 0), 0)
    except ValueError:
        return 0


def _is_json(request: HttpRequest) -> bool:
    media = (request.content_type or "").split(";")[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


class RequestLimitsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in _BODY_METHODS:
            refusal = self._check(request)
            if refusal is not None:
                return refusal
        return self.get_response(request)

    def _check(self, request: HttpRequest) -> HttpResponse | None:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and _content_length(request) > limit:
            return self._too_big(request, limit)
        if not _is_json(request):
            return None
        try:
            body = request.body
        except RequestDataTooBig:
            return self._too_big(request, limit or 0)
        if not body:
            return None
        try:
            data = json.loads(body)
        except RecursionError:
            return self._too_deep(request)
        except ValueError:
            return None  # not JSON: the view's parser says so in its own words
        if json_depth(data) > settings.MAX_JSON_DEPTH:
            return self._too_deep(request)
        setattr(request, PARSED_JSON, data)
        return None

    def _too_big(self, request: HttpRequest, limit: int) -> HttpResponse:
        message = f"the request body is larger than {limit} bytes"
        return self._refuse(request, 413, "too_large", message, {"limit": limit})

    def _too_deep(self, request: HttpRequest) -> HttpResponse:
        depth = settings.MAX_JSON_DEPTH
        message = f"the JSON body nests lists and objects more than {depth} deep"
        return self._refuse(request, 400, "too_deep", message, {"limit": depth})

    def _refuse(
        self, request: HttpRequest, status: int, code: str, message: str, details: dict[str, int]
    ) -> HttpResponse:
        if request.path.startswith("/api/"):
            return JsonResponse(error_body(code, message, details=details), status=status)
        return HttpResponse(
            message.capitalize() + ".", status=status, content_type="text/plain; charset=utf-8"
        )


class RolesRememberedMiddleware:
    """Within one request, each person's role in each club is read from the database once
    (a page or API call asks it for visibility, for the action's rule and in the service)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with access.roles_remembered():
            return self.get_response(request)


class FormAddressMiddleware:
    """A page's address that only takes a form's POST (``require_POST``), opened in the
    browser (the address bar after a refused form without JavaScript, a restored tab): a
    page that says so and links the page the form was on (the nearest address above it
    that is a page), rather than an empty 405 the browser shows as broken. The API keeps
    its own 405. Last in MIDDLEWARE: the others add their headers to the page made here."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 405
            and request.method == "GET"
            and not response.streaming
            and not response.content
            and not request.path.startswith("/api/")
        ):
            page = render(request, "405.html", {"back": _page_above(request.path)}, status=405)
            for header in ("Allow", "Cache-Control"):
                if header in response:
                    page[header] = response[header]
            return page
        return response


def _page_above(path: str) -> str:
    """The nearest address above ``path`` that the site answers (``/`` at the top)."""
    while path.rstrip("/"):
        path = path.rstrip("/").rsplit("/", 1)[0] + "/"
        try:
            resolve(path)
        except Resolver404:
            continue
        return path
    return "/"
