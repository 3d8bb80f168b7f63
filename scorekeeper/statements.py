"""A cursor for the app's few hot hand-written statements (the game's read and the deal's
write): on PostgreSQL, PostgreSQL plans each of them once per connection instead of on
every request. Planning them cost more than running them.

Django binds parameters on the client (each statement reaches the server with its values
written in), which rules out prepared statements. This cursor binds them on the server,
and psycopg prepares a statement once the connection has run it
``settings.HOT_STATEMENTS_PREPARE_AFTER`` times (5; None with ``DB_PREPARED_STATEMENTS=
false``, and then nothing is prepared). The connection's own threshold stays None outside
this cursor: the ORM's queries keep Django's cursor, binding values on the client, and
psycopg does not keep count of them. Statements
still pass through Django's cursor wrapper: they are logged, counted and seen by execute
wrappers as any other.

psycopg forgets a connection's prepared statements when it rolls back (a refused deal
ends in a rollback): the next few requests on that connection plan them again. Behind a
connection pooler, prepared statements need one that keeps them per client (PgBouncer
1.21 or later with ``max_prepared_statements`` set); otherwise ``DB_PREPARED_STATEMENTS=
false``. A deploy that changes these tables' columns restarts the workers (their
connections and statements go with them).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper


class _DebugWrapper(CursorDebugWrapper):
    """Django's logging cursor wrapper (DEBUG, tests), logging each statement with its
    values written in: Django reads them back from its own cursor, not from this one."""

    @contextmanager
    def debug_sql(
        self,
        sql: Any = None,
        params: Any = None,
        use_last_executed_query: bool = False,
        many: bool = False,
    ) -> Iterator[None]:
        if use_last_executed_query and not many:
            import psycopg

            # Values psycopg cannot write in: the statement is logged with its placeholders.
            with suppress(psycopg.Error):
                sql = self.db.ops.compose_sql(sql, params)
        with super().debug_sql(sql, params, use_last_executed_query=False, many=many):
            yield


@contextmanager
def cursor() -> Iterator[CursorWrapper]:
    """A cursor for one of the hot statements (on SQLite, Django's usual cursor)."""
    if connection.vendor != "postgresql":
        with connection.cursor() as plain:
            yield plain
        return
    import psycopg  # the PostgreSQL backend's driver (psycopg 3)

    # What Django's own cursor() does first: a persistent connection found dead by the
    # request's health check is replaced, not used.
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    driver = connection.connection
    raw = psycopg.Cursor(driver)
    wrapper = (
        _DebugWrapper(raw, connection)
        if connection.queries_logged
        else CursorWrapper(raw, connection)
    )
    driver.prepare_threshold = settings.HOT_STATEMENTS_PREPARE_AFTER
    try:
        with wrapper:
            yield wrapper
    finally:
        driver.prepare_threshold = None
