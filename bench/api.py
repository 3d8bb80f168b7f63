"""The deal write path, the game page and season standings against what the database
allows (``make bench-api``).

For each database (PostgreSQL when one answers at ``--postgres``, and the SQLite default)
the app is served by gunicorn with ``gunicorn.conf.py`` and the benchmark's settings
(``bench/api_settings.py``: the app plus a bare endpoint, token-authenticated like the API,
that inserts one row or answers a small JSON). Load comes from locust (headless, in this
process). Every comparison runs its two sides interleaved, ``--repeats`` times:

* throughput at saturation (8 clients, no pause): deal POST against the bare insert;
* latency at a fixed 50 and 100 requests/s: deal POST p50/p99 against the bare insert;
* the game page (50 deals, signed in) against a bare GET;
* a deal POST on a 1,000-deal game against one on a 5-deal game;
* a full rescore from the database of 100,000 stored deals (in a Django process);
* season standings over 1,000,000 deals against one SQL aggregate (in a Django process).

    python bench/api.py [--seconds 8] [--repeats 3] [--only sqlite|postgres] [--page]
        [--postgres URL] [--database NAME]

``--page`` runs only the game page against the bare GET; ``--database`` names the fresh
PostgreSQL database (``scorekeeper_bench`` by default; it is dropped and made again).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from gevent import monkey

monkey.patch_all()

import gevent  # noqa: E402
from locust import FastHttpUser, constant, task  # noqa: E402
from locust.env import Environment  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.serving import answers, free_port  # noqa: E402
from bench.timing import paced, stagger  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = 8


def django_env(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "CACHE_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="bench.api_settings",
        DATABASE_URL=database_url,
        DEBUG="false",
        LOG_LEVEL="WARNING",
        API_TOKEN_RATE="100000/minute",
        PYTHONPATH=str(ROOT),
    )
    return env


def manage(env: dict[str, str], *args: str) -> str:
    out = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    if out.returncode:
        raise SystemExit(out.stderr[-3000:])
    return out.stdout


@contextmanager
def server(env: dict[str, str]) -> Iterator[str]:
    port = free_port()
    env = {**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_ACCESS_LOG": ""}
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "scorekeeper.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    if not answers(f"{url}/healthz", process, timeout=60, pause=0.3):
        raise SystemExit("the server did not start")
    time.sleep(2)  # every worker up
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


# --- Load ------------------------------------------------------------------------------------

DATA: dict[str, Any] = {}
TRICKS = ([4, 5, 4], [3, 3, 7], [2, 6, 5], [5, 4, 4], [6, 3, 4], [3, 3, 7])
WIDOWS = (0, None, 2, 1, 0, 2)


class Api(FastHttpUser):
    abstract = True
    #: Paced runs: seconds between one user's requests, and the users' phases in turn.
    period: float | None = None
    phases: Iterator[float] = iter(())

    def on_start(self) -> None:
        self.headers = {"Authorization": f"Token {DATA['token']}"}

    def start_pace(self) -> None:
        """Paced users send evenly spread over the period, not all at once."""
        if self.period is not None:
            stagger(self, self.period, next(self.phases))


class DealPoster(Api):
    """Posts the next deal of a game of its own (as a table does), with a fresh key."""

    abstract = True
    games: list[int] = []

    def on_start(self) -> None:
        super().on_start()
        self.game = type(self).games.pop()
        detail = self.client.get(f"/api/v1/games/{self.game}/?deals_limit=1", headers=self.headers)
        self.number = detail.json()["deal_count"] + 1
        self.start_pace()

    @task
    def post_deal(self) -> None:
        i = (self.number - 1) % len(TRICKS)
        body = {"number": self.number, "widow": WIDOWS[i], "tricks": TRICKS[i]}
        headers = {**self.headers, "Idempotency-Key": f"{self.game}-{self.number}-{time.time()}"}
        with self.client.post(
            f"/api/v1/games/{self.game}/deals/", json=body, headers=headers, catch_response=True
        ) as response:
            if response.status_code == 201:
                self.number += 1
            else:
                response.failure(f"{response.status_code}: {response.text[:200]}")


class BarePoster(Api):
    abstract = True

    def on_start(self) -> None:
        super().on_start()
        self.start_pace()

    @task
    def post_bare(self) -> None:
        self.client.post("/bench/bare/", json={"n": 1}, headers=self.headers)


def run(user: type[Any], users: int, seconds: float, rate: float | None = None) -> Any:
    """Run ``users`` of ``user`` for ``seconds`` (after a second's warm-up); its stats."""
    attrs: dict[str, Any] = {"host": DATA["url"], "abstract": False}
    if rate is None:
        attrs["wait_time"] = constant(0)
    else:
        attrs.update(
            wait_time=paced(users / rate),
            period=users / rate,
            phases=iter([k / users for k in range(users)]),
        )
    if issubclass(user, DealPoster):
        attrs["games"] = list(DATA["games"])
    cls = type(user.__name__, (user,), attrs)
    env = Environment(user_classes=[cls])
    runner = env.create_local_runner()
    runner.start(users, spawn_rate=users)
    gevent.sleep(1.0)
    env.stats.reset_all()
    gevent.sleep(seconds)
    runner.quit()
    stats = env.stats.total
    if stats.num_failures:
        errors = "; ".join(str(e.error) for e in list(env.stats.errors.values())[:3])
        raise SystemExit(f"{user.__name__}: {stats.num_failures} failures: {errors}")
    return stats


def single(path: str, headers: dict[str, str], method: str = "GET", count: int = 60) -> float:
    """Median milliseconds of ``count`` requests, one after the other."""
    import statistics

    import requests

    times = []
    with requests.Session() as session:
        for _ in range(count):
            started = time.perf_counter()
            response = session.request(method, DATA["url"] + path, headers=headers)
            assert response.status_code < 300, (path, response.status_code, response.text[:300])
            times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def post_on(game: int, count: int) -> float:
    """Median milliseconds of ``count`` deal POSTs on ``game``, one after the other."""
    import statistics

    import requests

    headers = {"Authorization": f"Token {DATA['token']}"}
    with requests.Session() as session:
        number = session.get(
            f"{DATA['url']}/api/v1/games/{game}/?deals_limit=1", headers=headers
        ).json()["deal_count"]
        times = []
        for _ in range(count):
            number += 1
            i = (number - 1) % len(TRICKS)
            body = {"number": number, "widow": WIDOWS[i], "tricks": TRICKS[i]}
            key = {"Idempotency-Key": f"len-{game}-{number}"}
            started = time.perf_counter()
            response = session.post(
                f"{DATA['url']}/api/v1/games/{game}/deals/", json=body, headers={**headers, **key}
            )
            times.append(time.perf_counter() - started)
            assert response.status_code == 201, response.text[:300]
    return statistics.median(times) * 1000


def bench(name: str, database_url: str, seconds: float, repeats: int, only: str | None) -> None:
    env = django_env(database_url)
    manage(env, "manage.py", "migrate", "--noinput", "-v", "0")
    manage(env, "manage.py", "collectstatic", "--noinput", "-v", "0")
    seeded = json.loads(manage(env, "bench/api_seed.py", "seed").strip().splitlines()[-1])
    print(f"\n== {name} (gunicorn.conf.py: {os.cpu_count()} cores) ==", flush=True)
    with server(env) as url:
        DATA.update(seeded, url=url, games=seeded["open_games"])
        for repeat in range(1, repeats + 1):
            if only == "page":
                game_page(repeat)
                continue
            deal = run(DealPoster, CLIENTS, seconds)
            bare = run(BarePoster, CLIENTS, seconds)
            print(
                f"[{repeat}] saturation, {CLIENTS} clients: deal POST "
                f"{deal.total_rps:.0f}/s, bare insert {bare.total_rps:.0f}/s: "
                f"{deal.total_rps / bare.total_rps:.2f}x (target >= 0.6x)",
                flush=True,
            )
            if only == "saturation":
                continue
            if repeat == 1 and name == "PostgreSQL":
                cpu_split(env)
            for rate in (50, 100):
                deal = run(DealPoster, CLIENTS, seconds, rate=rate)
                bare = run(BarePoster, CLIENTS, seconds, rate=rate)
                print(
                    f"[{repeat}] {rate} requests/s: deal POST p50 "
                    f"{deal.get_response_time_percentile(0.5):.0f} ms, p99 "
                    f"{deal.get_response_time_percentile(0.99):.0f} ms; bare p50 "
                    f"{bare.get_response_time_percentile(0.5):.0f} ms, p99 "
                    f"{bare.get_response_time_percentile(0.99):.0f} ms"
                    + (" (target: deal p99 < 50 ms)" if rate == 100 else ""),
                    flush=True,
                )
            game_page(repeat)
            long = post_on(DATA["long"], 30)
            short = post_on(DATA["short"], 30)
            print(
                f"[{repeat}] deal POST on a 1,000-deal game {long:.1f} ms, on a 5-deal game "
                f"{short:.1f} ms: {long / short:.2f}x (target <= 1.1x)",
                flush=True,
            )
    if only:
        return
    rescore = json.loads(manage(env, "bench/api_seed.py", "rescore", "100000").splitlines()[-1])
    print(
        f"full rescore from the database (scores_check --jobs {rescore['cores']}) of "
        f"{rescore['deals']:,} stored deals: {rescore['seconds']:.2f} s (target < 1 s); "
        f"in one process {rescore['one_process']:.2f} s",
        flush=True,
    )
    timings = json.loads(manage(env, "bench/api_seed.py", "standings", "1000000").splitlines()[-1])
    print(
        f"season standings over 1,000,000 deals: {timings['app']:.1f} ms warm, one SQL "
        f"aggregate {timings['sql']:.1f} ms: {timings['app'] / timings['sql']:.2f}x "
        "(targets < 20 ms, <= 1.3x)",
        flush=True,
    )


def cpu_split(env: dict[str, str]) -> None:
    """Where a request's CPU goes, deal POST against bare: the app's process and the
    PostgreSQL backend serving it (``api_seed.py cpu``, in-process, no server)."""
    games = [str(game) for game in DATA["games"]]
    split = json.loads(
        manage(env, "bench/api_seed.py", "cpu", "2000", DATA["token"], *games).splitlines()[-1]
    )
    deal, bare = split["deal"], split["bare"]
    print(
        f"CPU of one request, in-process: deal POST app {deal['app']:.2f} ms + PostgreSQL "
        f"{deal['database']:.2f} ms; bare app {bare['app']:.2f} ms + PostgreSQL "
        f"{bare['database']:.2f} ms: "
        f"{(bare['app'] + bare['database']) / (deal['app'] + deal['database']):.2f}x",
        flush=True,
    )


def game_page(repeat: int) -> None:
    """The game page (50 deals, signed in) against a bare GET, interleaved."""
    page = single(f"/g/{DATA['page']}/", {"Cookie": f"sessionid={DATA['session']}"})
    bare_get = single("/bench/bare/", {"Authorization": f"Token {DATA['token']}"})
    print(
        f"[{repeat}] game page (50 deals) {page:.1f} ms, bare GET {bare_get:.1f} ms: "
        f"{page / bare_get:.2f}x (target <= 2x)",
        flush=True,
    )


def postgres_database(base: str, name: str = "scorekeeper_bench") -> str | None:
    """A fresh database ``name`` beside ``base`` (None if none answers)."""
    try:
        import psycopg
    except ImportError:
        return None
    try:
        with psycopg.connect(base, autocommit=True, connect_timeout=2) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error:
        return None
    return base.rsplit("/", 1)[0] + f"/{name}"


def _identifier(name: str) -> str:
    if not name.replace("_", "").isalnum() or not name.isascii():
        raise argparse.ArgumentTypeError("letters, digits and _ only")
    return name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", choices=["sqlite", "postgres"])
    parser.add_argument(
        "--postgres",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
    )
    parser.add_argument("--database", default="scorekeeper_bench", type=_identifier)
    parser.add_argument("--page", action="store_true", help="only the game page")
    parser.add_argument(
        "--saturation", action="store_true", help="only the throughput at saturation"
    )
    args = parser.parse_args()
    part = "page" if args.page else "saturation" if args.saturation else None
    if args.only != "sqlite":
        url = postgres_database(args.postgres, args.database)
        if url is None:
            print(f"PostgreSQL at {args.postgres} does not answer: skipped")
        else:
            bench("PostgreSQL", url, args.seconds, args.repeats, part)
    if args.only != "postgres":
        folder = Path(tempfile.mkdtemp(prefix="bench-api-"))
        try:
            bench(
                "SQLite (embedded default)",
                f"sqlite:///{folder}/db.sqlite3",
                args.seconds,
                args.repeats,
                part,
            )
        finally:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
