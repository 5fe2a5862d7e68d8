"""Pregnant Threes: 3s, 6s and 9s wild, announced draws, mandatory and optional draws, kill cards."""

from __future__ import annotations

import pytest

from casino.engine.errors import AnnouncementError
from casino.engine.home import errors as e
from casino.engine.home.errors import IllegalAction
from casino.engine.home.hand import Phase
from tests.engine.home_support import cards, game, stacked_deck

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}
TWO_MANDATORY_DRAWS_OF_THREE = {"draws": 2, "cards_per_draw": 3, "draw": "mandatory"}


@pytest.mark.parametrize("missing", ["draws", "cards_per_draw", "draw"])
def test_the_deal_cannot_start_until_every_announcement_is_made(missing: str) -> None:
    # "Before the deal, the dealer shall announce: (a) how many draws there will be; (b) how many cards a
    # player may exchange at each draw; (c) whether the draw is optional or mandatory" (rule 2.2).
    options = {**STAKES, **TWO_MANDATORY_DRAWS_OF_THREE}
    del options[missing]
    with pytest.raises(AnnouncementError) as refused:
        game("pregnant-threes", {1: 1_000, 2: 1_000}, **options)
    assert refused.value.option == missing


def test_two_mandatory_draws_of_three_played_through_with_pots_after_every_street() -> None:
    table = game("pregnant-threes", {1: 10_000, 2: 10_000, 3: 10_000}, **STAKES, **TWO_MANDATORY_DRAWS_OF_THREE)
    deck = stacked_deck(
        3,
        {1: "3s 6d 9h 9c Kh", 2: "As Ad Ah 2c 7d", 3: "Qs Qd 8c 5h 4d"},
        stock="Kc Kd Ks Ac 3d 5c Qh Qc 2s 6c 6h 2d 3c 9s 7s",
    )
    hand = table.start_hand(button=3, deck=deck)
    assert hand.pot_cents == 300
    hand.bet(1, 200)
    hand.call(2)
    hand.call(3)
    assert hand.pot_cents == 900
    assert hand.stacks == {1: 9_700, 2: 9_700, 3: 9_700}

    # "A mandatory draw: ... a player holds 3♠6♦9♥9♣K♥: four wild cards and a king, already five kings.
    # The player must still discard three cards, and so gives up at least two wild cards."
    with pytest.raises(IllegalAction) as refused:
        hand.draw(1, ())
    assert refused.value.code == e.WRONG_DISCARD_COUNT
    with pytest.raises(IllegalAction):
        hand.draw(1, cards("3s 6d"))
    assert hand.players[1].cards == list(cards("3s 6d 9h 9c Kh"))
    assert hand.feed is not None
    assert hand.feed.cards[:3] == list(cards("Kc Kd Ks"))
    assert hand.actor == 1
    hand.draw(1, cards("3s 6d Kh"))  # keeps 9h 9c, takes Kc Kd Ks
    hand.draw(2, cards("2c 7d Ah"))  # takes Ac 3d 5c
    hand.draw(3, cards("8c 5h 4d"))  # takes Qh Qc 2s
    assert hand.phase is Phase.BETTING
    assert hand.round.unit == 400  # the big bet after the first draw
    hand.bet(1, 400)
    hand.raise_to(2, 800)
    hand.fold(3)
    hand.call(1)
    assert hand.pot_cents == 2_500
    assert hand.stacks == {1: 8_900, 2: 8_900, 3: 9_700}

    hand.draw(1, cards("Kc Kd Ks"))  # 9h 9c 6c 6h 2d: four wild cards and a deuce
    hand.draw(2, cards("3d 5c Ac"))  # As Ad 3c 9s 7s: four aces
    hand.bet(1, 400)
    hand.call(2)
    assert hand.settled
    result = hand.settlement
    assert result is not None
    # Five of a kind ranks highest unless announced otherwise: five deuces beat four aces.
    assert [(pot.amount_cents, pot.winners) for pot in result.pots] == [(3_300, (1,))]
    assert table.stacks == {1: 11_800, 2: 8_500, 3: 9_700}


def test_three_wild_cards_with_a_natural_pair_make_five_queens() -> None:
    # "A player holds 3♥6♣Q♠Q♦9♦. The three, six and nine are all wild. With the natural pair of queens,
    # the player has five queens."
    table = game("pregnant-threes", {1: 1_000, 2: 1_000}, **STAKES, draws=1, cards_per_draw=3, draw="optional")
    hand = table.start_hand(button=2, deck=stacked_deck(2, {1: "3h 6c Qs Qd 9d", 2: "As Ah Ad Ac Kc"}))
    hand.check(1)
    hand.check(2)
    hand.draw(1, ())
    hand.draw(2, ())
    hand.check(1)
    hand.check(2)
    assert hand.settlement is not None
    assert hand.settlement.pots[0].winners == (1,)
    assert hand.settlement.descriptions[1] == "Five queens"


def test_an_optional_draw_allows_none_up_to_the_announced_number() -> None:
    table = game("pregnant-threes", {1: 1_000, 2: 1_000}, **STAKES, draws=1, cards_per_draw=2, draw="optional")
    hand = table.start_hand(button=2, deck=stacked_deck(2, {1: "2h 4c 7s Td Jd", 2: "5s 8h Kd Ac Qc"}))
    hand.check(1)
    hand.check(2)
    assert hand.can_draw(1, ())
    assert hand.can_draw(1, cards("2h 4c"))
    assert not hand.can_draw(1, cards("2h 4c 7s"))


def test_a_kill_card_dealt_on_the_draw_kills_the_player_at_once_and_their_chips_stay() -> None:
    table = game("pregnant-threes", {1: 5_000, 2: 5_000, 3: 5_000}, **STAKES, draws=1, cards_per_draw=3,
                 draw="optional", kill_cards=["Kd"])
    deck = stacked_deck(3, {1: "2h 4c 7s Td Jd", 2: "5s 8h Qd Ac Qc", 3: "2c 2d 7h 8c Jh"}, stock="Ts Kd 4h 5c")
    hand = table.start_hand(button=3, deck=deck)
    hand.bet(1, 200)
    hand.call(2)
    hand.call(3)
    assert hand.pot_cents == 900
    hand.draw(1, cards("2h 4c 7s"))  # takes Ts Kd 4h: the king of diamonds kills seat 1
    assert hand.dead == [1]
    assert 1 not in hand.live
    hand.draw(2, cards("5s"))  # 5c
    hand.draw(3, ())
    with pytest.raises(IllegalAction) as refused:
        hand.bet(1, 400)
    assert refused.value.code == e.PLAYER_DEAD
    assert hand.players[1].stack == 4_700
    assert hand.pot_cents == 900
    assert hand.actor == 2
    hand.check(2)
    hand.check(3)
    result = hand.settlement
    assert result is not None
    # Seat 1's 300 stay in the pot; seat 2's pair of queens beats seat 3's deuces.
    assert [(pot.amount_cents, pot.winners) for pot in result.pots] == [(900, (2,))]
    assert table.stacks == {1: 4_700, 2: 5_600, 3: 4_700}


def test_a_kill_card_dealt_in_the_deal_ends_a_heads_up_hand_at_once() -> None:
    table = game("pregnant-threes", {1: 5_000, 2: 5_000}, **STAKES, draws=1, cards_per_draw=3,
                 draw="optional", kill_cards=["one_eyed_jacks"])
    hand = table.start_hand(button=2, deck=stacked_deck(2, {1: "2h 4c 7s Td Js", 2: "5s 8h Qd Ac Qc"}))
    assert hand.settled
    assert hand.dead == [1]
    assert table.stacks == {1: 4_900, 2: 5_100}


def test_five_of_a_kind_ranks_below_a_straight_flush_when_announced() -> None:
    hands = {1: "3h 6c Qs Qd 9d", 2: "7s 8s Ts Js 4d"}
    stock = "9s"  # seat 2 draws the (wild) nine of spades: a jack-high straight flush

    def play(**options: object) -> tuple[int, ...]:
        table = game("pregnant-threes", {1: 1_000, 2: 1_000}, **STAKES, draws=1, cards_per_draw=1,
                     draw="optional", **options)
        hand = table.start_hand(button=2, deck=stacked_deck(2, hands, stock))
        hand.check(1)
        hand.check(2)
        hand.draw(1, ())
        hand.draw(2, cards("4d"))
        hand.check(1)
        hand.check(2)
        assert hand.settlement is not None
        return hand.settlement.pots[0].winners

    assert play() == (1,)  # five queens, the highest hand by default
    assert play(five_of_a_kind="below_straight_flush") == (2,)  # the seven-to-jack straight flush


def test_a_mandatory_draw_of_five_refuses_a_deal_that_leaves_too_few_cards() -> None:
    options = {**STAKES, "draws": 1, "cards_per_draw": 5, "draw": "mandatory"}
    table = game("pregnant-threes", {seat: 1_000 for seat in range(1, 11)}, **options)
    deck = stacked_deck(10, {})  # the deck in its new-deck order
    with pytest.raises(IllegalAction) as refused:
        table.start_hand(button=10, deck=deck)
    assert refused.value.code == e.TOO_MANY_PLAYERS
    assert table.hands == []
    nine = game("pregnant-threes", {seat: 1_000 for seat in range(1, 10)}, **options)
    assert nine.start_hand(button=9, deck=deck).pot_cents == 900
