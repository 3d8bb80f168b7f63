"""Rescoring speed of the rules engine: deals scored per second, per game.

A club's season is about 100,000 deals; rescoring it all should take under a
second. For each game this builds a season of valid game records (seeded, so
every run scores the same deals), then times ``score_record`` over all of them.

    python bench/rules_engine.py [--deals 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules_engine import new_scoresheet, score_record  # noqa: E402
from rules_engine.games.third_hand import BID_RANKS  # noqa: E402

THIRD_HAND_DECK = [f"{rank}{suit}" for rank in BID_RANKS for suit in "SHDC"]
Record = dict[str, Any]


def split(rnd: random.Random, total: int, parts: int) -> list[int]:
    counts = [0] * parts
    for _ in range(total):
        counts[rnd.randrange(parts)] += 1
    return counts


def widow_game(rnd: random.Random, deals: int) -> Record:
    # Open-ended: one long evening's record.
    return {
        "game": "widow_whist",
        "players": ["Ann", "Bob", "Cy"],
        "deals": [
            {"widow": rnd.choice([None, 0, 1, 2]), "tricks": split(rnd, 13, 3)}
            for _ in range(deals)
        ],
    }


def italian_game(rnd: random.Random, deals: int) -> Record:
    return {
        "game": "italian_whist",
        "players": ["Ann", "Bob", "Cy"],
        "options": {"limit": 1000},
        "deals": [{"first": split(rnd, 9, 3), "second": split(rnd, 9, 3)} for _ in range(deals)],
    }


def prediction_game(rnd: random.Random, deals: int) -> Record:
    players = rnd.randint(3, 6)
    sheet = new_scoresheet("prediction_whist", [f"P{i}" for i in range(players)])
    record: list[dict[str, Any]] = []
    while sheet.next_deal is not None and len(record) < deals:
        size = sheet.next_deal.info["hand_size"]
        bids = [rnd.randint(0, min(size, 2)) for _ in range(players)]
        if sum(bids) == size:
            bids[sheet.next_deal.dealer] = (bids[sheet.next_deal.dealer] + 1) % (size + 1)
        deal = {"bids": bids, "tricks": split(rnd, size, players)}
        sheet.add(deal)
        record.append(deal)
    return {"game": "prediction_whist", "players": list(sheet.players), "deals": record}


def third_hand_game(rnd: random.Random, deals: int) -> Record:
    sheet = new_scoresheet("third_hand", ["Ann", "Bob"], options={"target": 10**6})
    record: list[dict[str, Any]] = []
    while sheet.next_deal is not None and len(record) < deals:
        cards = rnd.sample(THIRD_HAND_DECK, 14)
        cut = 2 * rnd.randint(2, 5)
        bids: list[str | None] = [None, None]
        bids[1 - sheet.next_deal.dealer] = rnd.choice([None, "9", "10", "J"])
        bids[sheet.next_deal.dealer] = rnd.choice([None, "Q", "K"])
        deal: dict[str, Any] = {"bids": bids, "captured": [cards[:cut], cards[cut:]]}
        if rnd.random() < 0.5:  # half typed as points, half as captured cards
            points = sheet.preview(deal).record["points"]
            deal = {"bids": bids, "points": points}
        sheet.add(deal)
        record.append(deal)
    return {
        "game": "third_hand",
        "players": ["Ann", "Bob"],
        "options": {"target": 10**6},
        "deals": record,
    }


GAMES: dict[str, tuple[Callable[[random.Random, int], Record], int]] = {
    # game: (builder, deals per record)
    "widow_whist": (widow_game, 1_000),
    "third_hand": (third_hand_game, 1_000),
    "italian_whist": (italian_game, 1_000),
    "prediction_whist": (prediction_game, 1_000),  # a game is 21..30 deals
}


def build(key: str, deals: int) -> list[Record]:
    make, per_record = GAMES[key]
    rnd = random.Random(key)
    records: list[Record] = []
    total = 0
    while total < deals:
        record = make(rnd, min(per_record, deals - total))
        records.append(record)
        total += len(record["deals"])
    return records


def timed(records: list[Record], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for record in records:
            score_record(record)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000, help="deals per row")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best is shown")
    args = parser.parse_args()
    print(f"{'rescore':<22}{'records':>9}{'deals':>10}{'best s':>9}{'deals/s':>12}")
    rows = {key: build(key, args.deals) for key in GAMES}
    # A season: the same number of deals, a quarter from each game.
    rows["season (all games)"] = [
        record for key in GAMES for record in build(key, args.deals // len(GAMES))
    ]
    for label, records in rows.items():
        deals = sum(len(record["deals"]) for record in records)
        best = timed(records, args.repeat)
        print(f"{label:<22}{len(records):>9}{deals:>10}{best:>9.3f}{deals / best:>12,.0f}")


if __name__ == "__main__":
    main()
