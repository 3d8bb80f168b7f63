"""``{{ value|points }}``: tournament points as the standings show them, one format
everywhere: whole numbers, with ½, ¼, ¾, ⅓ or ⅔ where the value is exactly that
(points are kept to three decimals, so 0.333 is a third), else one decimal; a real minus
sign. 2 → "2", 0.5 → "½", 1.75 → "1¾", 2.667 → "2⅔", 0.583 → "0.6", −1.5 → "−1½"."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django import template

register = template.Library()

MINUS = "\u2212"
FRACTIONS = {
    Decimal("0.5"): "½",
    Decimal("0.25"): "¼",
    Decimal("0.75"): "¾",
    Decimal("0.333"): "⅓",
    Decimal("0.667"): "⅔",
}


@register.filter
def points(value: object) -> str:
    """Tournament points in the one format of the standings ("" for no value)."""
    if value is None or value == "" or isinstance(value, bool):
        return ""
    try:
        amount = Decimal(str(value)).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
    except (InvalidOperation, ValueError):
        return str(value)
    sign = MINUS if amount < 0 else ""
    amount = abs(amount)
    whole = int(amount)
    part = amount - whole
    if not part:
        text = str(whole)
    elif part in FRACTIONS:
        text = f"{whole or ''}{FRACTIONS[part]}"
    else:
        text = str(amount.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
    return f"{sign}{text}" if text != "0" else "0"
