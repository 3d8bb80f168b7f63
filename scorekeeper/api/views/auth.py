"""Tokens: issued for a username and password (rate limited), revoked."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from rest_framework import status
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from .. import serializers as s
from ..limits import TokenThrottle
from ..tokens import token_issue, token_revoke
from .base import ApiView, operation, responds

# --- Auth -------------------------------------------------------------------------------------


class TokenView(ApiView):
    tag = "auth"

    # POST: a token for a username and password. DELETE: revoke the caller's.

    throttle_scope = "auth_token"

    def get_permissions(self) -> Sequence[BasePermission]:
        if self.request.method == "POST":
            return [AllowAny()]
        return [IsAuthenticated()]

    def get_throttles(self) -> list[BaseThrottle]:
        if self.request.method == "POST":
            return [TokenThrottle()]
        return []

    @operation(
        "auth_token_issue", responds(200, s.TokenOutput, 400, 429), request=s.TokenInput, auth=[]
    )
    def post(self, request: Request) -> Response:
        """Log in: get an API token"""
        data = self.parse(s.TokenInput, request.data)
        token = token_issue(request=request._request, **data)
        return Response(s.TokenOutput({"token": token.key, "username": token.user.username}).data)

    @operation("auth_token_revoke", responds(204, None, 401), request=None)
    def delete(self, request: Request) -> Response:
        """Log out: revoke the caller's token (every device using it)"""
        assert isinstance(request.user, User)
        token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
