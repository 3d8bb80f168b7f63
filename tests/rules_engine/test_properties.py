"""Properties of the engine, checked on generated games (hypothesis)."""

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules_engine import GAMES, RuleError, Scoresheet, new_scoresheet, score_record
from rules_engine.games.third_hand import BID_RANKS, CARD_POINTS
from tests.rules_engine.helpers import NAMES

DECK = [f"{rank}{suit}" for rank in BID_RANKS for suit in "SHDC"]


def split(total: int, parts: int):
    """Whole numbers >= 0 summing to total, one per part."""
    return (
        st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)
        .map(sorted)
        .map(lambda cuts: [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)])
    )


italian_deal = st.fixed_dictionaries({"first": split(9, 3), "second": split(9, 3)})


@given(st.lists(italian_deal, min_size=1, max_size=40))
def test_italian_scores_sum_to_zero(deals):
    sheet = new_scoresheet("italian_whist", ["A", "B", "C"], options={"limit": 1000})
    for deal in deals:
        played = sheet.add(deal)
        assert sum(played.scores) == 0
        assert sum(played.totals) == 0


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 6), st.randoms(use_true_random=False), st.booleans())
def test_prediction_whist_has_3n_plus_12_deals(players, rnd, hook):
    sheet = new_scoresheet("prediction_whist", list(NAMES[:players]), options={"hook": hook})
    while sheet.next_deal is not None:
        size = sheet.next_deal.info["hand_size"]
        dealer = sheet.next_deal.dealer
        bids = [rnd.randint(0, size) for _ in range(players)]
        if hook and sum(bids) == size:
            bids[dealer] = (bids[dealer] + 1) % (size + 1)
        tricks = [0] * players
        for _ in range(size):
            tricks[rnd.randrange(players)] += 1
        sheet.add({"bids": bids, "tricks": tricks})
    assert len(sheet.deals) == 3 * players + 12
    assert sheet.finished and sheet.winners


def cards_for(points: int, available: list[str], count_even: bool = True) -> list[str] | None:
    """Some even-sized set of cards from ``available`` worth exactly ``points`` (search)."""
    by_value: dict[int, list[str]] = {}
    for card in available:
        by_value.setdefault(CARD_POINTS[card[:-1]], []).append(card)
    for aces in range(len(by_value.get(1, [])) + 1):
        for nines in range(len(by_value.get(9, [])) + 1):
            rest = points - aces - 9 * nines
            if rest < 0 or rest % 10:
                continue
            tens = rest // 10
            if tens <= len(by_value.get(10, [])) and (aces + nines + tens) % 2 == 0:
                yield (
                    by_value.get(1, [])[:aces]
                    + by_value.get(9, [])[:nines]
                    + by_value.get(10, [])[:tens]
                )


def realisable(p0: int, p1: int) -> bool:
    for first in cards_for(p0, DECK):
        rest = [c for c in DECK if c not in first]
        for second in cards_for(p1, rest):
            if len(first) + len(second) == 14:
                return True
    return False


@settings(max_examples=300)
@given(st.integers(0, 140), st.integers(0, 140))
def test_every_accepted_point_pair_can_be_made_of_real_cards(p0, p1):
    sheet = new_scoresheet("third_hand", ["A", "B"])
    try:
        sheet.add({"bids": [None, None], "points": [p0, p1]})
    except RuleError:
        assert not realisable(p0, p1)
    else:
        assert realisable(p0, p1)


@given(st.randoms(use_true_random=False), st.integers(0, 7))
def test_every_real_capture_is_accepted(rnd, tricks_of_seat0):
    cards = rnd.sample(DECK, 14)
    captured = [cards[: 2 * tricks_of_seat0], cards[2 * tricks_of_seat0 :]]
    sheet = new_scoresheet("third_hand", ["A", "B"])
    played = sheet.add({"bids": [None, None], "captured": captured})
    assert played.record["points"] == [sum(CARD_POINTS[c[:-1]] for c in hand) for hand in captured]


@given(st.lists(st.tuples(st.sampled_from([None, 0, 1, 2]), split(13, 3)), max_size=30))
def test_widow_scores_are_tricks_minus_targets(deals):
    sheet = new_scoresheet("widow_whist", ["A", "B", "C"])
    running = [0, 0, 0]
    for widow, tricks in deals:
        played = sheet.add({"widow": widow, "tricks": tricks})
        assert sum(played.scores) == 13 - (9 if widow is None else 10)
        running = [r + s for r, s in zip(running, played.scores, strict=True)]
        assert list(played.totals) == running


json_leaf = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats()
    | st.text(max_size=5)
    | st.sampled_from(["9", "10", "Q", "A", "QH", "10S", "8H", "S", "none", "C"])
)
json_value = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(
            st.sampled_from(
                [
                    "widow",
                    "tricks",
                    "bids",
                    "points",
                    "captured",
                    "first",
                    "second",
                    "trump",
                    "exchanged",
                    "number",
                    "deals",
                    "target",
                    "limit",
                    "x",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=25,
)


def plausible_deal(game: str):
    """Deals with the right keys and values that are often, but not always, valid."""
    small = st.integers(-1, 14) | json_leaf
    seats = {"widow_whist": 3, "third_hand": 2, "italian_whist": 3, "prediction_whist": 4}[game]
    per_seat = st.lists(small, min_size=seats - 1, max_size=seats + 1) | json_value
    keys = {
        "widow_whist": {"widow": st.sampled_from([None, 0, 1, 2, 3]) | small, "tricks": per_seat},
        "third_hand": {
            "bids": st.lists(st.sampled_from([None, *BID_RANKS, "8", 7]), min_size=2, max_size=2),
            "points": st.lists(st.integers(0, 141), min_size=2, max_size=2) | per_seat,
            "captured": st.lists(
                st.lists(st.sampled_from([*DECK, "8H", "ZZ"]), max_size=12), min_size=2, max_size=2
            ),
            "trump": st.sampled_from([None, "S", "X", 3]),
            "exchanged": st.sampled_from([True, False, None]),
        },
        "italian_whist": {"first": per_seat, "second": per_seat},
        "prediction_whist": {"bids": per_seat, "tricks": per_seat, "trump": json_leaf},
    }[game]
    return st.fixed_dictionaries({}, optional=keys) | json_value


@st.composite
def records(draw):
    game = draw(st.sampled_from([*GAMES, "whist", 3]))
    key = game if game in GAMES else "widow_whist"
    seats = {"widow_whist": 3, "third_hand": 2, "italian_whist": 3, "prediction_whist": 4}[key]
    record = {
        "game": game,
        "players": draw(
            st.just(list(NAMES[:seats]))
            | st.lists(st.text(max_size=3) | st.integers(), max_size=7)
            | json_value
        ),
        "deals": draw(st.lists(plausible_deal(key), max_size=12) | json_value),
    }
    if draw(st.booleans()):
        record["options"] = draw(
            st.dictionaries(
                st.sampled_from(
                    [
                        "finish",
                        "targets",
                        "limit",
                        "hook",
                        "target",
                        "contract_values",
                        "must_trump_when_void",
                        "x",
                    ]
                ),
                json_value,
                max_size=3,
            )
            | json_value
        )
    if draw(st.booleans()):
        record["first_dealer"] = draw(json_value)
    return record


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(records() | json_value)
def test_no_input_raises_anything_but_a_rule_error(record):
    try:
        sheet = score_record(record)
    except RuleError as error:
        assert error.message and isinstance(error.field, str)
        assert error.deal is None or (isinstance(error.deal, int) and error.deal >= 0)
    else:
        assert len(sheet.deals) == len(record["deals"])
        assert list(sheet.totals) == [
            sum(d.scores[seat] for d in sheet.deals) for seat in range(len(sheet.players))
        ]


@given(st.randoms(use_true_random=False))
def test_third_hand_finishes_with_a_single_winner_past_target(rnd: random.Random):
    sheet = new_scoresheet("third_hand", ["A", "B"])
    for _ in range(200):
        if sheet.finished:
            break
        cards = rnd.sample(DECK, 14)
        cut = 2 * rnd.randint(0, 7)
        first = rnd.choice([None, *BID_RANKS])
        higher = [
            r for r in BID_RANKS if first is None or BID_RANKS.index(r) > BID_RANKS.index(first)
        ]
        second = rnd.choice([None, *higher])
        bids = [None, None]
        bids[1 - sheet.next_deal.dealer] = first
        bids[sheet.next_deal.dealer] = second
        sheet.add({"bids": bids, "captured": [cards[:cut], cards[cut:]]})
    if sheet.finished:
        (winner,) = sheet.winners
        assert sheet.totals[winner] > 500
        assert sheet.totals[winner] > sheet.totals[1 - winner]


def _resumed(sheet: Scoresheet, after: int, rest: list[Any]) -> Scoresheet:
    """A new sheet resumed after deal ``after`` of ``sheet``, with ``rest`` added."""
    last = sheet.deals[after - 1] if after else None
    resumed = Scoresheet.resume(
        sheet.game,
        list(sheet.players),
        options=sheet.game.options_json(sheet.options),
        first_dealer=sheet.table.first_dealer,
        last=last,
    )
    resumed.extend(rest)
    return resumed


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(records(), st.data())
def test_a_sheet_resumed_from_a_stored_deal_scores_like_a_replay(record, data):
    """Scoring from the last stored deal (the deal write path) gives what a replay of the
    whole game gives: the same deals, totals, next deal, end and winners, and the same
    refusal, at the same deal, for a deal the rules refuse."""
    try:
        whole = score_record(record)
    except RuleError as error:
        if error.deal is None or error.deal == 0:
            return  # the set-up itself is refused, or the first deal: nothing to resume
        good = {**record, "deals": record["deals"][: error.deal]}
        sheet = score_record(good)
        after = data.draw(st.integers(0, error.deal))
        with pytest.raises(RuleError) as again:
            _resumed(sheet, after, record["deals"][after:])
        assert (again.value.deal, again.value.field) == (error.deal, error.field)
        return
    event(f"replayed {min(whole.played, 3)}+ deals")
    after = data.draw(st.integers(0, whole.played))
    resumed = _resumed(whole, after, record["deals"][after:])
    expected = whole.as_dict()
    got = resumed.as_dict()
    assert got["deals"] == expected["deals"][after:]
    for key in ("totals", "finished", "winners", "next_deal"):
        assert got[key] == expected[key], key
    assert resumed.played == whole.played == len(whole.deals)


def _valid_deal(sheet: Scoresheet, rnd: random.Random) -> dict[str, Any]:
    """A random deal the rules accept, for the sheet's next deal."""
    game, seats, context = sheet.game.key, len(sheet.players), sheet.next_deal
    assert context is not None
    if game == "widow_whist":
        widow = rnd.choice([None, *range(seats)])
        tricks = [0] * seats
        for _ in range(13):
            tricks[rnd.randrange(seats)] += 1
        return {"widow": widow, "tricks": tricks}
    if game == "italian_whist":
        hands = {}
        for hand in ("first", "second"):
            tricks = [0] * seats
            for _ in range(9):
                tricks[rnd.randrange(seats)] += 1
            hands[hand] = tricks
        return hands
    if game == "prediction_whist":
        size = context.info["hand_size"]
        bids = [rnd.randint(0, size) for _ in range(seats)]
        if sheet.options["hook"] and sum(bids) == size:
            bids[context.dealer] = (bids[context.dealer] + 1) % (size + 1)
        tricks = [0] * seats
        for _ in range(size):
            tricks[rnd.randrange(seats)] += 1
        return {"bids": bids, "tricks": tricks}
    cards = rnd.sample(DECK, 14)
    cut = 2 * rnd.randint(0, 7)
    first = rnd.choice([None, *BID_RANKS])
    higher = [r for r in BID_RANKS if first is None or BID_RANKS.index(r) > BID_RANKS.index(first)]
    bids: list[str | None] = [None, None]
    bids[1 - context.dealer] = first
    bids[context.dealer] = rnd.choice([None, *higher])
    return {"bids": bids, "captured": [cards[:cut], cards[cut:]]}


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(GAMES)), st.randoms(use_true_random=False), st.data())
def test_a_game_resumed_anywhere_ends_like_the_whole_game(game, rnd, data):
    seats = {"widow_whist": 3, "third_hand": 2, "italian_whist": 3}.get(game, rnd.randint(3, 6))
    options = {"limit": rnd.choice([5, 10, 20])} if game == "italian_whist" else None
    if game == "widow_whist":
        options = {"finish": rnd.choice([{"deals": rnd.randint(1, 12)}, {"target": 8}])}
    whole = new_scoresheet(game, list(NAMES[:seats]), options=options, first_dealer=1)
    records = []
    while not whole.finished and len(records) < 60:
        records.append(_valid_deal(whole, rnd))
        whole.add(records[-1])
    after = data.draw(st.integers(0, len(records)))
    event(f"{game}: resumed after {'no' if after == 0 else 'some'} deals")
    resumed = _resumed(whole, after, records[after:])
    expected, got = whole.as_dict(), resumed.as_dict()
    assert got["deals"] == expected["deals"][after:]
    for key in ("totals", "finished", "winners", "next_deal"):
        assert got[key] == expected[key], key
    assert resumed.played == whole.played == len(records)
