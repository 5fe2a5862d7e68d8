"""Five Card Draw replayed from fixed decks: antes, betting, side pots, the draw, showdown and the odd chip."""

from __future__ import annotations

import pytest

from casino.engine.errors import AnnouncementError
from casino.engine.home import errors as e
from casino.engine.home.errors import IllegalAction
from casino.engine.home.hand import Phase
from tests.engine.home_support import cards, game, stacked_deck

NO_LIMIT = {"ante_cents": 100, "betting": "no_limit", "min_bet_cents": 200}


def test_side_pot_with_two_all_ins_is_won_by_different_hands() -> None:
    table = game("five-card-draw", {1: 10_000, 2: 1_000, 3: 3_000, 4: 10_000}, **NO_LIMIT)
    deck = stacked_deck(
        4,
        {1: "Js Jd 8c 8h 4s", 2: "As Ad Ac Kd Kh", 3: "Qs Qd Qh 7c 2d", 4: "Tc Th 5d 6s 3c"},
        stock="9c 4d 7s 8d",
    )
    hand = table.start_hand(button=4, deck=deck)
    # Antes: 100 each; seat 1 (left of the button) acts first.
    assert hand.stacks == {1: 9_900, 2: 900, 3: 2_900, 4: 9_900}
    assert hand.pot_cents == 400
    assert hand.actor == 1

    hand.bet(1, 500)
    hand.all_in(2)  # to 900: a short raise
    hand.all_in(3)  # to 2,900: a full raise
    hand.call(4)
    hand.call(1)
    assert hand.stacks == {1: 7_000, 2: 0, 3: 0, 4: 7_000}
    assert hand.pot_cents == 10_000
    assert hand.phase is Phase.DRAWING

    hand.draw(1, cards("4s"))  # receives 9c
    hand.draw(2, ())  # all-in players still draw; pat
    hand.draw(3, cards("7c 2d"))  # receives 4d 7s
    hand.draw(4, cards("6s"))  # receives 8d
    assert hand.players[1].cards == list(cards("Js Jd 8c 8h 9c"))
    assert hand.players[3].cards == list(cards("Qs Qd Qh 4d 7s"))

    # After the draw only seats 1 and 4 have chips to bet.
    assert hand.actor == 1
    hand.bet(1, 1_000)
    hand.fold(4)
    assert hand.settled
    result = hand.settlement
    assert result is not None
    # Main pot: 4 x 1,000; side pot: 3 x 2,000 (seat 2 is not in it). Seat 1's uncalled 1,000 comes back.
    assert [(pot.amount_cents, pot.winners) for pot in result.pots] == [(4_000, (2,)), (6_000, (3,))]
    assert table.stacks == {1: 7_000, 2: 4_000, 3: 6_000, 4: 7_000}
    assert sum(table.stacks.values()) == 24_000


def test_split_pot_gives_the_odd_chip_to_the_first_winner_left_of_the_dealer() -> None:
    table = game("five-card-draw", {1: 1_000, 2: 1_000, 3: 1_000}, ante_cents=25, small_bet_cents=50,
                 big_bet_cents=100)
    deck = stacked_deck(2, {1: "Ah Kh Qd Js 9c", 2: "8s 7h 5d 4c 2h", 3: "As Kd Qc Jh 9d"})
    hand = table.start_hand(button=2, deck=deck)
    assert hand.seats == [3, 1, 2]
    for seat in (3, 1, 2):
        hand.check(seat)
    for seat in (3, 1, 2):
        hand.draw(seat, ())
    hand.bet(3, 100)
    hand.call(1)
    hand.fold(2)
    result = hand.settlement
    assert result is not None
    assert [(pot.amount_cents, pot.winners) for pot in result.pots] == [(275, (3, 1))]
    # "the odd chip goes to the first winner to the dealer's left" (DESIGN 7): seat 3 sits left of the button.
    assert table.stacks == {1: 1_012, 2: 975, 3: 1_013}


def test_fixed_limit_game_with_assertions_after_every_street() -> None:
    table = game("five-card-draw", {1: 5_000, 2: 5_000, 3: 5_000}, ante_cents=50, small_bet_cents=100,
                 big_bet_cents=200)
    deck = stacked_deck(1, {1: "2c 2d 7h 9s Kc", 2: "Ac Ah 5s 6d Jd", 3: "Ts Js Qs 3h 4c"}, stock="Ad As 9d 8s")
    hand = table.start_hand(button=1, deck=deck)
    assert hand.pot_cents == 150
    assert hand.actor == 2
    hand.bet(2, 100)
    hand.raise_to(3, 200)
    hand.call(1)
    hand.raise_to(2, 300)
    hand.call(3)
    hand.call(1)
    assert hand.pot_cents == 150 + 3 * 300
    assert hand.stacks == {2: 4_650, 3: 4_650, 1: 4_650}

    hand.draw(2, cards("5s 6d Jd"))  # Ad As 9d: four aces
    hand.draw(3, cards("3h"))  # 8s
    hand.draw(1, ())
    assert hand.round.unit == 200  # the big bet after the draw
    hand.check(2)
    hand.bet(3, 200)
    hand.call(1)
    hand.raise_to(2, 400)
    hand.fold(3)
    hand.call(1)
    assert table.stacks == {1: 4_250, 2: 6_300, 3: 4_450}
    assert hand.settlement is not None
    assert hand.settlement.pots[0].amount_cents == 2_050


def test_standing_pat_and_discarding_three_are_allowed_but_four_only_keeping_an_ace() -> None:
    table = game("five-card-draw", {1: 1_000, 2: 1_000}, ante_cents=10, small_bet_cents=20, big_bet_cents=40)
    deck = stacked_deck(2, {1: "Ac 2d 5h 8s Jc", 2: "Kc Kd 4h 7s 9c"})
    hand = table.start_hand(button=2, deck=deck)
    hand.check(1)
    hand.check(2)
    with pytest.raises(IllegalAction) as refused:
        hand.verify_draw(1, cards("2d 5h 8s Ac"))
    assert refused.value.code == e.WRONG_DISCARD_COUNT
    assert hand.can_draw(1, cards("2d 5h 8s Jc"))  # four, keeping the ace
    assert hand.can_draw(1, cards("2d 5h 8s"))
    assert not hand.can_draw(2, cards("4h 7s 9c"))  # not seat 2's turn
    hand.draw(1, cards("2d 5h 8s Jc"))
    with pytest.raises(IllegalAction) as refused:
        hand.draw(2, cards("Kc 4h 7s 9c"))
    assert refused.value.code == e.WRONG_DISCARD_COUNT


def test_discarding_a_card_not_held_is_refused_without_change() -> None:
    table = game("five-card-draw", {1: 1_000, 2: 1_000}, ante_cents=10, small_bet_cents=20, big_bet_cents=40)
    hand = table.start_hand(button=2, deck=stacked_deck(2, {1: "Ac 2d 5h 8s Jc", 2: "Kc Kd 4h 7s 9c"}))
    hand.check(1)
    hand.check(2)
    before = list(hand.players[1].cards)
    with pytest.raises(IllegalAction) as refused:
        hand.draw(1, cards("Kc"))
    assert refused.value.code == e.CARD_NOT_HELD
    assert hand.players[1].cards == before
    assert hand.actor == 1


def test_a_hand_won_uncontested_needs_no_showdown_and_returns_the_uncalled_bet() -> None:
    table = game("five-card-draw", {1: 1_000, 2: 1_000, 3: 1_000}, **NO_LIMIT)
    hand = table.start_hand(button=3, deck=stacked_deck(3, {1: "2c 3d 4h 8s 9c", 2: "Kc Kd 4c 7s 9d",
                                                             3: "5c 6d 7h Js Qc"}))
    hand.bet(1, 600)
    hand.fold(2)
    hand.fold(3)
    assert hand.settled
    assert hand.settlement is not None
    assert [(p.amount_cents, p.winners) for p in hand.settlement.pots] == [(300, (1,))]
    assert table.stacks == {1: 1_200, 2: 900, 3: 900}


def test_stock_running_out_reshuffles_the_discards_except_the_drawing_players_own() -> None:
    seats = {n: 10_000 for n in range(1, 11)}
    table = game("five-card-draw", seats, ante_cents=10, small_bet_cents=20, big_bet_cents=40)
    deck = stacked_deck(10, {
        1: "2c 2d 2h 2s 3c", 2: "3d 3h 3s 4c 4d", 3: "4h 4s 5c 5d 5h", 4: "5s 6c 6d 6h 6s",
        5: "7c 7d 7h 7s 8c", 6: "8d 8h 8s 9c 9d", 7: "9h 9s Tc Td Th", 8: "Ts Jc Jd Jh Js",
        9: "Qc Qd Qh Qs Kc", 10: "Kd Kh Ks Ac Ad",
    }, stock="Ah As")
    hand = table.start_hand(button=10, deck=deck, reshuffles=[cards("3c 2c"), cards("4d 4c")])
    for seat in range(1, 11):
        hand.check(seat)
    hand.draw(1, cards("2c 3c"))  # takes Ah As: the stock is empty
    # Seat 2 discards three; the new stock is seat 1's discards (not seat 2's own).
    with pytest.raises(IllegalAction) as refused:
        hand.verify_draw(2, cards("3s 4c 4d"))
    assert refused.value.code == e.STOCK_EXHAUSTED  # two cards in the muck, three needed
    hand.draw(2, cards("4c 4d"))
    assert hand.players[2].cards == list(cards("3d 3h 3s 3c 2c"))
    # The event names the reshuffled cards (by card order); the record keeps the order they were dealt in.
    assert [ev.cards for ev in hand.events if ev.kind == "stock_reshuffled"] == [cards("2c 3c")]
    assert hand.used_reshuffles == [cards("3c 2c")]
    hand.draw(3, cards("5h"))  # the muck was 4c 4d: the second recorded stock
    assert hand.players[3].cards == list(cards("4h 4s 5c 5d 4d"))
    assert hand.feed is not None
    assert hand.feed.cards == list(cards("4c"))  # what is left of the recorded stock
    assert hand.muck == list(cards("5h"))


def test_a_recorded_reshuffle_that_is_not_the_discards_is_refused() -> None:
    table = game("five-card-draw", {n: 1_000 for n in range(1, 11)}, ante_cents=10, small_bet_cents=20,
                 big_bet_cents=40)
    hand = table.start_hand(button=10, deck=stacked_deck(10, {
        1: "2c 2d 2h 2s 3c", 2: "3d 3h 3s 4c 4d", 3: "4h 4s 5c 5d 5h", 4: "5s 6c 6d 6h 6s",
        5: "7c 7d 7h 7s 8c", 6: "8d 8h 8s 9c 9d", 7: "9h 9s Tc Td Th", 8: "Ts Jc Jd Jh Js",
        9: "Qc Qd Qh Qs Kc", 10: "Kd Kh Ks Ac Ad",
    }, stock="Ah As"), reshuffles=[cards("3c Kd")])
    for seat in range(1, 11):
        hand.check(seat)
    hand.draw(1, cards("2c 3c"))
    with pytest.raises(IllegalAction) as refused:
        hand.draw(2, cards("4c"))
    assert refused.value.code == e.BAD_RESHUFFLE
    assert hand.actor == 2
    assert hand.players[2].cards == list(cards("3d 3h 3s 4c 4d"))


def test_a_game_record_refuses_an_unknown_option_for_the_variant() -> None:
    with pytest.raises(AnnouncementError) as refused:
        game("five-card-draw", {1: 100, 2: 100}, ante_cents=10, small_bet_cents=20, big_bet_cents=40, legs_to_win=2)
    assert refused.value.option == "legs_to_win"
