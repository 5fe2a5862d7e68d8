"""Change counters on tables and rounds: raised by every write under its row lock, so they grow in commit order."""

from __future__ import annotations

from django.db.models import F

from tables.models import Round, Table


def version_bump(obj: Table | Round) -> None:
    """Raise the row's version; call it inside the writing transaction, on a row it has locked FOR UPDATE.

    Writers of one row are serialized by that lock, so a later commit always carries a higher version, unlike
    audit event ids, which are taken from a sequence before commit and can commit out of order.
    A write that then fails rolls the bump back with everything else.
    """
    type(obj).objects.filter(pk=obj.pk).update(version=F("version") + 1)
    obj.version += 1
