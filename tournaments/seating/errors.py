"""The one error the seating engine raises for bad input."""

from __future__ import annotations


class SeatingError(ValueError):
    """Bad input: ``field`` names the argument (``"players"``, ``"sizes"``, ...)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "message": self.message}
