"""Manual hands: physical cards the system never sees until the showdown. The dealer records the betting, how many
cards each player draws, a kill-card death and the hands shown; the engine decides the wild rank, pots and legs."""

from __future__ import annotations

import copy

import pytest

from casino.engine.cards import Card, Rank
from casino.engine.home import errors as e
from casino.engine.home.awaiting import Awaiting, AwaitKind
from casino.engine.home.errors import IllegalAction
from casino.engine.home.game import HomeGame
from casino.engine.home.hand import HomeHand, Phase
from casino.engine.home.record import GameRecord, export_record
from casino.engine.home.replay import replay
from tests.engine.home_support import cards, game, stacked_deck

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}


def _snapshot(hand: HomeHand) -> object:
    return (copy.deepcopy(hand.players), hand.awaiting, len(hand.events), list(hand.actions), hand.phase)


def _refused(hand: HomeHand, action: object, code: str) -> None:
    before = _snapshot(hand)
    with pytest.raises(IllegalAction) as refused:
        action()  # type: ignore[operator]
    assert refused.value.code == code
    assert refused.value.rule
    assert _snapshot(hand) == before, "a refused action changed the hand"


def _dealt(table: HomeGame, button: int) -> HomeHand:
    """A manual hand whose cards are out: the first betting round begins."""
    hand = table.start_hand(button=button, manual=True)
    hand.close_deal()
    return hand


def _draw_then_check(hand: HomeHand, draws: dict[int, int]) -> None:
    """Each seat exchanges the count given, then everyone checks the betting round after the draw."""
    for seat, count in draws.items():
        hand.draw_unseen(seat, count)
    for seat in draws:
        hand.check(seat)


def _to_showdown(table: HomeGame, button: int, draws: dict[int, int]) -> HomeHand:
    """Everyone checks; each seat draws the count given; the hand waits for the hands shown."""
    hand = _dealt(table, button)
    while hand.phase is not Phase.SHOWDOWN and not hand.settled:
        seat = hand.actor
        assert seat is not None
        if hand.phase is Phase.DRAWING:
            hand.draw_unseen(seat, draws[seat])
        else:
            hand.check(seat)
    return hand


def test_a_manual_hand_awaits_the_deal_then_the_betting_and_the_hands_shown_after_the_last_round() -> None:
    table = game("five-card-draw", {1: 5_000, 2: 5_000, 3: 5_000}, **STAKES)
    hand = table.start_hand(button=3, manual=True)
    assert hand.awaiting == Awaiting(AwaitKind.DEAL)
    _refused(hand, lambda: hand.check(1), e.WRONG_PHASE)
    hand.close_deal()
    _refused(hand, hand.close_deal, e.WRONG_PHASE)
    assert hand.awaiting == Awaiting(AwaitKind.ACTION, 1)
    hand.bet(1, 200)
    hand.call(2)
    hand.fold(3)
    assert hand.awaiting == Awaiting(AwaitKind.DRAW, 1)
    hand.draw_unseen(1, 3)
    hand.draw_unseen(2, 0)
    hand.check(1)
    hand.check(2)
    assert hand.phase is Phase.SHOWDOWN
    assert hand.awaiting == Awaiting(AwaitKind.SHOW, 1, seats=(1, 2))
    hand.show(2, cards("Kc Kd 4h 7s 9c"))  # any order
    assert hand.awaiting == Awaiting(AwaitKind.SHOW, 1, seats=(1,))
    hand.show(1, cards("Ah Ad 2c 5d 8s"))
    assert hand.settled
    assert table.stacks == {1: 5_400, 2: 4_700, 3: 4_900}  # antes 300 + 2 x 200 to seat 1
    assert hand.actions == ["dealt", "1 bet 200", "2 call", "3 fold", "1 draw 3", "2 draw 0", "1 check", "2 check",
                            "2 show Kc Kd 4h 7s 9c", "1 show Ah Ad 2c 5d 8s"]


# Freak of Nature, article 3: "Neither player holds a six, so fives become wild. A's two fives join the pair of nines
# to make four nines with a king. B has no five and plays three queens. A wins." ... "Had B held a six in place of the
# 7♦, sixes would have been wild instead. A would have had only two pair, and B would have had four queens."
@pytest.mark.parametrize(
    ("b_shows", "wild", "winner", "headline"),
    [
        ("Qs Qd Qc 4h 7d", Rank.FIVE, 1, "Fives wild: four nines beat three queens"),
        ("Qs Qd Qc 4h 6d", Rank.SIX, 2, "Sixes wild: four queens beat two pair, nines and fives"),
    ],
)
def test_the_freak_of_nature_example_decided_from_the_hands_shown(
    b_shows: str, wild: Rank, winner: int, headline: str
) -> None:
    table = game("freak-of-nature", {1: 5_000, 2: 5_000}, **STAKES)
    hand = _to_showdown(table, 2, {1: 1, 2: 2})
    hand.show(1, cards("5h 5d 9c 9s Kh"))
    hand.show(2, cards(b_shows))
    assert hand.settlement is not None
    assert hand.settlement.wild_rank is wild
    assert hand.settlement.pots[0].winners == (winner,)
    assert hand.result().headline == headline  # type: ignore[union-attr]


# Pregnant Threes: "A player holds 3♥6♣Q♠Q♦9♦. The three, six and nine are all wild. With the natural pair of
# queens, the player has five queens."; "under two draws of three, mandatory, each player must discard exactly three
# cards at each of two draws".
def test_pregnant_threes_two_mandatory_draws_of_three_and_five_queens() -> None:
    table = game("pregnant-threes", {1: 5_000, 2: 5_000}, **STAKES, draws=2, cards_per_draw=3, draw="mandatory")
    hand = _dealt(table, 2)
    hand.check(1)
    hand.check(2)
    _refused(hand, lambda: hand.draw_unseen(1, 2), e.WRONG_DISCARD_COUNT)
    _refused(hand, lambda: hand.draw_unseen(1, 0), e.WRONG_DISCARD_COUNT)
    _draw_then_check(hand, {1: 3, 2: 3})
    assert hand.draw_choice().number == 2  # type: ignore[union-attr]
    _draw_then_check(hand, {1: 3, 2: 3})
    hand.show(1, cards("3h 6c Qs Qd 9d"))
    hand.show(2, cards("As Ad Ac Ah Kc"))
    assert hand.settlement is not None
    assert hand.settlement.descriptions == {1: "Five queens", 2: "Four aces"}
    assert table.stacks == {1: 5_100, 2: 4_900}


# Pregnant Threes: "A player who receives a kill card is disqualified and their hand is dead. The dealer shall name
# any kill cards before the deal."
def test_a_kill_card_death_is_recorded_at_once_and_the_chips_stay_in_the_pot() -> None:
    table = game("pregnant-threes", {1: 5_000, 2: 5_000, 3: 5_000}, **STAKES, draws=1, cards_per_draw=3,
                 draw="optional", kill_cards=["Kd"])
    hand = _dealt(table, 3)
    hand.bet(1, 200)
    hand.call(2)
    hand.call(3)
    hand.draw_unseen(1, 3)
    _refused(hand, lambda: hand.kill(1, Card.parse("Ks")), e.NOT_A_KILL_CARD)  # only the named kill cards kill
    hand.kill(1, Card.parse("Kd"))  # seat 1's replacements held the king of diamonds
    assert hand.dead == [1]
    assert hand.actions[-1] == "1 killed Kd"
    _refused(hand, lambda: hand.kill(2, Card.parse("Kd")), e.CARD_ALREADY_SEEN)
    _refused(hand, lambda: hand.bet(1, 400), e.PLAYER_DEAD)
    hand.draw_unseen(2, 1)
    hand.draw_unseen(3, 0)
    hand.check(2)
    hand.check(3)
    _refused(hand, lambda: hand.show(1, cards("2c 3c 4c 5c 7c")), e.PLAYER_DEAD)
    _refused(hand, lambda: hand.show(2, cards("Kd Qs Qc 8h 4d")), e.CARD_ALREADY_SEEN)  # it killed seat 1
    hand.show(2, cards("Qs Qc 8h 4d 2s"))
    hand.show(3, cards("2c 2d 7h 8c Jh"))
    assert hand.settlement is not None
    assert [(pot.amount_cents, pot.winners) for pot in hand.settlement.pots] == [(900, (2,))]
    assert table.stacks == {1: 4_700, 2: 5_600, 3: 4_700}
    assert "Seat 1 is dead: K♦ is a kill card" in hand.result().lines  # type: ignore[union-attr]


def test_a_kill_that_leaves_one_player_ends_the_hand_uncontested() -> None:
    table = game("pregnant-threes", {1: 5_000, 2: 5_000}, **STAKES, draws=1, cards_per_draw=3, draw="optional",
                 kill_cards=["one_eyed_jacks"])
    hand = table.start_hand(button=2, manual=True)
    hand.kill(2, Card.parse("Jh"))  # dealt in the deal, before anyone acts
    assert hand.settled
    assert table.stacks == {1: 5_100, 2: 4_900}


# Ruling: a shown hand holding a kill card means its player received the card and is dead (the sheets: "A player who
# receives a kill card is disqualified and their hand is dead"), even if the death was not recorded when it happened.
def test_a_hand_shown_holding_a_kill_card_is_dead_at_the_showdown() -> None:
    table = game("five-card-draw", {1: 5_000, 2: 5_000, 3: 5_000}, **STAKES, kill_cards=["man_with_the_axe"])
    hand = _to_showdown(table, 3, {1: 0, 2: 0, 3: 0})
    hand.show(1, cards("Kd Kc Ks Kh 2c"))  # four kings, but the king of diamonds kills
    assert hand.dead == [1]
    assert hand.awaiting == Awaiting(AwaitKind.SHOW, 2, seats=(2, 3))
    hand.show(2, cards("3c 3d 7h 8s 9c"))
    hand.show(3, cards("4c 4d 7c 8d Tc"))
    assert hand.settlement is not None
    assert hand.settlement.pots[0].winners == (3,)
    heads_up = game("five-card-draw", {1: 5_000, 2: 5_000}, **STAKES, kill_cards=["Kd"])
    hand = _to_showdown(heads_up, 2, {1: 0, 2: 0})
    hand.show(1, cards("Kd Kc Ks Kh 2c"))
    assert hand.settled  # seat 2 wins uncontested: its hand need not be shown
    assert hand.settlement is not None
    assert hand.settlement.pots[0].winners == (2,)


def test_shown_hands_never_repeat_a_card() -> None:
    table = game("five-card-draw", {1: 5_000, 2: 5_000, 3: 5_000}, **STAKES)
    hand = _to_showdown(table, 3, {1: 0, 2: 0, 3: 0})
    hand.show(1, cards("As Ad 2c 5d 8s"))
    _refused(hand, lambda: hand.show(2, cards("As Kd 3c 5h 8h")), e.CARD_ALREADY_SEEN)
    _refused(hand, lambda: hand.show(2, [Card.parse("Kd"), Card.parse("Kd"), *cards("3c 5h 8h")]),
             e.CARD_ALREADY_SEEN)
    _refused(hand, lambda: hand.show(2, cards("Kd 3c 5h 8h")), e.WRONG_CARD_COUNT)
    _refused(hand, lambda: hand.show(1, cards("Kd 3c 5h 8h 9h")), e.ALREADY_SHOWN)
    hand.show(2, cards("Kd Kc 3c 5h 8h"))
    assert hand.awaiting.seats == (3,)


# Five-card draw: "at most 3, or 4 when keeping an ace" (DESIGN 7). The tablet asks the dealer to confirm the ace;
# the hand shown must agree.
def test_a_draw_of_four_needs_a_confirmed_ace_which_the_shown_hand_must_hold() -> None:
    table = game("five-card-draw", {1: 5_000, 2: 5_000}, **STAKES)
    hand = _dealt(table, 2)
    hand.check(1)
    hand.check(2)
    _refused(hand, lambda: hand.draw_unseen(1, 4), e.WRONG_DISCARD_COUNT)
    _refused(hand, lambda: hand.draw_unseen(1, 3, keeps_ace=True), e.ACE_NOT_NEEDED)
    _refused(hand, lambda: hand.draw_unseen(1, 5, keeps_ace=True), e.WRONG_DISCARD_COUNT)
    hand.draw_unseen(1, 4, keeps_ace=True)
    assert hand.actions[-1] == "1 draw 4 ace"
    hand.draw_unseen(2, 2)
    hand.check(1)
    hand.check(2)
    _refused(hand, lambda: hand.show(1, cards("Kc Kd 4h 7s 9c")), e.ACE_NOT_SHOWN)
    hand.show(1, cards("Ac Kd 4h 7s 9c"))
    hand.show(2, cards("Qs Qd 2h 3s 5c"))
    assert table.stacks == {1: 4_900, 2: 5_100}


# Three Legged Race: "Every player still in the hand shall discard exactly three cards ... No player may stand pat."
# "After the draw, Player A holds Q♠Q♦8♣8♥3♠ ... Player B holds J♣J♥J♠6♦2♣ ... Player B scores a leg."
def test_the_three_legged_race_example_played_manually() -> None:
    table = game("three-legged-race", {1: 1_000, 2: 1_000}, legs_to_win=3, **STAKES)
    hand = _dealt(table, 2)
    hand.check(1)
    hand.check(2)
    _refused(hand, lambda: hand.draw_unseen(1, 0), e.WRONG_DISCARD_COUNT)
    _refused(hand, lambda: hand.draw_unseen(1, 4), e.WRONG_DISCARD_COUNT)
    _draw_then_check(hand, {1: 3, 2: 3})
    hand.show(1, cards("Qs Qd 8c 8h 3s"))
    hand.show(2, cards("Jc Jh Js 6d 2c"))
    assert table.legs == {1: 0, 2: 1}
    assert table.carried_pot_cents == 200


def test_a_three_legged_race_tie_that_ends_no_game_says_tie_not_split() -> None:
    # "each_scores" (the default tie rule): both score a leg, and nobody has the legs called, so the pot stays.
    table = game("three-legged-race", {1: 1_000, 2: 1_000}, legs_to_win=3, **STAKES)
    hand = _dealt(table, 2)
    hand.check(1)
    hand.check(2)
    _draw_then_check(hand, {1: 3, 2: 3})
    hand.show(1, cards("Qs Qd 8c 8h 3s"))
    hand.show(2, cards("Qh Qc 8d 8s 3c"))
    assert table.legs == {1: 1, 2: 1}
    result = hand.result({1: "Ann", 2: "Bob"})
    assert result is not None
    assert result.headline == "Ann and Bob tie with two pair, queens and eights each"
    assert "Pot $2.00 stays in the middle" in result.lines
    assert not any("split" in line for line in result.lines)


def test_the_stock_is_counted_and_refuses_a_draw_it_cannot_serve() -> None:
    # Ten players leave two cards; the muck then holds only the discards so far, except the drawer's own.
    table = game("five-card-draw", dict.fromkeys(range(1, 11), 1_000), **STAKES)
    hand = _dealt(table, 10)
    for seat in range(1, 11):
        hand.check(seat)
    assert hand.draw_choice().available == 2  # type: ignore[union-attr]
    hand.draw_unseen(1, 2)
    _refused(hand, lambda: hand.draw_unseen(2, 3), e.STOCK_EXHAUSTED)
    hand.draw_unseen(2, 2)  # the two discards of seat 1, reshuffled
    assert [event.kind.value for event in hand.events[-2:]] == ["stock_reshuffled", "drew"]


def test_a_manual_hand_takes_no_dealt_cards_and_a_dealt_hand_no_manual_records() -> None:
    manual = game("five-card-draw", {1: 5_000, 2: 5_000}, **STAKES).start_hand(button=2, manual=True)
    _refused(manual, lambda: manual.deal_card(Card.parse("As")), e.MANUAL_HAND)
    manual.close_deal()
    manual.check(1)
    manual.check(2)
    _refused(manual, lambda: manual.draw(1, cards("2c")), e.MANUAL_HAND)
    dealt = game("five-card-draw", {1: 5_000, 2: 5_000}, **STAKES).start_hand(button=2)
    for card in cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"):
        dealt.deal_card(card)
    dealt.check(1)
    dealt.check(2)
    _refused(dealt, lambda: dealt.draw_unseen(1, 2), e.CARDS_DEALT_BY_SYSTEM)
    _refused(dealt, lambda: dealt.kill(1, Card.parse("Kd")), e.CARDS_DEALT_BY_SYSTEM)
    _refused(dealt, dealt.close_deal, e.CARDS_DEALT_BY_SYSTEM)
    with pytest.raises(IllegalAction) as refused:
        HomeHand(rules=dealt.rules, stacks={1: 100, 2: 100}, button=1, deck=cards("As"), manual=True)
    assert refused.value.code == e.BAD_DECK


def test_a_manual_game_exports_and_replays_to_the_same_result() -> None:
    table = game("three-legged-race", {1: 1_000, 2: 1_000, 3: 1_000}, legs_to_win=1, **STAKES)
    hand = _dealt(table, 3)
    hand.bet(1, 200)
    hand.call(2)
    hand.fold(3)
    _draw_then_check(hand, {1: 3, 2: 3})
    hand.show(2, cards("Qs Qd 8c 8h 3s"))
    hand.show(1, cards("Jc Jh Js 6d 2c"))
    record = export_record(table, {1: "Ann", 2: "Bob", 3: "Cy"})
    assert record["hands"] == [{"button": 3, "manual": True, "actions": [
        "dealt", "1 bet 200", "2 call", "3 fold", "1 draw 3", "2 draw 3", "1 check", "2 check",
        "2 show Qs Qd 8c 8h 3s", "1 show Jc Jh Js 6d 2c"]}]
    result = replay(GameRecord.from_dict(record))
    assert result["hands"] == [{"wild_rank": None, "dead": [], "legs": {"1": 1, "2": 0, "3": 0},
                                "pots": [{"amount_cents": 700, "winners": [1]}]}]
    assert result["stacks"] == {"1": 1_400, "2": 700, "3": 900}
    assert result["game_winner"] == 1


def test_a_kill_at_the_deal_counts_before_the_first_betting_round_as_when_the_system_deals() -> None:
    # Seats 1 and 2 are all in for their antes; seat 3 alone has chips, so the first betting round is skipped and
    # seat 3's ante above the others' would come back to it. Dealt a kill card at the deal, it is dead first:
    # "chips already in the pot stay there" (DESIGN 4.6).
    def hand_with_kill(*, before_the_end_of_the_deal: bool) -> HomeHand:
        table = game("five-card-draw", {1: 28, 2: 12, 3: 558}, **{**STAKES, "ante_cents": 36}, kill_cards=["Kd"])
        hand = table.start_hand(button=3, manual=True)
        if before_the_end_of_the_deal:
            hand.kill(3, Card.parse("Kd"))
            hand.close_deal()
        else:
            hand.close_deal()
            hand.kill(3, Card.parse("Kd"))
        return hand

    at_the_deal = hand_with_kill(before_the_end_of_the_deal=True)
    assert at_the_deal.pot_cents == 28 + 12 + 36
    dealt = game("five-card-draw", {1: 28, 2: 12, 3: 558}, **{**STAKES, "ante_cents": 36},
                 kill_cards=["Kd"]).start_hand(button=3, deck=stacked_deck(3, {1: "2c 3c 4c 5c 7c",
                                                                                 2: "2d 3d 4d 5d 7d",
                                                                                 3: "Kd 3h 4h 5h 7h"}))
    assert dealt.pot_cents == at_the_deal.pot_cents  # the system dealing the same kill card agrees
    later = hand_with_kill(before_the_end_of_the_deal=False)
    assert later.pot_cents == 28 + 12 + 28  # recorded after the deal: the skipped round had returned seat 3's 8
