"""The rules assistant: who won a trick, why, and whether a play was a revoke.

The whist rule common to the four games lives here: follow suit if you can; the highest
trump wins, else the highest card of the suit led. How a game differs is said by its own
module, in :meth:`rules_engine.core.Game.trick_rules`: its pack, its trumps, a rank
stipulated high and an ace that counts low when led (Third Hand), the jokers (Italian
whist), a house rule that a player with no card of the suit led must trump (widow whist).

The jokers follow the Italian whist text (``seeds/003``): the red joker is a heart or a
diamond, the black a spade or a club. Played on a lead of its colour it follows as the
suit led. Led, its suit is set by the next card of its colour; when none is played its
suit does not matter and it wins unless a trump beats it. Played on a lead of the other
colour, it takes the suit of the other card of its colour in the trick (the source names
the third card; we read the second alike), and with none its player chooses either suit.
A joker takes the value of any card of its suit not in the trick, chosen by its player
when the trick is complete. Where such a choice decides the trick, the verdict lists the
choices and who wins with each rather than guessing.
"""

from rules_engine.tricks.plays import (
    RANK_WORDS,
    SINGULAR,
    Joker,
    TrickRules,
    pack_cards,
    parse_play,
    parse_trump,
    trump_note,
)
from rules_engine.tricks.request import TRICK_KEYS, TrickDetails, TrickGame, judge_trick
from rules_engine.tricks.verdict import CardVerdict, Choice, Revoke, Verdict

__all__ = [
    "RANK_WORDS",
    "SINGULAR",
    "TRICK_KEYS",
    "CardVerdict",
    "Choice",
    "Joker",
    "Revoke",
    "TrickDetails",
    "TrickGame",
    "TrickRules",
    "Verdict",
    "judge_trick",
    "pack_cards",
    "parse_play",
    "parse_trump",
    "trump_note",
]
