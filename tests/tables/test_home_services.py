"""Home-game tables through the services: house rules, games, players, the rule sheets' examples, legs, the ledger."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Sum

from casino.errors import DomainError, NotAllowed, WrongPhase
from tables.models import HomeGame, HomeGamePlayer, HomeHand, HomeLedgerEntry, HomeTableConfig, Table
from tables.services.home_config import home_config_set
from tables.services.home_games import game_close, game_open, player_add_chips, player_join, player_leave
from tables.services.home_hands import hand_act, hand_start
from tests.engine.home_support import stacked_deck


def deck(button: int, hands: dict[int, str], stock: str = "") -> list[str]:
    return [str(card) for card in stacked_deck(button, hands, stock)]


def balanced(game: HomeGame) -> None:
    """Σ stacks + pot + house = Σ buy-ins − Σ cash-outs, and every posting sums to zero."""
    game.refresh_from_db()
    stacks = HomeGamePlayer.objects.filter(game=game).aggregate(t=Sum("stack_cents"))["t"] or 0
    assert stacks + game.pot_cents + game.house_cents == game.buy_ins_cents - game.cash_outs_cents
    for posting in HomeLedgerEntry.objects.filter(game=game).values_list("posting", flat=True).distinct():
        assert HomeLedgerEntry.objects.filter(posting=posting).aggregate(t=Sum("amount_cents"))["t"] == 0


def seat_players(count: int, cents: int = 10_000) -> list[dict[str, Any]]:
    return [{"seat": seat, "name": f"P{seat}", "buy_in_cents": cents} for seat in range(1, count + 1)]


def play(hand: HomeHand, dealer: User, *steps: str) -> HomeHand:
    """Apply "<seat> <verb> [amount | cards]" steps through hand_act."""
    for step in steps:
        seat, verb, *rest = step.split()
        request: dict[str, Any] = {"seat": int(seat), "action": verb}
        if verb in ("bet", "raise"):
            request["amount_cents"] = int(rest[0])
        elif verb == "draw":
            request["cards"] = rest
        hand = hand_act(hand=hand.pk, actor=dealer, **request)
    return hand


def play_out(hand: HomeHand, dealer: User, *, discard: str = "minimum") -> HomeHand:
    """Check or call every betting turn and, at every draw, discard the fewest (or `maximum`: the most) allowed."""
    from tables.selectors.home import hand_view

    while hand.status == "in_play":
        view = hand_view(hand)
        seat = view["awaiting"]["seat"]
        if view["legal"] is not None:
            hand = hand_act(hand=hand.pk, actor=dealer, seat=seat,
                            action="check" if "check" in view["legal"]["actions"] else "call")
        else:
            held = next(p["cards"] for p in view["players"] if p["seat"] == seat)
            hand = hand_act(hand=hand.pk, actor=dealer, seat=seat, action="draw", cards=held[: view["draw"][discard]])
    return hand


# ----- house rules -----
@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"rules": {"ante_cents": 100}}, "rules.small_bet_cents"),
        ({"rules": {"ante_cents": 100, "betting": "no_limit", "min_bet_cents": 0}}, "rules.min_bet_cents"),
        ({"rules": {"ante_cents": 100, "big_bet_cents": 400, "small_bet_cents": 200, "legs_to_win": 2}},
         "rules.legs_to_win"),
        ({"buy_in_min_cents": 5_000, "buy_in_max_cents": 4_000}, "buy_in_max_cents"),
        ({"buy_in_min_cents": 50}, "buy_in_min_cents"),
        ({"charge": "rake", "rake_basis_points": 500}, "rake_cap_cents"),
        ({"charge": "rake", "rake_basis_points": 0, "rake_cap_cents": 300}, "rake_basis_points"),
        ({"charge": "none", "time_charge_cents": 300}, "time_charge_cents"),
        ({"charge": "time"}, "time_charge_cents"),
        ({"charge": "monthly"}, "charge"),
        ({"card_source": "dice"}, "card_source"),
    ],
)
def test_invalid_house_rules_are_refused_naming_the_field_and_change_nothing(
    home_table: Callable[..., Table], floor_user: User, changes: dict[str, Any], field: str
) -> None:
    table = home_table("five-card-draw")
    before = HomeTableConfig.objects.filter(table=table).values().get()
    with pytest.raises(DomainError) as refused:
        # New announced rules replace the old ones whole; the other settings change one at a time.
        home_config_set(table=table, actor=floor_user, partial="rules" not in changes, **changes)
    assert refused.value.field == field
    assert HomeTableConfig.objects.filter(table=table).values().get() == before


def test_house_rules_are_the_floors_and_apply_to_home_tables_only(
    home_table: Callable[..., Table], floor_user: User, dealer_user: User, assert_audited: Any
) -> None:
    table = home_table("three-legged-race", rules={"legs_to_win": 3})
    config = home_config_set(table=table, actor=floor_user, partial=True, charge="rake", rake_basis_points=500,
                             rake_cap_cents=300)
    assert config.rules["legs_to_win"] == 3
    assert config.charge == "rake"
    assert_audited("home_config_set", table_id=table.pk)
    with pytest.raises(NotAllowed):
        home_config_set(table=table, actor=dealer_user, partial=True, buy_in_min_cents=2_000)
    from tables.services.tables import table_create

    triple = table_create(name="TD", actor=floor_user)
    with pytest.raises(DomainError) as refused:
        home_config_set(table=triple, actor=floor_user, rules=dict(ante_cents=100))
    assert refused.value.field == "table_type"


# ----- a game -----
def test_opening_a_game_announces_the_rules_before_the_first_card(
    home_table: Callable[..., Table], dealer_user: User, assert_audited: Any
) -> None:
    table = home_table("pregnant-threes", rules={"draws": 2, "cards_per_draw": 3, "draw": "mandatory",
                                                 "kill_cards": ["Kd"]})
    game = game_open(table=table, actor=dealer_user, players=seat_players(3))
    opened = assert_audited("home_game_open", table_id=table.pk)
    assert any("wild" in line.lower() for line in opened.after["announcement"])
    assert opened.after["rules"]["kill_cards"] == ["Kd"]
    hand = hand_start(game=game, actor=dealer_user)
    first_card = assert_audited("home_hand_cards", table_id=table.pk)
    assert opened.pk < first_card.pk
    assert hand.status == "in_play"
    assert hand.phase == "betting"
    assert game.players.count() == 3
    balanced(game)
    with pytest.raises(WrongPhase):
        game_open(table=table, actor=dealer_user)


def test_buy_ins_join_and_add_chips_only_within_the_range_and_between_hands(
    home_table: Callable[..., Table], dealer_user: User
) -> None:
    game = game_open(table=home_table("five-card-draw", buy_in_max_cents=20_000), actor=dealer_user,
                     players=seat_players(2))
    with pytest.raises(DomainError) as refused:
        player_join(game=game, actor=dealer_user, seat=3, buy_in_cents=500)
    assert refused.value.field == "buy_in_cents"
    with pytest.raises(DomainError) as refused:
        player_join(game=game, actor=dealer_user, seat=2, buy_in_cents=5_000)
    assert refused.value.field == "seat"
    with pytest.raises(DomainError) as refused:
        player_add_chips(game=game, actor=dealer_user, seat=1, amount_cents=10_001)
    assert refused.value.field == "amount_cents"
    player_add_chips(game=game, actor=dealer_user, seat=1, amount_cents=10_000)
    hand_start(game=game, actor=dealer_user)
    with pytest.raises(WrongPhase):
        player_join(game=game, actor=dealer_user, seat=3, buy_in_cents=5_000)
    with pytest.raises(WrongPhase):
        player_add_chips(game=game, actor=dealer_user, seat=2, amount_cents=100)
    game.refresh_from_db()
    assert game.buy_ins_cents == 30_000
    balanced(game)


# ----- the rule sheets' examples, played through the services -----
def test_freak_of_nature_fives_become_wild(home_table: Callable[..., Table], dealer_user: User) -> None:
    # "Two players reach the showdown. A holds 5♥5♦9♣9♠K♥. B holds Q♠Q♦Q♣4♥7♦. Neither player holds a six, so
    # fives become wild. A's two fives join the pair of nines to make four nines with a king. B has no five and
    # plays three queens. A wins."
    game = game_open(table=home_table("freak-of-nature"), actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2,
                      deck=deck(2, {1: "5h 5d 9c 9s Kh", 2: "Qs Qd Qc 4h 7d"}))
    hand = play(hand, dealer_user, "1 check", "2 check", "1 draw", "2 draw", "1 bet 400", "2 call")
    assert hand.status == "settled"
    assert hand.result == {"wild_rank": "5", "dead": [], "pots": [{"amount_cents": 1_000, "winners": [1]}],
                           "legs": {}}
    stacks = dict(game.players.values_list("seat", "stack_cents"))
    assert stacks == {1: 10_500, 2: 9_500}
    balanced(game)


def test_pregnant_threes_three_wild_cards_make_five_queens(
    home_table: Callable[..., Table], dealer_user: User, assert_audited: Any
) -> None:
    # "A player holds 3♥6♣Q♠Q♦9♦. The three, six and nine are all wild. With the natural pair of queens, the
    # player has five queens."
    table = home_table("pregnant-threes", rules={"draws": 1, "cards_per_draw": 3, "draw": "optional"})
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2,
                      deck=deck(2, {1: "3h 6c Qs Qd 9d", 2: "As Ad Ac Kh Kd"}))
    hand = play(hand, dealer_user, "1 check", "2 check", "1 draw", "2 draw", "1 check", "2 check")
    assert hand.result["pots"] == [{"amount_cents": 200, "winners": [1]}]
    settled = assert_audited("home_hand_settle", table_id=game.table_id)
    assert "Five queens" in " ".join(settled.after["result"]["lines"] + [settled.after["result"]["headline"]])


def test_pregnant_threes_a_mandatory_draw_breaks_wild_cards(
    home_table: Callable[..., Table], dealer_user: User
) -> None:
    # "The game is two draws of three, mandatory. After the deal, a player holds 3♠6♦9♥9♣K♥ ... The player must
    # still discard three cards, and so gives up at least two wild cards."
    table = home_table("pregnant-threes", rules={"draws": 2, "cards_per_draw": 3, "draw": "mandatory"})
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2,
                      deck=deck(2, {1: "3s 6d 9h 9c Kh", 2: "As Ad Ac Kc Kd"}))
    hand = play(hand, dealer_user, "1 check", "2 check")
    record = dict(hand.record)
    with pytest.raises(DomainError) as refused:
        play(hand, dealer_user, "1 draw")
    assert refused.value.code == "wrong_discard_count"
    hand.refresh_from_db()
    assert hand.record == record
    play(hand, dealer_user, "1 draw 3s 6d 9h")


def test_three_legged_race_carries_the_pot_until_a_player_wins_the_legs_called(
    home_table: Callable[..., Table], dealer_user: User, assert_audited: Any
) -> None:
    # "The pot is not paid out at the end of a hand unless a player has reached the required number of legs.
    # Otherwise it stays in the middle, and all players ante again for the next hand."
    game = game_open(table=home_table("three-legged-race", rules={"legs_to_win": 2}), actor=dealer_user,
                     players=seat_players(3))
    hand = hand_start(game=game, actor=dealer_user, button=1, deck=deck(
        1, {1: "Qs Qd 9c 4c 5c", 2: "Jc Jh 4d 5d 7c", 3: "Tc 9d 4s 5s 7h"}, stock="Js 6d 2c 2d 3d 8d 8c 8h 3s"))
    play(hand, dealer_user, "2 check", "3 check", "1 check", "2 draw 4d 5d 7c", "3 draw 4s 5s 7h",
         "1 draw 9c 4c 5c", "2 check", "3 check", "1 check")
    game.refresh_from_db()
    assert game.pot_cents == 300
    assert dict(game.players.values_list("seat", "legs")) == {1: 0, 2: 1, 3: 0}
    hand = hand_start(game=game, actor=dealer_user, deck=deck(
        2, {1: "Kc Kh 3c 4d 5h", 2: "2h 3h 6h 7d 8s", 3: "Ah Kd 4h 6s 7s"}, stock="2s 9s Ts Ks 9h Jd"))
    assert hand.button == 2  # the button moved one seat to the left
    play(hand, dealer_user, "3 bet 200", "1 call", "2 fold", "3 draw 4h 6s 7s", "1 draw 3c 4d 5h", "3 bet 400",
         "1 call")
    hand = hand_start(game=game, actor=dealer_user, deck=deck(
        3, {1: "2h 3h 4s 7d 9c", 2: "Ac Ad 5s 8s Qh", 3: "Kh Qc 2c 3s 8d"}, stock="Tc Jh 6c As 4c 5c Td Th 4d"))
    play(hand, dealer_user, "1 check", "2 check", "3 check", "1 draw 2h 3h 4s", "2 draw 5s 8s Qh",
         "3 draw 2c 3s 8d", "1 bet 400", "2 call", "3 fold")
    game.refresh_from_db()
    assert game.status == "finished"
    assert game.winners == [2]
    assert game.pot_cents == 0
    assert dict(game.players.values_list("seat", "cashed_out_cents")) == {1: 8_700, 2: 12_200, 3: 9_100}
    assert_audited("home_game_finish", table_id=game.table_id)
    balanced(game)
    with pytest.raises(WrongPhase):
        hand_start(game=game, actor=dealer_user)


def test_closing_an_unwon_three_legged_race_returns_each_players_contributions(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = game_open(table=home_table("three-legged-race"), actor=dealer_user, players=seat_players(3))
    hand = hand_start(game=game, actor=dealer_user, button=1, deck=deck(
        1, {1: "Qs Qd 9c 4c 5c", 2: "Jc Jh 4d 5d 7c", 3: "Tc 9d 4s 5s 7h"}, stock="Js 6d 2c 2d 3d 8d 8c 8h 3s"))
    play(hand, dealer_user, "2 bet 200", "3 call", "1 fold", "2 draw 4d 5d 7c", "3 draw 4s 5s 7h", "2 check",
         "3 check")
    game.refresh_from_db()
    assert game.pot_cents == 700
    with pytest.raises(NotAllowed):
        game_close(game=game, actor=dealer_user, reason="end of the session")
    game_close(game=game, actor=floor_user, reason="end of the session")
    assert dict(game.players.values_list("seat", "cashed_out_cents")) == {1: 10_000, 2: 10_000, 3: 10_000}
    balanced(game)


# ----- refusals change nothing; leaving; charges -----
def test_an_illegal_action_is_refused_and_changes_nothing(home_table: Callable[..., Table], dealer_user: User,
                                                           other_dealer: User) -> None:
    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(3))
    hand = hand_start(game=game, actor=dealer_user, button=3)
    state = (dict(hand.record), HomeLedgerEntry.objects.count())
    for request, error in [
        ({"seat": 2, "action": "check"}, WrongPhase),  # out of turn
        ({"seat": 1, "action": "bet", "amount_cents": 300}, DomainError),  # fixed limit: the small bet is 200
        ({"seat": 1, "action": "raise", "amount_cents": 400}, DomainError),  # nothing to raise
        ({"seat": 1, "action": "draw", "cards": []}, WrongPhase),  # not the draw yet
        ({"seat": 1, "action": "shout"}, DomainError),
        ({"seat": 7, "action": "check"}, DomainError),
    ]:
        with pytest.raises(error):
            hand_act(hand=hand.pk, actor=dealer_user, **request)
    with pytest.raises(NotAllowed):
        hand_act(hand=hand.pk, actor=other_dealer, seat=1, action="check")
    hand.refresh_from_db()
    assert (hand.record, HomeLedgerEntry.objects.count()) == state


def test_a_player_who_leaves_mid_hand_is_cashed_out_and_their_chips_stay_in_the_pot(
    home_table: Callable[..., Table], dealer_user: User
) -> None:
    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(3))
    hand = hand_start(game=game, actor=dealer_user, button=3)
    play(hand, dealer_user, "1 bet 200")
    player_leave(game=game, actor=dealer_user, seat=1)
    leaver = game.players.get(seat=1)
    assert leaver.cashed_out_cents == 9_700
    assert leaver.stack_cents == 0
    assert not leaver.active
    hand.refresh_from_db()
    assert "1 leave" in hand.record["actions"]
    balanced(game)


def test_a_rake_is_taken_from_a_pot_that_was_bet_into_up_to_its_cap_and_never_from_antes_alone(
    home_table: Callable[..., Table], dealer_user: User, assert_audited: Any
) -> None:
    table = home_table("five-card-draw", charge="rake", rake_basis_points=1_000, rake_cap_cents=150)
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2, deck=deck(2, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
    play(hand, dealer_user, "1 check", "2 check", "1 draw", "2 draw", "1 check", "2 check")
    game.refresh_from_db()
    assert game.house_cents == 0  # antes only: never bet into
    hand = hand_start(game=game, actor=dealer_user, deck=deck(1, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
    play(hand, dealer_user, "2 bet 200", "1 raise 400", "2 call", "2 draw", "1 draw", "2 bet 400", "1 call")
    game.refresh_from_db()
    assert game.house_cents == 150  # 10% of 1,800 is 180, capped at 150
    assert_audited("home_house_charge", table_id=table.pk)
    assert dict(game.players.values_list("seat", "stack_cents")) == {1: 10_100 + 900 - 150, 2: 9_900 - 900}
    balanced(game)
    # A bet nobody calls goes back to its player: the hand ends with antes only in the middle, as one checked through
    # does, and is not raked either.
    hand = hand_start(game=game, actor=dealer_user, deck=deck(2, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
    play(hand, dealer_user, "1 bet 200", "2 fold")
    game.refresh_from_db()
    assert game.house_cents == 150
    assert dict(game.players.values_list("seat", "stack_cents")) == {1: 10_850 + 100, 2: 9_000 - 100}
    balanced(game)


def test_a_time_charge_is_taken_per_seat_per_half_hour(home_table: Callable[..., Table], dealer_user: User) -> None:
    table = home_table("freak-of-nature", charge="time", time_charge_cents=500)
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user)
    play(hand, dealer_user, "2 fold") if hand.button == 1 else play(hand, dealer_user, "1 fold")
    hand_start(game=game, actor=dealer_user)  # within the half hour: no second charge
    game.refresh_from_db()
    assert game.house_cents == 1_000
    balanced(game)


def test_postgresql_refuses_chips_that_do_not_balance(
    require_postgres: None, home_table: Callable[..., Table], dealer_user: User
) -> None:
    from django.db import IntegrityError, ProgrammingError, connection, transaction
    from django.db.models import F

    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(2))
    hand_start(game=game, actor=dealer_user)
    tampering = [
        lambda: HomeGamePlayer.objects.filter(game=game, seat=1).update(stack_cents=F("stack_cents") + 100),
        lambda: HomeGame.objects.filter(pk=game.pk).update(pot_cents=F("pot_cents") - 100,
                                                           house_cents=F("house_cents") + 100),
        lambda: HomeLedgerEntry.objects.create(game=game, posting="x", kind="bet", account="pot", amount_cents=5,
                                               posted_at=game.opened_at),
    ]
    for tamper in tampering:
        with transaction.atomic():
            tamper()
            HomeGame.objects.filter(pk=game.pk).update(version=F("version") + 1)
            with pytest.raises(IntegrityError):
                connection.check_constraints()  # the deferred triggers run now, as at commit
            transaction.set_rollback(True)
    with pytest.raises(ProgrammingError, match="append-only"), transaction.atomic():
        HomeLedgerEntry.objects.filter(game=game).update(amount_cents=0)


def test_an_rng_table_reshuffles_the_discards_when_the_stock_runs_out_and_the_record_replays(
    home_table: Callable[..., Table], dealer_user: User
) -> None:
    # DESIGN 7: "If the stock runs out during a draw, the discards so far, except the drawing player's own, are
    # shuffled into a new stock." Ten players hold 50 cards: the stock has 2.
    from tables.selectors.home_records import game_replay

    table = home_table("five-card-draw", rules={"max_discard": 5, "max_discard_with_ace": 5})
    game = game_open(table=table, actor=dealer_user, players=seat_players(10))
    hand = play_out(hand_start(game=game, actor=dealer_user, button=10), dealer_user, discard="maximum")
    assert hand.record["reshuffles"], "the stock ran out: the discards were reshuffled"
    assert game_replay(game)["ok"]
    balanced(game)
