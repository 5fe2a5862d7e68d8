"""The floor's rulings on a home-game hand in play (DESIGN 7: "the floor's ruling is final"): void it, correct a
recorded action or card, or award the pot; each with a reason, audited, the original record kept."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.services import audit_record
from casino.engine.cards import Card, card_symbols, parse_cards
from casino.engine.home.errors import IllegalAction
from casino.engine.home.hand import HomeHand
from casino.engine.home.pots import clockwise_from_button
from casino.engine.home.record import hand_record
from casino.engine.home.replay import apply_action, hand_summary
from casino.errors import DomainError, WrongPhase
from tables import actions
from tables.access import require_floor
from tables.models import HomeGame
from tables.models import HomeHand as HandRow
from tables.selectors.home import time_charged
from tables.services import home_chips as chips
from tables.services.guards import hand_ref
from tables.services.home_engine import deal_from_stock, game_rules, rebuild, refusal_words, refusals, seat_map
from tables.services.home_hands import _persist, announce_posting, note_after, stale_screen
from tables.services.home_ledger import verify_balanced

Status = HandRow.Status


def _reason(reason: Any) -> str:
    text = str(reason or "").strip()
    if not text:
        raise DomainError("a ruling needs a reason", code="reason_required", field="reason")
    return text


def _locked_in_play(hand: HandRow | int, actor: User, what: str,
                    seen_version: int | None = None) -> tuple[HomeGame, HandRow]:
    """The hand, locked, for a floor supervisor's ruling while it is in play. `seen_version`: the hand's version on
    the screen the floor ruled from; given, a hand that changed since (a bet, a draw, another ruling) is refused
    (409 `stale_screen`) under the lock, so the ruling never applies to a pot or an action list nobody looked at."""
    require_floor(actor, what)
    game, row = chips.lock_hand(hand)
    stale_screen(row, seen_version, "this screen was drawn: check it and rule again")
    if row.status != Status.IN_PLAY:
        raise WrongPhase(f"{hand_ref(row)} is {row.status}: a ruling applies to the hand in play", code="hand_over")
    return game, row


@transaction.atomic
def hand_void(*, hand: HandRow | int, actor: User, reason: str) -> HandRow:
    """Every chip of the hand goes back where it was before it (players who left get theirs at the cashier), and the
    button stays for the next hand; the record stays as it was."""
    reason = _reason(reason)
    game, row = _locked_in_play(hand, actor, "void a hand")
    engine = rebuild(row, game_rules(game))
    players = chips.players_of(game)
    returned = {}
    for seat, state in engine.players.items():
        if state.contributed:
            chips.pot_to(game, players[seat], state.contributed, "void_return", hand=row)
            returned[str(seat)] = state.contributed
    if game.pot_cents != row.carried_before_cents:
        raise RuntimeError(f"{row}: voiding leaves {game.pot_cents} in the pot, not {row.carried_before_cents}")
    # A time charge taken as the hand started goes back with it: a voided hand is no hand, so the half hour's charge is
    # taken again before its first hand played (and the record, which leaves the hand out, never shows a charge before
    # a hand that is not there).
    time_returned = time_charged(row)
    row.status, row.void_reason, row.voided_at = Status.VOIDED, reason, timezone.now()
    row.save(update_fields=["status", "void_reason", "voided_at"])
    # The button stays where it was, as after a misdeal: the hand dealt again is this hand, not the next one.
    game.next_button = row.button
    for seat, cents in time_returned.items():
        player = players[seat]
        chips.house_to(game, player, cents, "time_charge", hand=row)
        player.time_paid_until = None
        if not player.active:  # they left during the hand: it goes to the cashier with the rest of their chips
            chips.cash_out(game, player, hand=row)
        note_after(game, seat=seat, cents=-cents, house=True)
    chips.save_players(players)
    chips.save_game(game)
    after: dict[str, Any] = {"status": row.status, "returned": returned, "next_button": row.button}
    if time_returned:
        after["time_charge_returned_cents"] = {str(seat): cents for seat, cents in time_returned.items()}
        announce_posting(game)
    audit_record(action=actions.HOME_HAND_VOID, obj=row, table=game.table, reason=reason, approver=actor, actor=actor,
                 before={"phase": row.phase}, after=after)
    verify_balanced(game)
    return row


def replay_live(row: HandRow, game: HomeGame, action_list: list[str]) -> HomeHand:
    """The hand played again from its start with `action_list`, the system dealing from the recorded deck and
    reshuffles as it goes (so a corrected draw takes the right cards)."""
    rules = game_rules(game)
    record = row.record
    # A hand the system deals is dealt again from its deck; a shoe's hand gets the cards the shoe reported, in order.
    deck = parse_cards(record["deck"]) if not row.manual else None
    limit = None if row.dealt_by_system else record.get("dealt")
    planned = [*record.get("reshuffles", []), *row.stock_plan]
    with refusals():
        hand = HomeHand(rules=rules, stacks=seat_map(row.stacks_before), button=row.button, manual=row.manual,
                        deck=deck, dealt_so_far=0 if deck is not None else None,
                        carried_pot_cents=row.carried_before_cents, legs=seat_map(row.legs_before or {}))
        if deck is not None:
            deal_from_stock(hand, planned, limit, closed=row.stock_closed)
        for index, text in enumerate(action_list):
            try:
                apply_action(hand, text)
            except (ValueError, DomainError) as exc:
                why = refusal_words(exc) if isinstance(exc, IllegalAction) else str(exc)
                raise DomainError(f"action {index} ({text!r}) no longer applies: {why}", code="bad_correction",
                                  field="action") from exc
            if deck is not None:
                deal_from_stock(hand, planned, limit, closed=row.stock_closed)
    return hand


def _verify_shoe_cards_stay(before: HomeHand, after: HomeHand) -> None:
    """A shoe's cards are in the hands it dealt them to: a correction that would give one to another seat (a draw of
    another count, a fold before a draw) describes a table that never was, so it is refused."""
    moved = after.deals
    for position, (seat, card) in enumerate(before.deals):
        now = moved[position] if position < len(moved) else None
        if now != (seat, card):
            elsewhere = f"seat {now[0]}" if now is not None else "no seat"
            raise DomainError(f"the shoe dealt {card_symbols(card)} to seat {seat}; with this correction it would go "
                              f"to {elsewhere}: void the hand or award the pot by ruling instead",
                              code="bad_correction", field="action")


@transaction.atomic
def hand_correct(*, hand: HandRow | int, actor: User, index: int, action: str, reason: str,
                 seen_version: int | None = None) -> HandRow:
    """Replace (or, blank, remove) recorded action `index` before the pot is awarded; the hand is played again from
    its start and the chips follow. The original record is kept."""
    reason = _reason(reason)
    game, row = _locked_in_play(hand, actor, "correct a hand", seen_version)
    recorded = list(row.record.get("actions", []))
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(recorded):
        raise DomainError(f"index must be 0 to {len(recorded) - 1}", code="bad_index", field="index")
    if any(text.endswith(" leave") for text in recorded[index:]):
        raise DomainError("a player left after that action: their cash-out stands", code="bad_correction",
                          field="index")
    corrected = [*recorded[:index], *([action.strip()] if action.strip() else []), *recorded[index + 1:]]
    engine = replay_live(row, game, corrected)
    if not row.manual and not row.dealt_by_system:
        _verify_shoe_cards_stay(rebuild(row, game_rules(game)), engine)
    if row.original_record is None:
        row.original_record = row.record
        row.save(update_fields=["original_record"])
    players = chips.players_of(game)
    audit_record(action=actions.HOME_HAND_CORRECT, obj=row, table=game.table, reason=reason, approver=actor,
                 actor=actor, before={"index": index, "action": recorded[index]},
                 after={"index": index, "action": action.strip(), "replaced": recorded[index],
                        "phase": engine.phase.value})
    _persist(game, row, engine, players, kind="correction", actor=actor)
    chips.save_game(game)
    verify_balanced(game)
    return row


def _swap(codes: list[str], card: str, replacement: str) -> list[str]:
    """Card codes with `card` and `replacement` exchanged (the misread card is the replacement, and the card it was
    read as is still in the stock)."""
    return [replacement if code == card else card if code == replacement else code for code in codes]


def _swap_action(text: str, card: str, replacement: str) -> str:
    """An action with the card renamed where it names it (a draw's discards, a kill card, a hand shown)."""
    head, sep, reason = text.partition(" -- ")  # a ruling's reason is words, never cards
    return " ".join(_swap(head.split(), card, replacement)) + sep + reason


@transaction.atomic
def hand_correct_card(*, hand: HandRow | int, actor: User, card: str, replacement: str, reason: str,
                      seen_version: int | None = None) -> HandRow:
    """A card the shoe misread, corrected before the pot is awarded: `card` as recorded was really `replacement`.
    The card is renamed wherever the hand's record names it (the deck the shoe dealt, a reshuffled stock, a draw's
    discards) and the hand is played again from its start, so a kill card, a wild card or the draw follow; the
    original record is kept. Refused: a hand the shoe did not deal (the system's cards are not misread; a manual
    hand's shown cards are corrected as actions), a card not dealt in the hand, or a replacement already dealt."""
    reason = _reason(reason)
    game, row = _locked_in_play(hand, actor, "correct a card", seen_version)
    if row.manual or row.dealt_by_system:
        source = "recorded by the dealer as actions" if row.manual else "dealt by the system"
        raise DomainError(f"{hand_ref(row)}'s cards were {source}, not read by a shoe", code="not_a_shoe_hand",
                          field="card")
    with refusals():
        wrong, right = Card.parse(str(card)), Card.parse(str(replacement))
    engine = rebuild(row, game_rules(game))
    if wrong not in engine.stock.seen:
        raise DomainError(f"{card_symbols(wrong)} was not dealt in {hand_ref(row)}", code="card_not_dealt",
                          field="card")
    if right == wrong or right in engine.stock.seen:
        holder = engine.holder(right)
        where = f": seat {holder} holds it" if holder is not None else ""
        raise DomainError(f"{card_symbols(right)} was already dealt in {hand_ref(row)}{where}",
                          code="card_already_seen", field="replacement")
    before, after = str(wrong), str(right)
    record = dict(row.record)
    record["deck"] = _swap(list(record["deck"]), before, after)
    record["reshuffles"] = [_swap(list(stock), before, after) for stock in record.get("reshuffles", [])]
    corrected = [_swap_action(text, before, after) for text in record.get("actions", [])]
    original = row.record
    row.record = record
    try:
        replayed = replay_live(row, game, corrected)
    finally:
        row.record = original
    if row.original_record is None:
        row.original_record = row.record
        row.save(update_fields=["original_record"])
    players = chips.players_of(game)
    audit_record(action=actions.HOME_HAND_CORRECT, obj=row, table=game.table, reason=reason, approver=actor,
                 actor=actor, seat_number=replayed.holder(right), before={"card": before},
                 after={"card": after, "replaced": before, "seat": replayed.holder(right),
                        "phase": replayed.phase.value})
    _persist(game, row, replayed, players, kind="correction", actor=actor)
    chips.save_game(game)
    verify_balanced(game)
    return row


@transaction.atomic
def hand_award(*, hand: HandRow | int, actor: User, seats: list[int] | None = None, reason: str,
               amounts: dict[int, int] | None = None, seen_version: int | None = None) -> HandRow:
    """The floor awards everything in the middle to `seats` (split evenly; the odd chips to the first of them from
    the dealer's left; or as `amounts`, seat -> cents, when the ruling shares it otherwise); no leg is scored. The
    hand ends with the ruling as the last line of its record (`floor award <seat> <cents> ... -- <reason>`), so the
    exported game replays it (DESIGN 9)."""
    reason = _reason(reason)
    game, row = _locked_in_play(hand, actor, "award a pot by ruling", seen_version)
    players = chips.players_of(game)
    wanted = sorted(set(amounts or seats or []))
    if not wanted or any(seat not in players or not players[seat].active for seat in wanted):
        raise DomainError("the pot goes to seated players", code="no_player", field="amounts" if amounts else "seats")
    engine = rebuild(row, game_rules(game))
    if engine.pot_cents != game.pot_cents:
        raise RuntimeError(f"{row}: the hand holds {engine.pot_cents} in the middle, the game {game.pot_cents}")
    pot = game.pot_cents
    if amounts:
        winners, awarded = list(amounts), dict(amounts)
    else:
        winners = clockwise_from_button(wanted, row.button)
        share, odd = divmod(pot, len(winners))
        awarded = {seat: share + (1 if position < odd else 0) for position, seat in enumerate(winners)}
    with refusals():
        engine.award(awarded, reason)
    for seat, cents in awarded.items():
        if cents:
            chips.pot_to(game, players[seat], cents, "ruling_award", hand=row)
    for player in chips.everyone(players):  # the pot is awarded: no share of it is owed to anyone
        player.carried_contribution_cents = 0
    chips.save_players(players)
    row.status, row.settled_at, row.phase = Status.SETTLED, timezone.now(), engine.phase.value
    row.ruling = {"seats": winners, "awarded": {str(seat): cents for seat, cents in awarded.items()},
                  "reason": reason, "by": actor.get_username()}
    row.record = {**hand_record(engine).to_dict(), **({"after": row.record["after"]} if "after" in row.record
                                                      else {})}
    row.result = hand_summary(engine)
    row.save(update_fields=["status", "settled_at", "phase", "ruling", "record", "result"])
    chips.save_game(game)
    audit_record(action=actions.HOME_POT_RULING, obj=row, table=game.table, reason=reason, approver=actor,
                 actor=actor, after={"pot_cents": pot, "awarded": row.ruling["awarded"],
                                     "line": engine.actions[-1]})
    announce_posting(game)  # a settled hand and a pot awarded: the floor's figures move as for a showdown
    verify_balanced(game)
    return row
