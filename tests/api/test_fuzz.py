"""The API against its own OpenAPI schema, fuzzed with schemathesis: every operation, with
data the schema allows and data it does not, as a club admin with a token. No answer may be
a server error, break the schema, or accept what the schema says is invalid."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
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


def test_the_api_keeps_to_its_schema_through_linked_calls(world: World) -> None:
    """Stateful: sequences of calls that follow the schema's links (a club made, then its
    players, seasons and tournaments; a game started, then its deals, corrections, undo,
    finish), each answer checked as above."""
    from rest_framework.authtoken.models import Token

    token, _ = Token.objects.get_or_create(user=world.users["admin"])
    headers = {"Authorization": f"Token {token.key}"}
    calls: list[str] = []

    class Workflow(schema.as_state_machine()):  # type: ignore[misc]
        # Each sequence starts from the same data: what one made is rolled back after it
        # (otherwise a club's slug taken by an earlier sequence makes the same call fail).
        def setup(self) -> None:
            self.saved = transaction.atomic()
            self.saved.__enter__()

        def teardown(self) -> None:
            transaction.set_rollback(True)
            self.saved.__exit__(None, None, None)

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"headers": headers}

        def after_call(self, response: Any, case: Any) -> None:
            calls.append(f"{case.method} {case.path} {response.status_code}")

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            case.validate_response(response, checks=CHECKS)

    Workflow.run(
        settings=settings(
            max_examples=20,
            stateful_step_count=6,
            deadline=None,
            # CI runs the same sequences every time (a failure there is one to mend, not
            # luck); elsewhere each run tries new ones.
            derandomize=bool(os.environ.get("CI")),
            suppress_health_check=list(HealthCheck),
        )
    )
    # The links were followed: calls on objects made earlier in the same sequence succeeded.
    followed = [c for c in calls if "{" in c.split()[1] and c.endswith(("200", "201", "202"))]
    assert followed, calls[:20]
