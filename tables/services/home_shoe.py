"""A card-reading shoe on a home-game table: the cards it reports for the hand in play, a network retry of a report
already recorded, and every refused report audited as the device's (so the dealer's tablet and compliance see it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from audit.context import acting_as
from audit.services import audit_record
from casino.engine.cards import Card
from casino.engine.home.awaiting import AwaitKind
from casino.errors import DomainError, WrongPhase
from tables import actions
from tables.models import CardSource, HomeGame, TableDevice
from tables.models import HomeHand as HandRow
from tables.services import home_chips as chips
from tables.services.devices import (
    device_late_retry_check,
    device_name,
    device_refusal_record,
    device_report,
    device_report_keep,
)
from tables.services.home_engine import game_rules, rebuild, refusals, remember
from tables.services.home_hands import _persist, hand_in_play
from tables.services.home_ledger import verify_balanced


@dataclass(frozen=True)
class ShoeReport:
    """What became of a report: the hand it went to, and whether it was a repeat of the last report (nothing new
    recorded: a network retry of a post that was accepted, or the shoe reading its last card twice)."""

    hand: HandRow
    repeated: bool = False


def home_shoe_report(*, device: TableDevice, cards: list[str], table_id: int | None = None,
                     hand_id: int | None = None) -> ShoeReport:
    """The shoe's report, all or nothing (`home_shoe_cards`; `table_id`, optional, must be the device's table); a
    refusal is then recorded in its own transaction as the device's audit event `shoe_cards_refuse` (the hand is
    unchanged) and raised again for the shoe's answer."""
    return device_report(device=device, cards=cards, table_id=table_id, refusal_record=shoe_refusal_record,
                         record=lambda: home_shoe_cards(device=device, cards=cards, hand_id=hand_id))


@transaction.atomic
def shoe_refusal_record(*, device: TableDevice, cards: list[str], refused: DomainError) -> None:
    """Audit a refused shoe report, naming the device, the cards as sent and why, and keep it on the device as its
    last refusal: the dealer's tablet shows it (a misread, a card while none is due) until the hand moves on (the
    shoe's next card, the dealer's next tap), and compliance reads it on the hand's timeline."""
    game = HomeGame.objects.filter(table=device.table, status=HomeGame.Status.OPEN).first()
    row = hand_in_play(game) if game is not None else None
    where: dict[str, Any] = {"hand": row.number if row is not None else None,
                             # What the table stood at: the tablet shows the refusal until the hand (or, between
                             # hands, the game) moves on.
                             "hand_id": row.pk if row is not None else None,
                             "hand_version": row.version if row is not None else None,
                             "game_version": game.version if game is not None else None}
    # On the hand's timeline, or between hands the game's (compliance reads both), else the device's own.
    device_refusal_record(device=device, cards=cards, refused=refused, obj=row or game or device, where=where)


@transaction.atomic
def home_shoe_cards(*, device: TableDevice, cards: list[str], hand_id: int | None = None) -> ShoeReport:
    """A card-reading shoe reports the cards it dealt, in order, for the hand in play on its home-game table: each
    must be the card the hand awaits (the deal, a draw's replacements); when the stock ran out the discards were
    reshuffled at the table, and the shoe reads the new stock's cards as they come. All the cards or none.

    Refused (nothing changed): a table not dealt from a shoe, a malformed card or an empty report (400); no hand in
    play or no card due (409); more cards than the deal or the draw awaits (400 `too_many_cards`); a card already
    dealt (400). A report that repeats the last cards recorded, in order, is answered as accepted and changes
    nothing: those cards are in players' hands, so only a retry or a double read can send them again. `hand_id`
    (optional): the hand the shoe means; another hand in play is refused (409 `hand_moved_on`), so a late retry of
    a voided hand's cards is never dealt into the next one. Between hands, a retry of the report whose card ended
    the game's last hand is a repeat too, not `no_hand`. Without `hand_id`, a report repeating this device's last
    accepted report from an earlier hand, within 30 s of it, while the hand in play has no card from the device, is
    refused (409 `hand_unclear`: a late retry, or the same card first after the shuffle? `device_late_retry_check`)."""
    table = device.table
    with acting_as(user=None, kind="device", name=device_name(device)):
        game = HomeGame.objects.filter(table=table, status=HomeGame.Status.OPEN).first()
        source = game.card_source if game is not None else table.card_source
        if source != CardSource.SHOE:
            raise DomainError(f"table {table.name} does not deal from a shoe", code="not_a_shoe_table")
        if not cards:
            raise DomainError("no cards sent", code="no_cards", field="cards")
        with refusals():
            parsed = [Card.parse(str(token)) for token in cards]
        row = hand_in_play(game) if game is not None else None
        if game is not None and row is None:
            ended = HandRow.objects.filter(game=game).order_by("-number").first()
            if (ended is not None and hand_id in (None, ended.pk)
                    and tuple(parsed) == rebuild(ended, game_rules(game)).last_dealt(len(parsed))):
                return ShoeReport(ended, repeated=True)  # the report whose card ended the hand, sent again
        if game is None or row is None:
            raise WrongPhase(f"table {table.name} has no hand in play: cards are reported once a hand has started",
                             code="no_hand")
        if hand_id is not None and hand_id != row.pk:
            raise WrongPhase(f"the cards were for hand id {hand_id}, but the hand in play is hand {row.number} (id "
                             f"{row.pk}): nothing was dealt", code="hand_moved_on")
        game, row = chips.lock_hand(row)
        hand = rebuild(row, game_rules(game))
        if tuple(parsed) == hand.last_dealt(len(parsed)):
            transaction.set_rollback(True)  # the lock's version bump too: a retry leaves no trace
            return ShoeReport(row, repeated=True)
        if hand_id is None:
            device_late_retry_check(device, parsed, kind="hand", in_play_id=row.pk,
                                    in_play=f"hand {row.number} (id {row.pk})")
        due = hand.cards_due
        if due and len(parsed) > due:
            what = "the deal" if hand.phase.value == "dealing" else f"seat {hand.awaiting.seat}'s draw"
            raise DomainError(f"{len(parsed)} cards sent, but {what} awaits {due} more", code="too_many_cards",
                              field="cards")
        players = chips.players_of(game)
        dealt: list[list[Any]] = []
        with refusals():
            for card in parsed:
                awaiting = hand.awaiting
                if awaiting.kind is AwaitKind.RESHUFFLE:
                    hand.reshuffle(sorted(hand.muck, key=lambda c: c.index))
                    awaiting = hand.awaiting
                hand.deal_card(card)
                dealt.append([awaiting.seat, str(card)])
        audit_record(action=actions.HOME_HAND_CARDS, obj=row, table=table,
                     after={"hand": row.number, "cards": dealt, "phase": hand.phase.value, "device": device.name})
        _persist(game, row, hand, players, kind="bet", actor=None)
        chips.save_game(game)
        device_report_keep(device, parsed, hand_id=row.pk)
        verify_balanced(game)
        remember(row, hand, players)
    return ShoeReport(row)
