"""Card services of Triple Draw: deal five cards per seat, record holds, lay the three draw rows (then settle)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.services import audit_event, audit_record, audit_record_many
from casino.engine.cards import ALL_CARDS, Card, Deck
from casino.engine.triple_draw import CARDS_PER_HAND, MAX_SEATS, ROW_COUNT
from casino.errors import ConcurrentChange, DomainError, WrongPhase
from casino.sql import insert_rows, update_rows
from tables import actions
from tables.access import require_operator
from tables.models import CardSource, DrawRow, Round, RoundCard, SeatHand
from tables.services import card_input
from tables.services.guards import checked_seat_number, entry_error, require_phase, seat_key
from tables.services.locks import lock_round
from tables.services.round_rows import draw_rows, seat_hands
from tables.services.rounds import queue_settlement

Phase = Round.Phase


def save_cards(rows: list[RoundCard]) -> None:
    """Insert card placements; the database's one-card-per-round index is the last line of defence.

    Callers are services inside their own transaction: the error rolls all of it back, so no savepoint is needed.
    """
    try:
        insert_rows(rows)
    except IntegrityError:
        raise ConcurrentChange("a card was recorded twice in this round", code="duplicate_card") from None


def advance_after_cards(rnd: Round, hands: list[SeatHand] | None = None) -> None:
    """dealing -> holding once every betting seat has its cards; holding -> drawing once every hold is in."""
    hands = seat_hands(rnd) if hands is None else hands
    before = rnd.phase
    if rnd.phase == Phase.DEALING and all(len(h.dealt) == CARDS_PER_HAND or h.held is not None for h in hands):
        rnd.phase = Phase.HOLDING
    if rnd.phase == Phase.HOLDING and all(h.held is not None for h in hands):
        rnd.phase = Phase.DRAWING
    if rnd.phase != before:
        update_rows([rnd], ["phase"])


def _deal_into(rnd: Round, dealt: dict[int, tuple[Card, ...]], hands: dict[int, SeatHand] | None = None) -> None:
    """Record dealt cards; `hands` are the round's seat hands when the caller has locked them already."""
    if hands is None:
        hands = {
            h.seat_number: h
            for h in SeatHand.objects.select_for_update().filter(round=rnd, seat_number__in=dealt).order_by()
        }
    placements = []
    for seat_number, cards in dealt.items():
        hand = hands[seat_number]
        hand.dealt = card_input.codes(cards)
        placements += [
            RoundCard(round=rnd, card=str(card), seat_number=seat_number, position=position)
            for position, card in enumerate(cards, start=1)
        ]
    update_rows([hands[seat_number] for seat_number in dealt], ["dealt"])
    save_cards(placements)


@transaction.atomic
def cards_deal(*, round: Round, actor: User, cards: Mapping[int, Sequence[str]] | None = None) -> Round:
    """Deal five cards to each betting seat: rng tables shuffle (cards=None); manual and shoe enter them per seat."""
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    source = rnd.table.card_source
    if source == CardSource.RNG:
        require_phase(rnd, Phase.DEALING, action="deal")
        if cards is not None:
            raise DomainError("this table deals by RNG: send no cards", code="rng_deals_itself", field="cards")
        # Every seat is dealt at once: lock and load the hands once for dealing and for the phase check.
        locked = {h.seat_number: h for h in seat_hands(rnd, lock=True)}
        deck = Deck.shuffled(secrets.SystemRandom())
        dealt = {seat: deck.deal(CARDS_PER_HAND) for seat in sorted(locked)}
        _deal_into(rnd, dealt, locked)
        advance_after_cards(rnd, list(locked.values()))
    else:
        require_phase(rnd, Phase.DEALING, Phase.HOLDING, action="deal")
        if not cards:
            raise DomainError("enter five cards for at least one seat", code="no_cards", field="cards")
        hands = {h.seat_number: h for h in seat_hands(rnd)}
        dealt = {}
        for key, tokens in cards.items():
            seat_number = checked_seat_number(seat_key(key), MAX_SEATS)
            hand = hands.get(seat_number)
            if hand is None:
                raise DomainError(
                    f"seat {seat_number} has no bet in this round", code="seat_has_no_bets", field="cards"
                )
            if hand.dealt or hand.held is not None:
                raise DomainError(
                    f"seat {seat_number}'s cards are already recorded", code="already_dealt", field="cards"
                )
            dealt[seat_number] = card_input.parse(tokens, field=f"cards.{seat_number}", count=CARDS_PER_HAND)
        known_dealt, known_held, rows = card_input.round_picture(rnd)
        card_input.check_round_cards(known_dealt | dealt, known_held, rows, field="cards")
        _deal_into(rnd, dealt)
        advance_after_cards(rnd)
    audit_record(
        action=actions.CARDS_DEAL,
        obj=rnd,
        table=rnd.table,
        round=rnd,
        after={"dealt": {str(seat): card_input.codes(c) for seat, c in dealt.items()}, "phase": rnd.phase},
        actor=actor,
    )
    return rnd


def _record_holds(rnd: Round, entries: Sequence[tuple[Any, Any]], actor: User, batch: bool) -> list[SeatHand]:
    """Check and record (seat, held) entries on a locked round; with `batch`, errors name the entry."""
    manual = rnd.table.card_source == CardSource.MANUAL
    # A manual table may skip entering the dealt cards and record only what each seat holds.
    require_phase(rnd, *((Phase.DEALING, Phase.HOLDING) if manual else (Phase.HOLDING,)), action="record holds")
    hands = {h.seat_number: h for h in seat_hands(rnd, lock=True)}
    dealt, held_map, rows = card_input.round_picture(rnd, hands=list(hands.values()))
    changed: list[tuple[SeatHand, list[str] | None]] = []
    for index, (seat_value, held) in enumerate(entries):
        try:
            seat_number = checked_seat_number(seat_value, MAX_SEATS)
            hand = hands.get(seat_number)
            if hand is None:
                raise DomainError(f"seat {seat_number} has no bet in this round", code="seat_has_no_bets", field="seat")
            if len(hand.dealt) != CARDS_PER_HAND and not manual:
                raise WrongPhase(f"seat {seat_number} has not been dealt five cards yet", code="not_dealt")
            cards = card_input.parse(held, field="held")
            if len(cards) > CARDS_PER_HAND:
                raise DomainError(
                    f"a seat holds at most {CARDS_PER_HAND} cards, got {len(cards)}", code="too_many_held", field="held"
                )
            missing = [str(c) for c in cards if hand.dealt and str(c) not in hand.dealt]
            if missing:
                raise DomainError(
                    f"held card {missing[0]} is not among seat {seat_number}'s dealt cards {' '.join(hand.dealt)}",
                    code="held_not_dealt",
                    field="held",
                )
            held_map[seat_number] = cards
            card_input.check_round_cards(dealt, held_map, rows, field="held")
        except DomainError as exc:
            raise (entry_error(index, seat_value, exc, "holds") if batch else exc) from None
        changed.append((hand, hand.held))
        hand.round = rnd  # the locked round, as this write leaves it (callers answer with its state)
        if not hand.dealt:
            # Undealt held cards are placed in the round themselves so no other seat or row can repeat them.
            RoundCard.objects.filter(round=rnd, seat_number=seat_number).delete()
            save_cards([RoundCard(round=rnd, card=str(card), seat_number=seat_number) for card in cards])
        hand.held = card_input.codes(cards)
        hand.held_at = timezone.now()
    update_rows([hand for hand, _ in changed], ["held", "held_at"])
    if rnd.phase == Phase.DEALING:
        rnd.phase = Phase.HOLDING
        update_rows([rnd], ["phase"])
    advance_after_cards(rnd, list(hands.values()))
    audit_record_many(
        [
            audit_event(
                action=actions.HOLDS_RECORD,
                obj=rnd,
                table=rnd.table,
                round=rnd,
                seat_number=hand.seat_number,
                before={"held": before} if before is not None else None,
                after={"held": hand.held, "phase": rnd.phase},
                actor=actor,
            )
            for hand, before in changed
        ]
    )
    return [hand for hand, _ in changed]


@transaction.atomic
def holds_record(*, round: Round, seat_number: int, held: Sequence[str], actor: User) -> SeatHand:
    """Record the cards a seat holds for all its circles (0-5, from its dealt cards when those were recorded)."""
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    return _record_holds(rnd, [(seat_number, held)], actor, batch=False)[0]


@transaction.atomic
def holds_record_all(*, round: Round, holds: Sequence[Mapping[str, Any]], actor: User) -> list[SeatHand]:
    """Several seats' holds at once, all or nothing: [{"seat", "held": [...]}]."""
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    if not holds:
        raise DomainError("no holds given", code="no_holds", field="holds")
    seats = [entry.get("seat") for entry in holds]
    if len(set(map(str, seats))) != len(seats):
        raise DomainError("a seat appears twice in the batch", code="duplicate_seat", field="holds")
    return _record_holds(rnd, [(entry.get("seat"), entry.get("held")) for entry in holds], actor, batch=True)


def _missing_holds(rnd: Round) -> list[int]:
    return list(
        SeatHand.objects.filter(round=rnd, held__isnull=True)
        .order_by("seat_number")
        .values_list("seat_number", flat=True)
    )


def finish_rows(rnd: Round) -> None:
    rnd.phase = Phase.SETTLING
    rnd.rows_recorded_at = timezone.now()
    rnd.settle_queued_at = rnd.rows_recorded_at
    update_rows([rnd], ["phase", "rows_recorded_at", "settle_queued_at"])
    queue_settlement(rnd)


@transaction.atomic
def rows_record(*, round: Round, actor: User, rows: Sequence[Sequence[str]] | None = None) -> Round:
    """Lay the three draw rows (rng: drawn now, after every hold is locked) and queue settlement."""
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    if rnd.phase in (Phase.DEALING, Phase.HOLDING):
        missing = _missing_holds(rnd)
        raise WrongPhase(
            f"cannot record rows before every hold is in: seats {missing} have not held", code="holds_missing"
        )
    require_phase(rnd, Phase.DRAWING, action="record rows")
    laid = draw_rows(rnd)
    if laid:
        raise WrongPhase("the shoe has started the rows: let it finish", code="rows_in_progress")
    dealt, held, _rows = card_input.round_picture(rnd, rows=laid)
    if rnd.table.card_source == CardSource.RNG:
        if rows is not None:
            raise DomainError("this table draws by RNG: send no rows", code="rng_deals_itself", field="rows")
        used = {card for cards in dealt.values() for card in cards} | {c for cards in held.values() for c in cards}
        stock = Deck([card for card in ALL_CARDS if card not in used])
        stock.shuffle(secrets.SystemRandom())
        parsed = [stock.deal(CARDS_PER_HAND) for _ in range(ROW_COUNT)]
    else:
        if not isinstance(rows, list | tuple) or len(rows) != ROW_COUNT:
            raise DomainError(f"enter exactly {ROW_COUNT} rows of five cards", code="wrong_row_count", field="rows")
        parsed = [
            card_input.parse(row, field=f"rows.{index}", count=CARDS_PER_HAND) for index, row in enumerate(rows, 1)
        ]
        card_input.check_round_cards(dealt, held, parsed, field="rows")
    insert_rows([DrawRow(round=rnd, row=index, cards=card_input.codes(cards)) for index, cards in enumerate(parsed, 1)])
    save_cards(
        [
            RoundCard(round=rnd, card=str(card), row=index, position=position)
            for index, cards in enumerate(parsed, 1)
            for position, card in enumerate(cards, 1)
        ]
    )
    finish_rows(rnd)
    audit_record(
        action=actions.ROWS_RECORD,
        obj=rnd,
        table=rnd.table,
        round=rnd,
        after={"rows": [card_input.codes(r) for r in parsed], "phase": rnd.phase},
        actor=actor,
    )
    return rnd
