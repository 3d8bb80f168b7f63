"""The one error type of the rules engine."""

from __future__ import annotations

from typing import Any


class RuleError(ValueError):
    """A game record or deal that breaks the rules.

    ``deal`` is the 0-based index of the deal in the record (``None`` when the
    problem is with the record itself), ``field`` names the part of the record
    or deal that is wrong (``"tricks"``, ``"bids[2]"``, ``"options.limit"``;
    ``"record"`` or ``"deal"`` when it is the whole record or deal),
    and ``message`` says, in words a player understands, which rule is broken.
    """

    def __init__(self, message: str, *, field: str = "record", deal: int | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.deal = deal

    def at_deal(self, deal: int) -> RuleError:
        """The same error, placed at deal index ``deal``."""
        return RuleError(self.message, field=self.field, deal=deal)

    def as_dict(self) -> dict[str, Any]:
        return {"deal": self.deal, "field": self.field, "message": self.message}

    def __str__(self) -> str:
        where = []
        if self.deal is not None:
            where.append(f"deal {self.deal + 1}")
        where.append(self.field)
        return f"{', '.join(where)}: {self.message}" if where else self.message

    def __repr__(self) -> str:
        return f"RuleError({self.message!r}, field={self.field!r}, deal={self.deal!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RuleError):
            return NotImplemented
        return (self.message, self.field, self.deal) == (other.message, other.field, other.deal)

    def __hash__(self) -> int:
        return hash((self.message, self.field, self.deal))
