"""The one format of tournament points on the pages (the ``points`` template filter)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from django.template import Context, Template

from tournaments.templatetags.tournament_points import points


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (0, "0"),
        (1, "1"),
        (12, "12"),
        (Decimal("0.500"), "½"),
        (Decimal("1.500"), "1½"),
        (0.25, "¼"),
        (Decimal("2.750"), "2¾"),
        (Decimal("0.333"), "⅓"),
        (Decimal("2.667"), "2⅔"),
        (float(Fraction(1, 3)), "⅓"),
        (Decimal("0.583"), "0.6"),  # 1/3 + 1/4: no glyph, one decimal
        (Decimal("1.167"), "1.2"),
        (Decimal("0.950"), "1.0"),  # not quite 1: still one decimal, never "1"
        (Decimal("3.000"), "3"),
        (-2, "\u22122"),
        (Decimal("-1.500"), "\u22121½"),
        (Decimal("-0.000"), "0"),
        ("0.500", "½"),
        (None, ""),
    ],
)
def test_points_have_one_format(value: object, shown: str) -> None:
    assert points(value) == shown


def test_the_filter_is_available_to_templates() -> None:
    template = Template("{% load tournament_points %}{{ a|points }} {{ b|points }}")
    assert template.render(Context({"a": Decimal("0.500"), "b": 1})) == "½ 1"
