"""Home games: open one (the rules announced before the first card), seat and buy in players, add chips, let a
player leave (cashed out), and close it (the floor), returning or awarding a carried pot."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from audit.services import audit_record
from casino.engine.home.carried import returned_shares
from casino.engine.home.game import close_text, earlier_list
from casino.engine.money import money
from casino.engine.variants import HOME_VARIANTS
from casino.errors import DomainError, WrongPhase
from tables import actions
from tables.access import require_floor, require_operator
from tables.models import FloorCall, HomeGame, HomeGamePlayer, HomeTableConfig, Table, seat_limit
from tables.services import home_chips as chips
from tables.services.floor_calls import floor_call_open
from tables.services.guards import game_ref, hand_ref
from tables.services.home_config import announcement
from tables.services.home_engine import game_rules
from tables.services.home_hands import announce_posting, apply_text, hand_in_play, note_after
from tables.services.home_ledger import verify_balanced
from tables.services.locks import lock_table


def _cents(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise DomainError(f"{field} must be whole cents, at least 1", code="bad_amount", field=field)
    return value


@transaction.atomic
def game_open(*, table: Table, actor: User, players: list[dict[str, Any]] | None = None) -> HomeGame:
    """Open a game on a home-game table with the table's house rules, announced (audited) before any card."""
    require_operator(actor, table)
    table = lock_table(table)
    if table.table_type not in HOME_VARIANTS:
        raise DomainError(f"table {table.name} is not a home-game table", code="wrong_table_type")
    if not table.is_open:
        raise WrongPhase(f"table {table.name} is closed", code="table_closed")
    config = HomeTableConfig.objects.filter(table=table).first()
    if config is None:
        raise WrongPhase(f"table {table.name} has no house rules yet: the floor sets them first", code="no_house_rules")
    open_game = HomeGame.objects.filter(table=table, status=HomeGame.Status.OPEN).first()
    if open_game is not None:
        raise WrongPhase(f"{game_ref(open_game)} is still open on {table.name}", code="game_open")
    number = (HomeGame.objects.filter(table=table).aggregate(last=Max("number"))["last"] or 0) + 1
    game = HomeGame.objects.create(
        table=table, number=number, variant=table.table_type, card_source=table.card_source, rules=config.rules,
        buy_in_min_cents=config.buy_in_min_cents, buy_in_max_cents=config.buy_in_max_cents, charge=config.charge,
        rake_basis_points=config.rake_basis_points, rake_cap_cents=config.rake_cap_cents,
        time_charge_cents=config.time_charge_cents, opened_by=actor, opened_at=timezone.now(),
    )
    rules = game_rules(game)
    audit_record(action=actions.HOME_GAME_OPEN, obj=game, table=table, actor=actor,
                 after={"number": number, "variant": game.variant, "card_source": game.card_source,
                        "rules": game.rules, "announcement": announcement(rules, game),
                        "buy_in_min_cents": game.buy_in_min_cents, "buy_in_max_cents": game.buy_in_max_cents,
                        "charge": game.charge, "rake_basis_points": game.rake_basis_points,
                        "rake_cap_cents": game.rake_cap_cents, "time_charge_cents": game.time_charge_cents})
    for index, entry in enumerate(players or []):
        if not isinstance(entry, dict):
            raise DomainError(f"players[{index}] must be an object", code="bad_player", field=f"players.{index}")
        try:
            _join(game, actor, seat=entry.get("seat"), name=entry.get("name", ""),
                  player_card=entry.get("player_card", ""), buy_in_cents=entry.get("buy_in_cents"))
        except DomainError as exc:
            exc.field = f"players.{index}.{exc.field}" if exc.field else f"players.{index}"
            raise
    chips.save_game(game)
    verify_balanced(game)
    return game


def _join(game: HomeGame, actor: User, *, seat: Any, name: Any, player_card: Any, buy_in_cents: Any) -> HomeGamePlayer:
    limit = min(seat_limit(game.table.table_type), game_rules(game).seat_limit)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= limit:
        raise DomainError(f"seat must be a number from 1 to {limit}", code="bad_seat", field="seat")
    name, player_card = str(name or "").strip()[:100], str(player_card or "").strip()[:40]
    cents = _cents(buy_in_cents, "buy_in_cents")
    if not game.buy_in_min_cents <= cents <= game.buy_in_max_cents:
        raise DomainError(f"the buy-in must be {money(game.buy_in_min_cents)} to {money(game.buy_in_max_cents)}",
                          code="buy_in_outside_range", field="buy_in_cents")
    # A seat whose player left is free again: the newcomer starts afresh there (their buy-in, no legs, no share of
    # a carried pot); the one who left keeps their own row, figures and chips in a carried pot.
    taken = HomeGamePlayer.objects.filter(game=game, seat=seat, left_at__isnull=True).first()
    if taken is not None:
        raise DomainError(f"seat {seat} is taken", code="seat_taken", field="seat")
    active = HomeGamePlayer.objects.filter(game=game, left_at__isnull=True).count()
    if active >= game_rules(game).seat_limit:
        raise DomainError(f"{game.variant} seats at most {game_rules(game).seat_limit}", code="table_full",
                          field="seat")
    player = HomeGamePlayer.objects.create(game=game, seat=seat, name=name or f"Seat {seat}",
                                           player_card=player_card, joined_at=timezone.now())
    chips.buy_in(game, player, cents, "buy_in")
    player.save(update_fields=["stack_cents", "bought_in_cents"])
    audit_record(action=actions.HOME_PLAYER_JOIN, obj=player, table=game.table, seat_number=seat, actor=actor,
                 after={"name": player.name, "player_card": player_card, "buy_in_cents": cents, "game": game.number})
    return player


def _between_hands(game: HomeGame, what: str) -> None:
    if not game.is_open:
        raise WrongPhase(f"{game_ref(game)} is {game.status}", code="game_over")
    in_play = hand_in_play(game)
    if in_play is not None:
        raise WrongPhase(f"{what} between hands: {hand_ref(in_play)} is in play", code="hand_in_play")


@transaction.atomic
def player_join(*, game: HomeGame | int, actor: User, seat: Any, buy_in_cents: Any, name: str = "",
                player_card: str = "") -> HomeGamePlayer:
    """Seat a player between hands with a buy-in within the table's range."""
    game = chips.lock_game(game)
    require_operator(actor, game.table)
    _between_hands(game, "players join")
    player = _join(game, actor, seat=seat, name=name, player_card=player_card, buy_in_cents=buy_in_cents)
    note_after(game, join=player)
    chips.save_game(game)
    verify_balanced(game)
    return player


def _player(game: HomeGame, seat: Any) -> HomeGamePlayer:
    player = HomeGamePlayer.objects.filter(game=game, seat=seat, left_at__isnull=True).first() if isinstance(
        seat, int) and not isinstance(seat, bool) else None
    if player is None:
        raise DomainError(f"nobody is seated at seat {str(seat)[:10]} in this game", code="no_player", field="seat")
    return player


@transaction.atomic
def player_add_chips(*, game: HomeGame | int, actor: User, seat: Any, amount_cents: Any) -> HomeGamePlayer:
    """A player adds chips between hands; the stack stays within the buy-in range's maximum."""
    game = chips.lock_game(game)
    require_operator(actor, game.table)
    _between_hands(game, "chips are added")
    player = _player(game, seat)
    cents = _cents(amount_cents, "amount_cents")
    if player.stack_cents + cents > game.buy_in_max_cents:
        # Say what can be added, not only what cannot: the dealer has chips to count out, not a sum to do.
        room = max(game.buy_in_max_cents - player.stack_cents, 0)
        can = f"at most {money(room)} can be added now" if room else "no chips can be added now"
        raise DomainError(f"adding {money(cents)} would take the stack of {money(player.stack_cents)} past the maximum "
                          f"buy-in of {money(game.buy_in_max_cents)}: {can}",
                          code="buy_in_outside_range", field="amount_cents")
    before = player.stack_cents
    chips.buy_in(game, player, cents, "add_chips")
    note_after(game, seat=player.seat, cents=cents)
    player.save(update_fields=["stack_cents", "bought_in_cents"])
    chips.save_game(game)
    audit_record(action=actions.HOME_PLAYER_ADD_CHIPS, obj=player, table=game.table, seat_number=player.seat,
                 actor=actor, before={"stack_cents": before}, after={"name": player.name,
                                                                     "stack_cents": player.stack_cents,
                                                                     "added_cents": cents})
    verify_balanced(game)
    return player


@transaction.atomic
def player_leave(*, game: HomeGame | int, actor: User, seat: Any) -> HomeGamePlayer:
    """The player leaves (their stack is cashed out; a Three Legged Race player forfeits their legs). During a hand
    they are out of it at once and their chips in the pot stay there."""
    game = chips.lock_game(game)
    require_operator(actor, game.table)
    player = _player(game, seat)
    in_play = hand_in_play(game)
    if in_play is not None:
        if str(player.seat) not in in_play.stacks_before:
            # The record names a leave with a hand the player is in, or after the hand (DESIGN 9).
            raise WrongPhase(f"seat {player.seat} sits out {hand_ref(in_play)}: they leave when it ends",
                             code="hand_in_play")
        hand = type(in_play).objects.select_for_update().get(pk=in_play.pk)
        hand.game = game
        apply_text(game, hand, f"{player.seat} leave", actor)
        return HomeGamePlayer.objects.get(pk=player.pk)
    cents = chips.cash_out(game, player)
    player.legs = 0
    chips.save_players([player])
    _record_leave_between_hands(game, player.seat)
    chips.save_game(game)
    audit_record(action=actions.HOME_PLAYER_LEAVE, obj=player, table=game.table, seat_number=player.seat,
                 actor=actor, after={"name": player.name, "cashed_out_cents": cents})
    verify_balanced(game)
    return player


def _record_leave_between_hands(game: HomeGame, seat: int) -> None:
    """DESIGN 9 records a leave with the hand just played (as the engine's game does), so the record replays it."""
    last = game.hands.exclude(status="voided").order_by("-number").first()
    if last is not None:
        last.record = {**last.record, "actions": [*last.record["actions"], f"{seat} leave"]}
        last.save(update_fields=["record"])


@transaction.atomic
def game_close(*, game: HomeGame | int, actor: User, reason: str, award_seat: int | None = None) -> HomeGame:
    """The floor closes a game between hands, with a reason: a carried pot goes back to each player's own
    contributions (or, by ruling, to one seat), then every player is cashed out."""
    game = chips.lock_game(game)
    require_floor(actor, "close a game")
    if not game.is_open:
        raise WrongPhase(f"{game_ref(game)} is already {game.status}", code="game_over")
    in_play = hand_in_play(game)
    if in_play is not None:
        raise WrongPhase(f"{hand_ref(in_play)} is in play: finish or void it first", code="hand_in_play")
    # Every close carries the floor's reason, as the tablet, play_game and the engine's replay of a record require:
    # it is the record's `close` line and what compliance reads for why the game ended.
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("awarding the carried pot by ruling needs a reason" if award_seat is not None
                          else "closing a game needs a reason", code="reason_required", field="reason")
    players = chips.players_of(game)  # each seat's present (or last) player; `players.earlier`: who left a seat taken
    carried = game.pot_cents
    earlier: list[tuple[int, int, int]] = []
    if award_seat is not None:
        if award_seat not in players:
            raise DomainError(f"nobody played seat {award_seat} in this game", code="no_player", field="award_seat")
        if carried:
            chips.pot_to(game, players[award_seat], carried, "carried_award")
        returned = {award_seat: carried}
    else:
        returned, earlier = _return_carried(game, players)
    paid_earlier = earlier_list(earlier)
    if carried:
        audit_record(action=actions.HOME_CARRIED_RETURN if award_seat is None else actions.HOME_POT_RULING, obj=game,
                     table=game.table, actor=actor, reason=reason, approver=actor if award_seat is not None else None,
                     after={"carried_pot_cents": carried, "to": {str(s): c for s, c in returned.items()},
                            **({"to_earlier": paid_earlier} if paid_earlier else {})})
    cashed = {seat: chips.cash_out(game, p) for seat, p in players.items() if p.active}
    for player in players.everyone:
        player.carried_contribution_cents = 0
    chips.save_players(players)
    game.status = HomeGame.Status.CLOSED
    game.ended_at = timezone.now()
    game.end_reason = reason
    chips.save_game(game)
    # The game record's `close` line (DESIGN 9 extended), so the export replays where the carried pot went.
    paid = {str(s): c for s, c in sorted(returned.items()) if c > 0}
    audit_record(action=actions.HOME_GAME_CLOSE, obj=game, table=game.table, actor=actor, reason=reason,
                 after={"status": game.status, "cashed_out": {str(s): c for s, c in cashed.items()},
                        "line": close_text(award_seat, game.end_reason), "award_seat": award_seat,
                        "carried_pot_cents": carried, "paid": paid,
                        **({"paid_earlier": paid_earlier} if paid_earlier else {})})
    announce_posting(game)  # the floor counts games ended
    verify_balanced(game)
    return game


def _return_carried(game: HomeGame, players: chips.Seated) -> tuple[dict[int, int], list[tuple[int, int, int]]]:
    """Each player's own contributions to the carried pot back to them, a player who left a seat someone else then
    took included (at the cashier: they have left); chips nobody is known to own (rounding) go to the largest
    contributor. Returns what each seat's present (or last) player got, and (seat, occupant, cents) for the earlier
    players of a seat, as the engine's close counts them (GameClose.paid, paid_earlier)."""
    everyone = players.everyone
    numbers = chips.occupant_numbers(everyone)
    owed = returned_shares({numbers[p.pk]: p.carried_contribution_cents for p in everyone}, game.pot_cents)
    if game.pot_cents and not owed:
        raise DomainError("nobody is known to own the carried pot: award it by ruling (award_seat and a reason)",
                          code="carried_pot_unowned", field="award_seat")
    by_number = {numbers[p.pk]: p for p in everyone}
    returned: dict[int, int] = {}
    earlier: list[tuple[int, int, int]] = []
    for (seat, occupant), cents in owed.items():
        player = by_number[seat, occupant]
        chips.pot_to(game, player, cents, "carried_return")
        if player is players[seat]:
            returned[seat] = cents
        else:
            earlier.append((seat, occupant, cents))
    return returned, earlier


@transaction.atomic
def game_floor_call(*, game: HomeGame | int, actor: User, reason: str = "") -> FloorCall:
    """A dealer calls a floor supervisor to a home-game table (a dispute, a misdeal, a ruling to make): an open call
    the floor's live view and the tablet show until a floor supervisor answers it (services/floor_calls.py). Returns
    the call made, its table and caller loaded (what an answer about it shows)."""
    game = chips.lock_game(game)
    require_operator(actor, game.table)
    if not game.is_open:
        raise WrongPhase(f"{game_ref(game)} is already {game.status}", code="game_over")
    in_play = hand_in_play(game)
    reason = str(reason or "").strip()[:200]
    during = in_play.number if in_play else None
    call = floor_call_open(table=game.table, actor=actor, reason=reason, game=game, hand_number=during)
    audit_record(action=actions.HOME_FLOOR_CALL, obj=game, table=game.table, actor=actor, reason=reason,
                 after={"hand": during, "call": call.pk})
    return call
