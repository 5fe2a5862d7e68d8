"""A dealer's call for the floor at a home-game table that still stands: the floor's live view alerts on it and the
tablet shows it."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Max

from audit.models import AuditEvent
from tables import actions
from tables.models import HomeGame, HomeHand


def standing_calls(table_ids: Iterable[int]) -> dict[int, AuditEvent]:
    """Each table's latest call for the floor in its open game that still stands: made during a hand still in play,
    or between hands with no hand started since (the next hand's start ends a call made before it)."""
    games = dict(HomeGame.objects.filter(table_id__in=list(table_ids), status=HomeGame.Status.OPEN)
                 .values_list("pk", "table_id"))
    if not games:
        return {}
    latest: dict[int, AuditEvent] = {}
    for event in AuditEvent.objects.filter(action=actions.HOME_FLOOR_CALL.code, object_type="tables.homegame",
                                           object_id__in=[str(pk) for pk in games]).order_by("id"):
        latest[games[int(event.object_id)]] = event
    if not latest:
        return {}
    hands = HomeHand.objects.filter(game_id__in=list(games))
    in_play = dict(hands.filter(status=HomeHand.Status.IN_PLAY).values_list("game__table_id", "number"))
    started = dict(hands.values("game__table_id").annotate(last=Max("started_at"))
                   .values_list("game__table_id", "last"))
    standing = {}
    for table_id, event in latest.items():
        during = (event.after or {}).get("hand")
        if during is None:  # between hands: until the next hand starts
            stands = started.get(table_id) is None or started[table_id] < event.occurred_at
        else:  # during a hand: while that hand is in play
            stands = in_play.get(table_id) == during
        if stands:
            standing[table_id] = event
    return standing
