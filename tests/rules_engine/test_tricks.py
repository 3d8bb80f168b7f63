"""The rules assistant: who won a trick, for each game's rules and the seed texts' examples.

Every expected winner is worked out by hand from RULES.md and the seed texts it cites
(``seeds/000``, ``001``, ``002``, ``003``, ``004``); the reasoning is in the comments.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules_engine import GAMES, RuleError, judge_request, judge_trick

REPO_ROOT = Path(__file__).resolve().parents[2]
ANN_BOB_CY = ["Ann", "Bob", "Cy"]


def judge(game: str, cards: list[str], **context: Any) -> dict[str, Any]:
    return judge_request({"game": game, "cards": cards, **context}).as_dict()


def refused(game: str, cards: Any, **context: Any) -> RuleError:
    with pytest.raises(RuleError) as caught:
        judge_request({"game": game, "cards": cards, **context})
    return caught.value


# -- prediction whist: seeds/004, "Winning a trick" (trumps hearts, three players) ----------


@pytest.mark.parametrize(
    ("cards", "winner", "why"),
    [
        # No heart in the trick: the highest club (the suit led) wins; aces of other suits
        # cannot.
        (["KC", "AS", "AD"], 0, "the only club"),
        # The 9 of hearts is the only trump.
        (["QS", "9H", "KS"], 1, "the only trump"),
        # Hearts led and trumps: the queen beats the jack; the ace of clubs is a discard.
        (["JH", "QH", "AC"], 1, "the highest trump"),
        # The 8 of diamonds is the only diamond and nobody trumped.
        (["8D", "JS", "QC"], 0, "the only diamond"),
    ],
)
def test_prediction_whist_worked_example(cards: list[str], winner: int, why: str) -> None:
    verdict = judge("prediction_whist", cards, trump="H")
    assert verdict["winner"] == winner
    assert verdict["winning_card"] == cards[winner]
    assert why in verdict["explanation"][-1]


def test_prediction_whist_card_outside_the_pack_is_judged_with_a_note() -> None:
    # Three players play 9..A (RULES.md 4), yet the source's own example plays the 8♦.
    verdict = judge("prediction_whist", ["8D", "JS", "QC"], trump="H")
    assert any("not in the pack" in line for line in verdict["explanation"])
    # Four players: 7..A, so the 7 is in the pack and no note is made.
    verdict = judge("prediction_whist", ["7D", "JS", "QC", "9D"], trump=None)
    assert verdict["winner"] == 3  # 9♦ beats 7♦; no trumps
    assert not any("not in the pack" in line for line in verdict["explanation"])


def test_prediction_whist_no_trumps_and_the_leader_seat() -> None:
    # Seat 2 leads the 10♠; seat 0 (third to play) follows with the A♠ and wins.
    verdict = judge("prediction_whist", ["10S", "KH", "AS"], trump=None, leader=2)
    assert verdict["winner"] == 1  # seats play 2, 0, 1: the A♠ is seat 1's
    assert [card["seat"] for card in verdict["cards"]] == [2, 0, 1]
    assert verdict["winning_card"] == "AS"


def test_prediction_whist_needs_trumps_named() -> None:
    error = refused("prediction_whist", ["10S", "KH", "AS"])
    assert error.field == "trump"


# -- widow whist: clubs always trumps, follow suit, the must-trump house rule -------------


def test_widow_whist_clubs_trump_any_other_suit() -> None:
    # seeds/000: "Clubs are trump and will always take any other suit."
    verdict = judge("widow_whist", ["AH", "2C", "KH"])
    assert verdict["winner"] == 1
    assert verdict["trump"] == "C"


def test_widow_whist_highest_of_the_suit_led() -> None:
    # No club: the highest heart wins, the ace of spades is a discard.
    verdict = judge("widow_whist", ["10H", "AS", "JH"])
    assert verdict["winner"] == 2


def test_widow_whist_trumps_are_clubs_only() -> None:
    assert refused("widow_whist", ["10H", "AS", "JH"], trump="H").field == "trump"
    assert judge("widow_whist", ["10H", "AS", "JH"], trump="C")["winner"] == 2


def test_widow_whist_revoke_when_holding_the_suit_led() -> None:
    # Bob played a spade on a heart lead while holding the 4♥.
    verdict = judge(
        "widow_whist", ["10H", "AS", "JH"], players=ANN_BOB_CY, held=[None, ["AS", "4H"], None]
    )
    assert [(r["seat"], r["card"]) for r in verdict["revokes"]] == [(1, "AS")]
    assert "4♥" in verdict["revokes"][0]["message"]
    assert verdict["follow_suit_checked"] == [1]


def test_widow_whist_void_player_must_trump_only_under_the_house_rule() -> None:
    # Cy has no heart but holds the 3♣ and discards the A♦ (seeds/000, "a rule variation").
    trick = {"cards": ["5H", "2C", "AD"], "held": [None, None, ["AD", "3C", "9S"]]}
    plain = judge("widow_whist", **trick)
    assert plain["revokes"] == []
    strict = judge("widow_whist", **trick, options={"must_trump_when_void": True})
    assert [(r["seat"], r["card"]) for r in strict["revokes"]] == [(2, "AD")]
    assert "must trump" in strict["revokes"][0]["message"]
    # Playing the club satisfies the house rule.
    trumped = judge(
        "widow_whist",
        ["5H", "AD", "3C"],
        held=[None, None, ["3C", "9S"]],
        options={"must_trump_when_void": True},
    )
    assert trumped["revokes"] == []
    assert trumped["winner"] == 2


def test_widow_whist_no_jokers() -> None:
    error = refused("widow_whist", ["5H", "RJ", "AD"])
    assert error.field == "cards[1]"
    assert "without jokers" in error.message


# -- Third Hand: the high rank and the ace (seeds/001, "The Play" and note 2) ------------


def test_third_hand_ace_led_counts_low() -> None:
    # "ace is low when led": the 9♥ following takes it.
    verdict = judge("third_hand", ["AH", "9H"], trump="S")
    assert verdict["winner"] == 1
    assert any("counts low" in line for line in verdict["explanation"])


def test_third_hand_ace_played_second_counts_high() -> None:
    # "high when played second": the ace beats even the stipulated high rank.
    verdict = judge("third_hand", ["JH", "AH"], trump="S", high_rank="J")
    assert verdict["winner"] == 1


def test_third_hand_high_rank_beats_the_king() -> None:
    # Jack high: the order is (A)-J-K-Q-10-9-(A).
    assert judge("third_hand", ["KH", "JH"], trump="S", high_rank="J")["winner"] == 1
    assert judge("third_hand", ["JH", "QH"], trump="S", high_rank="J")["winner"] == 0
    # Nines high: the 9 beats the king, the king still beats the ten.
    assert judge("third_hand", ["KD", "9D"], trump="S", high_rank="9")["winner"] == 1
    assert judge("third_hand", ["10D", "KD"], trump="S", high_rank="9")["winner"] == 1


def test_third_hand_no_contract_kings_high() -> None:
    # No contract: kings are the highest rank; the ace still counts low when led.
    assert judge("third_hand", ["QC", "KC"], trump="S")["winner"] == 1
    assert judge("third_hand", ["AC", "KC"], trump="S", high_rank=None)["winner"] == 1


def test_third_hand_aces_bid_are_high_even_when_led() -> None:
    # "If Ace is high rank then the order is A-K-Q-J-10-9."
    assert judge("third_hand", ["AH", "KH"], trump="S", high_rank="A")["winner"] == 0


def test_third_hand_trumps_and_discards() -> None:
    # A led ace with no heart after it wins; a trump beats it.
    assert judge("third_hand", ["AH", "10D"], trump="S")["winner"] == 0
    assert judge("third_hand", ["AH", "9S"], trump="S")["winner"] == 1
    # The non-dealer (seat 1) led: seats are given, not positions.
    verdict = judge("third_hand", ["QH", "9C"], trump="C", leader=1)
    assert verdict["winner"] == 0


def test_third_hand_pack_and_context_checked() -> None:
    error = refused("third_hand", ["7H", "9H"], trump="S")
    assert error.field == "cards[0]"
    assert "the 7♥ is not in the pack of Third Hand" in error.message
    assert refused("third_hand", ["AH", "9H"]).field == "trump"
    assert refused("third_hand", ["AH", "9H"], trump=None).field == "trump"
    assert refused("third_hand", ["AH", "9H"], trump="S", high_rank="7").field == "high_rank"
    assert refused("third_hand", ["AH", "9H", "KH"], trump="S").field == "cards"


# -- Italian whist: trumps by deal, and the jokers (seeds/003, "Rules concerning jokers") --


def test_italian_whist_trumps_follow_the_deal_number() -> None:
    # Deals 1-3 no trumps, 4-6 spades: the 2♠ on a heart lead trumps in deal 4 only.
    assert judge("italian_whist", ["QH", "2S", "5H"], deal=4)["winner"] == 1
    assert judge("italian_whist", ["QH", "2S", "5H"], deal=1)["winner"] == 0
    assert judge("italian_whist", ["QH", "2S", "5H"], deal=7)["winner"] == 0
    assert refused("italian_whist", ["QH", "2S", "5H"], deal=1, trump="S").field == "trump"
    assert refused("italian_whist", ["QH", "2S", "5H"], trump="H").field == "trump"
    assert refused("italian_whist", ["QH", "2S", "5H"]).field == "trump"


def test_red_joker_follows_a_red_lead_and_takes_a_free_value() -> None:
    # "If either red suit is led, the holder of the red joker can play it to follow suit";
    # "A joker can take on the value of any card of its suit which was not played to the
    # trick": with the K♥ in the trick only the A♥ beats it, so the choice decides.
    verdict = judge("italian_whist", ["QH", "RJ", "KH"], trump=None, players=ANN_BOB_CY)
    assert verdict["winner"] is None
    assert verdict["possible_winners"] == [1, 2]
    by_winner = {c["winner"]: c["jokers"][0] for c in verdict["choices"]}
    assert by_winner[1] == {"seat": 1, "card": "RJ", "suit": "H", "ranks": ["A"]}
    assert by_winner[2]["ranks"] == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J"]
    # First hand: one would normally make it the ace (the source's own example).
    assert "Bob would normally choose" in verdict["explanation"][-1]
    assert "A♥" in verdict["explanation"][-1]


def test_red_joker_cannot_beat_the_real_ace_in_the_trick() -> None:
    # The ace of hearts is in the trick, so the joker's best value is the king: it loses.
    verdict = judge("italian_whist", ["QH", "RJ", "AH"], trump=None)
    assert verdict["winner"] == 2
    assert verdict["choices"] == []


def test_joker_value_choice_in_the_second_hand_prefers_to_lose() -> None:
    verdict = judge("italian_whist", ["QH", "RJ", "KH"], trump=None, half="second")
    assert verdict["winner"] is None
    assert "wants to lose" in verdict["explanation"][-1]
    assert "J♥" in verdict["explanation"][-1] or "from 2 to J" in verdict["explanation"][-1]


def test_led_joker_takes_the_suit_of_the_next_card_of_its_colour() -> None:
    # "If a joker is led, its suit is determined by the next card of the same colour":
    # the 7♣ makes the black joker a club; the 5♥ is off-suit.
    verdict = judge("italian_whist", ["BJ", "5H", "7C"], trump=None)
    assert verdict["cards"][0]["options"] == [
        {"suit": "C", "ranks": ["2", "3", "4", "5", "6", "8", "9", "10", "J", "Q", "K", "A"]}
    ]
    assert verdict["possible_winners"] == [0, 2]  # above the 7 it wins, below it loses


def test_led_joker_with_no_card_of_its_colour_wins() -> None:
    # "If no cards the same colour are played, the joker's suit is irrelevant. It will win
    # the trick..."
    assert judge("italian_whist", ["BJ", "5H", "6H"], deal=4)["winner"] == 0
    assert judge("italian_whist", ["RJ", "5C", "6C"], deal=1)["winner"] == 0


def test_led_red_joker_trumped_by_a_spade() -> None:
    # "... unless it is the red joker and it has been trumped by a spade."
    verdict = judge("italian_whist", ["RJ", "2S", "3C"], deal=5)
    assert verdict["winner"] == 1
    assert verdict["winning_card"] == "2S"


def test_off_colour_joker_takes_the_suit_of_the_third_card() -> None:
    # "If a joker is played on a lead of the opposite colour ... and the third card in
    # the trick is the same colour as the joker, the joker counts as belonging to the suit
    # of the third card": the 5♣ makes the black joker a club; hearts were led and no
    # trumps are in play (deal 4: spades trumps, but there is no spade): the Q♥ wins.
    verdict = judge("italian_whist", ["QH", "BJ", "5C"], deal=4)
    assert verdict["winner"] == 0
    assert verdict["cards"][1]["suit"] == "C"
    # The third card a spade in a spades deal: the joker is a spade too, and the value it
    # is given decides between the two trumps.
    verdict = judge("italian_whist", ["QH", "BJ", "9S"], deal=4)
    assert verdict["cards"][1]["suit"] == "S"
    assert verdict["possible_winners"] == [1, 2]


def test_off_colour_joker_on_an_all_red_trick_lets_its_player_choose() -> None:
    # "If a joker is played to a trick in which both the other cards are the opposite
    # colour ... the player of the joker chooses its suit. This makes a difference only for
    # a black joker played to a red trick when spades are trumps: ... a spade to win the
    # trick in the first hand of a deal, but a club to lose the trick in the second hand."
    first = judge("italian_whist", ["QH", "BJ", "5D"], deal=4, players=ANN_BOB_CY)
    assert first["winner"] is None
    assert {(c["jokers"][0]["suit"], c["winner"]) for c in first["choices"]} == {
        ("S", 1),
        ("C", 0),
    }
    assert "as a spade, Bob wins" in first["explanation"][-1]
    second = judge("italian_whist", ["QH", "BJ", "5D"], deal=4, half="second", players=ANN_BOB_CY)
    assert "as a club, Ann wins" in second["explanation"][-1]
    # No trumps: the choice makes no difference; the Q♥ wins either way.
    assert judge("italian_whist", ["QH", "BJ", "5D"], deal=1)["winner"] == 0


def test_holder_of_the_red_joker_cannot_discard_on_a_red_lead() -> None:
    # "... and cannot discard from any other suit until the red joker has been played."
    verdict = judge(
        "italian_whist",
        ["QH", "5S", "9D"],
        deal=1,
        players=ANN_BOB_CY,
        held=[None, ["5S", "RJ", "2C"], None],
    )
    assert [(r["seat"], r["card"]) for r in verdict["revokes"]] == [(1, "5S")]
    assert "red joker" in verdict["revokes"][0]["message"]
    # Playing the joker follows suit: no revoke.
    fine = judge("italian_whist", ["QH", "RJ", "9D"], deal=1, held=[None, ["5S", "RJ", "2C"], None])
    assert fine["revokes"] == []


def test_off_colour_joker_while_holding_the_suit_led_is_a_revoke() -> None:
    # "(only possible if the player has no card of the suit led and no joker of the colour
    # led)"
    verdict = judge("italian_whist", ["QH", "BJ", "9D"], deal=1, held=[None, ["BJ", "3H"], None])
    assert [(r["seat"], r["card"]) for r in verdict["revokes"]] == [(1, "BJ")]


def test_two_jokers_in_one_trick() -> None:
    # The red joker led, the black one on it, then the 4♥: the red joker is a heart (the
    # 4♥), the black joker chooses (both others red). As a spade (trumps) it wins; as a
    # club the red joker wins above the 4♥ and the 4♥ wins above a lower joker value.
    verdict = judge("italian_whist", ["RJ", "BJ", "4H"], deal=4)
    assert verdict["winner"] is None
    assert verdict["possible_winners"] == [0, 1, 2]


# -- input errors name the field -----------------------------------------------------------


@pytest.mark.parametrize(
    ("trick", "field", "words"),
    [
        ({"game": "whist", "cards": ["AH"]}, "game", "unknown game"),
        ({"game": "widow_whist"}, "cards", "missing"),
        ({"game": "widow_whist", "cards": "AH KH QH"}, "cards", "order played"),
        ({"game": "widow_whist", "cards": ["AH", "KH"]}, "cards", "one card from each"),
        ({"game": "widow_whist", "cards": ["AH", "KH", "AH"]}, "cards[2]", "played twice"),
        ({"game": "widow_whist", "cards": ["AH", "KH", "1X"]}, "cards[2]", "rank then suit"),
        ({"game": "widow_whist", "cards": ["AH", "KH", "QH"], "leader": 3}, "leader", "seat"),
        ({"game": "widow_whist", "cards": ["AH", "KH", "QH"], "half": 1}, "half", "no field"),
        (
            {"game": "widow_whist", "cards": ["AH", "KH", "QH"], "held": [["KH"], None, None]},
            "held[0][0]",
            "played by",
        ),
        (
            {"game": "widow_whist", "cards": ["AH", "KH", "QH"], "held": [None]},
            "held",
            "each of the 3 seats",
        ),
        (
            {"game": "italian_whist", "deal": 1, "cards": ["AH", "KH", "QH"], "half": "third"},
            "half",
            "first",
        ),
        (
            {"game": "prediction_whist", "trump": "X", "cards": ["AH", "KH", "QH"]},
            "trump",
            "suit",
        ),
        (
            {"game": "widow_whist", "cards": ["AH", "KH", "QH"], "options": {"x": 1}},
            "options.x",
            "",
        ),
    ],
)
def test_bad_tricks_are_refused_naming_the_field(
    trick: dict[str, Any], field: str, words: str
) -> None:
    with pytest.raises(RuleError) as caught:
        judge_request(trick)
    assert caught.value.field == field
    assert words in caught.value.message


def test_every_game_judges_a_trick() -> None:
    # A fifth game gets plain whist from the base class until it says otherwise.
    contexts = {
        "widow_whist": {},
        "third_hand": {"trump": "S"},
        "italian_whist": {"deal": 1},
        "prediction_whist": {"trump": None},
    }
    for key, game in GAMES.items():
        count = min(game.player_counts)
        cards = ["AS", "KS", "QS", "JS"][:count]
        verdict = judge_trick(game, contexts[key], cards, players=count)
        # Third Hand: the led ace counts low, so the king wins; elsewhere the ace.
        assert verdict.winner == (1 if key == "third_hand" else 0), key


# -- the command line: JSON in, JSON out, like ``score`` ------------------------------------


def run_trick(payload: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules_engine", "trick", "-"],
        input=payload,
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=120,
    )


def test_command_line_judges_a_trick() -> None:
    done = run_trick(
        json.dumps({"game": "prediction_whist", "trump": "H", "cards": ["QS", "9H", "KS"]})
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["winner"] == 1
    assert answer["winning_card"] == "9H"
    assert answer["explanation"]


def test_command_line_refuses_a_card_outside_the_pack() -> None:
    done = run_trick(json.dumps({"game": "third_hand", "trump": "S", "cards": ["7H", "9H"]}))
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert error["field"] == "cards[0]"
    assert "7♥" in error["message"]
    done = run_trick("{not json")
    assert done.returncode == 2
    assert "not valid JSON" in json.loads(done.stdout)["error"]["message"]


def test_each_game_names_its_pack_for_a_card_grid() -> None:
    assert len(GAMES["widow_whist"].trick_pack(3)) == 52
    third = GAMES["third_hand"].trick_pack(2)
    assert len(third) == 24 and "7H" not in third and "9H" in third
    assert GAMES["italian_whist"].trick_pack(3)[-2:] == ("RJ", "BJ")
    assert len(GAMES["prediction_whist"].trick_pack(5)) == 40  # 5..A
    assert "4S" not in GAMES["prediction_whist"].trick_pack(5)


def test_judge_trick_from_the_package_by_game_key() -> None:
    from rules_engine import judge_trick as by_key

    assert by_key("prediction_whist", {"trump": "H"}, ["QS", "9H", "KS"]).winner == 1
    with pytest.raises(RuleError) as caught:
        by_key("bridge", {}, ["AS"])
    assert caught.value.field == "game"


def test_trumps_as_the_deal_context_writes_it() -> None:
    # Italian whist's deal context says "trumps": "spades" or "none"; a trick takes that too.
    assert judge("italian_whist", ["QH", "2S", "5H"], trumps="spades")["winner"] == 1
    assert judge("italian_whist", ["QH", "2S", "5H"], trumps="none")["winner"] == 0
    assert judge("prediction_whist", ["QS", "9H", "KS"], trumps="hearts")["winner"] == 1
