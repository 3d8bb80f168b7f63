"""Forms of the tournament pages. The services decide what is valid; these only turn the
POST into the services' arguments (and put the services' refusals beside the fields)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.db.models import QuerySet

from rules_engine import Game as GameRules
from scorekeeper.models import Player
from scorekeeper.pages.club_forms import OptionControl, option_controls, place_option_error
from scorekeeper.pages.club_forms import read_options as read_option_controls

from ..models import MAX_ROUNDS, ByeScore, PointsSystem, RoundKind, SeatingMethod


class TournamentForm(forms.Form):
    """A new tournament: its rounds, seating, scoring, and the game's house rules (the
    controls generated from the engine, as on the new-game page)."""

    name = forms.CharField(max_length=120)
    rounds = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, initial=3)
    round_kind = forms.ChoiceField(choices=RoundKind.choices, initial=RoundKind.DEALS)
    round_deals = forms.IntegerField(min_value=1, max_value=500, required=False, initial=6)
    round_minutes = forms.IntegerField(min_value=1, max_value=600, required=False)
    grace_minutes = forms.IntegerField(
        min_value=0,
        max_value=120,
        initial=10,
        required=False,
        label="Minutes to finish the deal in progress (timed rounds)",
    )
    seating_method = forms.ChoiceField(
        choices=SeatingMethod.choices, initial=SeatingMethod.NEW_OPPONENTS
    )
    points_system = forms.ChoiceField(choices=PointsSystem.choices, initial=PointsSystem.OPPONENTS)
    table_size = forms.TypedChoiceField(coerce=int)
    mixed_sizes = forms.BooleanField(
        required=False, label="Mix table sizes rather than give byes (3 to 6 players)"
    )
    placing_points = forms.CharField(
        required=False,
        initial="3, 1, 0",
        label="Placing points, first place first (placing table only)",
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
        self, rules: GameRules, data: Mapping[str, Any] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(data, **kwargs)
        self.rules = rules
        field = self.fields["table_size"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(n, f"{n} players") for n in rules.player_counts]
        field.initial = rules.table_size
        self.controls: list[OptionControl] = option_controls(rules, data)
        self.option_errors = False

    def clean_placing_points(self) -> list[float] | None:
        text = self.cleaned_data.get("placing_points") or ""
        if not text.strip():
            return None
        try:
            return [float(part) for part in text.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(
                "placing points are numbers separated by commas, e.g. 3, 1, 0"
            ) from None

    def read_options(self) -> dict[str, Any] | None:
        options = read_option_controls(self.controls)
        self.option_errors = options is None
        return options

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
    email = forms.EmailField(required=False)
    check_in = forms.BooleanField(required=False)


class SwapForm(forms.Form):
    first = forms.ModelChoiceField(queryset=Player.objects.none())
    second = forms.ModelChoiceField(queryset=Player.objects.none())

    def __init__(self, queryset: QuerySet[Player], data: Mapping[str, Any] | None = None) -> None:
        super().__init__(data)
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = queryset
