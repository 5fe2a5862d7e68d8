"""Home-game hands (DESIGN 7, 9): start a hand (antes, the deal), take each action, and settle it.

Every write locks the game and then the hand, rebuilds the engine hand from the stored record, applies one DESIGN 9
action string (the same strings `replay_game` reads, so a stored game replays as it was played), lets an `rng`
table's system deal the cards the hand then awaits, and stores the new record, the chip movements as ledger
postings, and the audit events, all in one transaction.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.services import audit_record
from casino import sql
from casino.engine.cards import Card, parse_cards
from casino.engine.home.carried import carried_shares
from casino.engine.home.deck import verify_full_deck
from casino.engine.home.hand import HomeHand
from casino.engine.home.house import rake_by_pot, time_due
from casino.engine.home.record import hand_record
from casino.engine.home.replay import apply_action, hand_summary, parse_action
from casino.engine.rules.model import Rules
from casino.errors import DomainError, WrongPhase
from tables import actions
from tables.access import require_operator
from tables.models import CardSource, HomeAccount, HomeGame, HomeGamePlayer, HouseCharge
from tables.models import HomeHand as HandRow
from tables.services import home_chips as chips
from tables.services.guards import game_ref, hand_ref, numbered
from tables.services.home_engine import (
    deal_from_stock,
    game_rules,
    given_stocks,
    rebuild_for_write,
    refusals,
    remember,
    shuffled_deck,
)
from tables.services.home_ledger import post, verify_balanced
from tables.signals import announce_ledger_posted

Status = HandRow.Status
HALF_HOUR = timedelta(minutes=30)
BETTING_VERBS = ("check", "call", "fold", "bet", "raise", "allin")
VERBS = (*BETTING_VERBS, "draw", "killed", "show", "muck", "dealt", "leave")


def hand_in_play(game: HomeGame) -> HandRow | None:
    return HandRow.objects.filter(game=game, status=Status.IN_PLAY).first()


def note_after(game: HomeGame, *, row: HandRow | None = None, join: HomeGamePlayer | None = None,
               seat: int | None = None, cents: int = 0, house: bool = False) -> None:
    """Write a change between hands into the last hand's record (`after`: a player joined, chips added, or with
    `house` the cents the house took from the seat), so the exported record replays it (DESIGN 9 extended). `row`:
    that hand, being saved by the caller. Before the first hand nothing is needed: the first hand's starting stacks
    are the record's players."""
    last = row or HandRow.objects.filter(game=game).exclude(status=Status.VOIDED).order_by("-number").first()
    if last is None:
        return
    after = dict(last.record.get("after", {}))
    if join is not None:
        after["joins"] = [*after.get("joins", []),
                          {"seat": join.seat, "name": join.name, "stack_cents": join.stack_cents}]
    joined = [entry for entry in after.get("joins", []) if entry["seat"] == seat]
    if seat is not None and cents and not house and joined and f"{seat} leave" in last.record.get("actions", []):
        # Chips added by a newcomer at a seat whose player left after this hand: in their join's stack, so the
        # record's `chips` of that seat stay the one who left's (the replay gives them before the leave).
        joined[-1]["stack_cents"] += cents
    elif seat is not None and cents:
        # The house's charges apart from chips added, so a table playing the record again knows which is which.
        key = "house" if house else "chips"
        moved = dict(after.get(key, {}))
        moved[str(seat)] = moved.get(str(seat), 0) + cents
        after[key] = {name: value for name, value in moved.items() if value}
    last.record = {**last.record, "after": {key: value for key, value in after.items() if value}}
    if not last.record["after"]:
        del last.record["after"]
    if row is None:
        last.save(update_fields=["record"])


def announce_posting(game: HomeGame) -> None:
    """Tell the floor this table's figures moved (a hand settled, a house charge): inside the transaction, so the
    summary job its listener records (outbox) commits with the posting (tables.signals.ledger_posted)."""
    announce_ledger_posted(sender=HomeGame, table_id=game.table_id, posted_at=timezone.now(), round_id=None)


def _require_playing(game: HomeGame) -> None:
    if not game.is_open:
        raise WrongPhase(f"{game_ref(game)} is {game.status}", code="game_over")
    if not game.table.is_open:
        raise WrongPhase(f"table {game.table.name} is closed", code="table_closed")


def choose_button(game: HomeGame, dealt_in: list[int], button: int | None) -> int:
    """The button moves one seat to the left each hand (to the next seat dealt in); the dealer may name it."""
    if button is not None:
        if button not in dealt_in:
            raise DomainError(f"the button must be at a seat dealt in ({', '.join(map(str, dealt_in))})",
                              code="bad_button", field="button")
        return button
    start = game.next_button or 0
    later = [seat for seat in dealt_in if seat >= start]
    return later[0] if later else dealt_in[0]


def _time_charges(game: HomeGame, players: dict[int, HomeGamePlayer], actor: User, due: set[int] | None) -> None:
    """A time charge is taken per seat for each half hour begun, before the first hand of that half hour; `due`
    names the seats instead of the clock (play_game: the record says which seats paid before this hand)."""
    if game.charge != HouseCharge.TIME:
        return
    now = timezone.now()
    for player in players.values():
        if not player.active or player.stack_cents <= 0:
            continue
        if due is not None:
            if player.seat not in due:
                continue
        elif player.time_paid_until is not None and player.time_paid_until > now:
            continue
        cents = time_due(game.time_charge_cents, player.stack_cents)
        chips.to_house(game, player, cents, "time_charge")
        note_after(game, seat=player.seat, cents=cents, house=True)
        player.time_paid_until = now + HALF_HOUR
        announce_posting(game)
        audit_record(action=actions.HOME_HOUSE_CHARGE, obj=game, table=game.table, seat_number=player.seat,
                     after={"name": player.name, "charge": "time", "amount_cents": cents,
                            "paid_until": player.time_paid_until.isoformat()},
                     actor=actor)


@transaction.atomic
def hand_start(
    *, game: HomeGame | int, actor: User, button: int | None = None, deck: list[str] | None = None,
    reshuffles: list[list[str]] | None = None, time_due: set[int] | None = None,
) -> HandRow:
    """Start the next hand: time charges, the antes (a ledger posting), and on an `rng` table the deal.

    `deck` and `reshuffles` (not offered by the API) deal the hand from a known record instead of the system's
    shuffle: play_game's record standing in for the shoe, and tests' stacked decks; with `reshuffles` given (even
    none) they are all the stocks there are, so a stock running out past them is refused (bad_reshuffle) instead of
    the system shuffling the discards. `time_due` (likewise) names the
    seats whose time charge falls due before this hand, the record standing in for the clock.
    """
    game = chips.lock_game(game)
    require_operator(actor, game.table)
    _require_playing(game)
    # One hand at a time, so a hand in play is the last one.
    last = HandRow.objects.filter(game=game).order_by("-number").values_list("number", "status", "pk").first()
    if last is not None and last[1] == Status.IN_PLAY:
        raise WrongPhase(f"{numbered('hand', last[0], last[2])} is still in play", code="hand_in_play")
    players = chips.players_of(game)
    _time_charges(game, players, actor, time_due)
    dealt_in = sorted(seat for seat, p in players.items() if p.active and p.stack_cents > 0)
    if len(dealt_in) < 2:
        raise WrongPhase("fewer than two players have chips: a hand needs two or more", code="not_enough_players")
    button = choose_button(game, dealt_in, button)
    rules = game_rules(game)
    # A given deck deals the hand whatever the table's source (play_game: a record's dealt hand on a manual table).
    manual = game.card_source == CardSource.MANUAL and deck is None
    dealt_by_system = game.card_source == CardSource.RNG or deck is not None
    given = given_stocks([deck, *(reshuffles or [])]) if deck is not None else [[str(c) for c in shuffled_deck()]]
    stacks = {seat: players[seat].stack_cents for seat in dealt_in}
    legs = {seat: p.legs for seat, p in players.items()} if rules.plays_for_legs else {}
    with refusals():
        verify_full_deck(parse_cards(given[0]))
        hand = HomeHand(rules=rules, stacks=stacks, button=button, manual=manual,
                        deck=parse_cards(given[0]) if dealt_by_system else None,
                        dealt_so_far=0 if dealt_by_system else None,
                        carried_pot_cents=game.pot_cents, legs=legs)
    number = (last[0] if last is not None else 0) + 1
    row = HandRow.objects.create(
        game=game, number=number, button=button, manual=manual, phase=hand.phase.value,
        stacks_before={str(s): c for s, c in stacks.items()}, carried_before_cents=game.pot_cents,
        legs_before={str(s): n for s, n in legs.items()}, record=hand_record(hand).to_dict(), stock_plan=given[1:],
        stock_closed=deck is not None and reshuffles is not None, dealt_by_system=dealt_by_system,
        dealer=actor if not actor.is_superuser else None, started_at=timezone.now(),
    )
    game.next_button = button + 1
    # antes_cents: what the antes took (a short stack posts what it has): the audit trail's Amount for the start.
    audit_record(action=actions.HOME_HAND_START, obj=row, table=game.table, actor=actor,
                 after={"number": number, "button": button, "seats": dealt_in, "ante_cents": rules.ante_cents,
                        "antes_cents": sum(p.contributed for p in hand.players.values()),
                        "carried_pot_cents": game.pot_cents, "card_source": game.card_source})
    if dealt_by_system:
        with refusals():
            dealt = deal_from_stock(hand, row.stock_plan, closed=row.stock_closed)
        audit_record(action=actions.HOME_HAND_CARDS, obj=row, table=game.table, actor=actor,
                     after={"hand": row.number, "cards": [[seat, card] for seat, card in dealt],
                            "phase": hand.phase.value})
    # The antes and the deal stored in one write of the hand.
    _persist(game, row, hand, players, kind="ante", actor=actor)
    chips.save_game(game)
    verify_balanced(game)
    remember(row, hand, players)
    return row


def action_text(
    *, seat: int | None, action: str, amount_cents: int | None = None, cards: list[str] | None = None,
    count: int | None = None, keeps_ace: bool = False, card: str | None = None, manual: bool = False,
) -> str:
    """The DESIGN 9 action string for a structured request; DomainError names the missing or bad field. A draw
    names its discards (`cards`; [] stands pat) or, on a `manual` hand, how many (`count`; 0 stands pat): one
    given neither is refused, not read as standing pat (a client that misspelt `cards` had its player stand pat)."""
    verb = str(action).strip().lower()
    if verb not in VERBS:
        raise DomainError(f"action must be one of {', '.join(VERBS)}", code="bad_action", field="action")
    if verb == "dealt":
        return "dealt"
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
        raise DomainError("seat must be a seat number", code="bad_seat", field="seat")
    if verb in ("bet", "raise"):
        if isinstance(amount_cents, bool) or not isinstance(amount_cents, int) or amount_cents < 1:
            raise DomainError(f"a {verb} needs amount_cents (whole cents, at least 1)", code="bad_amount",
                              field="amount_cents")
        return f"{seat} {verb} {amount_cents}"
    if verb == "draw":
        if count is not None:
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 5:
                raise DomainError("count must be 0 to 5 cards", code="bad_count", field="count")
            return f"{seat} draw {count}" + (" ace" if keeps_ace else "")
        if cards is None:
            wanted = (f"count: how many cards seat {seat} exchanges (0 stands pat)" if manual
                      else f"cards: the cards seat {seat} discards ([] stands pat)")
            raise DomainError(f"a draw needs {wanted}", code="bad_draw", field="count" if manual else "cards")
        return " ".join([str(seat), "draw", *(_card(token) for token in cards)])
    if verb == "killed":
        return f"{seat} killed {_card(card or '')}"
    if verb == "show":
        return " ".join([str(seat), "show", *(_card(token) for token in cards or [])])
    return f"{seat} {verb}"


def _card(token: str) -> str:
    with refusals():
        return str(Card.parse(str(token)))


def stale_screen(row: HandRow, seen_version: int | None, since: str) -> None:
    """Refuse (409 `stale_screen`) a tap chosen on a screen drawn at `seen_version` when the hand, just locked, has
    changed since; None (an API caller that did not say) checks nothing."""
    if seen_version is not None and seen_version != row.version - 1:  # the lock bumped the version by one
        raise WrongPhase(f"{hand_ref(row)} has changed since {since}", code="stale_screen")


@transaction.atomic
def hand_act(*, hand: HandRow | int, actor: User, seen_version: int | None = None, **request: Any) -> HandRow:
    """One action on the hand in play (a bet, a draw, a kill card, a hand shown or mucked, the end of a manual deal,
    a player leaving); refused with nothing changed unless the rules allow it now.

    `seen_version`: the hand's version when the action was chosen (the tablet's screen). Given, the action is
    refused (409 `stale_screen`) if the hand has changed since, checked under the hand's lock: a tap from a screen
    another tablet has moved on (or a second tap) would otherwise act on a turn the dealer never saw, e.g. a fold
    chosen before the check now facing a bet."""
    game, row = chips.lock_hand(hand)
    require_operator(actor, game.table)
    stale_screen(row, seen_version, "the action was chosen: nothing was recorded")
    text = action_text(manual=row.manual, **request)
    return apply_text(game, row, text, actor)


@transaction.atomic
def hand_act_text(*, hand: HandRow | int, actor: User, text: str) -> HandRow:
    """One action given as its DESIGN 9 string ("3 raise 800", "2 draw 4c 9h"): play_game's way in."""
    game, row = chips.lock_hand(hand)
    require_operator(actor, game.table)
    return apply_text(game, row, str(text).strip(), actor)


def apply_text(game: HomeGame, row: HandRow, text: str, actor: User) -> HandRow:
    """Apply one DESIGN 9 action string to the locked hand and store everything it changed (callers hold the locks
    and the transaction): one audit event for the action, carrying the cards an `rng` table's system then dealt
    (a draw's replacements), and one write of the hand."""
    if row.status != Status.IN_PLAY:
        raise WrongPhase(f"{hand_ref(row)} is {row.status}", code="hand_over")
    rules = game_rules(game)
    hand = rebuild_for_write(row, rules)
    players = chips.players_of(game)
    seat: int | None = None
    verb = "dealt"
    if text != "dealt":
        with refusals():
            seat, verb, _ = parse_action(text, manual=row.manual)
        if seat not in hand.players:
            raise DomainError(f"seat {seat} is not dealt into this hand", code="not_in_hand", field="seat")
    put_in_before = hand.players[seat].contributed if seat is not None else 0
    with refusals():
        apply_action(hand, text)
    after: dict[str, Any] = {"hand": row.number, "action": text}
    # Every action names the chips it put in (0 for a check, fold, draw or card): the audit trail's Amount is what
    # the action moved, never the pot it left behind.
    after["amount_cents"] = hand.players[seat].contributed - put_in_before if seat is not None else 0
    if row.dealt_by_system and not hand.settled:
        with refusals():
            dealt = deal_from_stock(hand, row.stock_plan, closed=row.stock_closed)
        if dealt:
            after["cards"] = [[dealt_to, card] for dealt_to, card in dealt]
    after.update(phase=hand.phase.value, pot_cents=hand.pot_cents)
    audit_record(action=actions.HOME_HAND_ACTION, obj=row, table=game.table, seat_number=seat, actor=actor,
                 after=after)
    _persist(game, row, hand, players, kind="leave" if verb == "leave" else "bet", actor=actor)
    if verb == "leave" and seat is not None:
        player = players[seat]
        cents = chips.cash_out(game, player, hand=row)
        player.legs = 0
        chips.save_players([player])
        audit_record(action=actions.HOME_PLAYER_LEAVE, obj=player, table=game.table, seat_number=seat, actor=actor,
                     after={"name": player.name, "cashed_out_cents": cents, "during_hand": row.number})
    chips.save_game(game)
    verify_balanced(game)
    remember(row, hand, players)
    return row


def _persist(game: HomeGame, row: HandRow, hand: HomeHand, players: dict[int, HomeGamePlayer], *, kind: str,
             actor: User | None) -> None:
    """Store the hand's record and phase, post the chips it moved, and settle it if it just ended."""
    settlement = hand.settlement
    payouts = settlement.payouts if settlement is not None else {}
    moved: dict[int, int] = {}
    for seat, stack in hand.stacks.items():
        player = players[seat]
        if player.active and stack != player.stack_cents:
            moved[seat] = stack - player.stack_cents
            player.stack_cents = stack
    bets = {seat: cents - payouts.get(seat, 0) for seat, cents in moved.items()}
    post(game, kind, [*((HomeAccount.STACK, s, c) for s, c in bets.items()),
                      (HomeAccount.POT, None, -sum(bets.values()))], hand=row)
    won = {seat: cents for seat, cents in payouts.items() if cents}
    post(game, "award", [*((HomeAccount.STACK, s, c) for s, c in won.items()),
                         (HomeAccount.POT, None, -sum(won.values()))], hand=row)
    middle = settlement.carried_pot_cents if settlement is not None else hand.pot_cents
    if game.pot_cents - sum(moved.values()) != middle:
        raise RuntimeError(f"{row}: the chips moved ({moved}) do not match the pot ({game.pot_cents} -> {middle})")
    game.pot_cents = middle
    row.record = hand_record(hand).to_dict()
    row.phase = hand.phase.value
    fields = ["record", "phase"]
    if settlement is not None:
        _settle(game, row, hand, players, actor)
        announce_posting(game)
        fields += ["status", "result", "settled_at"]
    sql.update_rows([row], fields)
    chips.save_players(players)


def _settle(game: HomeGame, row: HandRow, hand: HomeHand, players: dict[int, HomeGamePlayer],
            actor: User | None) -> None:
    settlement = hand.settlement
    assert settlement is not None  # called once the hand has settled
    rules = game_rules(game)
    row.status = Status.SETTLED
    row.result = hand_summary(hand)
    row.settled_at = timezone.now()
    if rules.plays_for_legs:
        for seat, legs in settlement.legs.items():
            if seat in players:
                players[seat].legs = legs if players[seat].active else 0
    _track_carried(row, hand, players, settlement.carried_pot_cents)
    names = {seat: p.name for seat, p in players.items()}
    words = hand.result(names)
    audit_record(action=actions.HOME_HAND_SETTLE, obj=row, table=game.table, actor=actor,
                 after={"hand": row.number, "summary": row.result,
                        "result": words.to_dict() if words is not None else None})
    _rake(game, row, hand, players, rules, actor)
    if settlement.game_winners:
        game.winners = list(settlement.game_winners)
        game.status = HomeGame.Status.FINISHED
        game.ended_at = timezone.now()
        game.end_reason = "seat " + " and ".join(map(str, settlement.game_winners)) + " reached the legs called"
        cashed = {seat: chips.cash_out(game, p, hand=row) for seat, p in players.items() if p.active}
        audit_record(action=actions.HOME_GAME_FINISH, obj=game, table=game.table, actor=actor,
                     after={"winners": game.winners, "cashed_out": {str(s): c for s, c in cashed.items()}})


def _track_carried(row: HandRow, hand: HomeHand, players: dict[int, HomeGamePlayer], carried: int) -> None:
    """Each player's own chips in a pot carried to the next hand (returned to them if the game is closed unwon)."""
    if carried == 0:  # the pot was won: nobody owns a share of it any more, a player who left it neither
        for player in chips.everyone(players):
            player.carried_contribution_cents = 0
        return
    contributed = {seat: p.contributed for seat, p in hand.players.items()}
    for seat, cents in carried_shares(contributed, carried - row.carried_before_cents).items():
        players[seat].carried_contribution_cents += cents


def _rake(game: HomeGame, row: HandRow, hand: HomeHand, players: dict[int, HomeGamePlayer], rules: Rules,
          actor: User | None) -> None:
    """The rake: a percent of each pot as it is awarded, capped per pot; none on a pot never bet into (antes only).
    The engine counts it (casino.engine.home.house), as the replay of the record checks it."""
    if game.charge != HouseCharge.RAKE or hand.settlement is None:
        return
    stacks = {seat: player.stack_cents for seat, player in players.items()}
    for pot, rake, paid in rake_by_pot(hand, game.rake_basis_points, game.rake_cap_cents, stacks):
        for seat, cents in paid.items():
            chips.to_house(game, players[seat], cents, "rake", hand=row)
            note_after(game, row=row, seat=seat, cents=cents, house=True)
        audit_record(action=actions.HOME_HOUSE_CHARGE, obj=row, table=game.table, actor=actor,
                     after={"charge": "rake", "pot_cents": pot.amount_cents, "amount_cents": rake,
                            "winners": list(pot.winners)})
