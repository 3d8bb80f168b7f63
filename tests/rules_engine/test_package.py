"""The engine stays plain Python, and its command line reads files as well as stdin."""

import json
from pathlib import Path

import rules_engine
from tests.rules_engine.helpers import run_engine
from tests.support import assert_plain_python, loads_django

PACKAGE = Path(rules_engine.__file__).parent


def test_no_module_imports_django():
    assert_plain_python(PACKAGE)


def test_importing_and_scoring_loads_no_django():
    assert not loads_django(
        "import rules_engine;"
        "rules_engine.score_record({'game': 'italian_whist', 'players': ['a', 'b', 'c'],"
        " 'deals': [{'first': [3, 3, 3], 'second': [3, 3, 3]}]})"
    )


def test_score_reads_a_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(
        json.dumps(
            {
                "game": "widow_whist",
                "players": ["Ann", "Bob", "Cy"],
                "first_dealer": 0,
                "options": {"finish": {"deals": 6}},
                "deals": [{"widow": 1, "tricks": [3, 5, 5]}],
            }
        )
    )
    result = run_engine("score", str(path))
    assert result.returncode == 0, result.stdout
    out = json.loads(result.stdout)
    assert out["deals"][0]["scores"] == [0, 1, 2]
    assert out["deals"][0]["targets"] == [3, 4, 3]
    assert out["next_deal"]["number"] == 2 and out["next_deal"]["dealer"] == 1
    assert out["options"]["finish"] == {"deals": 6}


def test_missing_file_is_an_error_object():
    result = run_engine("score", "/nonexistent/game.json")
    assert result.returncode == 2
    error = json.loads(result.stdout)["error"]
    assert error["deal"] is None and "cannot read" in error["message"]
    assert "Traceback" not in result.stderr


def test_usage_errors_exit_2_with_an_error_object():
    result = run_engine("frobnicate")
    assert result.returncode == 2
    assert "usage" in json.loads(result.stdout)["error"]["message"]


def test_games_lists_options_with_defaults_and_allowed_values():
    result = run_engine("games")
    assert result.returncode == 0
    games = {game["key"]: game for game in json.loads(result.stdout)["games"]}
    assert set(games) == {"widow_whist", "third_hand", "italian_whist", "prediction_whist"}
    assert games["prediction_whist"]["players"] == [3, 4, 5, 6]
    assert games["third_hand"]["players"] == [2]
    options = {
        key: {option["name"]: option for option in game["options"]} for key, game in games.items()
    }
    assert set(options["widow_whist"]) == {"targets", "must_trump_when_void", "finish"}
    assert options["widow_whist"]["targets"]["default"] == {"widow": 4, "other": 3}
    assert options["widow_whist"]["finish"]["default"] is None
    assert options["third_hand"]["target"]["default"] == 500
    assert options["third_hand"]["contract_values"]["default"]["Q"] == 80
    assert options["italian_whist"]["limit"]["default"] == 10
    assert options["italian_whist"]["limit"]["allowed"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 1000,
    }
    assert options["prediction_whist"]["hook"]["allowed"] == {"type": "boolean"}
    assert all(game["summary"] for game in games.values())


def test_deal_number_in_a_record_must_match_its_place():
    ok = rules_engine.score_record(
        {
            "game": "italian_whist",
            "players": ["a", "b", "c"],
            "deals": [{"number": 1, "first": [3, 3, 3], "second": [3, 3, 3]}],
        }
    )
    assert ok.deals[0].record == {"first": [3, 3, 3], "second": [3, 3, 3]}
    try:
        rules_engine.score_record(
            {
                "game": "italian_whist",
                "players": ["a", "b", "c"],
                "deals": [{"number": 2, "first": [3, 3, 3], "second": [3, 3, 3]}],
            }
        )
    except rules_engine.RuleError as error:
        assert (error.deal, error.field) == (0, "number")
    else:
        raise AssertionError("a deal numbered 2 was accepted as deal 1")


def test_preview_leaves_the_sheet_unchanged():
    sheet = rules_engine.new_scoresheet("widow_whist", ["a", "b", "c"])
    preview = sheet.preview({"widow": 0, "tricks": [5, 4, 4]})
    assert preview.scores == (1, 1, 1)
    assert sheet.deals == [] and sheet.totals == (0, 0, 0)
    assert sheet.next_deal is not None and sheet.next_deal.number == 1


def test_each_game_knows_the_table_size_a_tournament_seats() -> None:
    sizes = {key: game.table_size for key, game in rules_engine.GAMES.items()}
    assert sizes == {"widow_whist": 3, "italian_whist": 3, "third_hand": 2, "prediction_whist": 4}
    for game in rules_engine.GAMES.values():
        assert game.table_size in game.player_counts
        assert game.describe()["table_size"] == game.table_size


def test_each_game_makes_up_deals_its_rules_accept() -> None:
    """Demo data and benchmarks take their deals from the game's own engine module: for
    every player count, its made-up deals score, and a game played with them ends."""
    import random

    for key, game in rules_engine.GAMES.items():
        for count in game.player_counts:
            rng = random.Random(count)
            players = [f"p{i}" for i in range(count)]
            sheet = rules_engine.new_scoresheet(key, players)
            made = 0
            while sheet.next_deal is not None and made < 300:
                sheet.add(game.sample_deal(rng, sheet.table, sheet.next_deal))
                made += 1
            assert made > 0 and sheet.played == made, key
