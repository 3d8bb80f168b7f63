"""Settings of the API benchmark's server: the app's own, plus a bare endpoint
(``bench/api_urls.py``) that exists only here."""

from scorekeeper.settings import *  # noqa: F403

ROOT_URLCONF = "bench.api_urls"
# The benchmark counts requests, not their lines in a log.
LOGGING["root"]["level"] = "WARNING"  # noqa: F405
