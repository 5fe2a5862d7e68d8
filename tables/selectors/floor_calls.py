"""The dealers' calls for the floor that the screens show: the open ones (the floor's live view) and a table's latest
(the tablet's header: waiting, or who answered and when)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from audit.roles import DEALER, FLOOR
from tables.models import FloorCall, HomeGame, HomeHand, Round, Table

# How long the tablet keeps saying who answered: long enough for the dealer to read it, not all shift.
ANSWER_SHOWN = timedelta(minutes=10)


def open_calls(*, with_tables: bool = False) -> dict[int, FloorCall]:
    """Every table's open call (at most one each), with what its alert names (and its table), in one query: its
    round and game, the status of the hand it was made in (`hand_status`) and, for a call between hands, the first
    hand dealt since (`hand_since`), for call_moved_on; whether its caller is a floor supervisor or a dealer
    (`called_by_floor`, `called_by_dealer`), for the alert's "Floor supervisor fiona" or "Dealer dave"."""
    related = ("round", "game", "called_by", *(("table",) if with_tables else ()))
    hand = HomeHand.objects.filter(game_id=OuterRef("game_id"), number=OuterRef("hand_number"))
    since = HomeHand.objects.filter(game_id=OuterRef("game_id"), started_at__gte=OuterRef("called_at"))
    member = User.groups.through.objects.filter(user_id=OuterRef("called_by_id"))
    calls = (FloorCall.objects.filter(answered_at__isnull=True).select_related(*related)
             .annotate(hand_status=Subquery(hand.values("status")[:1]),
                       hand_since=Subquery(since.order_by("number").values("number")[:1]),
                       called_by_floor=Exists(member.filter(group__name=FLOOR)),
                       called_by_dealer=Exists(member.filter(group__name=DEALER)))
             .order_by())
    return {call.table_id: call for call in calls}


def call_moved_on(call: FloorCall) -> str | None:
    """What became of the round or hand a still open call was made in ("settled", "voided", "hand 4 dealt since",
    "game over"), None while it is still in play; `call` comes from open_calls."""
    if call.round is not None:
        return str(Round.Phase(call.round.phase).label).lower() if call.round.phase in Round.FINISHED else None
    if call.hand_number is not None:
        status = getattr(call, "hand_status", None)
        return str(HomeHand.Status(status).label).lower() if status and status != HomeHand.Status.IN_PLAY else None
    since = getattr(call, "hand_since", None)
    if since is not None:
        return f"hand {since} dealt since"
    return "game over" if call.game is not None and call.game.status != HomeGame.Status.OPEN else None


def call_token(table: Table, now: datetime | None = None) -> str:
    """The tablet poll token's part for the table's latest call: its id and whether it is open, answered, or answered
    too long ago to show (ANSWER_SHOWN), so an answer, and its line going away, reach the tablet at the next poll
    whatever else changed; "" for a table never called from. One lookup on the call's (table, called_at) index."""
    latest = (FloorCall.objects.filter(table=table).order_by("-called_at", "-id")
              .values_list("pk", "answered_at").first())
    if latest is None:
        return ""
    pk, answered_at = latest
    if answered_at is None:
        return f"{pk}.open"
    return f"{pk}.{'answered' if (now or timezone.now()) - answered_at < ANSWER_SHOWN else 'old'}"


def table_call(table: Table, now: datetime | None = None) -> FloorCall | None:
    """The table's call the tablet shows: the open one, or the last one answered within ANSWER_SHOWN and before
    the table's next round or hand began (an answer read during the next hand looks like a new one)."""
    call = (FloorCall.objects.filter(table=table).select_related("called_by", "answered_by")
            .order_by("-called_at", "-id").first())
    if call is None or call.answered_at is None:
        return call
    if (now or timezone.now()) - call.answered_at >= ANSWER_SHOWN:
        return None
    dealt_since = (Round.objects.filter(table=table, started_at__gt=call.answered_at).exists()
                   or HomeHand.objects.filter(game__table=table, started_at__gt=call.answered_at).exists())
    return None if dealt_since else call
