"""Writing one row as the ORM would, without composing a query for it: the deal write path
saves a few rows on every deal, and composing their statements cost more than running them.

``insert(instance)`` and ``update(instance, fields)`` prepare each value through its model
field exactly as ``Model.save()`` does (defaults, ``auto_now``/``auto_now_add``, JSON) and
send one plain statement. No model signals are sent (the app connects none to these
models); anything that needs them uses ``save()``.
"""

from __future__ import annotations

from typing import TypeVar

from django.db import connection
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _column(field: Field[object, object]) -> str:
    assert field.column is not None  # concrete fields have a column
    return _quote(field.column)


def insert(instance: M) -> M:
    """INSERT the new ``instance`` (its primary key generated); returns it, saved."""
    meta = instance._meta
    fields = [field for field in meta.concrete_fields if field is not meta.pk]
    values = [
        field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields
    ]
    columns = ", ".join(_column(field) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {_quote(meta.db_table)} ({columns}) VALUES ({marks})"  # noqa: S608
    with connection.cursor() as cursor:
        if connection.features.can_return_columns_from_insert:
            cursor.execute(f"{sql} RETURNING {_column(meta.pk)}", values)
            pk = cursor.fetchone()[0]
        else:  # pragma: no cover - every supported database returns columns
            cursor.execute(sql, values)
            pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.attname)
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance


def update(instance: Model, fields: list[str]) -> None:
    """UPDATE ``fields`` of the saved ``instance`` (and its ``auto_now`` fields)."""
    meta = instance._meta
    chosen = [
        field
        for field in meta.concrete_fields
        if field.name in fields or getattr(field, "auto_now", False)
    ]
    values = [
        field.get_db_prep_save(field.pre_save(instance, False), connection) for field in chosen
    ]
    assignments = ", ".join(f"{_column(field)} = %s" for field in chosen)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_quote(meta.db_table)} SET {assignments} "  # noqa: S608
            f"WHERE {_column(meta.pk)} = %s",
            [*values, instance.pk],
        )
