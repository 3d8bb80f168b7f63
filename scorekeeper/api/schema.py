"""How the OpenAPI schema reads the API's views: a view method's docstring is its
operation's summary (the first paragraph) and description (the rest; without one, the
view's docstring as before), and a view's ``tag`` groups its operations. What a method's
``extend_schema`` says outright (``summary=``, ``tags=``...) still wins."""

from __future__ import annotations

import inspect
from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import get_doc


def doc_parts(doc: str | None) -> tuple[str, str]:
    """A docstring's first paragraph and the rest, each on one line: an operation's summary
    and description."""
    summary, _, rest = inspect.cleandoc(doc or "").partition("\n\n")
    return " ".join(summary.split()), " ".join(rest.split())


class Schema(AutoSchema):
    def _method_doc(self) -> tuple[str, str]:
        method: Any = getattr(self.view, getattr(self.view, "action", self.method.lower()), None)
        return doc_parts(get_doc(method) if method else None)

    def get_summary(self) -> str | None:
        return self._method_doc()[0] or None

    def get_description(self) -> str:  # type: ignore[override]  # as drf-spectacular's
        return self._method_doc()[1] or get_doc(self.view.__class__)

    def get_tags(self) -> list[str]:
        tag = getattr(self.view, "tag", None)
        return [tag] if tag else super().get_tags()


#: What a client does next with what it has just made: OpenAPI links from each creating
#: operation's answer to the operations on the new object (``{parameter: where it comes
#: from}``). Clients and the API's fuzzing (schemathesis, stateful) follow them.
_BODY_ID = "$response.body#/id"
LINKS: dict[str, dict[str, dict[str, str]]] = {
    "clubs_create": {
        op: {"club_id": _BODY_ID}
        for op in (
            "clubs_retrieve",
            "clubs_members_list",
            "clubs_players_list",
            "clubs_players_create",
            "clubs_seasons_list",
            "clubs_seasons_create",
            "clubs_tournaments_list",
            "clubs_tournaments_create",
            "clubs_invitations_list",
            "clubs_invitations_create",
        )
    },
    "clubs_players_create": {
        op: {"club_id": "$request.path.club_id", "player_id": _BODY_ID}
        for op in ("clubs_players_update", "clubs_players_claim", "clubs_players_link")
    },
    "clubs_invitations_create": {
        "clubs_invitations_revoke": {
            "club_id": "$request.path.club_id",
            "invitation_id": _BODY_ID,
        },
    },
    "clubs_seasons_create": {
        op: {"season_id": _BODY_ID} for op in ("seasons_standings", "seasons_close")
    },
    "clubs_tournaments_create": {
        op: {"tournament_id": _BODY_ID}
        for op in (
            "tournaments_retrieve",
            "tournaments_registrations_list",
            "tournaments_registrations_create",
            "tournaments_rounds_list",
            "tournaments_rounds_create",
            "tournaments_standings",
        )
    },
    "tournaments_rounds_create": {
        op: {"tournament_id": "$request.path.tournament_id", "number": "$response.body#/number"}
        for op in (
            "tournaments_rounds_retrieve",
            "tournaments_rounds_tables_list",
            "tournaments_rounds_publish",
            "tournaments_rounds_close",
        )
    },
    "games_create": {
        op: {"game_id": _BODY_ID}
        for op in (
            "games_retrieve",
            "games_deals_list",
            "games_deals_create",
            "games_finish",
            "games_abandon",
            "games_undo",
        )
    },
    "games_deals_create": {
        op: {"game_id": "$request.path.game_id", "number": "$response.body#/number"}
        for op in ("games_deals_retrieve", "games_deals_correct", "games_deals_history")
    },
}
_CREATED = ("201", "202")


def add_links(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the :data:`LINKS` on each creating operation's
    success answer. A link to an operation the schema does not have is an error here, so the
    table cannot drift from the API."""
    operations = {
        operation["operationId"]: operation
        for path in result["paths"].values()
        for operation in path.values()
    }
    for source, targets in LINKS.items():
        missing = [op for op in (source, *targets) if op not in operations]
        if missing:
            raise LookupError(f"OpenAPI links name operations the API lacks: {missing}")
        answers = operations[source]["responses"]
        answer = next(answers[code] for code in _CREATED if code in answers)
        answer["links"] = {
            target: {"operationId": target, "parameters": parameters}
            for target, parameters in targets.items()
        }
    return result


def closed_bodies(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: a request body's objects, its own and those
    nested in it (e.g. the new players of a registration), take only the fields they name
    (``additionalProperties: false``), as the API answers: a field a request does not take
    is refused with 400 (``fields.StrictInput``, whose subclasses all inputs are), not
    ignored."""
    components = result.get("components", {}).get("schemas", {})
    seen: set[str] = set()

    def close(schema: Any) -> None:
        if isinstance(schema, list):
            for item in schema:
                close(item)
            return
        if not isinstance(schema, dict):
            return
        ref = schema.get("$ref", "")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            if name not in seen and name in components:
                seen.add(name)
                component = components[name]
                if component.get("type") == "object" and "properties" in component:
                    component.setdefault("additionalProperties", False)
                close(component)
            return
        for value in schema.values():
            close(value)

    for path in result["paths"].values():
        for operation in path.values():
            if isinstance(operation, dict):
                close(operation.get("requestBody", {}))
    return result
