"""A card-reading shoe on a Triple Draw table: the cards it reports in dealing order for the round in play, a
network retry of a report already recorded, and every refused report audited as the device's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from audit.context import acting_as
from audit.services import audit_record
from casino.engine.cards import Card
from casino.engine.shoe_order import repeats_last, shoe_order
from casino.engine.triple_draw import CARDS_PER_HAND, ROW_COUNT
from casino.errors import DomainError, WrongPhase
from tables import actions
from tables.models import CardSource, DrawRow, Round, RoundCard, SeatHand, TableDevice
from tables.selectors.rounds import round_in_play
from tables.services import card_input
from tables.services.cards import advance_after_cards, finish_rows, save_cards
from tables.services.devices import (
    device_late_retry_check,
    device_name,
    device_refusal_record,
    device_report,
    device_report_keep,
)
from tables.services.guards import round_ref
from tables.services.locks import version_bump

Phase = Round.Phase


@dataclass(frozen=True)
class RoundShoeReport:
    """What became of a report: the round it went to, and whether it only repeated the round's last cards (nothing
    recorded: a network retry of an accepted post, or the shoe reading its last cards twice)."""

    round: Round
    repeated: bool = False


def shoe_round_report(*, device: TableDevice, cards: Sequence[str], table_id: int | None = None,
                      round_id: int | None = None) -> RoundShoeReport:
    """The shoe's report, all or nothing (`shoe_cards_record`; `table_id`, optional, must be the device's table); a
    refusal is then recorded in its own transaction as the device's audit event `shoe_cards_refuse` (the round is
    unchanged) and raised again for the shoe's answer."""
    return device_report(device=device, cards=cards, table_id=table_id, refusal_record=round_refusal_record,
                         record=lambda: shoe_cards_record(device=device, cards=cards, round_id=round_id))


@transaction.atomic
def round_refusal_record(*, device: TableDevice, cards: Sequence[str], refused: DomainError) -> None:
    """A refused report on the timeline of the round in play (compliance reads it there; the tablet shows it until
    the round's version moves on), else the device's own."""
    rnd = round_in_play(device.table)
    where: dict[str, Any] = {"round": rnd.number if rnd is not None else None,
                             "round_id": rnd.pk if rnd is not None else None,
                             "round_version": rnd.version if rnd is not None else None}
    device_refusal_record(device=device, cards=cards, refused=refused, obj=rnd or device, where=where, round=rnd)


def _already_recorded(rnd: Round) -> tuple[Card, ...]:
    """The round's recorded cards in the order the shoe dealt them."""
    dealt, _held, rows = card_input.round_picture(rnd)
    return shoe_order([dealt[seat] for seat in sorted(dealt)], rows)


@transaction.atomic
def shoe_cards_record(*, device: TableDevice, cards: Sequence[str], round_id: int | None = None) -> RoundShoeReport:
    """Cards from the shoe in dealing order: one at a time to each betting seat in turn, then row 1, 2, 3.

    Refused (nothing changed): a table not dealt from a shoe, a malformed card or an empty report (400); no round in
    play, or the round holding (409); more cards than the deal or the rows await (400 `too_many_cards`); a card
    already dealt (400). A report that repeats the round's last recorded cards, in order, is answered as accepted
    and changes nothing, also once the deal or the rows it completed moved the round on (a card is dealt once per
    round, so only a retry or a double read sends them again). `round_id` (optional): the round the shoe means;
    another round in play is refused (409 `round_moved_on`), so a late retry never deals into the next round. Without
    `round_id`, a report repeating this device's last accepted report from an earlier round, within 30 s of it, while
    the round in play has no card from the device, is refused (409 `round_unclear`: a late retry, or the same card
    first after the shuffle? `device_late_retry_check`)."""
    table = device.table
    with acting_as(user=None, kind="device", name=device_name(device)):
        if table.card_source != CardSource.SHOE:
            raise DomainError(f"table {table.name} does not deal from a shoe", code="not_a_shoe_table")
        parsed = card_input.parse(cards, field="cards")
        if not parsed:
            raise DomainError("no cards sent", code="no_cards", field="cards")
        rnd = round_in_play(table, for_update=True)
        if rnd is None:
            last = Round.objects.filter(table=table).order_by("-number").first()
            if last is not None and round_id in (None, last.pk) and repeats_last(parsed, _already_recorded(last)):
                return RoundShoeReport(last, repeated=True)  # the report that completed the rows, sent again
            raise WrongPhase(f"table {table.name} has no round in play", code="no_round")
        if round_id is not None and round_id != rnd.pk:
            raise WrongPhase(f"the cards were for round id {round_id}, but the round in play is {round_ref(rnd)}: "
                             "nothing was dealt", code="round_moved_on")
        if repeats_last(parsed, _already_recorded(rnd)):
            return RoundShoeReport(rnd, repeated=True)  # read before any write: a retry leaves no trace
        if round_id is None:
            device_late_retry_check(device, parsed, kind="round", in_play_id=rnd.pk, in_play=round_ref(rnd))
        version_bump(rnd)
        if rnd.phase == Phase.DEALING:
            _deal(rnd, parsed)
        elif rnd.phase == Phase.DRAWING:
            _lay_rows(rnd, parsed)
        else:
            raise WrongPhase(
                f"the shoe cannot deal while {round_ref(rnd)} is {rnd.phase}"
                + (": no row card may be known before every hold is locked" if rnd.phase == Phase.HOLDING else ""),
            )
        device_report_keep(device, parsed, round_id=rnd.pk)
        audit_record(
            action=actions.SHOE_CARDS_RECORD,
            obj=rnd,
            table=table,
            round=rnd,
            after={"cards": card_input.codes(parsed), "phase": rnd.phase, "device": device.name},
        )
    return RoundShoeReport(rnd)


def _deal(rnd: Round, parsed: Sequence[Card]) -> None:
    hands = list(SeatHand.objects.select_for_update().filter(round=rnd).order_by("seat_number"))
    already = sum(len(h.dealt) for h in hands)
    due = CARDS_PER_HAND * len(hands) - already
    if len(parsed) > due:
        raise DomainError(f"{len(parsed)} cards sent, but the deal awaits {due} more", code="too_many_cards",
                          field="cards")
    placements = []
    for offset, card in enumerate(parsed):
        hand = hands[(already + offset) % len(hands)]
        hand.dealt = [*hand.dealt, str(card)]
        placements.append(RoundCard(round=rnd, card=str(card), seat_number=hand.seat_number, position=len(hand.dealt)))
    card_input.check_cards_once(
        [card for h in hands for card in card_input.parse(h.dealt, field="cards")], field="cards"
    )
    SeatHand.objects.bulk_update(hands, ["dealt"])
    save_cards(placements)
    advance_after_cards(rnd)


def _lay_rows(rnd: Round, parsed: Sequence[Card]) -> None:
    dealt, held, _rows = card_input.round_picture(rnd)
    row_objs = {r.row: r for r in DrawRow.objects.select_for_update().filter(round=rnd)}
    laid = sum(len(r.cards) for r in row_objs.values())
    due = CARDS_PER_HAND * ROW_COUNT - laid
    if len(parsed) > due:
        raise DomainError(f"{len(parsed)} cards sent, but the rows await {due} more", code="too_many_cards",
                          field="cards")
    placements = []
    for offset, card in enumerate(parsed):
        index = laid + offset
        number, position = index // CARDS_PER_HAND + 1, index % CARDS_PER_HAND + 1
        row = row_objs.get(number) or DrawRow(round=rnd, row=number, cards=[])
        row.cards = [*row.cards, str(card)]
        row_objs[number] = row
        placements.append(RoundCard(round=rnd, card=str(card), row=number, position=position))
    new_rows = [card_input.parse(r.cards, field="cards") for _, r in sorted(row_objs.items())]
    card_input.check_round_cards(dealt, held, new_rows, field="cards")
    for row in row_objs.values():
        row.save()
    save_cards(placements)
    if laid + len(parsed) == CARDS_PER_HAND * ROW_COUNT:
        finish_rows(rnd)
