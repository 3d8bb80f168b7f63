"""What services refuse, and why: one hierarchy the API and pages turn into responses."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A write refused. ``code`` is stable for clients; ``message`` is for people;
    ``status`` is the HTTP status of the answer that says so (API and pages)."""

    code = "invalid"
    status = 400

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        deal: int | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.deal = deal
        self.details = details or {}


class InvalidInput(ServiceError):
    """The input breaks a rule (of the game, or of the club's data)."""

    code = "invalid"
    status = 400


class NotAllowed(ServiceError):
    """The caller may not do this."""

    code = "permission_denied"
    status = 403


class NotFound(ServiceError):
    """What was asked for does not exist (or is not the caller's to see)."""

    code = "not_found"
    status = 404


class Conflict(ServiceError):
    """The data moved on: e.g. the deal number is already recorded."""

    code = "conflict"
    status = 409


class StaleVersion(ServiceError):
    """An edit was based on a version that is no longer the current one."""

    code = "stale_version"
    status = 412


class IdempotencyMismatch(ServiceError):
    """An idempotency key reused with a different request."""

    code = "idempotency_key_reused"
    status = 422
