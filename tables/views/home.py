"""The home-game table screen: the page, its one-second poll, the announced rules, and each tap through one of the
home-game services (the same the API calls), refusals shown next to the control that caused them."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from audit.roles import DEALER, FLOOR, has_role
from casino.api_errors import screen_error
from casino.engine.errors import EngineError
from casino.engine.home.awaiting import AwaitKind
from casino.engine.home.errors import ACE_NOT_SHOWN
from casino.errors import DomainError, WrongPhase
from tables.access import require_floor
from tables.forms import parse_amount_cents, parse_card_list, parse_reason, parse_seat_number
from tables.models import HomeGame, Table
from tables.models import HomeHand as HandRow
from tables.screens.home import HomeScreen, home_screen_for, home_token, is_home_table
from tables.services.home_games import (
    game_close,
    game_floor_call,
    game_open,
    player_add_chips,
    player_join,
    player_leave,
)
from tables.services.home_hands import hand_act, hand_start
from tables.services.home_rulings import hand_award, hand_correct, hand_correct_card, hand_void
from tables.templatetags.tablet import money
from tables.views import triple_draw
from tables.views.common import dealer_words, table_for_screen, table_for_user, tablet_login_required

HAND_TEMPLATE = "tables/tablet/home_hand.html"


def _context(request: HttpRequest, table: Table, errors: dict[str, str] | None = None,
              confirm: dict[str, Any] | None = None) -> dict[str, Any]:
    screen = home_screen_for(table)
    # Compliance follows tables read-only; the services refuse their writes anyway, so no controls are shown.
    can_act = has_role(request.user, FLOOR, DEALER)
    is_floor = has_role(request.user, FLOOR)
    return {
        "screen": screen,
        "table": table,
        "errors": {_shown_at(screen, where, is_floor): text for where, text in (errors or {}).items()},
        "confirm": confirm,
        "is_floor": is_floor,
        "can_act": can_act,
        # What was typed is kept only to be corrected; after a success the fields show the server's values.
        "posted": request.POST if errors else QueryDict(),
        "posted_discards": request.POST.getlist("discard") if errors else [],
        "posted_seats": request.POST.getlist("seats") if errors else [],
        # Which form was refused, so a reason typed into one is not shown in another's field.
        "posted_action": request.resolver_match.kwargs.get("action", "") if errors and request.resolver_match else "",
    }


def _shown_at(screen: HomeScreen, where: str, is_floor: bool) -> str:
    """Where a refusal is shown: next to the control that caused it if the screen still shows that control (it may
    not: a stale screen's tap on a hand that has moved on), else under the hand's title."""
    kind = screen.awaiting_kind
    visible = {
        "turn": kind == AwaitKind.ACTION, "draw": kind == AwaitKind.DRAW,
        "deal": kind == AwaitKind.DEAL, "kill": bool(screen.killable_seats), "void": screen.in_play and is_floor,
        "award": screen.in_play and is_floor, "correct": bool(screen.recorded_actions) and is_floor,
        "correct-card": bool(screen.dealt_by_shoe) and is_floor,
        "game": not screen.game_open, "start": screen.between_hands, "join": screen.between_hands,
        "close-game": screen.between_hands and is_floor, "floor-call": screen.game_open and not is_floor,
    }
    if where.startswith("seat-"):
        return where if screen.game_open else "hand"
    if where.startswith("show-"):
        return where if where in {seat.show_key for seat in screen.showing_seats} else "hand"
    return where if visible.get(where, False) else "hand"


@tablet_login_required
@require_GET
@never_cache
def table_screen(request: HttpRequest, table_id: int) -> HttpResponse:
    """A table's screen: home-game tables get this one, every other table the Triple Draw screen."""
    table = table_for_user(request, table_id)
    if isinstance(table, HttpResponse):
        return table
    if not is_home_table(table):
        return triple_draw.table_screen(request, table_id)
    return render(request, "tables/tablet/home_table.html", _context(request, table))


def _home_table(request: HttpRequest, table_id: int, other_page: str = "tablet:table") -> Table | HttpResponse:
    return table_for_screen(request, table_id, home=True, other_page=other_page)


@tablet_login_required
@require_GET
@never_cache
def home_state(request: HttpRequest, table_id: int) -> HttpResponse:
    """The polled hand section; 204 (htmx then leaves the screen alone) while nothing has changed."""
    table = _home_table(request, table_id)
    if isinstance(table, HttpResponse):
        return table
    if request.GET.get("v") == home_token(table):
        return HttpResponse(status=204)
    return render(request, HAND_TEMPLATE, _context(request, table))


@tablet_login_required
@require_GET
def home_rules(request: HttpRequest, table_id: int) -> HttpResponse:
    """The announced rules as a page of their own (the table screen shows the same in a dialog); a Triple Draw
    table's are its paytable and rules."""
    table = _home_table(request, table_id, other_page="tablet:rules")
    if isinstance(table, HttpResponse):
        return table
    return render(request, "tables/tablet/home_rules_page.html", _context(request, table))


# --- actions: each parses its form, names where an error belongs, and calls exactly one service ---------------


class NeedsConfirmation(Exception):
    """A tap the dealer must confirm first (a fold, a muck or a kill card; a manual draw above the limit keeps an
    ace); nothing was changed."""

    def __init__(self, where: str, details: dict[str, Any]) -> None:
        super().__init__(where)
        self.where = where
        self.details = details


@dataclass(frozen=True)
class Action:
    """A tap on the screen: `where` keys an error to the control that caused it."""

    where: Callable[[QueryDict], str]
    run: Callable[[Table, QueryDict, Any], object]


def _fixed(where: str) -> Callable[[QueryDict], str]:
    return lambda data: where


def _seat_where(data: QueryDict) -> str:
    return f"seat-{data.get('seat', '')}"


def _show_where(data: QueryDict) -> str:
    """A hand shown at a manual showdown: its refusal goes beside that seat's Record button, in view."""
    return f"show-{data.get('seat', '')}"


def _game(table: Table, data: QueryDict) -> HomeGame:
    """The game the screen showed when the dealer tapped; a stale screen's tap then fails plainly."""
    try:
        game = HomeGame.objects.get(pk=int(data.get("game", "")), table=table)
    except (ValueError, HomeGame.DoesNotExist):
        raise WrongPhase("this game is no longer on the table", code="no_game") from None
    return game


def _hand(table: Table, data: QueryDict) -> HandRow:
    try:
        return HandRow.objects.get(pk=int(data.get("hand", "")), game__table=table)
    except (ValueError, HandRow.DoesNotExist):
        raise WrongPhase("this hand is no longer on the table", code="no_hand") from None


def _dollars(text: str | None, what: str, field: str) -> int:
    try:
        return parse_amount_cents(text)
    except DomainError as exc:
        exc.message = exc.message.replace("the bet amount", what).replace("the bet", what)
        exc.field = field
        raise


def _open_game(table: Table, data: QueryDict, user: Any) -> object:
    return game_open(table=table, actor=user)


def _join(table: Table, data: QueryDict, user: Any) -> object:
    game = _game(table, data)
    cents = _dollars(data.get("buy_in"), "the buy-in", "buy_in_cents")
    try:
        return player_join(game=game.pk, actor=user, seat=parse_seat_number(data.get("seat")), buy_in_cents=cents,
                           name=(data.get("name") or "").strip(), player_card=(data.get("player_card") or "").strip())
    except DomainError as exc:
        if exc.code == "buy_in_outside_range":
            exc.message = (f"{money(cents)} is outside the buy-in range "
                           f"{money(game.buy_in_min_cents)} to {money(game.buy_in_max_cents)}")
        raise


def _chips(table: Table, data: QueryDict, user: Any) -> object:
    game = _game(table, data)
    cents = _dollars(data.get("amount"), "the chips to add", "amount_cents")
    return player_add_chips(game=game.pk, actor=user, seat=parse_seat_number(data.get("seat")), amount_cents=cents)


def _leave(table: Table, data: QueryDict, user: Any) -> object:
    return player_leave(game=_game(table, data).pk, actor=user, seat=parse_seat_number(data.get("seat")))


def _start(table: Table, data: QueryDict, user: Any) -> object:
    return hand_start(game=_game(table, data).pk, actor=user)


def _close_game(table: Table, data: QueryDict, user: Any) -> object:
    """Close the game; a Three Legged Race's carried pot goes back to its contributors, or to `award_seat` by
    ruling (the reason, required on the screen anyway, is what the service requires for that)."""
    game = _game(table, data)
    reason = parse_reason(data.get("reason"))
    award = (data.get("award_seat") or "").strip()
    return game_close(game=game.pk, actor=user, reason=reason,
                      award_seat=parse_seat_number(award) if award else None)


def _void(table: Table, data: QueryDict, user: Any) -> object:
    return hand_void(hand=_hand(table, data).pk, actor=user, reason=parse_reason(data.get("reason")))


def _hand_as_shown(table: Table, data: QueryDict, user: Any, what: str) -> tuple[HandRow, int]:
    """The hand a ruling is about and the version the floor's screen drew it at, which the service checks under the
    hand's lock: a pot or an action list that moved on since then is looked at again before a ruling applies to it.
    (The role is checked first, so a dealer hears that rulings are the floor's whatever their screen showed.)"""
    require_floor(user, what)
    row = _hand(table, data)
    seen = _seen_version(data)
    if seen is None:  # a ruling form always carries it: without it, nobody can say what the floor saw
        raise WrongPhase(f"hand {row.number} has changed since this screen was drawn: check it and rule again",
                         code="stale_screen")
    return row, seen


def _award(table: Table, data: QueryDict, user: Any) -> object:
    """The pot by ruling, split evenly between the seats chosen (exact shares are the API's)."""
    row, seen = _hand_as_shown(table, data, user, "award a pot by ruling")
    seats = [parse_seat_number(text) for text in data.getlist("seats")]
    if not seats:
        raise DomainError("choose the seat or seats the pot goes to", code="no_player", field="seats")
    return hand_award(hand=row.pk, actor=user, seats=seats, reason=parse_reason(data.get("reason")), seen_version=seen)


def _correct_card(table: Table, data: QueryDict, user: Any) -> object:
    """A card the shoe misread: the card chosen as recorded is really the one typed; the hand is played again."""
    row, seen = _hand_as_shown(table, data, user, "correct a card")
    card = (data.get("card") or "").strip()
    if not card:
        raise DomainError("choose the card the shoe misread", code="card_not_dealt", field="card")
    replacement = (data.get("replacement") or "").strip()
    if not replacement:
        raise DomainError("type the card it really is, e.g. Kd or 10h", code="bad_card", field="replacement")
    return hand_correct_card(hand=row.pk, actor=user, card=card, replacement=replacement,
                             reason=parse_reason(data.get("reason")), seen_version=seen)


NO_LONGER_APPLIES = re.compile(r"action (\d+) (.*?) no longer applies: ", re.DOTALL)


def _correct(table: Table, data: QueryDict, user: Any) -> object:
    """Replace recorded action `index` with what was typed (blank: remove it); the hand is played again."""
    row, seen = _hand_as_shown(table, data, user, "correct a hand")
    try:
        index = int(data.get("index", ""))
    except ValueError:
        raise DomainError("choose the action to correct", code="bad_index", field="index") from None
    replacement = (data.get("replacement") or "").strip()
    try:
        return hand_correct(hand=row.pk, actor=user, index=index, action=replacement,
                            reason=parse_reason(data.get("reason")), seen_version=seen)
    except DomainError as exc:
        if exc.code == "bad_index":
            exc.message = f"choose one of the actions 1 to {len(row.record.get('actions', []))}"
        elif exc.code == "bad_correction":
            exc.message = _numbered_as_shown(exc.message, index, replaced=bool(replacement))
        raise


def _numbered_as_shown(message: str, index: int, *, replaced: bool) -> str:
    """The service counts the corrected list from 0; the screen numbers the recorded actions from 1. A refusal
    naming the replacement itself says so; one naming a later action gives that action's number on the screen."""
    found = NO_LONGER_APPLIES.match(message)
    if found is None:
        return message
    at, quoted, why = int(found.group(1)), found.group(2), message[found.end():]
    if replaced and at == index:
        return f"the replacement {quoted} does not apply: {why}"
    shown = at + 1 if at < index or replaced else at + 2  # after a removal, the later actions moved up one
    return f"action {shown} {quoted} no longer applies: {why}"


BETTING = ("fold", "check", "call", "bet", "raise", "allin")


def _seen_version(data: QueryDict) -> int | None:
    """The hand's version the screen was drawn at (a turn's forms carry it), for `hand_act(seen_version=)`."""
    text = data.get("version")
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise DomainError("the screen's hand version is not a number: reload the screen", code="bad_version",
                          field="version") from None


def _turn_act(table: Table, data: QueryDict, user: Any, **request: Any) -> object:
    """A turn's tap (a bet, a draw, the end of the deal) on the hand as the screen showed it: if the hand moved on
    before the tap arrived (another tablet acted, or this is a second tap), nothing is recorded and the dealer is
    told so, instead of the tap acting on a turn the screen never showed or reading "out of turn"."""
    hand = _hand(table, data)
    try:
        return hand_act(hand=hand.pk, actor=user, seen_version=_seen_version(data), **request)
    except WrongPhase as exc:
        if exc.code == "stale_screen":
            # Named, as the refusal stays on screen under the next turn: which tap it was is no longer in sight.
            exc.message = (f"{_tap_words(request)}: nothing was recorded, as hand {hand.number} moved on before this "
                           "tap arrived (another tablet, or a second tap); the screen now shows the hand as it is")
        raise


_VERB_WORDS = {"allin": "all-in", "draw": "draw", "killed": "kill card", "muck": "muck"}


def _tap_words(request: dict[str, Any]) -> str:
    """The tap a stale refusal is about, in words: "Seat 2's fold", "The deal done"."""
    verb = str(request.get("action", ""))
    if request.get("seat") is None:
        return "“The deal is done”" if verb == "dealt" else "The tap"
    return f"Seat {request['seat']}'s {_VERB_WORDS.get(verb, verb)}"


def _act(table: Table, data: QueryDict, user: Any) -> object:
    """A betting action; a bet or raise takes its amount from the tapped button or the amount field (dollars)."""
    verb = data.get("action", "")
    if verb not in BETTING:
        raise DomainError("choose an action", code="bad_action", field="action")
    amount = None
    if verb in ("bet", "raise"):
        amount = _dollars(data.get("amount"), f"the {'bet' if verb == 'bet' else 'raise'}", "amount_cents")
    seat = parse_seat_number(data.get("seat"))
    if verb == "fold" and data.get("confirm") != "yes":
        _ask_before_folding(table, data, seat)
    try:
        return _turn_act(table, data, user, seat=seat, action=verb, amount_cents=amount)
    except DomainError as exc:
        if exc.field == "amount_cents" and amount is not None:
            exc.message = _amount_refusal(table, verb, amount) or exc.message
        raise


def _ask_before_folding(table: Table, data: QueryDict, seat: int) -> None:
    """No dealer can take a fold back: the screen's Fold asks first, in a second step whose Yes is not where Fold
    was (a double tap lands on Cancel). Asked only of the turn the screen showed; a tap from a screen that moved on
    goes on to the service, which refuses it as stale or out of turn."""
    screen = home_screen_for(table)
    shown = _seen_version(data)
    turn = screen.turn_seat
    hand = screen.hand
    if (hand is None or turn is None or turn.seat != seat or "fold" not in screen.legal_actions
            or data.get("hand") != str(hand["id"]) or (shown is not None and shown != hand["version"])):
        return
    raise NeedsConfirmation("turn", {"fold": True, "seat": seat, "label": turn.label})


def _amount_refusal(table: Table, verb: str, amount: int) -> str | None:
    """An amount refused, in dollars and with the range the rules allow now."""
    legal = home_screen_for(table).legal
    bounds = legal.get(verb) if legal else None
    if not bounds:
        return None
    low, high = money(bounds["minimum_cents"]), money(bounds["maximum_cents"])
    allowed = f"exactly {low}" if low == high else f"from {low} to {high}"
    if verb == "bet":
        return f"a bet of {money(amount)} is not allowed: a bet now is {allowed}"
    # "goes to from $36.50 to $97.50" read wrong: the range is of round totals, so say so.
    return f"a raise to {money(amount)} is not allowed: a raise now is to a total {allowed}"


def _draw(table: Table, data: QueryDict, user: Any) -> object:
    """A dealt hand's draw: the cards tapped are the discards (none: standing pat)."""
    return _turn_act(table, data, user, seat=parse_seat_number(data.get("seat")), action="draw",
                     cards=data.getlist("discard"))


def _draw_count(table: Table, data: QueryDict, user: Any) -> object:
    """A manual hand's draw by count; a count above the limit is taken only once the dealer confirms the ace kept."""
    _hand(table, data)
    seat = parse_seat_number(data.get("seat"))
    try:
        count = int(data.get("count", ""))
    except ValueError:
        raise DomainError("choose how many cards the player draws", code="bad_count", field="count") from None
    screen = home_screen_for(table)
    draw = screen.draw
    needs_ace = draw is not None and draw["maximum"] < count <= draw["maximum_keeping_ace"]
    if needs_ace and data.get("ace") != "yes":
        turn = screen.turn_seat  # named as everywhere else on the screen ("Seat 2 · Bob"), not by number alone
        label = turn.label if turn is not None and turn.seat == seat else f"Seat {seat}"
        raise NeedsConfirmation("draw", {"seat": seat, "label": label, "count": count,
                                         "maximum": draw["maximum"] if draw else 0})
    return _turn_act(table, data, user, seat=seat, action="draw", count=count, keeps_ace=needs_ace)


def _dealt(table: Table, data: QueryDict, user: Any) -> object:
    return _turn_act(table, data, user, seat=None, action="dealt")


def _kill(table: Table, data: QueryDict, user: Any) -> object:
    """A seat dealt a kill card is dead at once. No dealer can take that back (only a floor correction can): the
    first tap asks, in a second step whose Yes is not where the tapped button was, as Fold and Muck do. Asked only
    of a seat and card the screen offers; anything else goes on to the service, which refuses it."""
    card = data.get("card") or ""
    if not card:
        raise DomainError("tap the kill card the player was dealt", code="bad_card", field="card")
    if data.get("confirm") != "yes":
        screen = home_screen_for(table)
        victim = next((view for view in screen.killable_seats if str(view.seat) == data.get("seat")), None)
        if (victim is not None and card in screen.offered_kill_cards and screen.hand is not None
                and data.get("hand") == str(screen.hand["id"])):
            raise NeedsConfirmation("kill", {"kill": True, "seat": victim.seat, "label": victim.label, "card": card})
    return hand_act(hand=_hand(table, data).pk, actor=user, seat=parse_seat_number(data.get("seat")),
                    action="killed", card=card)


def _show(table: Table, data: QueryDict, user: Any) -> object:
    seat = parse_seat_number(data.get("seat"))
    cards = parse_card_list(data.get("cards"))
    if len(cards) != 5:
        raise DomainError(f"tap the five cards seat {seat} shows ({len(cards)} chosen)", code="wrong_card_count",
                          field="cards")
    try:
        return hand_act(hand=_hand(table, data).pk, actor=user, seat=seat, action="show", cards=cards)
    except DomainError as exc:
        if exc.code == ACE_NOT_SHOWN:
            # Nothing the dealer can tap records this hand: say what to do, not only which rule it breaks.
            exc.message = (f"seat {seat} drew above the limit keeping an ace but shows no ace. "
                           "Check the cards picked; if the player has no ace, call the floor: they correct the draw "
                           "(a count tapped by mistake) or rule on the hand")
        raise


def _muck(table: Table, data: QueryDict, user: Any) -> object:
    """A seat concedes at a manual showdown, its hand not shown. No dealer can take a muck back: the first tap asks,
    in a second step whose Yes is not where Muck was; the Yes goes to the service with the hand's version the
    question was asked at, so a hand that moved on meanwhile is refused as stale."""
    _hand(table, data)
    seat = parse_seat_number(data.get("seat"))
    if data.get("confirm") != "yes":
        screen = home_screen_for(table)
        shower = next((view for view in screen.showing_seats if view.seat == seat), None)
        if shower is not None and screen.muck_offered:
            raise NeedsConfirmation(shower.show_key, {"muck": True, "seat": seat, "label": shower.label})
    return _turn_act(table, data, user, seat=seat, action="muck")


def _floor_call(table: Table, data: QueryDict, user: Any) -> object:
    return game_floor_call(game=_game(table, data).pk, actor=user, reason=str(data.get("reason") or ""))


ACTIONS: dict[str, Action] = {
    "open-game": Action(_fixed("game"), _open_game),
    "floor-call": Action(_fixed("floor-call"), _floor_call),
    "join": Action(_fixed("join"), _join),
    "chips": Action(_seat_where, _chips),
    "leave": Action(_seat_where, _leave),
    "start": Action(_fixed("start"), _start),
    "close-game": Action(_fixed("close-game"), _close_game),
    "void": Action(_fixed("void"), _void),
    "award": Action(_fixed("award"), _award),
    "correct": Action(_fixed("correct"), _correct),
    "correct-card": Action(_fixed("correct-card"), _correct_card),
    "act": Action(_fixed("turn"), _act),
    "draw": Action(_fixed("draw"), _draw),
    "draw-count": Action(_fixed("draw"), _draw_count),
    "dealt": Action(_fixed("deal"), _dealt),
    "kill": Action(_fixed("kill"), _kill),
    "show": Action(_show_where, _show),
    "muck": Action(_show_where, _muck),
}


def _error_text(message: str) -> str:
    message = dealer_words(message)
    return message[:1].upper() + message[1:]


@tablet_login_required
@require_POST
def home_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    """Run one tap through its service; answer htmx with the re-rendered hand section, a plain form with a
    redirect (or the page with the error next to its cause)."""
    table = _home_table(request, table_id)
    if isinstance(table, HttpResponse):
        return table
    chosen = ACTIONS.get(action)
    if chosen is None:
        raise Http404("No such action")
    where = chosen.where(request.POST)
    status = 200
    errors: dict[str, str] = {}
    confirm = None
    try:
        chosen.run(table, request.POST, request.user)
    except NeedsConfirmation as pending:
        confirm = {"where": pending.where, **pending.details}
    except (DomainError, EngineError) as exc:
        shown = screen_error(exc)
        errors[where] = _error_text(shown.message)
        status = shown.status
    table.refresh_from_db()
    if request.headers.get("HX-Request") == "true":
        return render(request, HAND_TEMPLATE, _context(request, table, errors, confirm), status=status)
    if not errors and confirm is None:
        return HttpResponseRedirect(reverse("tablet:table", args=[table.pk]))
    return render(request, "tables/tablet/home_table.html", _context(request, table, errors, confirm), status=status)

