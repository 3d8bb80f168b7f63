"""The API against its own OpenAPI schema, fuzzed with schemathesis: every operation, with
data the schema allows and data it does not, as a club admin with a token. No answer may be
a server error, break the schema, or accept what the schema says is invalid."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.helpers import World

CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    negative_data_rejection,
    status_code_conformance,
    content_type_conformance,
]


def _load() -> Any:
    from scorekeeper.wsgi import application

    loaded = schemathesis.openapi.from_wsgi("/api/schema/", application)
    loaded.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
    return loaded


schema = _load()


@pytest.fixture(autouse=True)
def _connection_kept_open() -> Iterator[None]:
    """Called as WSGI, the app would close the test's database connection after each
    request; Django's test client keeps it open the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_api_keeps_to_its_schema(case: Any, world: World) -> None:
    from rest_framework.authtoken.models import Token

    token, _ = Token.objects.get_or_create(user=world.users["admin"])
    case.call_and_validate(headers={"Authorization": f"Token {token.key}"}, checks=CHECKS)
