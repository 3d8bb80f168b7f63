"""Soak: nothing lost when things fail (``make bench-soak``).

Against PostgreSQL (a fresh database ``<name>_soak`` beside ``--postgres``), a Redis and a
Celery worker and beat that the benchmark starts itself (its own port, never the shared
Redis), and the app under gunicorn (``gunicorn.conf.py``): ``--clients`` clients (locust,
headless, in this process) submit ``--deals`` deals across ``--games`` games at ``--rate``
deals a second all together (each client at a steady pace of its own, ``bench/timing.py``: a
100-table tournament sends under one deal a second; a connection a deal, as from the proxy),
``--resend`` of them sent again with
the same Idempotency-Key (half at once, half after a client that gave up waiting), while
``--rounds`` tournament rounds are seated, published and closed. During the run Redis is
stopped for ``--outage`` seconds and a worker process is killed once (SIGKILL).

Printed: deals lost, deals doubled, 5xx answers, jobs lost (a round not seated, published
and closed, or a job asked for that is not done ``JOBS_GRACE`` after the run); the rate
achieved; p50/p99 outside the outage and during it (from Redis stopped to 5 s after it is
back). Target: 0 / 0 / 0 / 0, p99 < 100 ms outside the outage. ``--profile DIR`` serves the
app profiled request by request (``bench/soak_profile.py``) and prints where the slow
requests spent their time.

    python bench/soak.py [--deals 10000] [--games 200] [--clients 50] [--rate 50] [--rounds 20]
    python bench/soak.py seed|verify ...   (run by the benchmark, in a Django process)

One script of about 500 lines: it starts, disturbs and stops its own services around one
run, and reads what they logged; the pacing it shares with ``bench/api.py`` is in
``bench/timing.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TRICKS = ([4, 5, 4], [3, 3, 7], [2, 6, 5], [5, 4, 4], [6, 3, 4], [3, 3, 7])
WIDOWS = (0, None, 2, 1, 0, 2)
#: How long after the run every job asked for (seating, emails, standings...) may take to be
#: done before it counts as lost: the relay's resend after JOB_RESEND_SECONDS, and its beat.
JOBS_GRACE = 120.0


def deal_body(number: int) -> dict[str, Any]:
    i = (number - 1) % len(TRICKS)
    return {"number": number, "widow": WIDOWS[i], "tricks": TRICKS[i]}


# --- In a Django process: the data, and what was stored -----------------------------------------


def _django() -> None:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def seed(games: int, deals_per_game: int, rounds: int) -> dict[str, Any]:
    _django()
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    from bench.widow_games import widow_game
    from scorekeeper import services
    from tournaments import services as tournament_services

    user = User.objects.create_user("soak", password="soak-password")
    club = services.club_create(actor=user, name="Soak club", slug="soak")
    players = [services.player_create(actor=user, club=club, name=f"P{i}") for i in range(12)]
    game_ids = []
    for g in range(games):
        seats = [players[(g + k) % len(players)] for k in range(3)]
        game = widow_game(user, club, seats, deals_per_game)
        game_ids.append(game.pk)
    tournaments = []
    for t in range((rounds + 1) // 2):
        tournament = tournament_services.tournament_create(
            actor=user,
            club=club,
            name=f"Soak cup {t + 1}",
            game_type="widow_whist",
            rounds=2,
            round_kind="deals",
            round_deals=3,
        )
        tournament_services.register(
            actor=user, tournament=tournament, players=players[:6], check_in=True
        )
        tournaments.append(tournament.pk)
    token, _ = Token.objects.get_or_create(user=user)
    return {"token": token.key, "games": game_ids, "tournaments": tournaments}


def verify(acknowledged: dict[str, int]) -> dict[str, Any]:
    """Compare what the clients were told was recorded with what is stored."""
    _django()
    from datetime import timedelta

    from django.db.models import Count

    from scorekeeper import outbox
    from scorekeeper.models import Deal, Game, OutboxJob

    counts = dict(Game.objects.values_list("pk", "deal_count"))
    stored = dict(
        Deal.objects.values("game_id").annotate(n=Count("id")).values_list("game_id", "n")
    )
    lost = doubled = 0
    for game, acked in acknowledged.items():
        have = stored.get(int(game), 0)
        lost += max(0, acked - have)
        doubled += max(0, have - acked)
        doubled += abs(counts.get(int(game), 0) - have)  # the game's count agrees with its rows
    outbox.relay(older_than=timedelta(0))
    # Every job asked for must be done, not only handed over: the worker and beat still run,
    # and the relay hands over again what the broker took and lost (JOB_RESEND_SECONDS).
    deadline = time.monotonic() + JOBS_GRACE
    while OutboxJob.objects.filter(done_at__isnull=True).exists() and time.monotonic() < deadline:
        time.sleep(1)
    not_done = OutboxJob.objects.filter(done_at__isnull=True)
    return {
        "lost": lost,
        "doubled": doubled,
        "stored": sum(stored.values()),
        "jobs": OutboxJob.objects.count(),
        "jobs_not_done": not_done.count(),
        "jobs_not_done_by_task": dict(
            not_done.values("task").annotate(n=Count("id")).values_list("task", "n")
        ),
    }


def percentile(values: list[float], p: float) -> float:
    """The ``p`` quantile of sorted ``values``."""
    return values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")


# --- The services the benchmark starts ---------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Redis:
    def __init__(self, folder: Path) -> None:
        self.port, self.folder, self.process = free_port(), folder, None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, preexec_fn=_die_with_parent
        )
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


def _die_with_parent() -> None:
    """In a child, before it runs: ask Linux to send it SIGTERM when the benchmark dies (an
    interrupted run leaves no server, worker or Redis behind)."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def spawn(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Start ``command`` in its own process group, its output written to ``log``."""
    with log.open("wb") as out:
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            start_new_session=True,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent,
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def django_run(env: dict[str, str], *args: str) -> Any:
    out = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    if out.returncode:
        raise SystemExit(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1]) if args[0].endswith("soak.py") else None


def fresh_database(base: str) -> str:
    """A fresh database beside ``base``, named after it (``<name>_soak``)."""
    import psycopg

    prefix, name = base.rsplit("/", 1)
    soak_name = f"{name}_soak"
    with psycopg.connect(base, autocommit=True, connect_timeout=2) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{soak_name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{soak_name}"')
    return f"{prefix}/{soak_name}"


# --- The load ------------------------------------------------------------------------------


def soak(args: argparse.Namespace) -> None:
    from gevent import monkey

    monkey.patch_all()
    import gevent
    import requests
    from locust import FastHttpUser, task
    from locust.env import Environment

    sys.path.insert(0, str(ROOT))
    from bench.timing import paced, stagger

    folder = Path(tempfile.mkdtemp(prefix="soak-"))
    redis = Redis(folder)
    redis.start()
    env = {k: v for k, v in os.environ.items() if k not in ("CACHE_URL", "CELERY_RESULT_BACKEND")}
    env.update(
        DATABASE_URL=fresh_database(args.postgres),
        CELERY_BROKER_URL=f"redis://127.0.0.1:{redis.port}/0",
        CELERY_VISIBILITY_TIMEOUT="30",
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
        DEBUG="false",
        LOG_LEVEL="WARNING",
        API_TOKEN_RATE="100000/minute",
        PYTHONPATH=str(ROOT),
        EMAIL_URL="dummymail://",
    )
    django_run(env, "manage.py", "migrate", "--noinput", "-v", "0")
    django_run(env, "manage.py", "collectstatic", "--noinput", "-v", "0")
    per_game = max(1, args.deals // args.games)
    data = django_run(
        env, "bench/soak.py", "seed", str(args.games), str(per_game), str(args.rounds)
    )
    celery = [sys.executable, "-m", "celery", "-A", "scorekeeper"]
    worker_command = [*celery, "worker", "--pool=prefork", "-c", "2", "--without-mingle",
                      "--without-gossip", "--loglevel=WARNING"]  # fmt: skip
    worker = spawn(worker_command, env, folder / "worker.log")
    beat = spawn(
        [*celery, "beat", "-s", str(folder / "beat"), "--loglevel=WARNING"],
        env,
        folder / "beat.log",
    )
    port = free_port()
    served = {**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_ACCESS_LOG": ""}
    app = "scorekeeper.wsgi"
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
        served["SOAK_PROFILE_DIR"] = str(Path(args.profile).resolve())
        app = "bench.soak_profile:application"
    # gunicorn's own time for each request (from the request read to the answer sent), beside
    # the clients' (which adds connecting, the network and the load tool's own waits).
    access = folder / "access.log"
    logged = ["--access-logfile", str(access), "--access-logformat", "%(t)s %(m)s %(U)s %(D)s"]
    server = spawn(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", *logged, app],
        served,
        folder / "web.log",
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{url}/healthz", timeout=2)
            break
        except OSError:
            time.sleep(0.2)
    headers = {"Authorization": f"Token {data['token']}"}
    # A connection for each request, as the proxy in front of gunicorn makes them (nginx's
    # default: no keep-alive upstream). Clients that keep their connection pin it to the
    # worker process that accepted it: 50 of them at once can all land on one (4 threads)
    # while the others idle, and the p99 is that worker's queue.
    deal_headers = {**headers, "Connection": "close"}
    games: list[int] = list(data["games"])
    chunks = [games[i :: args.clients] for i in range(args.clients)]  # each client's tables
    acknowledged: dict[str, int] = {str(g): 0 for g in games}
    samples: list[tuple[float, float, int]] = []  # (when, ms, status)
    errors: list[str] = []
    rng = random.Random(7)

    period = args.clients / args.rate

    class Table(FastHttpUser):
        host = url
        wait_time = paced(period)

        def on_start(self) -> None:
            self.mine = chunks.pop() if chunks else []
            # Tables do not deal in step: each client keeps a pace of its own, from its own
            # moment within the first period (in step, paced clients would send in bursts of
            # all 50 at once, and each burst queues behind itself).
            stagger(self, period, rng.random())

        @task
        def post(self) -> None:
            open_games = [g for g in self.mine if acknowledged[str(g)] < per_game]
            if not open_games:
                gevent.sleep(0.5)
                return
            game = rng.choice(open_games)
            number = acknowledged[str(game)] + 1
            key = f"{game}-{number}"
            body = deal_body(number)
            path = f"/api/v1/games/{game}/deals/"
            roll = rng.random()
            if roll < args.resend / 2:  # a client that gave up waiting, then sends again
                with contextlib.suppress(requests.RequestException):
                    requests.post(url + path, json=body, timeout=0.002,
                                  headers={**headers, "Idempotency-Key": key})  # fmt: skip
            response = self.client.post(
                path, json=body, headers={**deal_headers, "Idempotency-Key": key}
            )
            if response.status_code != 201:
                errors.append(f"{response.status_code} {path} {response.text[:150]}")
                return
            if args.resend / 2 <= roll < args.resend:  # sent again at once: the same answer
                again = self.client.post(
                    path, json=body, headers={**deal_headers, "Idempotency-Key": key}
                )
                if again.status_code != 201 or again.json()["number"] != number:
                    errors.append(f"resend {again.status_code} {path} {again.text[:150]}")
            acknowledged[str(game)] = number

    environment = Environment(user_classes=[Table])

    def record(response_time: float, response: Any = None, **kwargs: Any) -> None:
        status = getattr(response, "status_code", 0) or 0
        samples.append((time.monotonic(), response_time, status))

    environment.events.request.add_listener(record)

    rounds_done = rounds_failed = 0

    def tournaments() -> None:
        nonlocal rounds_done, rounds_failed
        session = requests.Session()
        session.headers.update(headers)
        left = args.rounds
        for tournament in data["tournaments"]:
            for number in (1, 2):
                if left == 0:
                    return
                left -= 1
                base = f"{url}/api/v1/tournaments/{tournament}/rounds/"
                asked = session.post(base, json={})
                deadline = time.monotonic() + 120
                state = asked.json().get("seating_status") if asked.status_code == 202 else None
                while state not in ("done", "failed") and time.monotonic() < deadline:
                    gevent.sleep(0.5)
                    state = session.get(f"{base}{number}/").json().get("seating_status")
                published = session.post(f"{base}{number}/publish/", json={"notify": True})
                closed = session.post(f"{base}{number}/close/", json={"force": True})
                if state == "done" and published.status_code == 200 and closed.status_code == 200:
                    rounds_done += 1
                else:
                    rounds_failed += 1
                    errors.append(f"round {tournament}/{number}: {state} {published.status_code}"
                                  f" {closed.status_code} {closed.text[:150]}")  # fmt: skip
                gevent.sleep(1)

    outage: list[float] = []
    outage_wall: list[float] = []

    def chaos() -> None:
        gevent.sleep(args.outage_at)
        outage.append(time.monotonic())
        outage_wall.append(time.time())
        redis.stop()
        gevent.sleep(args.outage)
        redis.start()
        outage.append(time.monotonic())
        outage_wall.append(time.time())
        gevent.sleep(5)
        children = subprocess.run(["pgrep", "-P", str(worker.pid)], capture_output=True, text=True)
        for pid in children.stdout.split()[:1]:
            os.kill(int(pid), signal.SIGKILL)  # a worker process, as the OOM killer would

    started = time.monotonic()
    runner = environment.create_local_runner()
    runner.start(args.clients, spawn_rate=args.clients)
    helpers = [gevent.spawn(tournaments), gevent.spawn(chaos)]
    total = per_game * len(data["games"])
    while sum(acknowledged.values()) < total and time.monotonic() - started < args.limit:
        gevent.sleep(0.2)
    deals_took = time.monotonic() - started
    gevent.joinall(helpers, timeout=300)
    runner.quit()
    elapsed = time.monotonic() - started
    gevent.sleep(35)  # a beat's relay and the worker finish what is in flight
    result = django_run(env, "bench/soak.py", "verify", json.dumps(acknowledged))
    gone = {name: p.returncode for name, p in (("web", server), ("beat", beat), ("worker", worker))
            if p.poll() is not None}  # fmt: skip
    for process in (server, beat, worker):
        stop(process)
    redis.stop()

    lo, hi = (outage[0], outage[1] + 5) if len(outage) == 2 else (0.0, 0.0)
    calm = sorted(ms for when, ms, _ in samples if not lo <= when <= hi)
    stormy = sorted(ms for when, ms, _ in samples if lo <= when <= hi)

    lo_wall, hi_wall = (outage_wall[0], outage_wall[1] + 5) if len(outage_wall) == 2 else (0, 0)
    served_ms = server_times(access, lo_wall, hi_wall)
    five = sum(1 for _, _, status in samples if status >= 500)
    jobs_lost = rounds_failed + result["jobs_not_done"]
    if result["jobs_not_done"]:
        errors.append(f"jobs not done {JOBS_GRACE:.0f} s after the run: "
                      f"{result['jobs_not_done_by_task']}")  # fmt: skip
    acked = sum(acknowledged.values())
    print(f"soak: {acked} deals acknowledged of {total} in {deals_took:.0f} s "
          f"({args.clients} clients, {len(data['games'])} games, {len(samples)} requests "
          f"in {elapsed:.0f} s); {rounds_done} rounds seated, published and closed; Redis "
          f"stopped {args.outage:.0f} s, one worker process killed")  # fmt: skip
    print(f"rate: asked {args.rate:g} deals/s, achieved {acked / deals_took:.1f} deals/s "
          f"({len(samples) / elapsed:.1f} requests/s)")  # fmt: skip
    print(f"deals lost {result['lost']}, deals doubled {result['doubled']}, 5xx {five}, "
          f"jobs lost {jobs_lost} (target 0 / 0 / 0 / 0; {result['jobs']} jobs asked for, "
          f"each checked done)")  # fmt: skip
    print(f"outside the outage: p50 {percentile(calm, 0.5):.0f} ms, "
          f"p99 {percentile(calm, 0.99):.0f} ms ({len(calm)} requests; target p99 < 100 ms); "
          f"during it: p50 {percentile(stormy, 0.5):.0f} ms, "
          f"p99 {percentile(stormy, 0.99):.0f} ms "
          f"({len(stormy)} requests)")  # fmt: skip
    print(f"the server's own time for a deal POST (gunicorn's access log) outside the outage: "
          f"p50 {percentile(served_ms, 0.5):.0f} ms, p99 {percentile(served_ms, 0.99):.0f} ms "
          f"({len(served_ms)} requests)")  # fmt: skip
    if errors:
        print(f"{len(errors)} errors, first: " + " | ".join(errors[:3]))
    if gone:
        print(f"exited during the run (exit codes): {gone}")
    print(f"logs of the web server, worker and beat: {folder}/*.log")
    if args.profile:
        profile_report(Path(args.profile), [ms for _, ms, _ in samples])


def server_times(access: Path, lo: float, hi: float) -> list[float]:
    """The deal POSTs' times in milliseconds from gunicorn's access log, leaving out those
    answered from ``lo`` to ``hi`` (seconds since the epoch; the log has whole seconds)."""
    from datetime import datetime

    times = []
    with contextlib.suppress(FileNotFoundError), access.open() as lines:
        for line in lines:
            stamp, _, rest = line.partition("] ")
            method, path, micros = rest.split()
            when = datetime.strptime(stamp.lstrip("["), "%d/%b/%Y:%H:%M:%S %z").timestamp()
            if method == "POST" and path.endswith("/deals/") and not lo - 1 <= when <= hi:
                times.append(int(micros) / 1000)
    return sorted(times)


def profile_report(folder: Path, client_ms: list[float]) -> None:
    """Where the slow requests spent their time, and how much of the clients' time was in
    the app at all (the rest: waiting for a thread, a process or the CPU)."""
    import pstats

    times = sorted(ms for f in folder.glob("times-*.json") for _, ms in json.loads(f.read_text()))
    client_ms = sorted(client_ms)

    print(f"profile: in the app p50 {percentile(times, 0.5):.0f} ms, "
          f"p99 {percentile(times, 0.99):.0f} ms ({len(times)} requests); "
          f"at the client p50 {percentile(client_ms, 0.5):.0f} ms, "
          f"p99 {percentile(client_ms, 0.99):.0f} ms")  # fmt: skip
    slow = sorted(folder.glob("slow-*.pstats"))
    if slow:
        stats = pstats.Stats(*map(str, slow))
        print(f"profile of the requests over 100 ms in the app ({folder}/slow-*.pstats):")
        stats.sort_stats("cumulative").print_stats(25)


def main() -> None:
    if sys.argv[1:2] == ["seed"]:
        print(json.dumps(seed(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))))
        return
    if sys.argv[1:2] == ["verify"]:
        print(json.dumps(verify(json.loads(sys.argv[2]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--rate", type=float, default=50, help="deals a second, all clients")
    parser.add_argument("--profile", default="", help="a folder: profile the app (cProfile)")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--resend", type=float, default=0.1)
    parser.add_argument("--outage", type=float, default=10)
    parser.add_argument("--outage-at", type=float, default=15)
    parser.add_argument("--limit", type=float, default=900, help="seconds at most")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
    )
    soak(parser.parse_args())


if __name__ == "__main__":
    main()
