"""A live hand: started with no deck, given each card as it is dealt and the reshuffled stock when it runs out."""

from __future__ import annotations

import copy

import pytest

from casino.engine.cards import Card, parse_cards
from casino.engine.home import errors as e
from casino.engine.home.awaiting import Awaiting, AwaitKind
from casino.engine.home.errors import IllegalAction
from casino.engine.home.hand import HomeHand, Phase
from casino.engine.home.record import HandRecord, hand_record
from casino.engine.home.replay import rebuild_hand
from casino.engine.rules.model import Rules
from tests.engine.home_support import cards, stacked_deck

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}


def _live(variant: str = "five-card-draw", stacks: dict[int, int] | None = None, button: int = 3,
          **options: object) -> HomeHand:
    rules = Rules.announce(variant, {**STAKES, **options})
    return HomeHand(rules=rules, stacks=stacks or {1: 5_000, 2: 5_000, 3: 5_000}, button=button)


def _deal(hand: HomeHand, deck: list[Card]) -> None:
    """Give the hand the cards it asks for, off the top of `deck`, until it asks for something else."""
    while hand.awaiting.kind is AwaitKind.CARD:
        hand.deal_card(deck.pop(0))


def _snapshot(hand: HomeHand) -> object:
    return (copy.deepcopy(hand.players), hand.awaiting, len(hand.events), list(hand.muck),
            set(hand.stock.candidates), hand.phase)


def test_a_live_hand_posts_the_antes_and_asks_for_each_card_clockwise_from_the_buttons_left() -> None:
    hand = _live(button=3)
    assert hand.phase is Phase.DEALING
    assert hand.pot_cents == 300
    assert hand.awaiting == Awaiting(AwaitKind.CARD, 1, 1)
    receivers = []
    for card in stacked_deck(3, {1: "2c 7d 9h Js Kc", 2: "3c 8d Th Qs Ac", 3: "4c 5d 6h 8s Tc"})[:15]:
        receivers.append(hand.awaiting.seat)
        hand.deal_card(card)
    assert receivers == [1, 2, 3] * 5
    assert hand.players[1].cards == list(cards("2c 7d 9h Js Kc"))
    assert hand.awaiting == Awaiting(AwaitKind.ACTION, 1)
    assert hand.actor == 1


def test_a_card_already_dealt_or_for_the_wrong_seat_or_when_none_is_due_is_refused_without_change() -> None:
    hand = _live()
    hand.deal_card(Card.parse("As"))
    before = _snapshot(hand)
    with pytest.raises(IllegalAction) as refused:
        hand.deal_card(Card.parse("As"))
    assert refused.value.code == e.CARD_ALREADY_SEEN
    with pytest.raises(IllegalAction) as refused:
        hand.deal_card(Card.parse("Ks"), seat=1)  # the second card goes to seat 2
    assert refused.value.code == e.OUT_OF_TURN
    with pytest.raises(IllegalAction) as refused:
        hand.check(1)  # nobody bets before the deal is done
    assert refused.value.code == e.WRONG_PHASE
    assert _snapshot(hand) == before
    assert hand.can_deal_card(Card.parse("Ks"), seat=2)
    _deal(hand, list(parse_cards("Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s Ah Kh")))
    with pytest.raises(IllegalAction) as refused:
        hand.deal_card(Card.parse("Qh"))
    assert refused.value.code == e.NO_CARD_DUE


def test_a_draw_waits_for_its_replacements_then_the_next_player_draws() -> None:
    hand = _live(button=2, stacks={1: 5_000, 2: 5_000})
    _deal(hand, stacked_deck(2, {1: "2c 7d 9h Js Kc", 2: "3c 8d Th Qs Ac"}))
    hand.check(1)
    hand.check(2)
    assert hand.awaiting == Awaiting(AwaitKind.DRAW, 1)
    hand.draw(1, cards("2c 7d 9h"))
    assert hand.awaiting == Awaiting(AwaitKind.CARD, 1, 3)
    assert hand.actor is None
    with pytest.raises(IllegalAction) as refused:
        hand.draw(2, ())  # seat 1's replacements come first
    assert refused.value.code == e.WRONG_PHASE
    hand.deal_card(Card.parse("Jh"))
    assert hand.awaiting == Awaiting(AwaitKind.CARD, 1, 2)
    hand.deal_card(Card.parse("Jd"))
    hand.deal_card(Card.parse("Jc"))
    assert hand.players[1].cards == list(cards("Js Kc Jh Jd Jc"))
    assert hand.muck == list(cards("2c 7d 9h"))  # the drawer's discards join the muck once served
    assert hand.awaiting == Awaiting(AwaitKind.DRAW, 2)
    hand.draw(2, ())
    assert hand.awaiting == Awaiting(AwaitKind.ACTION, 1)
    hand.bet(1, 400)
    hand.call(2)
    assert hand.settled
    assert hand.awaiting.kind is AwaitKind.NOTHING
    assert hand.settlement is not None
    assert hand.settlement.pots[0].winners == (1,)  # three jacks beat ace high


def _ten_players_who_checked_to_the_draw() -> HomeHand:
    # DESIGN 7: "If the stock runs out during a draw, the discards so far, except the drawing player's own, are
    # shuffled into a new stock." Ten players leave two cards in the stock.
    hand = _live(stacks=dict.fromkeys(range(1, 11), 10_000), button=10, ante_cents=10, small_bet_cents=20,
                 big_bet_cents=40)
    _deal(hand, stacked_deck(10, {
        1: "2c 2d 2h 2s 3c", 2: "3d 3h 3s 4c 4d", 3: "4h 4s 5c 5d 5h", 4: "5s 6c 6d 6h 6s",
        5: "7c 7d 7h 7s 8c", 6: "8d 8h 8s 9c 9d", 7: "9h 9s Tc Td Th", 8: "Ts Jc Jd Jh Js",
        9: "Qc Qd Qh Qs Kc", 10: "Kd Kh Ks Ac Ad",
    })[:50])
    for seat in range(1, 11):
        hand.check(seat)
    return hand


def test_when_the_stock_runs_out_the_hand_asks_for_the_reshuffled_discards_except_the_drawers_own() -> None:
    hand = _ten_players_who_checked_to_the_draw()
    assert hand.stock.count == 2
    hand.draw(1, cards("2c 3c"))
    hand.deal_card(Card.parse("Ah"))
    hand.deal_card(Card.parse("As"))
    hand.draw(2, cards("4c 4d"))
    assert hand.awaiting == Awaiting(AwaitKind.RESHUFFLE, 2, 2)
    before = _snapshot(hand)
    for bad in ("3c 4c", "3c", "3c 2c 2c"):  # seat 2's own discards stay out; each card once
        with pytest.raises(IllegalAction) as refused:
            hand.reshuffle(cards(bad) if bad != "3c 2c 2c" else parse_cards(bad, unique=False))
        assert refused.value.code == e.BAD_RESHUFFLE
    with pytest.raises(IllegalAction) as refused:
        hand.deal_card(Card.parse("3c"))
    assert refused.value.code == e.NO_CARD_DUE
    assert _snapshot(hand) == before
    hand.reshuffle(cards("3c 2c"))
    assert hand.awaiting == Awaiting(AwaitKind.CARD, 2, 2)
    with pytest.raises(IllegalAction) as refused:
        hand.deal_card(Card.parse("4c"))  # not in the new stock: seat 2's own discard
    assert refused.value.code == e.CARD_ALREADY_SEEN
    hand.deal_card(Card.parse("2c"))
    hand.deal_card(Card.parse("3c"))
    assert hand.players[2].cards == list(cards("3d 3h 3s 2c 3c"))
    assert hand.muck == list(cards("4c 4d"))
    # The record keeps the reshuffled stock in the order its cards were dealt.
    assert hand.used_reshuffles == [cards("2c 3c")]


def test_a_draw_the_stock_and_the_discards_cannot_serve_is_refused() -> None:
    hand = _ten_players_who_checked_to_the_draw()
    hand.draw(1, cards("2c 3c"))
    hand.deal_card(Card.parse("Ah"))
    hand.deal_card(Card.parse("As"))
    with pytest.raises(IllegalAction) as refused:
        hand.draw(2, cards("3s 4c 4d"))  # two cards in the muck, three needed
    assert refused.value.code == e.STOCK_EXHAUSTED
    assert hand.draw_choice() is not None
    assert hand.draw_choice().available == 2  # type: ignore[union-attr]
    assert hand.draw_choice().maximum == 2  # type: ignore[union-attr]


def test_a_kill_card_dealt_live_kills_at_once_and_the_deal_goes_on() -> None:
    hand = _live("pregnant-threes", stacks={1: 5_000, 2: 5_000, 3: 5_000}, button=3, draws=1, cards_per_draw=3,
                 draw="optional", kill_cards=["Kd"])
    hand.deal_card(Card.parse("Kd"))
    assert hand.dead == [1]
    assert hand.awaiting == Awaiting(AwaitKind.CARD, 2, 1)
    _deal(hand, list(parse_cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d")))
    assert len(hand.players[1].cards) == 5  # the deal goes round; seat 1 is out of the betting
    assert hand.actor == 2


def test_a_heads_up_hand_ends_as_soon_as_a_kill_card_leaves_one_player() -> None:
    hand = _live("pregnant-threes", stacks={1: 5_000, 2: 5_000}, button=2, draws=1, cards_per_draw=3,
                 draw="optional", kill_cards=["one_eyed_jacks"])
    hand.deal_card(Card.parse("Js"))
    assert hand.settled
    assert hand.stacks == {1: 4_900, 2: 5_100}
    assert hand.deck[0] == Card.parse("Js")  # the record's deck: the card dealt, then the rest
    assert len(set(hand.deck)) == 52


def test_a_player_who_leaves_during_the_deal_gets_no_more_cards() -> None:
    hand = _live(stacks={1: 5_000, 2: 5_000, 3: 5_000}, button=3)
    hand.deal_card(Card.parse("2c"))
    hand.leave(2)
    assert hand.awaiting == Awaiting(AwaitKind.CARD, 3, 1)
    _deal(hand, list(parse_cards("3c 4c 5c 6c 7c 8c 9c Tc Jc")))
    assert [len(hand.players[seat].cards) for seat in (1, 2, 3)] == [5, 0, 5]
    assert hand.actor == 1


def test_a_hand_in_progress_is_rebuilt_from_its_record_and_goes_on_live() -> None:
    hand = _live(button=2, stacks={1: 5_000, 2: 5_000})
    deck = stacked_deck(2, {1: "2c 7d 9h Js Kc", 2: "3c 8d Th Qs Ac"}, stock="Jh Jd")
    _deal(hand, deck)
    hand.bet(1, 200)
    hand.call(2)
    hand.draw(1, cards("2c 7d 9h"))
    hand.deal_card(deck.pop(0))
    hand.deal_card(deck.pop(0))  # one replacement still to come
    stored = hand_record(hand)
    assert stored.dealt == 12
    rebuilt = rebuild_hand(hand.rules, HandRecord.from_dict(stored.to_dict()), stacks={1: 5_000, 2: 5_000})
    assert rebuilt.events == hand.events
    assert rebuilt.awaiting == Awaiting(AwaitKind.CARD, 1, 1)
    rebuilt.deal_card(Card.parse("Jc"))
    hand.deal_card(Card.parse("Jc"))
    assert rebuilt.events == hand.events
    assert rebuilt.awaiting == Awaiting(AwaitKind.DRAW, 2)
