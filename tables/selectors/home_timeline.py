"""Compliance's timelines of home games: which audit events belong to a hand or a game, in the order they happened,
with the replay verdict. The compliance pages (tables/views/home_compliance.py) and the audit API (through
settings.AUDIT_HOME_GAME_TIMELINE / AUDIT_HOME_HAND_TIMELINE: audit never imports tables) read the same ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Q

from audit.models import AuditEvent
from audit.selectors import in_order
from tables import actions
from tables.models import HomeGame, HomeGamePlayer, HomeHand
from tables.selectors.home_records import game_replay, hand_verdict


def hand_events(hand: HomeHand) -> list[AuditEvent]:
    """The hand's own events (start, cards, actions, settlement, house charge, the floor's rulings: void, correction,
    pot awarded), the calls for the floor made while it was in play and the floor's answers to them (events of its
    game naming it)."""
    calls = Q(object_type="tables.homegame", object_id=str(hand.game_id),
              action__in=(actions.HOME_FLOOR_CALL.code, actions.FLOOR_CALL_ANSWER.code), after__hand=hand.number)
    return in_order(AuditEvent.objects.filter(Q(object_type="tables.homehand", object_id=str(hand.pk)) | calls))


def hand_rulings(hand: HomeHand) -> list[AuditEvent]:
    """The floor's corrections of the hand (an action or a card) and its pot awarded by ruling, in order: what the
    table screens tell the dealer and the floor happened to the hand."""
    return in_order(AuditEvent.objects.filter(object_type="tables.homehand", object_id=str(hand.pk), action__in=(
        actions.HOME_HAND_CORRECT.code, actions.HOME_POT_RULING.code)))


def game_event_refs(game: HomeGame) -> Q:
    """Which audit events are the game's: its own, its hands' and its players' (joins, chips, leaves; each person at a
    seat taken again is a player of their own)."""
    hands = [str(pk) for pk in HomeHand.objects.filter(game=game).values_list("pk", flat=True)]
    players = [str(pk) for pk in HomeGamePlayer.objects.filter(game=game).values_list("pk", flat=True)]
    return (Q(object_type="tables.homegame", object_id=str(game.pk))
            | Q(object_type="tables.homehand", object_id__in=hands)
            | Q(object_type="tables.homegameplayer", object_id__in=players))


def game_events(game: HomeGame) -> list[AuditEvent]:
    """Every event of the game, of its hands and of its players, in the order they happened."""
    return in_order(AuditEvent.objects.filter(game_event_refs(game)))


def game_events_chosen(text: str) -> Q | None:
    """settings.AUDIT_HOME_GAME_EVENTS: the trail's "Home game" filter. A game by its id or by its name as the screens
    show it ("Five Card Draw 1 game 2", any case), under the table's name today or the one it had when the game was
    played; None when there is no such game."""
    text = " ".join(text.split())
    games: list[HomeGame] = []
    if text.isascii() and text.isdigit():
        games = list(HomeGame.objects.filter(pk=int(text))) if int(text) < 2**63 else []
    else:
        at = text.lower().rfind(" game ")  # the last one: a table's own name may hold the word
        table, number = (text[:at], text[at + len(" game "):]) if at > 0 else ("", "")
        if number.isascii() and number.isdigit() and int(number) < 2**31:
            games = list(HomeGame.objects.filter(Q(table__name__iexact=table) | Q(pk__in=games_once_named(text)),
                                                 number=int(number)))
    if not games:
        return None
    # Two games may answer one name: a table renamed after its game, and another table given the old name since.
    refs = game_event_refs(games[0])
    for game in games[1:]:
        refs |= game_event_refs(game)
    return refs


def games_once_named(name: str) -> list[int]:
    """The games the trail recorded under `name` (any case): each event keeps the game as it was named then, so a
    game played before its table was renamed is found by the name it had at the table."""
    ids = AuditEvent.objects.filter(object_type="tables.homegame", object_repr__iexact=name)
    return [int(pk) for pk in ids.values_list("object_id", flat=True).distinct() if pk.isdigit()]


def finding(build: Callable[[], dict[str, Any]]) -> tuple[dict[str, Any] | None, str]:
    """(what `build` gives, "") or, when it fails, (None, the failure in words)."""
    try:
        return build(), ""
    except Exception as exc:  # a failing replay is a finding to show, not a reason to hide the timeline
        return None, f"{type(exc).__name__}: {exc}"


def _verdict(build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The replay verdict as the audit API gives it: {"ok", "differences", "note"?}; a replay that fails is a
    verdict that is not ok, naming the failure."""
    verdict, error = finding(build)
    if verdict is None:
        return {"ok": False, "differences": [f"the replay failed: {error}"]}
    answer = {"ok": verdict["ok"], "differences": list(verdict["differences"])}
    if verdict.get("note"):
        answer["note"] = verdict["note"]
    return answer


def game_timeline(game_id: int) -> dict[str, Any] | None:
    """settings.AUDIT_HOME_GAME_TIMELINE: the game's events in order with its replay verdict; None if there is none."""
    game = HomeGame.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        return None
    return {"game_id": game.pk, "table_id": game.table_id, "number": game.number, "events": game_events(game),
            "verdict": _verdict(lambda: game_replay(game))}


def hand_timeline(hand_id: int) -> dict[str, Any] | None:
    """settings.AUDIT_HOME_HAND_TIMELINE: the hand's events in order with its replay verdict; None if there is none."""
    hand = HomeHand.objects.select_related("game__table").filter(pk=hand_id).first()
    if hand is None:
        return None
    return {"hand_id": hand.pk, "game_id": hand.game_id, "table_id": hand.game.table_id, "number": hand.number,
            "events": hand_events(hand), "verdict": _verdict(lambda: hand_verdict(hand))}
