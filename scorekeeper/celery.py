"""Celery application; configured from the ``CELERY_``-prefixed Django settings."""

import contextlib
import logging
import os
from typing import Any

from celery import Celery
from celery.signals import worker_init
from celery.worker.consumer import Consumer as BaseConsumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

logger = logging.getLogger(__name__)


class Consumer(BaseConsumer):
    """The worker's consumer, surviving a broker that goes away while a job runs.

    When the connection to Redis is lost, Celery 5.7's consumer lets the connection go
    (``collect``) and then closes it too; with a job taken and not yet acknowledged
    (``acks_late``), that close, and later the job's acknowledgement, reach for the transport
    just let go, raise ``AttributeError``, and the whole worker exits ("Unrecoverable
    error") instead of reconnecting. Here the lost connection is only let go, as Celery 5.6
    did, and the consumer reconnects. A job that was running is not lost: Redis hands it out
    again after the visibility timeout (or, when Redis lost it in a restart, the outbox's
    relay sends it again); the jobs are idempotent. ``tests/test_worker_death.py`` restarts
    a Redis under running jobs and checks that the worker lives."""

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        logger.warning("connection to the broker lost, reconnecting: %r", exc)
        if self.connection is not None:
            with contextlib.suppress(Exception):
                self.connection.collect()


app = Celery("scorekeeper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _worker_socket_timeout(sender: Any = None, **_: Any) -> None:
    """A worker waits for Redis's answers longer than a web process handing a job over (whose
    requests must not wait on a broker that does not answer): its BRPOP for the next job
    takes a second by itself."""
    options = dict(sender.app.conf.broker_transport_options or {})
    options["socket_timeout"] = sender.app.conf.worker_socket_timeout
    sender.app.conf.broker_transport_options = options
