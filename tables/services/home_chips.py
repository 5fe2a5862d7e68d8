"""Home-game chip movements between the cashier, stacks, the pot and the house (each a ledger posting), and the
row locks the home-game services take before they write."""

from __future__ import annotations

from django.utils import timezone

from casino import sql
from casino.errors import NotFound
from tables.models import HomeAccount, HomeGame, HomeGamePlayer, HomeHand
from tables.services.home_ledger import post


def _bump(model: type[HomeGame] | type[HomeHand], where: str) -> tuple[str, str]:
    """The version bump and the key condition of a lock: an UPDATE takes the row lock as SELECT ... FOR UPDATE does
    (a concurrent writer waits, then reads the committed row), and RETURNING reads the row back."""
    version = sql.column(model, "version")
    return f"{version} = {version} + 1", f"{sql.column(model, 'pk')} = {where}"


def _locked_game(where: str, pk: int) -> HomeGame | None:
    """The game locked and bumped, its table read in the same statement (the table is not changed under this lock)."""
    return sql.update_returning_joined(HomeGame, *_bump(HomeGame, where), [pk], "table")


def game_missing(pk: object) -> NotFound:
    """The refusal for a game id that names no game: every way in answers it alike, naming the id."""
    return NotFound(f"game {pk} does not exist", code="game_not_found")


def hand_missing(pk: object) -> NotFound:
    return NotFound(f"hand {pk} does not exist", code="hand_not_found")


def lock_game(game: HomeGame | int) -> HomeGame:
    """The game row locked (every home-game write takes it first, so writes to one game queue), its version bumped
    and its table read with it."""
    pk = game if isinstance(game, int) else game.pk
    found = None if sql.beyond_keys(pk) else _locked_game("%s", pk)
    if found is None:
        raise game_missing(pk)
    _remember_read(found)
    return found


def lock_hand(hand: HomeHand | int) -> tuple[HomeGame, HomeHand]:
    """The hand's game, then the hand, locked (always in that order): concurrent taps on a hand act one at a time."""
    pk = hand if isinstance(hand, int) else hand.pk
    # Names from the model, the id a parameter: nothing from the request is spliced into the SQL.
    hand_id = sql.column(HomeHand, "pk")
    game_of_hand = f"(SELECT {sql.column(HomeHand, 'game')} FROM {sql.table(HomeHand)} WHERE {hand_id} = %s)"  # noqa: S608
    game = None if sql.beyond_keys(pk) else _locked_game(game_of_hand, pk)
    if game is None:
        raise hand_missing(pk)
    _remember_read(game)
    row = sql.update_returning(HomeHand, *_bump(HomeHand, "%s"), [pk])
    assert row is not None  # its game exists, so it does: a hand is never deleted
    row.game = game  # the game just locked (with its table): audit reprs and views read it without a query
    return game, row


def _remember_read(game: HomeGame) -> None:
    # `winners` is a list: a copy, so a change made in place still shows as a change.
    game._read = {name: list(value) if isinstance(value := getattr(game, name), list) else value  # type: ignore[attr-defined]
                  for name in _GAME_SAVED}


_SAVED = ("stack_cents", "bought_in_cents", "cashed_out_cents", "legs", "carried_contribution_cents",
          "time_paid_until", "left_at")


def everyone_of(game: HomeGame) -> list[HomeGamePlayer]:
    """Every player of the game, by seat and, at a seat taken again after its player left, in the order they sat
    down; each remembering what was read so `save_players` writes only what changed."""
    where = f"{sql.column(HomeGamePlayer, 'game')} = %s"
    order = f"{sql.column(HomeGamePlayer, 'seat')}, {sql.column(HomeGamePlayer, 'pk')}"
    players = sql.select_rows(HomeGamePlayer, where, [game.pk], order)
    for player in players:
        player._read = {name: getattr(player, name) for name in _SAVED}  # type: ignore[attr-defined]
    return players


class Seated(dict[int, HomeGamePlayer]):
    """Each seat's present player (or, at a seat nobody took after its player left, that player): the last to sit
    down there. Everything live (hands, stacks, legs, the button) is theirs. `earlier`: the players who left a seat
    someone else then took; what they still own (their chips in a carried pot) stays theirs."""

    earlier: list[HomeGamePlayer]

    @property
    def everyone(self) -> list[HomeGamePlayer]:
        return [*self.earlier, *self.values()]


def occupants(players: list[HomeGamePlayer]) -> Seated:
    """The players by seat (`Seated`): the last to sit down at each seat, and the earlier ones apart."""
    seated = Seated()
    seated.earlier = []
    for player in sorted(players, key=lambda player: (player.seat, player.pk)):
        if player.seat in seated:
            seated.earlier.append(seated[player.seat])
        seated[player.seat] = player
    return seated


def occupant_numbers(players: list[HomeGamePlayer]) -> dict[int, tuple[int, int]]:
    """Each player's (seat, occupant): occupant counts the players who sat at the seat in turn (1 = the first), as
    the engine names the owners of a carried pot (casino.engine.home.game.Former)."""
    numbers: dict[int, tuple[int, int]] = {}
    count: dict[int, int] = {}
    for player in sorted(players, key=lambda player: (player.seat, player.pk)):
        count[player.seat] = count.get(player.seat, 0) + 1
        numbers[player.pk] = (player.seat, count[player.seat])
    return numbers


def everyone(players: dict[int, HomeGamePlayer]) -> list[HomeGamePlayer]:
    """The players of `players` and, when they come from `players_of`, the earlier players of its seats too."""
    return players.everyone if isinstance(players, Seated) else list(players.values())


def players_of(game: HomeGame) -> Seated:
    """The game's players by seat: each seat's present (or last) player (`occupants`)."""
    return occupants(everyone_of(game))


def buy_in(game: HomeGame, player: HomeGamePlayer, cents: int, kind: str) -> None:
    """Chips bought from the cashier onto the player's stack."""
    post(game, kind, [(HomeAccount.CASHIER, None, -cents), (HomeAccount.STACK, player.seat, cents)])
    player.stack_cents += cents
    player.bought_in_cents += cents
    game.buy_ins_cents += cents


def cash_out(game: HomeGame, player: HomeGamePlayer, *, hand: HomeHand | None = None) -> int:
    """The player's stack back to the cashier; they leave the game. Returns the cents cashed out."""
    cents = player.stack_cents
    post(game, "cash_out", [(HomeAccount.STACK, player.seat, -cents), (HomeAccount.CASHIER, None, cents)], hand=hand)
    player.stack_cents = 0
    player.cashed_out_cents += cents
    player.left_at = player.left_at or timezone.now()
    game.cash_outs_cents += cents
    return cents


def to_house(game: HomeGame, player: HomeGamePlayer, cents: int, kind: str, *, hand: HomeHand | None = None) -> None:
    """A house charge (rake or time) from the player's stack."""
    post(game, kind, [(HomeAccount.STACK, player.seat, -cents), (HomeAccount.HOUSE, None, cents)], hand=hand)
    player.stack_cents -= cents
    game.house_cents += cents


def house_to(game: HomeGame, player: HomeGamePlayer, cents: int, kind: str, *, hand: HomeHand | None = None) -> None:
    """A house charge given back onto the player's stack (a time charge returned with a voided hand)."""
    post(game, kind, [(HomeAccount.HOUSE, None, -cents), (HomeAccount.STACK, player.seat, cents)], hand=hand)
    player.stack_cents += cents
    game.house_cents -= cents


def pot_to(game: HomeGame, player: HomeGamePlayer, cents: int, kind: str, *, hand: HomeHand | None = None) -> None:
    """Chips from the middle to the player: onto their stack, or straight to the cashier if they have left."""
    if player.active:
        post(game, kind, [(HomeAccount.POT, None, -cents), (HomeAccount.STACK, player.seat, cents)], hand=hand)
        player.stack_cents += cents
    else:
        post(game, kind, [(HomeAccount.POT, None, -cents), (HomeAccount.CASHIER, None, cents)], hand=hand)
        player.cashed_out_cents += cents
        game.cash_outs_cents += cents
    game.pot_cents -= cents


def save_players(players: dict[int, HomeGamePlayer] | list[HomeGamePlayer]) -> None:
    """Write each player's changed fields (usually one or two players change per action: one small UPDATE each)."""
    rows = everyone(players) if isinstance(players, dict) else players
    for player in rows:
        read = getattr(player, "_read", None)
        changed = {name: getattr(player, name) for name in _SAVED
                   if read is None or read[name] != getattr(player, name)}
        if changed:
            sql.update_rows([player], list(changed))
            player._read = {name: getattr(player, name) for name in _SAVED}  # type: ignore[attr-defined]


_GAME_SAVED = ("pot_cents", "house_cents", "buy_ins_cents", "cash_outs_cents", "next_button", "winners", "status",
               "ended_at", "end_reason")


def save_game(game: HomeGame) -> None:
    """Write the game's changed fields (a check changes none: its version was bumped by the lock)."""
    read = getattr(game, "_read", None)
    fields = [name for name in _GAME_SAVED if read is None or read[name] != getattr(game, name)]
    if fields:
        game.save(update_fields=fields)
        _remember_read(game)
