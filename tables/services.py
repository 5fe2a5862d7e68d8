"""Every write to tables, seats and rounds (DESIGN 5): check the phase, lock, call the engine, persist, audit."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from audit.roles import DEALER, has_role
from audit.services import audit_event, audit_record, audit_record_many
from casino.api_errors import ConcurrentChange, DomainError, WrongPhase
from casino.engine.cards import ALL_CARDS, Card, Deck
from paytables.selectors import paytable_spec
from tables import cards as card_input
from tables.access import require_floor, require_operator
from tables.locking import checked_seat_number, lock_round, lock_table, require_phase
from tables.models import (
    CARDS_PER_HAND,
    MAX_CIRCLES,
    ROW_COUNT,
    Bet,
    CardSource,
    DrawRow,
    Round,
    RoundCard,
    Seat,
    SeatHand,
    Table,
    TableType,
)
from tables.settlement import ledger_post

# The table and seat services live in table_services; re-exported so `tables.services` stays the one place to call.
from tables.table_services import USABLE_PAYTABLE
from tables.table_services import seat_join as seat_join
from tables.table_services import seat_leave as seat_leave
from tables.table_services import table_assign_dealer as table_assign_dealer
from tables.table_services import table_close as table_close
from tables.table_services import table_create as table_create
from tables.table_services import table_open as table_open
from tables.table_services import table_set_paytable as table_set_paytable
from tables.table_services import table_unassign_dealer as table_unassign_dealer
from tables.table_services import table_update_limits as table_update_limits
from tables.tasks import settle_round

Phase = Round.Phase


# ---- helpers -------------------------------------------------------------------------------------------------


# Reads of a round's rows say .order_by() or order by their own columns: the models' default ordering goes through
# round -> table, two joins (and, under FOR UPDATE, locks on those rows too) for nothing.


def _betting_seats(rnd: Round) -> list[int]:
    return sorted(set(Bet.objects.filter(round=rnd).order_by().values_list("seat_number", flat=True)))


def _seat_bets_required(rnd: Round, seat_number: int) -> None:
    if not Bet.objects.filter(round=rnd, seat_number=seat_number).exists():
        raise DomainError(f"seat {seat_number} has no bet in this round", code="seat_has_no_bets", field="seat")


def _save_cards(rows: list[RoundCard]) -> None:
    """Insert card placements; the database's one-card-per-round index is the last line of defence."""
    try:
        with transaction.atomic():
            RoundCard.objects.bulk_create(rows)
    except IntegrityError:
        raise ConcurrentChange("a card was recorded twice in this round", code="duplicate_card") from None


def _queue_settlement(rnd: Round) -> None:
    round_id = rnd.pk
    # Priority 0 is consumed first on Redis (see CELERY_TASK_DEFAULT_PRIORITY): players wait for this job.
    transaction.on_commit(lambda: settle_round.apply_async((round_id,), priority=0))


# ---- rounds --------------------------------------------------------------------------------------------------


@transaction.atomic
def round_start(*, table: Table, actor: User) -> Round:
    require_operator(actor, table)
    table = lock_table(table)
    if table.table_type != TableType.TRIPLE_DRAW:
        raise DomainError(f"table {table.name} is not a Triple Draw table", code="wrong_table_type")
    if not table.is_open:
        raise WrongPhase(f"table {table.name} is closed", code="table_closed")
    in_play = Round.objects.filter(table=table).exclude(phase__in=Round.FINISHED).order_by("-number").first()
    if in_play is not None:
        raise WrongPhase(f"round {in_play.number} is still {in_play.phase}", code="round_in_play")
    last = Round.objects.filter(table=table).aggregate(last=Max("number"))["last"] or 0
    rnd = Round.objects.create(
        table=table,
        number=last + 1,
        phase=Phase.BETTING,
        dealer=actor if has_role(actor, DEALER) and not actor.is_superuser else None,
        started_at=timezone.now(),
    )
    audit_record(
        action="round_start",
        obj=rnd,
        table=table,
        round=rnd,
        after={"number": rnd.number, "phase": rnd.phase},
        actor=actor,
    )
    return rnd


def _circle_numbers(circles: int | Sequence[int] | None, amounts: Sequence[int] | None) -> list[int]:
    if circles is None:
        circles = len(amounts) if amounts is not None else 1
    if isinstance(circles, bool):
        raise DomainError("circles must be 1-3 or a list of circle numbers", code="bad_circles", field="circles")
    if isinstance(circles, int):
        if not 1 <= circles <= MAX_CIRCLES:
            raise DomainError(
                f"a seat bets 1 to {MAX_CIRCLES} circles, not {circles}", code="bad_circles", field="circles"
            )
        return list(range(1, circles + 1))
    numbers = list(circles)
    if not 1 <= len(numbers) <= MAX_CIRCLES:
        raise DomainError(
            f"a seat bets 1 to {MAX_CIRCLES} circles, not {len(numbers)}", code="bad_circles", field="circles"
        )
    for number in numbers:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_CIRCLES:
            raise DomainError(
                f"there is no betting circle {number!r} (circles are 1-3)", code="bad_circles", field="circles"
            )
    if len(set(numbers)) != len(numbers):
        raise DomainError("a circle is named twice", code="bad_circles", field="circles")
    return sorted(numbers)


def _bet_terms(
    table: Table, seat_number: Any, amount_cents: int | Sequence[int], circles: int | Sequence[int] | None
) -> tuple[int, list[int], int]:
    """Check one seat's bet against the rules and limits: (seat, circle numbers, amount per circle)."""
    seat_number = checked_seat_number(seat_number)
    amounts = list(amount_cents) if isinstance(amount_cents, list | tuple) else None
    numbers = _circle_numbers(circles, amounts)
    if amounts is None:
        amounts = [amount_cents] * len(numbers)  # type: ignore[list-item]
    if len(amounts) != len(numbers):
        raise DomainError(f"{len(amounts)} amounts for {len(numbers)} circles", code="bad_circles", field="circles")
    for amount in amounts:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise DomainError(f"amount must be whole cents, got {amount!r}", code="bad_amount", field="amount_cents")
    if len(set(amounts)) != 1:
        raise DomainError(
            f"all bets of a seat must be equal, got {sorted(set(amounts))}", code="unequal_bets", field="amount_cents"
        )
    amount = amounts[0]
    if not table.min_bet_cents <= amount <= table.max_bet_cents:
        raise DomainError(
            f"a bet of {amount} cents is outside the table limits {table.min_bet_cents}-{table.max_bet_cents}",
            code="bet_outside_limits",
            field="amount_cents",
        )
    return seat_number, numbers, amount


def _place_bets(rnd: Round, terms: list[tuple[int, list[int], int]], actor: User) -> list[Bet]:
    """Replace the bets of the seats in `terms` (each checked already): one delete, one insert, an event per seat."""
    seats = [seat for seat, _, _ in terms]
    occupied = set(
        Seat.objects.filter(table=rnd.table, number__in=seats, occupied=True)
        .order_by()
        .values_list("number", flat=True)
    )
    for index, seat in enumerate(seats):
        if seat not in occupied:
            error = DomainError(f"seat {seat} is empty: seat a player first", code="seat_empty", field="seat")
            raise _per_seat(index, seat, error, "bets") if len(seats) > 1 else error
    previous: dict[int, dict[str, int]] = {}
    for seat, circle, amount in (
        Bet.objects.filter(round=rnd, seat_number__in=seats)
        .order_by()
        .values_list("seat_number", "circle", "amount_cents")
    ):
        previous.setdefault(seat, {})[str(circle)] = amount
    if previous:  # a seat's first bet has nothing to replace (the delete would cost two statements)
        Bet.objects.filter(round=rnd, seat_number__in=seats).delete()
    bets = Bet.objects.bulk_create(
        [
            Bet(round=rnd, seat_number=seat, circle=number, amount_cents=amount)
            for seat, numbers, amount in terms
            for number in numbers
        ]
    )
    audit_record_many(
        [
            audit_event(
                action="bet_place",
                obj=rnd,
                table=rnd.table,
                round=rnd,
                seat_number=seat,
                before={"bets": previous[seat]} if seat in previous else None,
                after={"bets": {str(n): amount for n in numbers}},
                actor=actor,
            )
            for seat, numbers, amount in terms
        ]
    )
    return bets


@transaction.atomic
def bet_place(
    *,
    round: Round,
    seat_number: int,
    amount_cents: int | Sequence[int],
    actor: User,
    circles: int | Sequence[int] | None = None,
) -> list[Bet]:
    """Replace the seat's bets with equal bets on the given circles (a count 1-3, or circle numbers).

    `amount_cents` may be one amount or one per circle; amounts that differ are refused (all bets must be equal).
    """
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    require_phase(rnd, Phase.BETTING, action="place a bet (bets are closed)")
    return _place_bets(rnd, [_bet_terms(rnd.table, seat_number, amount_cents, circles)], actor)


@transaction.atomic
def bet_clear(*, round: Round, seat_number: int, actor: User) -> None:
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    require_phase(rnd, Phase.BETTING, action="clear bets (bets are closed)")
    seat_number = checked_seat_number(seat_number)
    previous = list(Bet.objects.filter(round=rnd, seat_number=seat_number).values_list("circle", "amount_cents"))
    if not previous:
        raise DomainError(f"seat {seat_number} has no bet to clear", code="seat_has_no_bets", field="seat")
    Bet.objects.filter(round=rnd, seat_number=seat_number).delete()
    audit_record(
        action="bet_clear",
        obj=rnd,
        table=rnd.table,
        round=rnd,
        seat_number=seat_number,
        before={"bets": {str(c): a for c, a in previous}},
        actor=actor,
    )


@transaction.atomic
def round_close_bets(*, round: Round, actor: User) -> Round:
    """Close betting and lock the table's paytable version on the round."""
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    require_phase(rnd, Phase.BETTING, action="close bets")
    seats = _betting_seats(rnd)
    if not seats:
        raise DomainError("no seat has bet: nothing to close", code="no_bets")
    paytable = rnd.table.paytable
    if paytable is None:
        raise DomainError(f"table {rnd.table.name} has no paytable", code="no_paytable")
    if paytable.status not in USABLE_PAYTABLE:
        raise DomainError(f"{paytable} is {paytable.status}, not approved", code="paytable_not_approved")
    with card_input.engine_errors("paytable"):
        snapshot = paytable_spec(paytable).to_dict()
    rnd.paytable = paytable
    rnd.paytable_snapshot = snapshot
    rnd.phase = Phase.DEALING
    rnd.bets_closed_at = timezone.now()
    rnd.save(update_fields=["paytable", "paytable_snapshot", "phase", "bets_closed_at"])
    SeatHand.objects.bulk_create([SeatHand(round=rnd, seat_number=n) for n in seats])
    audit_record(
        action="round_close_bets",
        obj=rnd,
        table=rnd.table,
        round=rnd,
        before={"phase": Phase.BETTING},
        after={"phase": rnd.phase, "paytable_id": paytable.pk, "seats": seats},
        actor=actor,
    )
    return rnd


def _advance_after_cards(rnd: Round, hands: list[SeatHand] | None = None) -> None:
    """dealing -> holding once every betting seat has its cards; holding -> drawing once every hold is in."""
    hands = list(SeatHand.objects.filter(round=rnd).order_by()) if hands is None else hands
    before = rnd.phase
    if rnd.phase == Phase.DEALING and all(len(h.dealt) == CARDS_PER_HAND or h.held is not None for h in hands):
        rnd.phase = Phase.HOLDING
    if rnd.phase == Phase.HOLDING and all(h.held is not None for h in hands):
        rnd.phase = Phase.DRAWING
    if rnd.phase != before:
        rnd.save(update_fields=["phase"])


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
    SeatHand.objects.bulk_update([hands[seat_number] for seat_number in dealt], ["dealt"])
    _save_cards(placements)


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
        locked = {h.seat_number: h for h in SeatHand.objects.select_for_update().filter(round=rnd).order_by()}
        deck = Deck.shuffled(secrets.SystemRandom())
        dealt = {seat: deck.deal(CARDS_PER_HAND) for seat in sorted(locked)}
        _deal_into(rnd, dealt, locked)
        _advance_after_cards(rnd, list(locked.values()))
    else:
        require_phase(rnd, Phase.DEALING, Phase.HOLDING, action="deal")
        if not cards:
            raise DomainError("enter five cards for at least one seat", code="no_cards", field="cards")
        hands = {h.seat_number: h for h in SeatHand.objects.filter(round=rnd).order_by()}
        dealt = {}
        for key, tokens in cards.items():
            try:
                seat_number = checked_seat_number(int(key))
            except (TypeError, ValueError):
                raise DomainError(f"bad seat number {key!r}", code="bad_seat", field="cards") from None
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
        _advance_after_cards(rnd)
    audit_record(
        action="cards_deal",
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
    hands = {h.seat_number: h for h in SeatHand.objects.select_for_update().filter(round=rnd).order_by()}
    dealt, held_map, rows = card_input.round_picture(rnd, hands=list(hands.values()))
    changed: list[tuple[SeatHand, list[str] | None]] = []
    for index, (seat_value, held) in enumerate(entries):
        try:
            seat_number = checked_seat_number(seat_value)
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
            raise (_per_seat(index, seat_value, exc, "holds") if batch else exc) from None
        changed.append((hand, hand.held))
        if not hand.dealt:
            # Undealt held cards are placed in the round themselves so no other seat or row can repeat them.
            RoundCard.objects.filter(round=rnd, seat_number=seat_number).delete()
            _save_cards([RoundCard(round=rnd, card=str(card), seat_number=seat_number) for card in cards])
        hand.held = card_input.codes(cards)
        hand.held_at = timezone.now()
    SeatHand.objects.bulk_update([hand for hand, _ in changed], ["held", "held_at"])
    if rnd.phase == Phase.DEALING:
        rnd.phase = Phase.HOLDING
        rnd.save(update_fields=["phase"])
    _advance_after_cards(rnd, list(hands.values()))
    audit_record_many(
        [
            audit_event(
                action="holds_record",
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


def _missing_holds(rnd: Round) -> list[int]:
    return list(
        SeatHand.objects.filter(round=rnd, held__isnull=True)
        .order_by("seat_number")
        .values_list("seat_number", flat=True)
    )


def _finish_rows(rnd: Round) -> None:
    rnd.phase = Phase.SETTLING
    rnd.rows_recorded_at = timezone.now()
    rnd.settle_queued_at = rnd.rows_recorded_at
    rnd.save(update_fields=["phase", "rows_recorded_at", "settle_queued_at"])
    _queue_settlement(rnd)


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
    if DrawRow.objects.filter(round=rnd).exists():
        raise WrongPhase("the shoe has started the rows: let it finish", code="rows_in_progress")
    dealt, held, _rows = card_input.round_picture(rnd)
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
    DrawRow.objects.bulk_create(
        [DrawRow(round=rnd, row=index, cards=card_input.codes(cards)) for index, cards in enumerate(parsed, 1)]
    )
    _save_cards(
        [
            RoundCard(round=rnd, card=str(card), row=index, position=position)
            for index, cards in enumerate(parsed, 1)
            for position, card in enumerate(cards, 1)
        ]
    )
    _finish_rows(rnd)
    audit_record(
        action="rows_record",
        obj=rnd,
        table=rnd.table,
        round=rnd,
        after={"rows": [card_input.codes(r) for r in parsed], "phase": rnd.phase},
        actor=actor,
    )
    return rnd


@transaction.atomic
def round_settle(*, round: Round, actor: User) -> Round:
    """Queue (again) the settlement job of a round whose rows are recorded; the job itself is idempotent."""
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    require_phase(rnd, Phase.SETTLING, action="settle")
    rnd.settle_queued_at = timezone.now()
    rnd.save(update_fields=["settle_queued_at"])
    _queue_settlement(rnd)
    audit_record(action="round_settle", obj=rnd, table=rnd.table, round=rnd, after={"queued": True}, actor=actor)
    return rnd


@transaction.atomic
def round_void(*, round: Round, reason: str, actor: User) -> Round:
    """A floor supervisor voids an unsettled round, with a reason; bets are returned (no ledger posting exists)."""
    rnd = lock_round(round)
    require_floor(actor, "void a round")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("a void needs a reason", code="reason_required", field="reason")
    if rnd.phase in Round.FINISHED:
        raise WrongPhase(f"round {rnd.number} is already {rnd.phase}", code="wrong_phase")
    before = rnd.phase
    rnd.phase = Phase.VOIDED
    rnd.void_reason = reason
    rnd.voided_at = timezone.now()
    rnd.save(update_fields=["phase", "void_reason", "voided_at"])
    audit_record(
        action="round_void",
        obj=rnd,
        table=rnd.table,
        round=rnd,
        before={"phase": before},
        after={"phase": rnd.phase},
        reason=reason,
        approver=actor,
        actor=actor,
    )
    return rnd


@transaction.atomic
def round_approve_payout(*, round: Round, actor: User) -> Round:
    """A floor supervisor approves a payout at or above the table's threshold; the ledger is posted now."""
    rnd = lock_round(round)
    require_floor(actor, "approve a payout")
    require_phase(rnd, Phase.AWAITING_APPROVAL, action="approve the payout")
    ledger_post(rnd)
    rnd.phase = Phase.SETTLED
    rnd.approved_by = actor
    rnd.approved_at = timezone.now()
    rnd.settled_at = rnd.approved_at
    rnd.save(update_fields=["phase", "approved_by", "approved_at", "settled_at"])
    audit_record(
        action="round_approve_payout",
        obj=rnd,
        table=rnd.table,
        round=rnd,
        before={"phase": Phase.AWAITING_APPROVAL},
        after={"phase": rnd.phase},
        approver=actor,
        actor=actor,
    )
    return rnd


@transaction.atomic
def round_void_request(*, round: Round, reason: str, actor: User) -> Round:
    """A dealer asks the floor to void an unsettled round (only floor may void): an audit event the floor sees."""
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("a void request needs a reason", code="reason_required", field="reason")
    if rnd.phase in Round.FINISHED:
        raise WrongPhase(f"round {rnd.number} is already {rnd.phase}", code="wrong_phase")
    audit_record(
        action="round_void_request",
        obj=rnd,
        table=rnd.table,
        round=rnd,
        after={"phase": rnd.phase},
        reason=reason,
        actor=actor,
    )
    return rnd


def _per_seat(index: int, seat: Any, exc: DomainError, collection: str) -> DomainError:
    """The same error, saying which entry of a batch it concerns."""
    error = type(exc)(f"{collection}[{index}] (seat {seat}): {exc.message}", code=exc.code)
    error.field = f"{collection}.{index}.{exc.field}" if exc.field else f"{collection}.{index}"
    return error


@transaction.atomic
def bets_place_all(*, round: Round, bets: Sequence[Mapping[str, Any]], actor: User) -> list[Bet]:
    """Several seats' bets at once, all or nothing: [{"seat", "amount_cents" | "amounts_cents", "circles"?}]."""
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    require_phase(rnd, Phase.BETTING, action="place bets (bets are closed)")
    if not bets:
        raise DomainError("no bets given", code="no_bets", field="bets")
    terms = []
    for index, entry in enumerate(bets):
        try:
            amount = entry.get("amounts_cents", entry.get("amount_cents"))
            terms.append(_bet_terms(rnd.table, entry.get("seat"), amount, entry.get("circles")))  # type: ignore[arg-type]
        except DomainError as exc:
            raise _per_seat(index, entry.get("seat"), exc, "bets") from None
    seats = [seat for seat, _, _ in terms]
    if len(set(seats)) != len(seats):
        raise DomainError("a seat appears twice in the batch", code="duplicate_seat", field="bets")
    return _place_bets(rnd, terms, actor)


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
