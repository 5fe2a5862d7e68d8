"""What the house takes, as the API's hand view and the announcement say it: a settled hand's stacks after the rake
with a line saying it, the time charge taken as a hand started (from whom), and the charge announced before the first
card (shown and audited). The rake and time charge read from the ledger: one record of what the house took."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from audit.models import AuditEvent
from tables.models import HomeGame, Table
from tables.services.home_games import game_open
from tables.services.home_hands import hand_start
from tests.tables.helpers import ok
from tests.tables.test_home_services import deck, play, seat_players

RAKE = {"charge": "rake", "rake_basis_points": 1_000, "rake_cap_cents": 150}


def _hand(api: APIClient, hand_id: int) -> dict[str, Any]:
    return ok(api.get(f"/api/v1/hands/{hand_id}/"))


def _stacks(view: dict[str, Any]) -> dict[int, int]:
    return {p["seat"]: p["stack_cents"] for p in view["players"]}


def test_a_raked_hand_shows_the_stacks_after_the_rake_and_a_line_saying_it(
    home_table: Callable[..., Table], dealer_user: User, dealer_api: APIClient
) -> None:
    # Rake 10% capped at $1.50: a $23.00 pot (antes $3, bets $20) pays $1.50 to the house, from the winner; the
    # tester saw the winner's stack before the rake in the hand view while the game (and the chips) had $1.50 less.
    table = home_table("five-card-draw", **RAKE)
    game = game_open(table=table, actor=dealer_user, players=seat_players(3))
    hand = hand_start(game=game, actor=dealer_user, button=3, deck=deck(3, {
        1: "As Ad Ac 5c 7d", 2: "Kc Kh 4d 5d 8c", 3: "2c 3d 7h 9s Jd"}))
    play(hand, dealer_user, "1 bet 200", "2 raise 400", "3 call", "1 call", "1 draw", "2 draw", "3 draw",
         "1 bet 400", "2 call", "3 fold")
    view = _hand(dealer_api, hand.pk)
    state = ok(dealer_api.get(f"/api/v1/games/{game.pk}/"))
    assert sum(pot["amount_cents"] for pot in view["result"]["pots"]) == 2_300
    assert state["house_cents"] == 150
    assert _stacks(view) == {p["seat"]: p["stack_cents"] for p in state["players"]}
    assert _stacks(view)[1] == 10_000 - 900 + 2_300 - 150 == 11_250
    assert view["house"]["rake"] == {"total_cents": 150, "by_seat": {"1": 150},
                                     "line": "Rake $1.50 to the house, from the winner"}
    assert view["result"]["lines"][-1] == "Rake $1.50 to the house, from the winner"
    assert view["house"]["time_charge"] is None
    verdict = ok(dealer_api.get(f"/api/v1/games/{game.pk}/replay/"))
    assert verdict["ok"] is True, verdict["differences"]


def test_the_rake_of_a_split_pot_says_what_each_winner_pays(
    home_table: Callable[..., Table], dealer_user: User, dealer_api: APIClient
) -> None:
    # P1 and P2 split a $17.00 pot with the same ace high; the rake, 10% capped at $1.50, comes from both. The line
    # read "from the winners", leaving the dealer to halve it while pushing two stacks.
    table = home_table("five-card-draw", **RAKE)
    game = game_open(table=table, actor=dealer_user, players=seat_players(3))
    hand = hand_start(game=game, actor=dealer_user, button=3, deck=deck(3, {
        1: "Ah Kh Qd Js 9c", 2: "As Kd Qc Jh 9d", 3: "2c 3d 7h 8s 4h"}))
    play(hand, dealer_user, "1 bet 200", "2 call", "3 call", "1 draw", "2 draw", "3 draw",
         "1 bet 400", "2 call", "3 fold")
    view = _hand(dealer_api, hand.pk)
    assert view["result"]["lines"][1] == "Pot $17.00 split with ace high each: $8.50 to P1 and $8.50 to P2"
    assert view["house"]["rake"]["by_seat"] == {"1": 75, "2": 75}
    assert view["house"]["rake"]["line"] == "Rake $1.50 to the house: $0.75 from P1 and $0.75 from P2"
    assert view["result"]["lines"][-1] == view["house"]["rake"]["line"]
    assert _stacks(view) == {1: 10_000 - 700 + 850 - 75, 2: 10_000 - 700 + 850 - 75, 3: 10_000 - 300}


def test_a_three_legged_race_won_shows_the_winners_stack_as_cashed_out_after_the_rake(
    home_table: Callable[..., Table], dealer_user: User, dealer_api: APIClient
) -> None:
    table = home_table("three-legged-race", rules={"legs_to_win": 1}, **RAKE)
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2, deck=deck(
        2, {1: "Qs Qd 4c 5c 7d", 2: "Jc Jh 4d 5d 7c"}, stock="Qc 8h 3s 2d 6d 9c"))
    play(hand, dealer_user, "1 bet 200", "2 call", "1 draw 4c 5c 7d", "2 draw 4d 5d 7c", "1 bet 400", "2 call")
    view = _hand(dealer_api, hand.pk)
    state = ok(dealer_api.get(f"/api/v1/games/{game.pk}/"))
    assert state["status"] == "finished"
    cashed = {p["seat"]: p["cashed_out_cents"] for p in state["players"]}
    assert _stacks(view) == cashed
    assert cashed[1] == 10_000 - 700 + 1_400 - 140  # the pot $14.00, less the rake: 10%, under the cap
    assert view["house"]["rake"]["line"] == "Rake $1.40 to the house, from the winner"


def test_the_time_charge_taken_as_a_hand_starts_is_in_that_hands_view_naming_the_seats(
    home_table: Callable[..., Table], dealer_user: User, dealer_api: APIClient
) -> None:
    # $5 per seat per half hour: hand 1 took $5 from each of the three stacks ($200 -> $194 with the $1 ante).
    table = home_table("five-card-draw", charge="time", time_charge_cents=500)
    game = game_open(table=table, actor=dealer_user, players=seat_players(3, 20_000))
    first = hand_start(game=game, actor=dealer_user, button=3)
    view = _hand(dealer_api, first.pk)
    assert _stacks(view) == {1: 19_400, 2: 19_400, 3: 19_400}
    assert view["house"]["time_charge"] == {"total_cents": 1_500, "by_seat": {"1": 500, "2": 500, "3": 500},
                                            "line": "Time charge $5.00 from each of seats 1, 2 and 3"}
    play(first, dealer_user, "1 fold", "2 fold")
    second = hand_start(game=game, actor=dealer_user)  # within the half hour: nothing taken
    assert _hand(dealer_api, second.pk)["house"]["time_charge"] is None
    play(second, dealer_user, "2 fold", "3 fold")
    third = hand_start(game=game, actor=dealer_user, time_due={1, 3})  # seats 1 and 3 begin a new half hour
    assert _hand(dealer_api, third.pk)["house"]["time_charge"]["line"] == "Time charge $5.00 from each of seats 1 and 3"
    assert _hand(dealer_api, first.pk)["house"]["time_charge"]["total_cents"] == 1_500  # still hand 1's own
    verdict = ok(dealer_api.get(f"/api/v1/games/{game.pk}/replay/"))
    assert verdict["ok"] is True, verdict["differences"]


def test_the_announcement_states_the_house_charge_before_the_first_card_and_the_audit_trail_records_it(
    home_table: Callable[..., Table], dealer_user: User, dealer_api: APIClient, floor_api: APIClient
) -> None:
    timed = home_table("three-legged-race", charge="time", time_charge_cents=500)
    raked = home_table("freak-of-nature", **RAKE)
    free = home_table("five-card-draw")
    said = {
        timed: "Time charge: $5.00 from each seat every half hour, taken as the first hand of the half hour starts",
        raked: "Rake: 10% of each pot won, at most $1.50 a pot, taken from the winner; none on a hand nobody bet in "
               "(antes only)",
        free: "No house charge: no rake, no time charge",
    }
    for table, line in said.items():
        config = ok(floor_api.get(f"/api/v1/tables/{table.pk}/home-config/"))
        assert config["announcement"][-1] == line
        game = game_open(table=table, actor=dealer_user, players=seat_players(2))
        assert ok(dealer_api.get(f"/api/v1/games/{game.pk}/"))["announcement"][-1] == line
        opened = AuditEvent.objects.get(action="home_game_open", object_id=str(game.pk))
        assert opened.after["announcement"][-1] == line
        assert HomeGame.objects.get(pk=game.pk).hands.count() == 0  # announced before any card
