"""The Triple Draw table screen: the page, its one-second poll, the rules, and each tap through one service."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import escape
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from audit.roles import DEALER, FLOOR, has_role
from casino.api_errors import screen_error
from casino.engine.errors import EngineError
from casino.engine.triple_draw import MAX_SEATS, ROW_COUNT
from casino.errors import DomainError
from tables.forms import parse_amount_cents, parse_card_list, parse_circles, parse_reason, parse_seat_number
from tables.models import Round, Table
from tables.screens.triple_draw import poll_token, screen_for, settlement_wait, shoe_token
from tables.selectors.floor_calls import call_token
from tables.selectors.rounds import previous_bets, state_token, token_round
from tables.services.approvals import round_approve_payout
from tables.services.bets import bet_clear, bet_place, bets_place_all
from tables.services.cards import cards_deal, holds_record, rows_record
from tables.services.rounds import (
    round_close_bets,
    round_floor_call,
    round_settle,
    round_start,
    round_void,
    round_void_request,
)
from tables.services.seats import seat_join, seat_leave
from tables.services.tables import table_open
from tables.templatetags.tablet import money, with_card_faces
from tables.views.common import dealer_words, table_for_screen, table_for_user, tablet_login_required


def _context(request: HttpRequest, table: Table, errors: dict[str, str] | None = None) -> dict[str, Any]:
    screen = screen_for(table)
    return {
        "screen": screen,
        "table": table,
        "errors": errors or {},
        "is_floor": has_role(request.user, FLOOR),
        # Compliance follows tables read-only; the services refuse their writes anyway, so no controls are shown.
        "can_act": has_role(request.user, FLOOR, DEALER),
        "row_fields": [(number, f"row{number}") for number in range(1, ROW_COUNT + 1)],
        # What was typed is kept only to be corrected; after a success the fields show the server's values.
        "posted": request.POST if errors else QueryDict(),
        # A refused bet keeps the seat's amount and circles exactly as chosen (issue 14 item 1).
        "entered": _entered_bet(request.POST) if errors else {},
        "action_urls": _action_urls(table.pk),
    }


def _action_urls(table_id: int) -> dict[str, str]:
    """Every action's address for this table, from one reverse() (a seven-seat screen prints dozens of them)."""
    sample = reverse("tablet:action", args=[table_id, "start"])
    return {name: sample.removesuffix("start/") + name + "/" for name in ACTIONS}


def _entered_bet(data: QueryDict) -> dict[str, dict[str, str]]:
    seat = (data.get("seat") or "").strip()
    if not seat or "amount" not in data:
        return {}
    return {seat: {"amount": data.get("amount", ""), "circles": data.get("circles", "")}}


@tablet_login_required
@require_GET
@never_cache
def table_screen(request: HttpRequest, table_id: int) -> HttpResponse:
    table = table_for_user(request, table_id)
    if isinstance(table, HttpResponse):
        return table
    return render(request, "tables/tablet/table.html", _context(request, table))


@tablet_login_required
@require_GET
@never_cache
def table_state(request: HttpRequest, table_id: int) -> HttpResponse:
    """The polled round fragment; 204 (htmx then leaves the screen alone) while nothing has changed."""
    table = table_for_screen(request, table_id, home=False)
    if isinstance(table, HttpResponse):
        return table
    shown = token_round(table)
    # A late settlement job, a refused shoe report and a floor call (answered, or its answer grown old) change no row
    # of the round, so they are part of the tablet's token: the dealer is told at once.
    token = poll_token(state_token(table, shown), settlement_wait(shown), shoe_token(table), call_token(table))
    if request.GET.get("v") == token:
        return HttpResponse(status=204)
    return render(request, "tables/tablet/round.html", _context(request, table))


@tablet_login_required
@require_GET
def table_rules(request: HttpRequest, table_id: int) -> HttpResponse:
    """The paytable and rules as a page of their own (the table screen shows the same in a dialog); a home-game
    table's are its announced house rules."""
    table = table_for_screen(request, table_id, home=False, other_page="tablet:home-rules")
    if isinstance(table, HttpResponse):
        return table
    return render(request, "tables/tablet/rules_page.html", _context(request, table))


# --- actions: each parses its form, names where an error belongs, and calls exactly one service ---------------


@dataclass(frozen=True)
class Action:
    """A tap on the table screen: `where` keys the error to the control that caused it."""

    where: Callable[[QueryDict], str]
    run: Callable[[Table, Round | None, QueryDict, Any], object]
    needs_round: bool = True


def _seat_where(data: QueryDict) -> str:
    return f"seat-{data.get('seat', '')}"


def _fixed(where: str) -> Callable[[QueryDict], str]:
    return lambda data: where


def _start(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    return round_start(table=table, actor=user)


def _open(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    return table_open(table=table, actor=user)


def _join(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    return seat_join(
        table=table,
        seat_number=parse_seat_number(data.get("seat")),
        player_name=(data.get("player_name") or "").strip(),
        actor=user,
    )


def _leave(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    return seat_leave(table=table, seat_number=parse_seat_number(data.get("seat")), actor=user)


def _bet(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    assert round_ is not None
    amount_cents = parse_amount_cents(data.get("amount"))
    try:
        return bet_place(
            round=round_,
            seat_number=parse_seat_number(data.get("seat")),
            amount_cents=amount_cents,
            circles=parse_circles(data.get("circles")),
            actor=user,
        )
    except DomainError as exc:
        if exc.code == "bet_outside_limits":
            # The service speaks cents; at the table the same refusal reads in dollars.
            exc.message = (
                f"{money(amount_cents)} is outside the table limits "
                f"{money(table.min_bet_cents)} to {money(table.max_bet_cents)} per circle"
            )
        raise


def _repeat(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    """One seat bets again what it bet last round."""
    assert round_ is not None
    seat_number = parse_seat_number(data.get("seat"))
    last = previous_bets(table, round_).get(seat_number)
    if last is None:
        raise DomainError(f"seat {seat_number} had no bet last round", code="no_previous_bet", field="seat")
    circles, amount_cents = last
    return bet_place(round=round_, seat_number=seat_number, amount_cents=amount_cents, circles=circles, actor=user)


def _rebet(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    """Every seated player without a bet yet bets what their seat bet last round, in one all-or-nothing batch."""
    assert round_ is not None
    screen = screen_for(table)
    seats = screen.rebet_seats
    if not seats:
        raise DomainError("no seated player without a bet bet last round", code="no_previous_bet", field="rebet")
    bets = [
        {"seat": number, "amount_cents": screen.previous_bets[number][1], "circles": screen.previous_bets[number][0]}
        for number in seats
    ]
    return bets_place_all(round=round_, bets=bets, actor=user)


def _floor_call(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    assert round_ is not None
    return round_floor_call(round=round_, actor=user, reason=(data.get("reason") or ""))


def _bet_clear(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    assert round_ is not None
    return bet_clear(round=round_, seat_number=parse_seat_number(data.get("seat")), actor=user)


def _close_bets(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    assert round_ is not None
    return round_close_bets(round=round_, actor=user)


def _deal(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    assert round_ is not None
    if data.get("source") == "rng":
        return cards_deal(round=round_, actor=user, cards=None)
    cards: dict[int, list[str]] = {}
    for number in range(1, MAX_SEATS + 1):
        text = data.get(f"seat{number}", "")
        if text.strip():
            cards[number] = parse_card_list(text)
    if not cards:
        raise DomainError("Enter each seat's five cards first", code="no_cards", field="cards")
    return cards_deal(round=round_, actor=user, cards=cards)


def _hold(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    assert round_ is not None
    # Held cards come as tapped checkboxes of the dealt cards, or typed/picked when the deal was not entered.
    held = data.getlist("held") or parse_card_list(data.get("held_text"))
    return holds_record(round=round_, seat_number=parse_seat_number(data.get("seat")), held=held, actor=user)


def _rows(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    assert round_ is not None
    if data.get("source") == "rng":
        return rows_record(round=round_, actor=user, rows=None)
    rows = [parse_card_list(data.get(f"row{number}", "")) for number in range(1, ROW_COUNT + 1)]
    return rows_record(round=round_, actor=user, rows=rows)


def _settle(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    assert round_ is not None
    return round_settle(round=round_, actor=user)


def _approve(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    assert round_ is not None
    return round_approve_payout(round=round_, actor=user)


def _void(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    assert round_ is not None
    return round_void(round=round_, reason=parse_reason(data.get("reason")), actor=user)


def _void_request(table: Table, round_: Round | None, data: QueryDict, user: Any) -> object:
    assert round_ is not None
    return round_void_request(round=round_, reason=parse_reason(data.get("reason")), actor=user)


ACTIONS: dict[str, Action] = {
    "open": Action(_fixed("start"), _open, needs_round=False),
    "start": Action(_fixed("start"), _start, needs_round=False),
    "join": Action(_seat_where, _join, needs_round=False),
    "leave": Action(_seat_where, _leave, needs_round=False),
    "bet": Action(_seat_where, _bet),
    "clear-bet": Action(_seat_where, _bet_clear),
    "repeat": Action(_seat_where, _repeat),
    "rebet": Action(_fixed("rebet"), _rebet),
    "floor-call": Action(_fixed("floor-call"), _floor_call),
    "close-bets": Action(_fixed("close-bets"), _close_bets),
    "deal": Action(_fixed("deal"), _deal),
    "hold": Action(_seat_where, _hold),
    "rows": Action(_fixed("rows"), _rows),
    "settle": Action(_fixed("settle"), _settle),
    "approve": Action(_fixed("approve"), _approve),
    "void": Action(_fixed("void"), _void),
    "void-request": Action(_fixed("void"), _void_request),
}


def _plain(message: str) -> str:
    """Start a service message in lower case after a "Seat 3:" label, leaving a card ("Q♠ ...", "Qs ...") alone."""
    first = message.split(" ", 1)[0]
    if len(first) > 2 and first[0].isupper() and first[1:].islower():
        return message[0].lower() + message[1:]
    return message


def _error_text(where: str, message: str) -> str:
    """Plain words next to the control: "Seat 3: all bets of a seat must be equal", "Card A♠ appears twice"."""
    message = dealer_words(message)
    if where.startswith("seat-") and not message.lower().startswith("seat"):
        return f"Seat {where.removeprefix('seat-')}: {_plain(message)}"
    return message[:1].upper() + message[1:]


@tablet_login_required
@require_POST
def table_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    """Run one tap through its service; answer htmx with the re-rendered round, a plain form with a redirect."""
    table = table_for_screen(request, table_id, home=False)
    if isinstance(table, HttpResponse):
        return table
    chosen = ACTIONS.get(action)
    if chosen is None:
        raise Http404("No such action")
    where = chosen.where(request.POST)
    status = 200
    errors: dict[str, str] = {}
    try:
        round_ = None
        if chosen.needs_round:
            round_ = _posted_round(table, request.POST)
        chosen.run(table, round_, request.POST, request.user)
    except (DomainError, EngineError) as exc:
        shown = screen_error(exc)
        where = _where_from_field(where, shown.field)
        # A refusal names a card by its code (the API's message); the dealer picked it as a face.
        sent = [code for value in request.POST.values() for code in str(value).replace(",", " ").split()]
        errors[where] = _error_text(where, with_card_faces(shown.message, sent))
        status = shown.status
    # The table as the tap left it: drawn with the version read before the tap, the screen's poll token was always
    # older than the screen, so the next poll redrew it whole and took a question just opened on it (Leave, the
    # last hold) from under the dealer's finger. Read before the rows the screen shows, so never newer than they are.
    table.refresh_from_db()
    if request.headers.get("HX-Request") == "true":
        return _refusal_shown(request, table, "tables/tablet/round.html", errors, status)
    if not errors:
        return HttpResponseRedirect(reverse("tablet:table", args=[table.pk]))
    return _refusal_shown(request, table, "tables/tablet/table.html", errors, status)


def _refusal_shown(
    request: HttpRequest, table: Table, template: str, errors: dict[str, str], status: int
) -> HttpResponse:
    """The screen after a tap, with its refusal in sight. An error is shown next to the control that caused it; when
    that control is no longer on the new screen (another tablet closed bets before this one's bet arrived), the
    refusal goes at the top of the round instead: otherwise the dealer only saw the round move on and took the tap
    as recorded."""
    context = _context(request, table, errors)
    response = render(request, template, context, status=status)
    page = response.content.decode()
    unseen = [message for message in errors.values() if escape(message) not in page]
    if not unseen:
        return response
    return render(request, template, {**context, "refused": " ".join(unseen)}, status=status)


def _posted_round(table: Table, data: QueryDict) -> Round:
    """The round the screen showed when the dealer tapped; a stale screen's tap then fails on its phase."""
    try:
        return table.rounds.get(pk=int(data.get("round", "")))
    except (ValueError, Round.DoesNotExist):
        raise DomainError("this round is no longer on the table", code="no_round") from None


def _where_from_field(where: str, field: str | None) -> str:
    """A service naming the seat or row it refused (field "seat_3", "row_2") moves the error next to it."""
    if not field:
        return where
    for prefix, key in (("seat_", "seat-"), ("seat-", "seat-"), ("row_", "rows"), ("cards.", "seat-")):
        if field.startswith(prefix):
            rest = field.removeprefix(prefix)
            if key == "rows":
                return "rows"
            if rest.isdigit():
                return f"{key}{rest}"
    return where
