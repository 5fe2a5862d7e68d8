"""Statements written out for the hottest paths, where Django's query building costs more CPU than the statement.

Names come from model metadata, never from input; values are always parameters.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connection, models

M = TypeVar("M", bound=models.Model)


def table(model: type[models.Model]) -> str:
    """The model's table name, quoted for this database."""
    return _quoted(model, "", connection.vendor)


def column(model: type[models.Model], name: str) -> str:
    """A field's column name ("pk" for the primary key), quoted for this database."""
    return _quoted(model, name, connection.vendor)


# A key column is a signed 64-bit integer: a larger id from a URL matches no row, but sent as a parameter it
# overflows SQLite's integer instead (the ORM's lookups treat it as no match; the statements written here must too).
MAX_KEY = 2**63 - 1


def beyond_keys(value: Any) -> bool:
    """Whether `value` is an int no key column can hold: no row has it."""
    return isinstance(value, int) and not -MAX_KEY - 1 <= value <= MAX_KEY


@cache
def placeholders(count: int) -> str:
    """`%s, %s, ...`: one parameter placeholder per value, for an IN list or a VALUES row."""
    return ", ".join(["%s"] * count)


def _quoted(model: type[models.Model], name: str, vendor: str) -> str:
    if not name:
        return connection.ops.quote_name(model._meta.db_table)
    field = model._meta.pk if name == "pk" else model._meta.get_field(name)
    return connection.ops.quote_name(str(getattr(field, "column", "")))


def update_rows(objs: Sequence[models.Model], fields: Sequence[str]) -> None:
    """Save these fields of each object, by primary key: one UPDATE per row, sent in one batch.

    Why not QuerySet.bulk_update: it builds a CASE WHEN per field over every row, about 6 ms of CPU for seven seat
    hands; this costs a fraction of that and PostgreSQL runs the same row updates.
    """
    if not objs:
        return
    model = type(objs[0])
    targets = [model._meta.get_field(name) for name in fields]
    assignments = ", ".join(f"{column(model, name)} = %s" for name in fields)
    sql = f"UPDATE {table(model)} SET {assignments} WHERE {column(model, 'pk')} = %s"  # noqa: S608 (metadata)
    params: list[list[Any]] = [
        [field.get_db_prep_save(getattr(obj, field.attname), connection) for field in targets]  # type: ignore[union-attr]
        + [obj.pk]
        for obj in objs
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


# Up to this many rows go as VALUES on PostgreSQL too. Measured with audit events (about 25 columns): one row 0.32
# against 0.45 ms of CPU as UNNEST arrays, two rows 0.71 against 1.19, seven about even, 21 rows 5.0 against 3.8.
_VALUES_UP_TO = 6


def insert_rows(objs: Sequence[models.Model], *, returning: bool = False) -> None:
    """Insert these new objects of one model in one multi-row INSERT, in order; with `returning`, each object gets
    its primary key (ids ascend in the given order, as the sequence hands them out row by row).

    The same statement QuerySet.bulk_create sends, without the milliseconds of CPU it spends preparing and
    compiling it. Defaults and auto_now fields are filled as a save would (Field.pre_save); the database's
    constraints and triggers apply as to any insert.
    """
    if not objs:
        return
    model = type(objs[0])
    targets, preps, head, arrays, row_tail = _insert_parts(model, connection.vendor)
    rows = [
        [prep(field, field.pre_save(obj, True)) for field, prep in zip(targets, preps, strict=True)] for obj in objs
    ]
    if arrays and len(rows) > _VALUES_UP_TO:
        # One array per column (as Django's bulk_create does there): a handful of parameters, whatever the rows.
        # Not for a few rows (every audit event a service writes is one): dumping short arrays cost more CPU.
        sql = head + arrays
        params: list[Any] = [list(values) for values in zip(*rows, strict=True)]
    else:
        sql = head + "VALUES " + ", ".join([row_tail] * len(objs))
        params = [value for values in rows for value in values]
    if returning:
        sql += f" RETURNING {column(model, 'pk')}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if returning:
            for obj, (pk,) in zip(objs, cursor.fetchall(), strict=True):
                obj.pk = pk
                obj._state.adding = False
                obj._state.db = connection.alias


# Values psycopg sends as they are: Django's get_db_prep_save for these only checks and returns them (on PostgreSQL),
# at a few microseconds a value, which for a round's 140 inserted rows was most of their cost.
_PLAIN_ON_POSTGRESQL = {
    "AutoField",
    "BigAutoField",
    "BigIntegerField",
    "BooleanField",
    "CharField",
    "DateTimeField",
    "ForeignKey",
    "IntegerField",
    "PositiveBigIntegerField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SmallIntegerField",
    "TextField",
}


def _as_is(field: Any, value: Any) -> Any:
    return value


def _prepared(field: Any, value: Any) -> Any:
    return field.get_db_prep_save(value, connection)


@cache
def _insert_parts(model: type[models.Model], vendor: str) -> tuple[list[Any], list[Any], str, str, str]:
    """The inserted fields, how each value is prepared (sent as it is, or as Django prepares it for this database),
    the statement's head, its tail on PostgreSQL for several rows (UNNEST of one array per column; "" elsewhere) and
    the placeholders of one row for VALUES."""
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    plain = _PLAIN_ON_POSTGRESQL if vendor == "postgresql" else set()
    preps = [_as_is if field.get_internal_type() in plain and not field.choices else _prepared for field in fields]
    head = f"INSERT INTO {table(model)} ({', '.join(column(model, field.name) for field in fields)}) "
    row_tail = f"({placeholders(len(fields))})"
    if vendor == "postgresql":
        arrays = ", ".join(f"(%s)::{str(field.db_type(connection)).split('(')[0]}[]" for field in fields)
        return fields, preps, head, f"SELECT * FROM UNNEST({arrays})", row_tail  # noqa: S608 (types from metadata)
    return fields, preps, head, "", row_tail


def converted(model: type[models.Model], names: Sequence[str], values: Sequence[Any]) -> list[Any]:
    """Values read by a hand-written SELECT, as the ORM would give them (e.g. SQLite's booleans and datetimes)."""
    out = []
    for (expression, converters), value in zip(_converters(model, tuple(names)), values, strict=True):
        for converter in converters:
            value = converter(value, expression, connection)
        out.append(value)
    return out


@cache
def _converters(model: type[models.Model], names: tuple[str, ...]) -> list[tuple[Any, list[Any]]]:
    expressions = [model._meta.get_field(name).get_col(model._meta.db_table) for name in names]  # type: ignore[union-attr]
    return [
        (expression, connection.ops.get_db_converters(expression) + expression.get_db_converters(connection))
        for expression in expressions
    ]


@cache
def _related_select(
    model: type[models.Model], paths: tuple[str, ...], lock: bool
) -> tuple[str, list[tuple[str, type[models.Model], list[str]]]]:
    """SELECT of one row of `model` by primary key with the rows its foreign-key `paths` ("table",
    "table__paytable", ...; parents first) lead to, each LEFT JOINed; with `lock`, FOR UPDATE of the root row only
    (as select_for_update(of=("self",)) does). Returns the SQL and, per path ("" for the root), its model and
    field names in column order."""
    aliases: dict[str, tuple[str, type[models.Model]]] = {"": ("t0", model)}
    joins: list[str] = []
    for number, path in enumerate(paths, start=1):
        parent, _, name = path.rpartition("__")
        parent_alias, parent_model = aliases[parent]
        target: type[models.Model] = parent_model._meta.get_field(name).related_model  # type: ignore[assignment]
        alias = f"t{number}"
        joins.append(
            f"LEFT JOIN {table(target)} {alias} "
            f"ON {alias}.{column(target, 'pk')} = {parent_alias}.{column(parent_model, name)}"
        )
        aliases[path] = (alias, target)
    layout = []
    columns = []
    for path, (alias, part) in aliases.items():
        fields = list(part._meta.concrete_fields)
        layout.append((path, part, [field.attname for field in fields]))
        columns += [f"{alias}.{column(part, field.name)}" for field in fields]
    sql = (
        f"SELECT {', '.join(columns)} FROM {table(model)} t0 {' '.join(joins)} "  # noqa: S608 (metadata)
        f"WHERE t0.{column(model, 'pk')} = %s"
    )
    if lock and connection.features.has_select_for_update_of:
        sql += " FOR UPDATE OF t0"
    return sql, layout


def get_with_related(model: type[M], pk: Any, paths: Sequence[str], *, lock: bool = False) -> M | None:
    """One row by primary key with its related rows loaded (like select_related, optionally select_for_update of
    the row alone), or None. Written out because the ORM spent ~3 ms of CPU building this query for every action."""
    if beyond_keys(pk):
        return None
    sql, layout = _related_select(model, tuple(paths), lock)
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk])
        row = cursor.fetchone()
    if row is None:
        return None
    objects: dict[str, models.Model | None] = {}
    start = 0
    for path, part, names in layout:
        values = row[start : start + len(names)]
        start += len(names)
        pk_value = values[names.index(part._meta.pk.attname)]
        obj = None if pk_value is None else _built(part, names, values)
        objects[path] = obj
        if path:
            parent, _, name = path.rpartition("__")
            holder = objects[parent]
            if holder is not None:
                holder._meta.get_field(name).set_cached_value(holder, obj)  # type: ignore[union-attr]
    return objects[""]  # type: ignore[return-value]


@cache
def _all_columns(model: type[models.Model], vendor: str) -> tuple[list[str], str]:
    names = [field.attname for field in model._meta.concrete_fields]
    return names, ", ".join(column(model, field.name) for field in model._meta.concrete_fields)


def _built(model: type[M], names: list[str], row: Sequence[Any]) -> M:
    return model.from_db(connection.alias, names, converted(model, names, row))


def select_rows(
    model: type[M], where: str, params: Sequence[Any], order_by: str = "", *, limit: int | None = None,
    for_update: bool = False,
) -> list[M]:
    """The rows of `model` that match `where` (a condition on its own quoted columns, values as %s), every field
    loaded; optionally ordered, at most `limit`, locked FOR UPDATE where the database has row locks (as
    select_for_update). Written out because the ORM spends about half a millisecond of CPU building even a
    one-filter SELECT."""
    names, columns = _all_columns(model, connection.vendor)
    sql = f"SELECT {columns} FROM {table(model)} WHERE {where}"  # noqa: S608 (metadata and the caller's condition)
    if order_by:
        sql += f" ORDER BY {order_by}"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    if for_update and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        return [_built(model, names, row) for row in cursor.fetchall()]


def update_returning(model: type[M], assignments: str, where: str, params: Sequence[Any]) -> M | None:
    """UPDATE ... SET `assignments` WHERE `where` RETURNING the whole row (one row: by its key), as an instance, or
    None when no row matched. The UPDATE takes the row lock as SELECT ... FOR UPDATE does."""
    names, columns = _all_columns(model, connection.vendor)
    sql = f"UPDATE {table(model)} SET {assignments} WHERE {where} RETURNING {columns}"  # noqa: S608 (as above)
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        row = cursor.fetchone()
    return None if row is None else _built(model, names, row)


def update_returning_joined(
    model: type[M], assignments: str, where: str, params: Sequence[Any], related: str
) -> M | None:
    """update_returning, with the row its foreign key `related` points at loaded onto it in the same statement on
    PostgreSQL (a data-modifying WITH joined to the related table: one round trip less on every locked write);
    elsewhere (SQLite has no UPDATE inside WITH) a second SELECT.

    The updated row is the latest (an UPDATE that waited for the lock reads the committed row), but the joined row
    is as the statement found it when it began, before any wait: use it only for a related row that writers of this
    one do not change under the same lock (a game's table)."""
    field: Any = model._meta.get_field(related)
    if connection.vendor != "postgresql":
        found = update_returning(model, assignments, where, params)
        if found is not None:
            field.set_cached_value(found, get_with_related(field.related_model, getattr(found, field.attname), ()))
        return found
    sql, own, theirs, target = _joined_update(model, assignments, where, related)
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        row = cursor.fetchone()
    if row is None:
        return None
    found = _built(model, own, row[: len(own)])
    field.set_cached_value(found, _built(target, theirs, row[len(own) :]))
    return found


@cache
def _joined_update(
    model: type[models.Model], assignments: str, where: str, related: str
) -> tuple[str, list[str], list[str], type[models.Model]]:
    field = model._meta.get_field(related)
    target: type[models.Model] = field.related_model  # type: ignore[assignment]
    own, own_columns = _all_columns(model, connection.vendor)
    theirs, _ = _all_columns(target, connection.vendor)
    their_columns = ", ".join(f"r.{column(target, f.name)}" for f in target._meta.concrete_fields)
    sql = (
        f"WITH locked AS (UPDATE {table(model)} SET {assignments} WHERE {where} RETURNING {own_columns}) "  # noqa: S608
        f"SELECT locked.*, {their_columns} FROM locked JOIN {table(target)} r "
        f"ON r.{column(target, 'pk')} = locked.{column(model, related)}"
    )
    return sql, own, theirs, target
