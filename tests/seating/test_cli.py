"""The command line (plain and as a management command) and the package's independence."""

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

import tournaments.seating
from tests.seating.helpers import assert_valid, repeats
from tests.support import assert_plain_python, loads_django

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(tournaments.seating.__file__).parent


def run(*args: str, module: bool = True) -> subprocess.CompletedProcess[str]:
    command = (
        [sys.executable, "-m", "tournaments.seating", *args]
        if module
        else [sys.executable, "manage.py", "seating_plan", *args]
    )
    return subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, check=False, timeout=120
    )


def test_no_module_imports_django():
    assert_plain_python(PACKAGE)


def test_planning_loads_no_django():
    assert not loads_django("from tournaments.seating import plan; plan(15, 7, table_size=3)")


@pytest.mark.parametrize("module", [True, False], ids=["python -m", "manage.py"])
def test_json_plan(module):
    result = run("--players", "15", "--table-size", "3", "--rounds", "7", "--json", module=module)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert set(out) == {"rounds"}
    assert_valid(out["rounds"], range(15), [3] * 5)
    assert repeats(out["rounds"]) == 0


@pytest.mark.parametrize(
    ("args", "field", "words"),
    [
        (["--players", "x", "--table-size", "3", "--rounds", "2"], "players", "whole number"),
        (["--table-size", "3", "--rounds", "2"], "players", "required"),
        (["--players", "9", "--rounds", "2"], "table_size", "required"),
        (["--players", "10", "--table-size", "3", "--rounds", "2", "--byes", "2"], "byes", "3"),
        (
            ["--players", "12", "--table-size", "4", "--rounds", "2", "--sizes", "4,4,3"],
            "sizes",
            "11",
        ),
        (
            ["--players", "12", "--table-size", "4", "--rounds", "2", "--sizes", "4,a"],
            "sizes",
            "comma",
        ),
        (["--players", "12", "--table-size", "4", "--rounds", "0"], "rounds", "1"),
        (
            ["--players", "12", "--table-size", "4", "--rounds", "2", "--time-limit", "-1"],
            "time_limit",
            "0",
        ),
        (
            ["--players", "12", "--table-size", "4", "--rounds", "2", "--bogus"],
            "arguments",
            "bogus",
        ),
        (
            ["--players", "12", "--table-size", "4", "--rounds", "2", "--history", "/nonexistent"],
            "history",
            "cannot read",
        ),
    ],
)
def test_bad_arguments_exit_2_with_an_error_object(args, field, words):
    result = run(*args, "--json")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    error = json.loads(result.stdout)["error"]
    assert error["field"] == field
    assert words in error["message"]


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--players", "10", "--table-size", "3", "--rounds", "2", "--byes", "2"], "byes"),
        (["--players", "10", "--table-size", "3", "--rounds", "2", "--bogus"], "arguments"),
    ],
)
def test_the_management_command_reports_errors_the_same_way(args, field):
    result = run(*args, "--json", module=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert json.loads(result.stdout)["error"]["field"] == field


def test_errors_without_json_go_to_stderr():
    result = run("--players", "10", "--table-size", "3", "--rounds", "2", "--byes", "2")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("error: byes:")


def test_readable_output_and_options():
    result = run("--players", "10", "--table-size", "3", "--rounds", "2", "--seed", "4")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Round 1: ") and "sitting out" in lines[0]
    assert "Repeated meetings: 0" in result.stdout


def test_history_and_mixed_sizes_through_the_command_line(tmp_path):
    sizes = ("--sizes", "5,4,4,4,4")
    first = json.loads(run("--players", "21", "--rounds", "2", *sizes, "--json").stdout)
    history = tmp_path / "played.json"
    history.write_text(json.dumps(first))
    args = ("--players", "21", "--rounds", "1", *sizes, "--history", str(history), "--json")
    out = json.loads(run(*args).stdout)
    assert_valid(out["rounds"], range(21), [5, 4, 4, 4, 4])
    assert repeats(first["rounds"] + out["rounds"]) == 0


def test_call_command():
    out = StringIO()
    call_command("seating_plan", players="9", table_size="3", rounds="4", json=True, stdout=out)
    assert repeats(json.loads(out.getvalue())["rounds"]) == 0
    out = StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("seating_plan", players="9", table_size="3", rounds="x", json=True, stdout=out)
    assert caught.value.returncode == 2
    assert json.loads(out.getvalue())["error"]["field"] == "rounds"


def test_the_lower_bound_used_is_printed_when_a_pair_meets_twice():
    # 9 in threes for 5 rounds: each player meets 10 times but has 8 others to meet, so at
    # least 9 repeats; the search reaches that bound
    result = run("--players", "9", "--table-size", "3", "--rounds", "5")
    assert result.returncode == 0, result.stderr
    assert "Lower bound used: 9 repeated meetings" in result.stdout
    assert "reached: no plan has fewer" in result.stdout
    out = json.loads(run("--players", "9", "--table-size", "3", "--rounds", "5", "--json").stdout)
    assert (out["repeats"], out["lower_bound"]) == (9, 9)
    perfect = run("--players", "9", "--table-size", "3", "--rounds", "4")
    assert "Lower bound" not in perfect.stdout


def test_a_plan_at_the_lower_bound_on_cost_says_so():
    # 12 in fours for 3 rounds: 6 repeats, and three pairs meeting three times at the least
    result = run("--players", "12", "--table-size", "4", "--rounds", "3", "--time-limit", "30")
    assert result.returncode == 0, result.stderr
    assert "most meetings of one pair: 3" in result.stdout
    assert "stopped at the time limit" not in result.stdout
    assert "Its cost reaches the search's lower bound, 528" in result.stdout
