"""Forms of the club administration pages: they check the shape of what was typed; the
services check the rules (and name the field a refusal is about)."""

from __future__ import annotations

from typing import Any

from django import forms

from scorekeeper.errors import ServiceError
from scorekeeper.models import Role
from scorekeeper.services.members import INVITATION_DAYS_MAX, INVITATION_USES_MAX


class ServiceForm(forms.Form):
    def refused(self, error: ServiceError) -> None:
        """Show a service's refusal beside the field it names (or above the form)."""
        self.add_error(error.field if error.field in self.fields else None, error.message)

    def add_error(self, field: str | None, error: Any) -> None:
        """Each error also puts the focus (``autofocus``) on the first field with one, or on
        the first field for an error about the whole form: the browser scrolls the form
        there when the page comes back, even with JavaScript off, so the error is seen
        where it is however far down the page the form is."""
        super().add_error(field, error)
        for bound in self.visible_fields():
            bound.field.widget.attrs.pop("autofocus", None)
        first = next((b for b in self.visible_fields() if b.errors), None)
        first = first or next(iter(self.visible_fields()), None)
        if first is not None:
            first.field.widget.attrs["autofocus"] = True


class ClubForm(ServiceForm):
    name = forms.CharField(label="Club name", max_length=120)
    slug = forms.SlugField(
        label="Address",
        max_length=60,
        help_text=(
            "Letters, digits, hyphens and underscores: the club's pages are at /c/<address>/."
        ),
        error_messages={
            "invalid": "The address may hold only letters, digits, hyphens and underscores "
            "(no spaces), e.g. kings-arms."
        },
    )
    results_public = forms.BooleanField(
        label="Anyone may read the standings (no sign-in needed)", required=False
    )


class ClubSettingsForm(ServiceForm):
    name = ClubForm.base_fields["name"]
    results_public = ClubForm.base_fields["results_public"]


class InvitationForm(ServiceForm):
    role = forms.ChoiceField(label="Joins as", choices=Role.choices, initial=Role.MEMBER)
    days = forms.IntegerField(
        label="Valid for (days)", min_value=1, max_value=INVITATION_DAYS_MAX, initial=7
    )
    max_uses = forms.IntegerField(
        label="How many people may use it",
        min_value=1,
        max_value=INVITATION_USES_MAX,
        initial=1,
    )
    email = forms.EmailField(
        label="Send it to (email, optional)", required=False, help_text="Or share the link."
    )

    def __init__(self, *args: Any, roles: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["role"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = roles


class RoleForm(ServiceForm):
    role = forms.ChoiceField(choices=Role.choices)


class PlayerForm(ServiceForm):
    name = forms.CharField(label="Name", max_length=100)


class SeasonForm(ServiceForm):
    name = forms.CharField(label="Season name", max_length=100)
    starts_on = forms.DateField(label="First day", widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label="Last day", widget=forms.DateInput(attrs={"type": "date"}))


class PlayerChoiceForm(ServiceForm):
    """Two of the roster's players (merge), or a player and a member (link)."""

    player = forms.TypedChoiceField(label="Player", coerce=int)
    other = forms.TypedChoiceField(label="Into", coerce=int)

    def __init__(
        self,
        *args: Any,
        players: list[tuple[int, str]],
        others: list[tuple[int, str]],
        other_label: str,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        player, other = self.fields["player"], self.fields["other"]
        assert isinstance(player, forms.ChoiceField) and isinstance(other, forms.ChoiceField)
        player.choices = players
        other.choices = others
        other.label = other_label


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label="Your password",
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class VerificationResendForm(forms.Form):
    email = forms.EmailField(
        label="Your email address",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
