"""One error format for the whole API.

Every error response is ``{"error": {"code", "message", "field", "deal", "details"}}``:

* service errors (:mod:`scorekeeper.errors`) keep their code, message, field, deal and
  details, with the HTTP status of their kind;
* DRF's validation errors become ``code: "invalid"`` with the first error as ``field`` /
  ``message`` and all of them in ``details.errors`` (``{"players[1]": ["..."]}``);
* DRF's other errors (401, 403, 404, 405, 406, 415, 429, parse errors) keep DRF's code;
* anything unexpected is logged and answered with a 500 in the same shape.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import set_rollback

from scorekeeper.errors import (
    ServiceError,
)

logger = logging.getLogger(__name__)


def service_status(error: ServiceError) -> int:
    return error.status


class PreconditionRequired(exceptions.APIException):
    """An edit sent without ``If-Match``: say which version it is based on."""

    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    default_detail = "send If-Match with the version (ETag) of the deal being corrected"
    default_code = "precondition_required"


class BadHeader(exceptions.APIException):
    """A request header that cannot be read; ``field`` names the header."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid"

    def __init__(self, message: str, *, header: str) -> None:
        super().__init__(message)
        self.field = header


class InvalidCredentials(exceptions.APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "unable to log in with that username and password"
    default_code = "invalid_credentials"


class SignInThrottled(exceptions.Throttled):
    """A token refused by a limit on failed sign-ins (the sign-in page's): ``details.limit``
    says which, ``account`` (a password reset lifts it) or ``address`` (only time does),
    and ``details.wait`` / ``Retry-After`` for how long."""

    MESSAGES = {
        "account": "too many failed sign-ins for this account: try again later, "
        "or reset the password from the sign-in page.",
        "address": "too many failed sign-ins from this network address: "
        "sign-ins from here are paused, try again later.",
    }

    def __init__(self, *, limit: str, wait: int) -> None:
        super().__init__(wait=wait, detail=self.MESSAGES[limit])
        self.details = {"limit": limit}


def error_body(
    code: str,
    message: str,
    *,
    field: str | None = None,
    deal: int | None = None,
    details: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "error": {
            "code": code,
            "message": message,
            "field": field,
            "deal": deal,
            "details": dict(details or {}),
        }
    }


def flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested validation errors as ``{"field.sub[2]": [messages]}``, in order."""
    flat: dict[str, list[str]] = {}
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            if isinstance(key, int):
                path = f"{prefix}[{key}]"
            elif key == api_settings.NON_FIELD_ERRORS_KEY and not prefix:
                path = key
            elif key == api_settings.NON_FIELD_ERRORS_KEY:
                path = prefix
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            for name, messages in flatten(value, path).items():
                flat.setdefault(name, []).extend(messages)
    elif isinstance(detail, list | tuple):
        if all(not isinstance(item, Mapping | list | tuple) for item in detail):
            flat.setdefault(prefix, []).extend(str(item) for item in detail)
        else:  # a list serializer's errors: one entry per item, empty for valid ones
            for index, item in enumerate(detail):
                for name, messages in flatten(item, f"{prefix}[{index}]").items():
                    flat.setdefault(name, []).extend(messages)
    else:
        flat.setdefault(prefix, []).append(str(detail))
    return flat


def _validation_body(exc: exceptions.ValidationError) -> dict[str, Any]:
    errors = {name: messages for name, messages in flatten(exc.detail).items() if messages}
    if not errors:
        return error_body("invalid", "invalid input")
    field, messages = next(iter(errors.items()))
    return error_body(
        "invalid",
        messages[0],
        field=None if field in ("", api_settings.NON_FIELD_ERRORS_KEY) else field,
        details={"errors": errors},
    )


def _api_body(exc: exceptions.APIException) -> dict[str, Any]:
    if isinstance(exc, exceptions.ValidationError):
        return _validation_body(exc)
    detail = exc.detail
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else exc.default_code
    message = str(detail) if not isinstance(detail, list | dict) else str(exc.default_detail)
    details: dict[str, Any] = {}
    wait = getattr(exc, "wait", None)
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        details["wait"] = int(wait + 0.999)
    more = getattr(exc, "details", None)
    if isinstance(more, Mapping):
        details.update(more)
    return error_body(str(code), message, field=getattr(exc, "field", None), details=details)


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response:
    """REST_FRAMEWORK["EXCEPTION_HANDLER"]: every error in the one format."""
    if isinstance(exc, ServiceError):
        set_rollback()
        body = error_body(
            exc.code, exc.message, field=exc.field, deal=exc.deal, details=exc.details
        )
        return Response(body, status=service_status(exc))
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.APIException):
        headers: dict[str, str] = {}
        auth_header = getattr(exc, "auth_header", None)
        if auth_header:
            headers["WWW-Authenticate"] = auth_header
        wait = getattr(exc, "wait", None)
        if wait:
            headers["Retry-After"] = f"{int(wait + 0.999)}"
        set_rollback()
        return Response(_api_body(exc), status=exc.status_code, headers=headers)
    view = context.get("view")
    logger.exception("unexpected error in %s", type(view).__name__ if view else "the API")
    set_rollback()
    return Response(
        error_body("server_error", "something went wrong on the server; it has been logged"),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


# --- For the OpenAPI schema -------------------------------------------------------------------


class ErrorDetailSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(
        help_text="Stable, for programs: invalid, not_authenticated, authentication_failed, "
        "permission_denied, not_found, method_not_allowed, parse_error, conflict, "
        "stale_version, precondition_required, idempotency_key_reused, throttled, ..."
    )
    message = serializers.CharField(help_text="For people: which rule is broken.")
    field = serializers.CharField(
        allow_null=True,
        help_text='The field at fault ("tricks", "options.limit", "players", "number", '
        '"If-Match", ...), or null.',
    )
    deal = serializers.IntegerField(
        allow_null=True, help_text="The number of the deal at fault, or null."
    )
    details = serializers.DictField(
        help_text='More: all validation errors ("errors"), the deal already recorded '
        '("deal"), the next deal number ("next_number"), seconds to wait ("wait"), which '
        'sign-in limit refused a token ("limit": "account" or "address").'
    )


class ErrorSerializer(serializers.Serializer[Any]):
    """Every error response of the API."""

    error = ErrorDetailSerializer()
