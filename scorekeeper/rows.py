"""Writing rows as the ORM would, without composing a query for each: the deal write path
saves a few rows on every deal, and composing their statements cost more than running them.

A :class:`Batch` gathers inserts and updates of model instances, each value prepared
through its model field exactly as ``Model.save()`` does (defaults,
``auto_now``/``auto_now_add``, JSON), and sends them together: on PostgreSQL as one
statement (each write a clause of its ``WITH``), elsewhere one plain statement each. No
model signals are sent (the app connects none to these models); anything that needs them
uses ``save()``. Needs a database that returns columns from an INSERT (PostgreSQL; SQLite
3.35 or later).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connection, models
from django.db.models import Field, Model

from . import statements

M = TypeVar("M", bound=Model)


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _column(field: Field[object, object]) -> str:
    assert field.column is not None  # concrete fields have a column
    return _quote(field.column)


#: Field classes whose value of this one type the ORM saves as it is (``pre_save`` reads the
#: attribute, ``get_db_prep_save`` gives it back; an integer field's through the backend's
#: ``adapt_integerfield_value``): the per-field calls are skipped for those values. Exact
#: classes only: a subclass may prepare differently.
_SAVED_AS_IS: dict[type[Field[Any, Any]], type] = {
    models.BigIntegerField: int,
    models.IntegerField: int,
    models.PositiveIntegerField: int,
    models.PositiveSmallIntegerField: int,
    models.SmallIntegerField: int,
    models.CharField: str,
    models.TextField: str,
    models.BooleanField: bool,
}
_AUTO_KEYS = (models.AutoField, models.BigAutoField, models.SmallAutoField)

#: A field to write: the field, its attribute, the one type of value it saves as is (or
#: None), and an integer field's internal type (for ``adapt_integerfield_value``).
_Column = tuple["Field[Any, Any]", str, type | None, str | None]


def _columns(fields: Sequence[Field[Any, Any]]) -> list[_Column]:
    out: list[_Column] = []
    for field in fields:
        kind = _SAVED_AS_IS.get(type(field))
        integer = field.get_internal_type() if kind is int else None
        if type(field) is models.ForeignKey and type(field.target_field) in _AUTO_KEYS:
            kind = int  # a key to an automatic id saves the id as it is
        out.append((field, field.attname, kind, integer))
    return out


def _values(instance: Model, columns: list[_Column], add: bool) -> list[Any]:
    """Each column's value as ``field.get_db_prep_save(field.pre_save(instance, add))``."""
    adapt = connection.ops.adapt_integerfield_value
    values = []
    for field, attname, kind, integer in columns:
        value = getattr(instance, attname)
        if kind is None or (value is not None and type(value) is not kind):
            value = field.get_db_prep_save(field.pre_save(instance, add), connection)
        elif integer is not None:
            value = adapt(value, integer)
        values.append(value)
    return values


@cache
def _insert_text(model: type[Model], vendor: str) -> tuple[str, list[_Column]]:
    """The INSERT statement of a new ``model`` row returning its primary key, and the
    fields whose values it takes (written once for each model and database)."""
    if not connection.features.can_return_columns_from_insert:  # pragma: no cover
        raise NotImplementedError("the database must return columns from an INSERT")
    meta = model._meta
    fields = [field for field in meta.concrete_fields if field is not meta.pk]
    columns = ", ".join(_column(field) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    return (
        f"INSERT INTO {_quote(meta.db_table)} ({columns}) VALUES ({marks}) "  # noqa: S608
        f"RETURNING {_column(meta.pk)}",
        _columns(fields),
    )


@cache
def _update_text(
    model: type[Model], names: tuple[str, ...], vendor: str
) -> tuple[str, list[_Column]]:
    """The UPDATE statement of the fields ``names`` of a ``model`` row (and its
    ``auto_now`` fields) by primary key, and the fields whose values it takes."""
    meta = model._meta
    chosen = [
        field
        for field in meta.concrete_fields
        if field.name in names or getattr(field, "auto_now", False)
    ]
    assignments = ", ".join(f"{_column(field)} = %s" for field in chosen)
    return (
        f"UPDATE {_quote(meta.db_table)} SET {assignments} "  # noqa: S608
        f"WHERE {_column(meta.pk)} = %s",
        _columns(chosen),
    )


def _insert_sql(instance: Model) -> tuple[str, list[Any]]:
    """The INSERT of the new ``instance``, returning its generated primary key."""
    sql, columns = _insert_text(type(instance), connection.vendor)
    return sql, _values(instance, columns, True)


def _update_sql(instance: Model, fields: list[str]) -> tuple[str, list[Any]]:
    """The UPDATE of ``fields`` of the saved ``instance`` (and its ``auto_now`` fields)."""
    sql, columns = _update_text(type(instance), tuple(fields), connection.vendor)
    return sql, [*_values(instance, columns, False), instance.pk]


def _saved(instance: M, pk: Any) -> M:
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance


class Batch:
    """Writes sent together by :meth:`send`: on PostgreSQL one statement, each write a
    data-modifying clause of its ``WITH`` (all of them run, in no set order, against the
    same view of the data: no write may depend on another's effect, and no row may be
    written twice); elsewhere one statement each, in the order they were added. Inserted
    instances get their primary keys."""

    def __init__(self) -> None:
        self._writes: list[tuple[str, list[Any], Model | None]] = []
        self._updated: set[tuple[str, Any]] = set()

    def insert(self, instance: M) -> M:
        """Add the INSERT of ``instance``; it is saved (has its pk) once sent."""
        self._writes.append((*_insert_sql(instance), instance))
        return instance

    def update(self, instance: Model, fields: list[str]) -> None:
        row = (instance._meta.label, instance.pk)
        if row in self._updated:
            raise ValueError(f"{row} is already updated in this batch: one write per row")
        self._updated.add(row)
        self._writes.append((*_update_sql(instance, fields), None))

    def delete(self, model: type[Model], **where: Any) -> None:
        """Add the DELETE of the ``model`` rows whose columns equal ``where``'s values."""
        table = _quote(model._meta.db_table)
        columns = []
        for name in where:
            field = model._meta.get_field(name)
            assert isinstance(field, Field), f"{name} is a relation, not a column"
            columns.append(_column(field))
        condition = " AND ".join(f"{column} = %s" for column in columns)
        self.execute(f"DELETE FROM {table} WHERE {condition}", list(where.values()))  # noqa: S608

    def execute(self, sql: str, params: list[Any]) -> None:
        """Add one INSERT, UPDATE or DELETE statement (without RETURNING)."""
        self._writes.append((sql, params, None))

    def send(self) -> None:
        writes, self._writes = self._writes, []
        self._updated.clear()
        if not writes:
            return
        with statements.cursor() as cursor:
            if connection.vendor != "postgresql":
                for sql, params, instance in writes:
                    cursor.execute(sql, params)
                    if instance is not None:
                        _saved(instance, cursor.fetchone()[0])
                return
            clauses = ", ".join(f"w{i} AS ({sql})" for i, (sql, _, _) in enumerate(writes))
            inserted = [i for i, (_, _, instance) in enumerate(writes) if instance is not None]
            # Every clause runs whether or not the main SELECT reads it.
            keys = ", ".join(f"(SELECT * FROM w{i})" for i in inserted) or "1"
            cursor.execute(
                f"WITH {clauses} SELECT {keys}",
                [param for _, params, _ in writes for param in params],
            )
            row = cursor.fetchone() if inserted else ()
            for index, pk in zip(inserted, row, strict=True):
                instance = writes[index][2]
                assert instance is not None
                _saved(instance, pk)
