"""Home-game chip movements between the cashier, stacks, the pot and the house (each a ledger posting), and the
row locks the home-game services take before they write."""

from __future__ import annotations

from django.db.models import F
from django.utils import timezone

from casino.errors import NotFound
from tables.models import HomeAccount, HomeGame, HomeGamePlayer, HomeHand
from tables.services.home_ledger import post


def _bump(obj: HomeGame | HomeHand) -> None:
    type(obj).objects.filter(pk=obj.pk).update(version=F("version") + 1)
    obj.version += 1


def lock_game(game: HomeGame | int) -> HomeGame:
    """The game row locked FOR UPDATE (every home-game write takes it first, so writes to one game queue)."""
    pk = game if isinstance(game, int) else game.pk
    found = HomeGame.objects.select_for_update(of=("self",)).select_related("table").filter(pk=pk).first()
    if found is None:
        raise NotFound(f"game {pk} does not exist", code="game_not_found")
    _bump(found)
    return found


def lock_hand(hand: HomeHand | int) -> tuple[HomeGame, HomeHand]:
    """The hand's game, then the hand, locked (always in that order): concurrent taps on a hand act one at a time."""
    pk = hand if isinstance(hand, int) else hand.pk
    game_id = HomeHand.objects.filter(pk=pk).values_list("game_id", flat=True).first()
    if game_id is None:
        raise NotFound(f"hand {pk} does not exist", code="hand_not_found")
    game = lock_game(game_id)
    row = HomeHand.objects.select_for_update().get(pk=pk)
    row.game = game  # the game just locked (with its table): audit reprs and views read it without a query
    _bump(row)
    return game, row


_SAVED = ("stack_cents", "bought_in_cents", "cashed_out_cents", "legs", "carried_contribution_cents",
          "time_paid_until", "left_at")


def players_of(game: HomeGame) -> dict[int, HomeGamePlayer]:
    """The game's players by seat, each remembering what was read so `save_players` writes only what changed."""
    players = {player.seat: player for player in HomeGamePlayer.objects.filter(game=game)}
    for player in players.values():
        player._read = {name: getattr(player, name) for name in _SAVED}  # type: ignore[attr-defined]
    return players


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
    rows = list(players.values()) if isinstance(players, dict) else players
    for player in rows:
        read = getattr(player, "_read", None)
        changed = {name: getattr(player, name) for name in _SAVED
                   if read is None or read[name] != getattr(player, name)}
        if changed:
            HomeGamePlayer.objects.filter(pk=player.pk).update(**changed)
            player._read = {name: getattr(player, name) for name in _SAVED}  # type: ignore[attr-defined]


def save_game(game: HomeGame) -> None:
    game.save(update_fields=["pot_cents", "house_cents", "buy_ins_cents", "cash_outs_cents", "next_button",
                             "winners", "status", "ended_at", "end_reason"])
