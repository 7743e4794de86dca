"""Queries run for every table action, compiled once per database connection.

Django turns a queryset into SQL anew every time it runs; for the small reads and the one
update at the heart of every table change (``tables.write.path.apply_change``), building the SQL
cost more than running it (``benchmarks/profile_action.py``). Here a query is built by the ORM
once per connection, with a marker standing for the one value that changes, and then run again
with other values. Rows still pass through Django's own converters (JSON, dates) and become
model instances the usual way (``Model.from_db``), so callers cannot tell the difference.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar, cast
from weakref import WeakKeyDictionary

from django.core.exceptions import EmptyResultSet
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.sql.compiler import SQLCompiler

M = TypeVar("M", bound=models.Model)
# The compiler, its SQL and parameters, where the value goes, the fields' names, converters,
# whether an extra column follows the fields.
_Compiled = tuple[SQLCompiler, str, list[Any], int, list[str], dict[int, Any], bool]

# Stands for the value in the compiled query; never a real primary key (they are positive).
MARKER = -7_919_393_727


class Prepared(Generic[M]):
    """``build(MARKER)`` is a queryset filtered on one value; ``prepared(value)`` runs that
    query for ``value`` and returns the model instances, like ``list(build(value))``.

    Only plain querysets of one model (no ``select_related``, annotations, ``only``...)."""

    def __init__(
        self, build: Callable[[int], models.QuerySet[M]],
        also: Callable[[BaseDatabaseWrapper], str | None] | None = None,
    ) -> None:
        """``also``: for a database connection, a SQL expression without parameters selected
        after the model's fields (a subquery, say), or None where there is none; ``extra``
        returns its value beside each instance."""
        self.build = build
        self.also = also
        # One compiled query per connection (a connection belongs to one thread).
        self._compiled: WeakKeyDictionary[
            BaseDatabaseWrapper, _Compiled
        ] = WeakKeyDictionary()
        self._lock = threading.Lock()

    def _compile(
        self, connection: BaseDatabaseWrapper, using: str
    ) -> _Compiled:
        queryset = self.build(MARKER)
        compiler = queryset.query.get_compiler(using=using)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet:  # Django saw that the marker matches nothing
            raise ValueError("the marker cannot stand for the value in this query") from None
        at = [i for i, p in enumerate(params) if p == MARKER]
        if len(at) != 1:
            raise ValueError("the query must use the marker exactly once")
        model = queryset.model
        if compiler.klass_info is None or compiler.klass_info.get("related_klass_infos"):
            raise ValueError("only plain querysets of one model")
        attnames = [column.target.attname for column, _, _ in compiler.select]
        if len(attnames) != len(model._meta.concrete_fields):
            raise ValueError("only querysets that load every field")
        # What Django's results_iter does to every row (JSON, dates...), worked out once.
        columns = [column for column, _, _ in compiler.select[: compiler.col_count]]
        if compiler.has_composite_fields(columns):
            raise ValueError("only querysets without composite fields")
        converters = compiler.get_converters(columns)
        extra = self.also(connection) if self.also is not None else None
        if extra is not None:
            head, found, rest = sql.partition(" FROM ")  # the first: the columns are names
            if not found or not head.startswith("SELECT "):
                raise ValueError("cannot add a column to this query")
            sql = f"{head}, {extra} FROM {rest}"
        compiled = (compiler, sql, list(params), at[0], attnames, converters, extra is not None)
        with self._lock:
            self._compiled[connection] = compiled
        return compiled

    def __call__(self, value: int, using: str = DEFAULT_DB_ALIAS) -> list[M]:
        return [instance for instance, _ in self.extra(value, using)]

    def extra(self, value: int, using: str = DEFAULT_DB_ALIAS) -> list[tuple[M, Any]]:
        """The instances, each with the value of ``also`` for its row (None without it)."""
        connection = connections[using]
        compiled = self._compiled.get(connection)
        if compiled is None:
            compiled = self._compile(connection, using)
        compiler, sql, params, at, attnames, converters, has_extra = compiled
        params = params.copy()
        params[at] = value
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows: Iterable[Any] = cursor.fetchall()
        if converters:
            rows = compiler.apply_converters(rows, converters)
        model = cast(type[M], compiler.query.model)
        if not has_extra:
            return [(model.from_db(using, attnames, row), None) for row in rows]
        return [
            (model.from_db(using, attnames, row[:-1]), row[-1])
            for row in (list(row) for row in rows)
        ]


_updates: WeakKeyDictionary[
    BaseDatabaseWrapper,
    dict[Any, tuple[str, list[models.Field[Any, Any]], list[models.Field[Any, Any]]]],
] = WeakKeyDictionary()


def update_fields(
    instance: models.Model, fields: Sequence[str], *, where: Sequence[tuple[str, Any]] = ()
) -> bool:
    """``instance.save(update_fields=fields)`` for an instance loaded from the database, with
    the UPDATE statement built once per connection and model and set of fields (fields such
    as ``auto_now`` dates get their new value, as in ``save``). Unlike ``save`` it sends no
    ``pre_save``/``post_save`` signals (the tables app has no receivers for them). Raises
    ``LookupError`` if no row was updated.

    ``where=[(field, value), ...]``: update the row only if those fields still hold those
    values (checked by the same statement); returns whether it did, instead of raising."""
    using = instance._state.db or DEFAULT_DB_ALIAS
    connection = connections[using]
    model = type(instance)
    key = (model, tuple(fields), tuple([name for name, _ in where]))
    statements = _updates.setdefault(connection, {})
    found = statements.get(key)
    if found is None:
        meta = model._meta
        targets: list[models.Field[Any, Any]] = []
        for name in fields:
            target = meta.get_field(name)
            if not isinstance(target, models.Field) or not target.concrete or target.column is None:
                raise ValueError(f"{name}: only plain concrete fields")
            if hasattr(target, "get_placeholder"):
                raise ValueError(f"{name}: fields with their own SQL placeholder are not handled")
            targets.append(target)
        quote = connection.ops.quote_name
        pk_column = meta.pk.column if meta.pk is not None else None
        assert pk_column is not None
        sql = "UPDATE {} SET {} WHERE {} = %s".format(
            quote(meta.db_table),
            ", ".join(f"{quote(str(f.column))} = %s" for f in targets),
            quote(pk_column),
        )
        conditions: list[models.Field[Any, Any]] = []
        for name, _ in where:
            condition = meta.get_field(name)
            if not isinstance(condition, models.Field) or condition.column is None:
                raise ValueError(f"{name}: only plain concrete fields")
            sql += f" AND {quote(str(condition.column))} = %s"
            conditions.append(condition)
        found = statements[key] = (sql, targets, conditions)
    sql, targets, conditions = found
    values = [
        field.get_db_prep_save(field.pre_save(instance, False), connection) for field in targets
    ]
    values.append(instance.pk)
    values += [
        condition.get_db_prep_value(value, connection)
        for condition, (_, value) in zip(conditions, where, strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        updated = bool(cursor.rowcount == 1)
    if not updated and not where:
        raise LookupError(f"{model.__name__} {instance.pk} is gone")
    return updated
