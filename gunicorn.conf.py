"""gunicorn settings for Scorekeeper (``gunicorn -c gunicorn.conf.py scorekeeper.wsgi``,
``make serve``). Every value can be changed from the environment; see README, "Production".

Threaded workers: a worker process per core and a few threads in each, so a client that
is slow to send its body holds one thread, not a whole process, and the database
connections (kept open, ``CONN_MAX_AGE``) are shared by few processes. For clients on poor
networks put a buffering proxy in front (nginx, Caddy): it receives whole requests before
gunicorn sees them.
"""

import os

_cores = os.cpu_count() or 1

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
worker_class = "gthread"
workers = int(os.environ.get("GUNICORN_WORKERS", max(2, 2 * _cores)))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))

# A request that takes longer than this is a bug or a stuck database: the worker is
# restarted. Seating a round is a background job, not a request.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5

# Recycle workers now and then, so a slow leak never grows for weeks.
max_requests = 2000
max_requests_jitter = 200

# The app is loaded once, in the master, before the workers are forked: a new worker (at
# start, or recycled above) answers its first requests warm instead of importing Django and
# every view first (seconds on a busy machine: the slowest requests of a soak). Nothing
# opens a database or broker connection at import; code changes need a restart, not a HUP.
preload_app = os.environ.get("GUNICORN_PRELOAD", "true").lower() != "false"


def when_ready(server: object) -> None:
    """Before the workers are forked: with the app preloaded, import the URLconf and every
    view once, here, rather than in each new worker's first requests."""
    if preload_app:
        from django.urls import get_resolver

        get_resolver().reverse_dict  # noqa: B018  (imports the URLconf, fills the resolver)


# Request line and headers: gunicorn's limits, stated. Bodies are limited by the app
# (MAX_BODY_BYTES, answered 413).
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

# The proxy's address, whose X-Forwarded-Proto gunicorn believes (the client address for
# rate limits is NUM_PROXIES, read by the app).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# Heartbeat files in memory, not on a disk that may stall.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
