"""Random home games with everything the floor and the players do besides betting: a player leaving in the middle of
a hand, seats taken again, voids, corrections, pots awarded by ruling, the floor's close. Chips are conserved at every
step, the replay verdict is clean, and the export plays through play_game to what replay_game prints for it."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.engine.cards import ALL_CARDS
from casino.errors import DomainError
from tables.models import HomeGame, HomeGamePlayer, HomeHand
from tables.selectors.home import hand_view
from tables.selectors.home_records import game_record, game_replay
from tables.services.home_games import game_close, game_open, player_add_chips, player_join, player_leave
from tables.services.home_hands import hand_start
from tables.services.home_rulings import hand_award, hand_correct, hand_void
from tests.tables.conftest import open_home_table
from tests.tables.home_commands import run
from tests.tables.test_home_properties import RULES, act_randomly, conserved

NAMES = itertools.count(1)  # table names stay unique over every example Hypothesis runs (and shrinks) in one test
BETTING = ("check", "call", "fold", "bet", "raise", "allin")
FLOOR_MOVES = ("act", "act", "act", "act", "act", "act", "act", "act", "leave", "void", "award", "correct")


def _seated(game: HomeGame) -> list[tuple[int, int]]:
    return list(HomeGamePlayer.objects.filter(game=game, left_at__isnull=True).order_by("seat")
                .values_list("seat", "stack_cents"))


def _play(row: HomeHand, dealer: User, floor: User, data: st.DataObject) -> None:
    """The hand to its end: random legal actions, and now and then a player leaves, or the floor voids the hand,
    corrects its last betting action (played again the other way) or awards the pot by ruling."""
    for _ in range(300):
        row = HomeHand.objects.get(pk=row.pk)  # as a new request reads it (a write's answer keeps its engine hand)
        view = hand_view(row)
        if view["status"] != "in_play":
            return
        move = data.draw(st.sampled_from(FLOOR_MOVES), label="move")
        seated = [p["seat"] for p in view["players"] if not p["left"]]
        recorded = row.record.get("actions", [])
        if move == "leave" and len(seated) > 2:
            player_leave(game=row.game_id, actor=dealer, seat=data.draw(st.sampled_from(seated), label="leaves"))
        elif move == "void":
            hand_void(hand=row.pk, actor=floor, reason="a void drawn by the test")
            return
        elif move == "award":
            seats = data.draw(st.lists(st.sampled_from(seated), min_size=1, unique=True), label="awarded to")
            hand_award(hand=row.pk, actor=floor, seats=seats, reason="a ruling drawn by the test")
            return
        elif move == "correct" and recorded and recorded[-1].split()[1] in BETTING:
            # The last betting action removed: the hand is played again without it, and it is that seat's turn again.
            try:
                hand_correct(hand=row.pk, actor=floor, index=len(recorded) - 1, action="", reason="tapped by mistake")
            except DomainError as refused:  # only a removal that leaves a hand the rules allow is taken
                if refused.code != "bad_correction":
                    raise
        else:
            act_randomly(row, view, dealer, data)
        conserved(row.game)
    raise AssertionError("the hand did not end")


def _between(game: HomeGame, dealer: User, data: st.DataObject) -> None:
    """Between hands: nothing, a player joins (a new seat or one someone left), adds chips, or leaves."""
    seated = _seated(game)
    taken = {seat for seat, _ in seated}
    move = data.draw(st.sampled_from(["nothing", "join", "add", "leave"]), label="between hands")
    if move == "join" and len(seated) < 4:
        free = [seat for seat in range(1, 6) if seat not in taken]
        seat = data.draw(st.sampled_from(free), label="joins at")
        player_join(game=game, actor=dealer, seat=seat, name=f"J{seat}", buy_in_cents=2_000)
    elif move == "add" and seated and seated[0][1] + 500 <= 100_000:
        player_add_chips(game=game, actor=dealer, seat=seated[0][0], amount_cents=500)
    elif move == "leave" and len(seated) > 2:
        player_leave(game=game, actor=dealer, seat=data.draw(st.sampled_from(sorted(taken)), label="leaves"))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_random_games_with_the_floors_rulings_and_players_coming_and_going_replay_and_play_back_identically(
    dealer_user: User, floor_user: User, tmp_path: Path, data: st.DataObject
) -> None:
    variant = data.draw(st.sampled_from(sorted(RULES)), label="variant")
    charge = data.draw(st.sampled_from([{}, {"charge": "rake", "rake_basis_points": 500, "rake_cap_cents": 200},
                                        {"charge": "time", "time_charge_cents": 100}]))
    table = open_home_table(f"{variant} {next(NAMES)}", variant, floor_user, dealer_user,
                            rules={"ante_cents": 50, **RULES[variant]}, **charge)
    game = game_open(table=table, actor=dealer_user, players=[
        {"seat": seat, "name": f"P{seat}", "buy_in_cents": data.draw(st.integers(1_000, 5_000))}
        for seat in range(1, data.draw(st.integers(2, 4), label="players") + 1)])
    for _ in range(data.draw(st.integers(1, 4), label="hands")):
        game.refresh_from_db()
        if game.status != "open" or len([s for s, stack in _seated(game) if stack > 0]) < 2:
            break
        # Hypothesis shuffles, so examples reproduce; at most four players (five seats) never run the stock out.
        deck = [str(card) for card in data.draw(st.permutations(ALL_CARDS), label="deck")]
        _play(hand_start(game=game, actor=dealer_user, deck=deck), dealer_user, floor_user, data)
        conserved(game)
        game.refresh_from_db()
        if game.status != "open":
            break
        _between(game, dealer_user, data)
        conserved(game)
    game.refresh_from_db()
    if game.status == "open" and data.draw(st.booleans(), label="the floor closes the game"):
        game_close(game=game, actor=floor_user, reason="closed by the test")
        conserved(game)
    game.refresh_from_db()
    verdict = game_replay(game)
    assert verdict["ok"], verdict["differences"]
    exported = game_record(game)
    replayed = run("replay_game", tmp_path, exported, "--json")
    assert json.loads(run("play_game", tmp_path, exported, "--json", "--user", floor_user.username)) == \
        json.loads(replayed)
