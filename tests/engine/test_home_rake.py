"""The rake (issue 12): "a rake (percent of each pot as it is awarded, with a cap, none on a pot that was never bet
into)". A bet nobody calls goes back to its player, so it never stays in the pot: such a hand is not raked."""

from __future__ import annotations

from casino.engine.home.hand import HomeHand
from casino.engine.home.house import rake_due
from tests.engine.home_support import game, stacked_deck

NO_LIMIT = {"ante_cents": 100, "betting": "no_limit", "min_bet_cents": 200}
DEALT = {1: "2c 3d 4h 8s 9c", 2: "Kc Kd 4c 7s 9d", 3: "5c 6d 7h Js Qc"}
TEN_PERCENT, CAP = 1_000, 150


def _hand() -> HomeHand:
    table = game("five-card-draw", {1: 1_000, 2: 1_000, 3: 1_000}, **NO_LIMIT)
    return table.start_hand(button=3, deck=stacked_deck(3, DEALT))


def test_a_bet_nobody_calls_comes_back_and_the_antes_alone_are_not_raked() -> None:
    hand = _hand()
    hand.bet(1, 600)
    hand.fold(2)
    hand.fold(3)
    assert rake_due(hand, TEN_PERCENT, CAP, {1: 1_200, 2: 900, 3: 900}) == {}


def test_a_called_bet_stays_in_the_pot_and_the_pot_is_raked_up_to_its_cap() -> None:
    hand = _hand()
    hand.bet(1, 200)
    hand.call(2)
    hand.fold(3)
    for seat in (1, 2):
        hand.draw(seat, ())
    hand.check(1)
    hand.bet(2, 400)
    hand.fold(1)  # the second bet is not called and comes back; the first, called, stays: 300 + 400 in the pot
    assert hand.settlement is not None
    assert [(pot.amount_cents, pot.winners) for pot in hand.settlement.pots] == [(700, (2,))]
    assert rake_due(hand, TEN_PERCENT, CAP, {1: 700, 2: 1_400, 3: 900}) == {2: 70}


def test_a_raise_nobody_calls_leaves_the_called_part_in_the_pot_and_that_pot_is_raked() -> None:
    hand = _hand()
    hand.bet(1, 200)
    hand.raise_to(2, 800)
    hand.fold(3)
    hand.fold(1)  # seat 2's raise above seat 1's 200 comes back: 300 antes + 2 x 200 stay
    assert hand.settlement is not None
    assert [pot.amount_cents for pot in hand.settlement.pots] == [700]
    assert rake_due(hand, TEN_PERCENT, CAP, {1: 700, 2: 1_400, 3: 900}) == {2: 70}
