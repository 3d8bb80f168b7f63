"""Every tournament operation is in the OpenAPI schema (which stays free of warnings:
tests/api/test_schema.py generates it with --fail-on-warn and checks every operation's
request and error responses)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

T = "/api/v1/tournaments/{tournament_id}/"
R = T + "rounds/{number}/"
C = "/api/v1/clubs/{club_id}/tournaments/"
# Each path's operations: method -> operationId.
OPERATIONS = {
    C: {"get": "clubs_tournaments_list", "post": "clubs_tournaments_create"},
    T: {"get": "tournaments_retrieve"},
    T + "registrations/": {
        "get": "tournaments_registrations_list",
        "post": "tournaments_registrations_create",
    },
    T + "registrations/check-in/": {"post": "tournaments_check_in"},
    T + "registrations/check-out/": {"post": "tournaments_check_out"},
    T + "registrations/withdraw/": {"post": "tournaments_withdraw"},
    T + "rounds/": {"get": "tournaments_rounds_list", "post": "tournaments_rounds_create"},
    R: {"get": "tournaments_rounds_retrieve"},
    R + "publish/": {"post": "tournaments_rounds_publish"},
    R + "close/": {"post": "tournaments_rounds_close"},
    R + "swap/": {"post": "tournaments_rounds_swap"},
    R + "tables/": {"get": "tournaments_rounds_tables_list"},
    R + "tables/{table}/confirm/": {"post": "tournaments_rounds_tables_confirm"},
    R + "tables/{table}/reopen/": {"post": "tournaments_rounds_tables_reopen"},
    T + "standings/": {"get": "tournaments_standings"},
}
EXPECTED = {
    (path, method): operation_id
    for path, operations in OPERATIONS.items()
    for method, operation_id in operations.items()
}


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("schema") / "schema.json"
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json", "--file", path
    )
    return dict(json.loads(Path(path).read_text()))


def test_every_tournament_operation_is_documented(schema: dict[str, Any]) -> None:
    found = {
        (path, method): operation["operationId"]
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if "tournaments" in operation.get("tags", [])
    }
    assert found == EXPECTED
    seat = schema["paths"][T + "rounds/"]["post"]["responses"]
    assert "202" in seat and "200" not in seat
    round_schema = schema["components"]["schemas"]["RoundOutput"]["properties"]
    assert {"seating_status", "seating_progress"} <= set(round_schema)
    standings = schema["paths"][T + "standings/"]["get"]
    assert "public" in standings["description"]
