"""Forms of the tournament pages. The services decide what is valid; these only turn the
POST into the services' arguments (and put the services' refusals beside the fields)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.db.models import QuerySet

from rules_engine import Game as GameRules
from scorekeeper.models import Player
from scorekeeper.pages.club_forms import OptionControl, option_controls, place_option_error
from scorekeeper.pages.club_forms import read_options as read_option_controls

from ..models import (
    MAX_ROUNDS,
    ByeScore,
    PointsSystem,
    RoundKind,
    SeatingMethod,
    Tournament,
)

# Fields that apply only to some choices: (the select they depend on, its values, a note
# shown beside them). Without JavaScript every field shows with its note; with it, the
# page hides those that do not apply. The server ignores them when they do not apply.
APPLIES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "round_deals": ("round_kind", (RoundKind.DEALS,), "Only for rounds of a number of deals."),
    "round_minutes": ("round_kind", (RoundKind.TIME,), "Only for timed rounds."),
    "grace_minutes": ("round_kind", (RoundKind.TIME,), "Only for timed rounds."),
    "placing_points": (
        "points_system",
        (PointsSystem.PLACING,),
        "Only for points by a placing table.",
    ),
    "bye_points": ("bye_score", (ByeScore.FIXED,), "Only when a bye scores a fixed amount."),
}
# House rules the round replaces: a round of deals ends the game there.
OPTION_APPLIES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "finish": (
        "round_kind",
        (RoundKind.GAME, RoundKind.TIME),
        "Only for rounds of a whole game or of a time limit (a round of deals ends the "
        "game after its deals).",
    ),
}


def applies_when(rule: tuple[str, tuple[str, ...], str]) -> str:
    """The rule as the script reads it: "round_kind=deals" or "round_kind=game,time"."""
    return f"{rule[0]}={','.join(str(v) for v in rule[1])}"


class TournamentForm(forms.Form):
    """A tournament's settings: its rounds, seating, scoring, and the game's house rules (the
    controls generated from the engine, as on the new-game page)."""

    name = forms.CharField(max_length=120)
    rounds = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, initial=3)
    round_kind = forms.ChoiceField(
        choices=RoundKind.choices, initial=RoundKind.DEALS, label="A round is"
    )
    round_deals = forms.IntegerField(
        min_value=1, max_value=500, required=False, initial=6, label="Deals in a round"
    )
    round_minutes = forms.IntegerField(
        min_value=1, max_value=600, required=False, label="Minutes in a round"
    )
    grace_minutes = forms.IntegerField(
        min_value=0,
        max_value=120,
        initial=10,
        required=False,
        label="Minutes to finish the deal in progress",
    )
    seating_method = forms.ChoiceField(
        choices=SeatingMethod.choices, initial=SeatingMethod.NEW_OPPONENTS
    )
    points_system = forms.ChoiceField(choices=PointsSystem.choices, initial=PointsSystem.OPPONENTS)
    table_size = forms.TypedChoiceField(coerce=int)
    mixed_sizes = forms.BooleanField(
        required=False, label="Mix table sizes rather than give byes (3 to 6 players)"
    )
    rated = forms.BooleanField(
        required=False, initial=True, label="Its games count for the club's ratings"
    )
    placing_points = forms.CharField(
        required=False,
        initial="3, 1, 0",
        label="Placing points, first place first",
    )
    bye_score = forms.ChoiceField(
        choices=ByeScore.choices, initial=ByeScore.AVERAGE, required=False, label="A bye scores"
    )
    bye_points = forms.DecimalField(
        min_value=0,
        max_value=1000,
        decimal_places=2,
        initial=0,
        required=False,
        label="Fixed amount for a bye",
    )

    def __init__(
        self,
        rules: GameRules,
        data: Mapping[str, Any] | None = None,
        tournament: Tournament | None = None,
    ) -> None:
        """A new tournament's form, or (``tournament``) one holding its settings."""
        super().__init__(data, initial=None if tournament is None else self.settings_of(tournament))
        self.rules = rules
        field = self.fields["table_size"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(n, f"{n} players") for n in rules.player_counts]
        field.initial = rules.table_size
        current = None if tournament is None else tournament.options
        self.controls: list[OptionControl] = option_controls(rules, data, current)
        self.option_errors = False

    # The fields that show the tournament's attribute of the same name as it is.
    SAME_AS_STORED = (
        "name",
        "round_kind",
        "round_deals",
        "round_minutes",
        "grace_minutes",
        "seating_method",
        "points_system",
        "table_size",
        "mixed_sizes",
        "rated",
        "bye_score",
        "bye_points",
    )

    @classmethod
    def settings_of(cls, tournament: Tournament) -> dict[str, Any]:
        return {
            **{name: getattr(tournament, name) for name in cls.SAME_AS_STORED},
            "rounds": tournament.rounds_planned,
            "placing_points": ", ".join(f"{p:g}" for p in tournament.placing_points),
            "bye_points": f"{tournament.bye_points.normalize():f}",  # 1.5, not 1.500
        }

    def service_arguments(self, options: dict[str, Any]) -> dict[str, Any]:
        """The cleaned form as the tournament services' keyword arguments."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "rounds": data["rounds"],
            "round_kind": data["round_kind"],
            "round_deals": data["round_deals"],
            "round_minutes": data["round_minutes"],
            "grace_minutes": 10 if data["grace_minutes"] is None else data["grace_minutes"],
            "seating_method": data["seating_method"],
            "points_system": data["points_system"],
            "placing_points": data["placing_points"],
            "table_size": data["table_size"],
            "mixed_sizes": data["mixed_sizes"] and len(self.rules.player_counts) > 1,
            "rated": data["rated"],
            "bye_score": data["bye_score"] or ByeScore.AVERAGE,
            "bye_points": data["bye_points"] or 0,
            "options": options,
        }

    def clean_placing_points(self) -> list[float] | None:
        text = self.cleaned_data.get("placing_points") or ""
        if not text.strip():
            return None
        try:  # 3, 1, 0 or 3/1/0 (as the choice of points shows it)
            values = [float(part) for part in re.split(r"[,;/\s]+", text.strip()) if part]
        except ValueError:
            values = []
        if not values:
            raise forms.ValidationError(
                "placing points are numbers separated by commas, e.g. 3, 1, 0 (or 3/1/0)"
            )
        return values  # how large they may be is the service's rule (said beside this field)

    def chosen(self, name: str) -> str:
        """A select's value as posted (or its initial value)."""
        if self.is_bound and name in self.data:
            return str(self.data.get(name))
        return str(self.initial.get(name, self.fields[name].initial))

    def applies(self, name: str) -> bool:
        rule = APPLIES.get(name) or OPTION_APPLIES.get(name)
        return rule is None or self.chosen(rule[0]) in rule[1]

    def clean(self) -> dict[str, Any]:
        """Fields that do not apply to the choices made are ignored, errors and all."""
        cleaned = super().clean() or {}
        for name in APPLIES:
            if not self.applies(name):
                self.errors.pop(name, None)
                cleaned[name] = None
        return cleaned

    def read_options(self) -> dict[str, Any] | None:
        controls = [c for c in self.controls if self.applies(c.name)]
        options = read_option_controls(controls)
        self.option_errors = options is None
        return options

    def option_rows(self) -> list[tuple[OptionControl, str, str]]:
        """Each house-rule control with when it applies (and its note), for the page."""
        rows = []
        for control in self.controls:
            rule = OPTION_APPLIES.get(control.name)
            rows.append((control, applies_when(rule) if rule else "", rule[2] if rule else ""))
        return rows

    def field_rows(self, *names: str) -> list[tuple[forms.BoundField, str, str]]:
        rows = []
        for name in names:
            rule = APPLIES.get(name)
            rows.append((self[name], applies_when(rule) if rule else "", rule[2] if rule else ""))
        return rows

    def service_error(self, field: str | None, message: str) -> None:
        """A service's refusal, beside the field it names (at the top when none fits)."""
        field = field or ""
        if field.startswith("options") and place_option_error(self.controls, field, message):
            self.option_errors = True
            return
        name = field if field in self.fields else None
        self.add_error(name, message)


class PlayersForm(forms.Form):
    """Some of the club's players (from the roster, or among the registered)."""

    players = forms.ModelMultipleChoiceField(queryset=Player.objects.none())
    check_in = forms.BooleanField(required=False)

    def __init__(self, queryset: QuerySet[Player], data: Mapping[str, Any] | None = None) -> None:
        super().__init__(data)
        field = self.fields["players"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = queryset
        field.error_messages["required"] = "Choose at least one player."


class NewPlayerForm(forms.Form):
    """Someone on the spot: onto the club's roster and into the tournament."""

    name = forms.CharField(max_length=100)
    email = forms.EmailField(required=False, label="Email")
    check_in = forms.BooleanField(required=False)


class SwapForm(forms.Form):
    """Two players of a seated round (the dashboard's "Swap … with …")."""

    first = forms.ModelChoiceField(queryset=Player.objects.none(), label="Swap")
    second = forms.ModelChoiceField(queryset=Player.objects.none(), label="Swap with")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        first, second = cleaned.get("first"), cleaned.get("second")
        if first is not None and first == second:
            # said beside the second choice, the one to change
            self.add_error(
                "second",
                forms.ValidationError(
                    f"{first.name} is chosen twice; choose two different players to swap.",
                    code="same_player",
                ),
            )
        return cleaned

    def __init__(self, queryset: QuerySet[Player], data: Mapping[str, Any] | None = None) -> None:
        super().__init__(data)
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = queryset
            field.error_messages["required"] = "Choose a player of the round."
            field.error_messages["invalid_choice"] = "Choose a player of the round."


class AnnouncementForm(forms.Form):
    text = forms.CharField(max_length=300, label="Message to every table")
