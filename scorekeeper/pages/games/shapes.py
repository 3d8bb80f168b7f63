"""What the game page hands a game's page module (:mod:`.base`), by what it is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Context = Mapping[str, Any]  # the next deal's context from the engine (dealer, number, ...)
Options = Mapping[str, Any]  # the game's house rules
Record = Mapping[str, Any]  # a deal as entered (the engine's record)
PastDeal = Mapping[str, Any]  # a recorded deal as the scoresheet has it (record, scores...)
Names = Sequence[str]  # the players' names in seat order
