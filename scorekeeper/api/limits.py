"""Rate limits of the API, counted in the shared cache (``CACHES["default"]``: Redis when
``CACHE_URL`` names one, the database otherwise), so every worker process counts the same
requests. A client is known by its address as DRF reads it: ``REMOTE_ADDR``, or the entry
of ``X-Forwarded-For`` added by the last of ``NUM_PROXIES`` trusted proxies (with
``NUM_PROXIES=0`` the header is ignored, so a client cannot pick a new address for each
request).

* ``auth_token`` (``API_TOKEN_RATE``): asking for a token with a username and password.
* ``bad_token`` (``API_BAD_TOKEN_RATE``): sending a token that does not exist. Once an
  address has sent that many, its token requests are answered 429 until the window passes,
  so tokens cannot be guessed either.

When the cache cannot be reached, requests are let through and the failure is logged: a
cache outage must not lock every player out of their game.
"""

from __future__ import annotations

import logging
from typing import Any

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

logger = logging.getLogger(__name__)


class TokenThrottle(ScopedRateThrottle):
    """The rate of the view's ``throttle_scope``, per client address."""

    scope_attr = "throttle_scope"

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception:  # the cache is away: let the request through
            logger.warning("rate limit not checked: the cache cannot be reached", exc_info=True)
            return True


class FailureCount(SimpleRateThrottle):
    """Failures of one kind per client address in a sliding window: checked before an
    attempt, and counted only when the attempt fails."""

    num_requests: int
    duration: int

    def __init__(self, scope: str) -> None:
        self.scope = scope
        super().__init__()

    def get_cache_key(self, request: Request, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def _load(self, request: Request) -> None:
        self.key = self.get_cache_key(request, None)
        self.now = self.timer()
        history = self.cache.get(self.key, [])
        self.history = [t for t in history if t > self.now - self.duration]

    def exceeded(self, request: Request) -> bool:
        try:
            self._load(request)
        except Exception:
            logger.warning("rate limit not checked: the cache cannot be reached", exc_info=True)
            return False
        return bool(len(self.history) >= self.num_requests)

    def record(self, request: Request) -> None:
        try:
            self._load(request)
            self.history.insert(0, self.now)
            self.cache.set(self.key, self.history, self.duration)
        except Exception:
            logger.warning("failure not counted: the cache cannot be reached", exc_info=True)


class LimitedTokenAuthentication(TokenAuthentication):
    """DRF's token authentication, with a limit on unknown tokens per address."""

    def authenticate(self, request: Request) -> Any:
        failures = FailureCount("bad_token")
        if failures.exceeded(request) and self._sends_token(request):
            raise exceptions.Throttled(wait=failures.wait())
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            failures.record(request)
            raise

    def _sends_token(self, request: Request) -> bool:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        return bool(header.split(" ", 1)[0].lower() == self.keyword.lower())
