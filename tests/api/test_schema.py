"""The OpenAPI schema: generates without warnings, and documents every operation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

METHODS = ("get", "post", "put", "patch", "delete")
NO_BODY = {"games_finish", "games_abandon", "auth_token_revoke", "clubs_players_claim"}


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("schema") / "schema.json"
    # --fail-on-warn turns any warning or error of drf-spectacular into a failure.
    call_command(
        "spectacular",
        "--validate",
        "--fail-on-warn",
        "--format",
        "openapi-json",
        "--file",
        str(path),
    )
    return dict(json.loads(Path(path).read_text()))


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in schema["paths"].items()
        if path.startswith("/api/v1/")
        for method, operation in item.items()
        if method in METHODS
    ]


def test_schema_validates_without_warnings(schema: dict[str, Any]) -> None:
    assert schema["openapi"].startswith("3.")
    # The core's own; the tournaments' are counted in tests/tournaments/test_schema.py.
    core = [op for op in operations(schema) if "tournaments" not in op[2].get("tags", [])]
    assert len(core) == 38  # with a season renamed and deleted


def test_every_operation_documents_its_request_and_responses(schema: dict[str, Any]) -> None:
    for path, method, operation in operations(schema):
        where = f"{method.upper()} {path}"
        responses = operation["responses"]
        ok = [code for code in responses if code.startswith("2")]
        assert len(ok) == 1, where
        if ok[0] != "204":
            assert "application/json" in responses[ok[0]]["content"], where
        errors = [code for code in responses if int(code) >= 400]
        assert errors, where
        for code in errors:
            ref = responses[code]["content"]["application/json"]["schema"]["$ref"]
            assert ref == "#/components/schemas/Error", where
        if method in ("post", "put") and operation["operationId"] not in NO_BODY:
            body = operation["requestBody"]["content"]["application/json"]["schema"]
            assert body["$ref"].startswith("#/components/schemas/"), where


def test_schema_documents_the_headers_of_deals(schema: dict[str, Any]) -> None:
    deals = schema["paths"]["/api/v1/games/{game_id}/deals/"]["post"]
    assert "Idempotency-Key" in {p["name"] for p in deals["parameters"]}
    put = schema["paths"]["/api/v1/games/{game_id}/deals/{number}/"]["put"]
    if_match = next(p for p in put["parameters"] if p["name"] == "If-Match")
    assert if_match["in"] == "header" and if_match["required"]
    assert {"412", "428"} <= set(put["responses"])
    assert "ETag" in put["responses"]["200"]["headers"]


def test_error_component_has_the_error_shape(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    assert components["Error"]["required"] == ["error"]
    assert set(components["ErrorDetail"]["properties"]) == {
        "code",
        "message",
        "field",
        "deal",
        "details",
    }


def test_request_bodies_take_only_the_fields_they_name(schema: dict[str, Any]) -> None:
    """The API refuses a field a request does not take: the schema says so."""
    components = schema["components"]["schemas"]
    assert components["SeasonCloseInput"]["additionalProperties"] is False
    assert components["ClubUpdateInput"]["additionalProperties"] is False
    # a nested object too: a registration's new players
    assert components["NewPlayerInput"]["additionalProperties"] is False
    bodies = [
        media["schema"]["$ref"].rsplit("/", 1)[-1]
        for path in schema["paths"].values()
        for operation in path.values()
        for media in operation.get("requestBody", {}).get("content", {}).values()
        if "$ref" in media["schema"]
    ]
    objects = [name for name in bodies if "properties" in components[name]]
    assert len(objects) > 20
    assert all(components[name]["additionalProperties"] is False for name in objects)


def test_a_patch_body_requires_what_its_input_requires(schema: dict[str, Any]) -> None:
    """A season's rename needs its name, a role change its role; a club's update takes
    either of its fields."""
    components = schema["components"]["schemas"]
    assert not [name for name in components if name.startswith("Patched")]

    def body(path: str) -> dict[str, Any]:
        media = schema["paths"][path]["patch"]["requestBody"]["content"]["application/json"]
        return dict(components[media["schema"]["$ref"].rsplit("/", 1)[-1]])

    assert body("/api/v1/seasons/{season_id}/")["required"] == ["name"]
    assert body("/api/v1/clubs/{club_id}/members/{user_id}/")["required"] == ["role"]
    assert "required" not in body("/api/v1/clubs/{club_id}/")


def test_schema_is_served(client: Any) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert "/api/v1/games/{game_id}/deals/" in response.json()["paths"]
