"""Phone-sized screenshots of the main pages, saved into docs/screenshots/ (``make screenshots``).

Starts the app on a throwaway SQLite database: ``migrate``, ``seed_demo``, a game of each
type in progress (made through the services) and ``runserver`` on a free port; then
Playwright drives Debian's Chromium at 390×844, signs in as the demo user and saves a
PNG of each page. Nothing outside the temporary directory and the output folder changes.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--chromium PATH]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VIEWPORT = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def wait_until_up(url: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not come up at {url}") from None
            time.sleep(0.2)


@contextmanager
def server(env: dict[str, str], port: int) -> Iterator[str]:
    process = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(f"{url}/healthz")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def games_in_progress() -> dict[str, Any]:
    """A game of each type with a few deals, for the game pages; the seeded finished ones."""
    import django

    django.setup()
    from scorekeeper import services
    from scorekeeper.management.demo import CLUB_SLUG
    from scorekeeper.models import Club, Game, GameStatus, Player, Role
    from scorekeeper.selectors import deal_draft

    club = Club.objects.get(slug=CLUB_SLUG)
    actor = club.memberships.filter(role=Role.ADMIN).first().user  # type: ignore[union-attr]
    roster = {player.name: player for player in Player.objects.filter(club=club)}

    def start(game_type: str, names: list[str], deals: list[dict[str, Any]], **kw: Any) -> Any:
        game = services.game_start(
            actor=actor,
            club=club,
            game_type=game_type,
            players=[roster[name] for name in names],
            **kw,
        )
        for number, record in enumerate(deals, start=1):
            services.deal_record(actor=actor, game=game, number=number, record=record)
        game.refresh_from_db()
        return game

    three = ["Alice Moreau", "Bernard Okafor", "Chloe Lindqvist"]
    widow = start(
        "widow_whist",
        three,
        [{"widow": 1, "tricks": [3, 6, 4]}, {"widow": None, "tricks": [5, 4, 4]}],
        options={"finish": {"deals": 9}},
    )
    italian = start(
        "italian_whist",
        ["Dev Patel", "Elena Rossi", "Farid Haddad"],
        [{"first": [4, 3, 2], "second": [2, 3, 4]}, {"first": [2, 5, 2], "second": [3, 3, 3]}],
    )
    third = start(
        "third_hand",
        ["Grace Kim", "Hiro Tanaka"],
        [
            {"bids": [None, "Q"], "points": [40, 90], "trump": "H", "exchanged": False},
            {"bids": [None, None], "points": [60, 61], "trump": "S"},
        ],
    )
    six = list(roster)[:6]
    prediction = start(
        "prediction_whist",
        six,
        [
            {"bids": [0, 0, 0, 1, 0, 1], "tricks": [0, 0, 0, 1, 0, 0]},
            {"bids": [1, 0, 0, 0, 0, 1], "tricks": [1, 0, 0, 0, 0, 0]},
            {"bids": [0, 1, 1, 0, 0, 0], "tricks": [0, 1, 0, 0, 0, 0]},
            {"bids": [0, 0, 0, 1, 1, 1], "tricks": [0, 0, 0, 0, 1, 0]},
            {"bids": [0, 0, 0, 0, 0, 0], "tricks": [0, 0, 0, 0, 0, 1]},
            {"bids": [1, 0, 1, 0, 0, 1], "tricks": [1, 0, 0, 0, 0, 0]},
        ],
    )
    services.deal_draft_save(
        actor=actor, game=prediction, number=7, data={"bids": [None, 1, 0, None, None, None]}
    )
    assert deal_draft(prediction)
    finished = Game.objects.filter(club=club, status=GameStatus.FINISHED, game_type="third_hand")
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(club=club)  # the demo tournament, round 2 under way
    return {
        "tournament": tournament.pk,
        "club": club.slug,
        "widow": widow.pk,
        "italian": italian.pk,
        "third": third.pk,
        "prediction": prediction.pk,
        "finished": finished.first().pk,  # type: ignore[union-attr]
    }


def shoot(base: str, ids: dict[str, Any], out: Path, chromium: str) -> list[Path]:
    from playwright.sync_api import sync_playwright

    saved: list[Path] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1, is_mobile=True)
        page = context.new_page()

        def snap(
            name: str, path: str, *, then: Any = None, full: bool = False, width: int = 390
        ) -> None:
            page.set_viewport_size({**VIEWPORT, "width": width})
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            if then is not None:
                then(page)
                page.wait_for_load_state("networkidle")
            target = out / f"{name}.png"
            page.screenshot(path=str(target), full_page=full)
            saved.append(target)

        snap("01-sign-in", "/accounts/login/")
        page.get_by_label("Username").fill("demo")
        page.get_by_label("Password").fill("demo")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_load_state("networkidle")
        snap("02-club-home", f"/c/{ids['club']}/")
        snap("03-new-game", f"/c/{ids['club']}/new/")
        snap("04-new-game-setup", f"/c/{ids['club']}/new/prediction_whist/")

        def widow_taps(page: Any) -> None:
            page.get_by_role("group", name="Who took the widow?").get_by_text("Chloe").click()
            page.get_by_role("group", name="Alice").get_by_text("4", exact=True).click()
            page.get_by_role("group", name="Bernard").get_by_text("5", exact=True).click()
            page.locator(".preview-table").wait_for()
            page.locator(".preview").scroll_into_view_if_needed()

        snap("10-game-widow-whist", f"/g/{ids['widow']}/")
        snap("11-game-widow-whist-entered", f"/g/{ids['widow']}/", then=widow_taps)

        def third_taps(page: Any) -> None:
            page.locator('[data-role="first-bid"]').get_by_text("J", exact=True).click()
            page.locator(".capture summary").click()
            for card in ("AS", "KS", "QS", "JS"):
                page.locator(f'button[data-card="{card}"]').click()
            page.locator(f'button[data-card="{"10S"}"]').click()
            page.locator(f'button[data-card="{"10S"}"]').click()
            page.locator(".card-grid").scroll_into_view_if_needed()

        snap("12-game-third-hand", f"/g/{ids['third']}/")
        snap("13-game-third-hand-cards", f"/g/{ids['third']}/", then=third_taps)
        snap("14-game-italian-whist", f"/g/{ids['italian']}/")
        snap("15-game-prediction-whist", f"/g/{ids['prediction']}/")

        def to_sheet(page: Any) -> None:
            page.locator("table.sheet").scroll_into_view_if_needed()

        snap("16-game-prediction-six-players-sheet", f"/g/{ids['prediction']}/", then=to_sheet)
        snap(
            "16-game-prediction-six-players-sheet-360px",
            f"/g/{ids['prediction']}/",
            then=to_sheet,
            width=360,
        )

        def rejected(page: Any) -> None:
            for name, count in (("Alice", "6"), ("Bernard", "6"), ("Chloe", "6")):
                page.get_by_role("group", name=name).get_by_text(count, exact=True).click()
            page.get_by_role("group", name="Who took the widow?").get_by_text("Nobody").click()
            page.get_by_role("button", name="Save deal 3").click()
            page.locator(".field-error").first.wait_for()

        snap("17-game-rejected-entry", f"/g/{ids['widow']}/", then=rejected)
        snap("20-game-finished", f"/g/{ids['finished']}/")
        snap("21-deal-correction", f"/g/{ids['widow']}/d/1/")
        snap("30-table-link", f"/g/{ids['italian']}/table/")
        tournament = f"/tournaments/{ids['tournament']}/"
        snap("40-tournament-dashboard", tournament)
        snap("41-tournament-seating", tournament + "seating/")
        snap("42-tournament-standings", tournament + "standings/")
        snap("43-tournament-standings-projector", tournament + "standings/?projector=1", width=1280)
        snap("44-tournament-table-cards", tournament + "rounds/2/cards/")
        snap("45-tournament-find-your-table", tournament + "find/")
        browser.close()
    return saved


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    options = parser.parse_args()
    if not Path(options.chromium).exists():
        print(f"Chromium is not installed at {options.chromium}", file=sys.stderr)
        return 1
    options.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="scorekeeper-shots-") as tmp:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{tmp}/db.sqlite3",
            "DEBUG": "true",  # runserver serves the static files, unhashed
            "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
        }
        env.pop("CELERY_BROKER_URL", None)
        manage(env, "migrate", "--noinput")
        manage(env, "seed_demo")
        os.environ.update(env)
        sys.path.insert(0, str(ROOT))
        ids = games_in_progress()
        with server(env, free_port()) as base:
            saved = shoot(base, ids, options.out, options.chromium)
    for path in saved:
        print(
            f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} "
            f"({path.stat().st_size // 1024} KB)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
