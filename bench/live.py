"""Live pages benchmark: 300 phones polling their game's version once a second.

Serves the app with gunicorn (as in production: ``gthread`` workers) on a throwaway SQLite
database with 100 widow whist games in progress, three phones (signed-in players, each
with their own session) at each. Every phone asks ``/g/<id>/version/`` once a second with
the ETag it has; a 304 costs nothing more; on a 200 it fetches its game section again, as
the page does. Meanwhile deals are recorded at random tables (about one a second over the
room, a deal every couple of minutes per table).

Printed: requests per second handled, p50/p95 latency of the polls, how long a phone took
to learn of a deal (from the write to its 200), then the 304 path beside a full render of
the game page, measured one after the other on an idle server in the same run.

    python bench/live.py [--phones 300] [--seconds 20] [--workers 2] [--threads 8]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Phone:
    def __init__(self, game_id: int, cookie: str) -> None:
        self.game_id = game_id
        self.cookie = cookie
        self.etag = ""


async def request(
    host: str, port: int, path: str, headers: dict[str, str], conn: list[Any]
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 GET on a kept-alive connection (reopened when the server closed it)."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    data = ("\r\n".join(lines) + "\r\n\r\n").encode()
    for attempt in range(2):
        if not conn:
            conn.extend(await asyncio.open_connection(host, port))
        reader, writer = conn
        try:
            writer.write(data)
            await writer.drain()
            status_line = await reader.readline()
            if not status_line:
                raise ConnectionResetError
            status = int(status_line.split()[1])
            found: dict[str, str] = {}
            while True:
                line = (await reader.readline()).decode("latin-1").strip()
                if not line:
                    break
                name, _, value = line.partition(":")
                found[name.strip().lower()] = value.strip()
            length = int(found.get("content-length", "0"))
            body = await reader.readexactly(length) if length else b""
            if found.get("connection", "").lower() == "close":
                writer.close()
                conn.clear()
            return status, found, body
        except (ConnectionError, asyncio.IncompleteReadError, IndexError, ValueError):
            writer.close()
            conn.clear()
            if attempt:
                raise
    raise AssertionError("unreachable")


async def run_phones(
    host: str,
    port: int,
    phones: list[Phone],
    seconds: float,
    written: dict[int, list[float]],
) -> dict[str, Any]:
    polls: list[float] = []
    sections: list[float] = []
    lags: list[float] = []
    statuses: dict[int, int] = {}
    errors = 0
    start = time.perf_counter()
    stop = start + seconds

    async def phone_loop(phone: Phone) -> None:
        nonlocal errors
        conn: list[Any] = []
        next_at = start + random.random()  # phones are not in step
        while True:
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            if time.perf_counter() >= stop:
                break
            next_at += 1.0
            headers = {"Cookie": phone.cookie}
            if phone.etag:
                headers["If-None-Match"] = phone.etag
            began = time.perf_counter()
            try:
                status, found, _ = await request(
                    host, port, f"/g/{phone.game_id}/version/", headers, conn
                )
            except Exception:
                errors += 1
                conn.clear()
                continue
            polls.append(time.perf_counter() - began)
            statuses[status] = statuses.get(status, 0) + 1
            if status == 200:
                first = not phone.etag
                phone.etag = found.get("etag", "")
                if first:
                    continue
                times = written.get(phone.game_id, [])
                if times:
                    lags.append(time.perf_counter() - times[-1])
                began = time.perf_counter()
                try:
                    await request(
                        host,
                        port,
                        f"/g/{phone.game_id}/",
                        {"Cookie": phone.cookie, "HX-Request": "true"},
                        conn,
                    )
                except Exception:
                    errors += 1
                    conn.clear()
                    continue
                sections.append(time.perf_counter() - began)
        if conn:
            conn[1].close()

    await asyncio.gather(*(phone_loop(phone) for phone in phones))
    elapsed = time.perf_counter() - start
    return {
        "elapsed": elapsed,
        "polls": polls,
        "sections": sections,
        "lags": lags,
        "statuses": statuses,
        "errors": errors,
    }


async def side_by_side(
    host: str, port: int, phone: Phone, rounds: int
) -> tuple[list[float], list[float]]:
    """The 304 path and a full game page, alternately, one at a time."""
    conn: list[Any] = []
    _, found, _ = await request(
        host, port, f"/g/{phone.game_id}/version/", {"Cookie": phone.cookie}, conn
    )
    etag = found["etag"]
    not_modified: list[float] = []
    full: list[float] = []
    for _ in range(rounds):
        began = time.perf_counter()
        status, _, _ = await request(
            host,
            port,
            f"/g/{phone.game_id}/version/",
            {"Cookie": phone.cookie, "If-None-Match": etag},
            conn,
        )
        assert status == 304, status
        not_modified.append(time.perf_counter() - began)
        began = time.perf_counter()
        status, _, body = await request(
            host, port, f"/g/{phone.game_id}/", {"Cookie": phone.cookie}, conn
        )
        assert status == 200 and b"Scoresheet" in body, status
        full.append(time.perf_counter() - began)
    return not_modified, full


def setup_data(games: int, per_game: int, deals: int) -> tuple[list[Phone], list[int]]:
    import django
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    from django.contrib.auth.models import User

    from scorekeeper import services
    from scorekeeper.models import Club, Membership, Player, Role, Season

    club = Club.objects.create(name="Bench club", slug="bench")
    Season.objects.create(club=club, name="All", starts_on="2000-01-01", ends_on="2100-12-31")
    scorer = User.objects.create_user("scorer")
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    phones: list[Phone] = []
    game_ids: list[int] = []
    for g in range(games):
        users = [User.objects.create_user(f"p{g}-{i}") for i in range(per_game)]
        players = []
        for i, user in enumerate(users):
            Membership.objects.create(club=club, user=user, role=Role.MEMBER)
            players.append(Player.objects.create(club=club, name=f"Player {g}-{i}", user=user))
        game = services.game_start(
            actor=scorer, club=club, game_type="widow_whist", players=players
        )
        for number in range(1, deals + 1):
            services.deal_record(
                actor=scorer,
                game=game,
                number=number,
                record={"widow": None, "tricks": [5, 4, 4]},
            )
        game_ids.append(game.pk)
        for user in users:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            phones.append(Phone(game.pk, f"sessionid={session.session_key}"))
    return phones, game_ids


def writer(
    game_ids: list[int], stop: threading.Event, written: dict[int, list[float]], rate: float
) -> None:
    """Deals recorded at random tables, about ``rate`` a second over the room."""
    from django.contrib.auth.models import User
    from django.db import connection

    from scorekeeper import services
    from scorekeeper.models import Game

    scorer = User.objects.get(username="scorer")
    while not stop.wait(random.expovariate(rate)):
        game = Game.objects.get(pk=random.choice(game_ids))
        services.deal_record(
            actor=scorer,
            game=game,
            number=game.deal_count + 1,
            record={"widow": None, "tricks": [4, 5, 4]},
        )
        written.setdefault(game.pk, []).append(time.perf_counter())
    connection.close()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--per-game", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--deals", type=int, default=10, help="deals already in each game")
    parser.add_argument("--write-rate", type=float, default=1.0, help="deals a second, in all")
    parser.add_argument("--rounds", type=int, default=200, help="side-by-side requests of each")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
        "DATABASE_URL": f"sqlite:///{workdir}/bench.sqlite3",
        "SECRET_KEY": "bench-only-secret-key-bench-only-secret-key-bench-only",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DEBUG": "false",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("CELERY_BROKER_URL", None)
    os.environ.update(env)
    games = max(1, args.phones // args.per_game)
    print(f"setting up {games} games, {games * args.per_game} phones ...", flush=True)
    phones, game_ids = setup_data(games, args.per_game, args.deals)

    gunicorn = Path(sys.executable).with_name("gunicorn")
    server = subprocess.Popen(
        [
            str(gunicorn),
            "scorekeeper.wsgi",
            "--worker-class",
            "gthread",
            "--workers",
            str(args.workers),
            "--threads",
            str(args.threads),
            "--keep-alive",
            "5",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.time() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    raise SystemExit("gunicorn did not start") from None
                time.sleep(0.2)
        # Warm up: every worker imports and renders once.
        asyncio.run(side_by_side("127.0.0.1", port, phones[0], 10))

        written: dict[int, list[float]] = {}
        stop = threading.Event()
        thread = threading.Thread(
            target=writer, args=(game_ids, stop, written, args.write_rate), daemon=True
        )
        thread.start()
        print(
            f"{len(phones)} phones polling once a second for {args.seconds:.0f} s against "
            f"gunicorn ({args.workers} gthread workers x {args.threads} threads), SQLite, "
            f"{os.cpu_count()} CPUs (client and server share them) ...",
            flush=True,
        )
        result = asyncio.run(run_phones("127.0.0.1", port, phones, args.seconds, written))
        stop.set()
        thread.join()
        polls, sections, lags = result["polls"], result["sections"], result["lags"]
        handled = len(polls) + len(sections)
        deals_written = sum(len(v) for v in written.values())
        print(
            f"handled {handled / result['elapsed']:.0f} requests/s "
            f"({len(polls) / result['elapsed']:.0f} polls/s asked of "
            f"{len(phones)} phones; statuses {dict(sorted(result['statuses'].items()))}; "
            f"{len(sections)} section fetches after {deals_written} deals; "
            f"{result['errors']} errors)"
        )
        print(
            f"poll latency under load: p50 {ms(statistics.median(polls))}, "
            f"p95 {ms(percentile(polls, 95))}, max {ms(max(polls))}"
        )
        if sections:
            print(
                f"section fetch under load: p50 {ms(statistics.median(sections))}, "
                f"p95 {ms(percentile(sections, 95))}"
            )
        if lags:
            print(
                f"a deal reached the other phones after: p50 {ms(statistics.median(lags))}, "
                f"p95 {ms(percentile(lags, 95))}, max {ms(max(lags))} (poll period 1 s)"
            )
        not_modified, full = asyncio.run(side_by_side("127.0.0.1", port, phones[0], args.rounds))
        p304, pfull = statistics.median(not_modified), statistics.median(full)
        print(
            f"side by side, idle server, {args.rounds} each: 304 p50 {ms(p304)} "
            f"(p95 {ms(percentile(not_modified, 95))}); full game page "
            f"({args.deals} deals) p50 {ms(pfull)} (p95 {ms(percentile(full, 95))}); "
            f"the 304 takes {p304 / pfull:.0%} of a full page ({pfull / p304:.1f}x faster)"
        )
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
