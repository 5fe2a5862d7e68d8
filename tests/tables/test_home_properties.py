"""Random legal home games through the services conserve chips, and their exports replay to what was stored."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.engine.cards import ALL_CARDS
from casino.engine.home.record import GameRecord
from casino.engine.home.replay import replay
from tables.models import HomeGame, HomeGamePlayer, HomeHand, Table
from tables.selectors.home import hand_view
from tables.selectors.home_records import game_record, game_replay
from tables.services.home_games import game_open, player_add_chips, player_join, player_leave
from tables.services.home_hands import hand_act, hand_start
from tables.services.home_rulings import hand_award

RULES = {
    "five-card-draw": {"betting": "no_limit", "min_bet_cents": 100, "max_discard": 3},
    "pregnant-threes": {"draws": 2, "cards_per_draw": 3, "draw": "optional", "kill_cards": ["Kd"]},
    "three-legged-race": {"legs_to_win": 2, "betting": "pot_limit", "min_bet_cents": 100},
    "freak-of-nature": {},
}


def conserved(game: HomeGame) -> None:
    game.refresh_from_db()
    stacks = HomeGamePlayer.objects.filter(game=game).aggregate(t=Sum("stack_cents"))["t"] or 0
    assert stacks + game.pot_cents + game.house_cents == game.buy_ins_cents - game.cash_outs_cents


def act_randomly(row: HomeHand, view: dict[str, Any], dealer: User, data: st.DataObject) -> HomeHand:
    """One random legal action of the player to act, as `view` (the hand's view) offers it: a bet, a draw, ..."""
    seat = view["awaiting"]["seat"]
    if view["legal"] is not None:
        legal = view["legal"]
        kind = data.draw(st.sampled_from(legal["actions"]), label="action")
        request: dict[str, Any] = {"seat": seat, "action": kind}
        if kind in ("bet", "raise"):
            bounds = legal[kind]
            request["amount_cents"] = data.draw(st.integers(bounds["minimum_cents"], bounds["maximum_cents"]))
    else:
        choice = view["draw"]
        held = next(p["cards"] for p in view["players"] if p["seat"] == seat)
        count = data.draw(st.integers(choice["minimum"], choice["maximum"]), label="discards")
        request = {"seat": seat, "action": "draw", "cards": held[:count]}
    return hand_act(hand=row.pk, actor=dealer, **request)


def play_one(row: HomeHand, dealer: User, data: st.DataObject, floor: User | None = None) -> None:
    """Random legal actions to the end of the hand; with `floor`, now and then the floor awards the pot by ruling."""
    for _ in range(300):
        view = hand_view(row)
        if view["status"] != "in_play":
            return
        if floor is not None and data.draw(st.integers(0, 24), label="ruling now") == 0:
            seated = [p["seat"] for p in view["players"] if not p["left"]]
            seats = data.draw(st.lists(st.sampled_from(seated), min_size=1, unique=True), label="awarded to")
            hand_award(hand=row.pk, actor=floor, seats=seats, reason="a ruling drawn by the test")
            return
        row = act_randomly(row, view, dealer, data)
    raise AssertionError("the hand did not end")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_random_legal_games_conserve_chips_and_their_exports_replay_identically(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, data: st.DataObject
) -> None:
    variant = data.draw(st.sampled_from(sorted(RULES)), label="variant")
    charge = data.draw(st.sampled_from([{}, {"charge": "rake", "rake_basis_points": 500, "rake_cap_cents": 200},
                                        {"charge": "time", "time_charge_cents": 100}]))
    table = home_table(variant, rules={"ante_cents": 50, **RULES[variant]}, **charge)
    count = data.draw(st.integers(2, 4), label="players")
    game = game_open(table=table, actor=dealer_user, players=[
        {"seat": seat, "name": f"P{seat}", "buy_in_cents": data.draw(st.integers(1_000, 5_000))}
        for seat in range(1, count + 1)])
    for _ in range(data.draw(st.integers(1, 3), label="hands")):
        game.refresh_from_db()
        if game.status != "open" or game.players.filter(left_at__isnull=True, stack_cents__gt=0).count() < 2:
            break
        # Hypothesis shuffles (the system's own shuffle would make the examples irreproducible); at most four
        # players never run the stock out, so no reshuffle is needed.
        deck = [str(card) for card in data.draw(st.permutations(ALL_CARDS), label="deck")]
        play_one(hand_start(game=game, actor=dealer_user, deck=deck), dealer_user, data, floor_user)
        conserved(game)
        between = data.draw(st.sampled_from(["nothing", "join", "add", "leave"]), label="between hands")
        game.refresh_from_db()
        active = list(game.players.filter(left_at__isnull=True).values_list("seat", "stack_cents"))
        if game.status != "open":
            break
        if between == "join" and len(active) < 4:
            player_join(game=game, actor=dealer_user, seat=game.players.count() + 1, buy_in_cents=2_000)
        elif between == "add" and active and active[0][1] + 500 <= 100_000:
            player_add_chips(game=game, actor=dealer_user, seat=active[0][0], amount_cents=500)
        elif between == "leave" and len(active) > 2:
            player_leave(game=game, actor=dealer_user, seat=active[-1][0])
        conserved(game)
    game.refresh_from_db()
    verdict = game_replay(game)
    assert verdict["ok"], verdict["differences"]
    outcome = replay(GameRecord.from_dict(game_record(game)))
    players = {p.seat: p for p in HomeGamePlayer.objects.filter(game=game)}
    for seat, cents in outcome["stacks"].items():
        player = players[int(seat)]
        assert cents == (player.stack_cents if player.active else player.cashed_out_cents)
    assert outcome["carried_pot_cents"] == game.pot_cents or game.status != "open"
