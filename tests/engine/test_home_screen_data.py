"""What a dealer screen and the API read from a hand: legal actions with amounts, the draw rule, pots, the result."""

from __future__ import annotations

from casino.engine.cards import Rank
from casino.engine.home.draws import DrawChoice
from casino.engine.home.hand import HomeHand
from casino.engine.home.legal import AmountRange, LegalActions
from casino.engine.home.pots import Pot
from tests.engine.home_support import cards, game, showdown_hand, stacked_deck

HANDS = {1: "2c 7d 9h Js Kc", 2: "3c 8d Th Qs Ac", 3: "4c 5d 6h 8s Tc", 4: "2d 3h 5s 9c Jd"}
FIXED = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}


def _hand(stacks: dict[int, int], button: int = 4, variant: str = "five-card-draw", **options: object) -> HomeHand:
    table = game(variant, stacks, **(options or FIXED))
    return table.start_hand(button=button, deck=stacked_deck(button, {s: HANDS[s] for s in stacks}))


def test_fixed_limit_offers_check_or_the_small_bet_then_call_or_one_raise() -> None:
    hand = _hand({1: 5_000, 2: 5_000, 3: 5_000, 4: 5_000})
    assert hand.legal_actions() == LegalActions(seat=1, fold=True, check=True, call=None,
                                                bet=AmountRange(200, 200), raise_to=None, all_in=None, pot=None)
    assert hand.legal_actions().kinds == ("fold", "check", "bet")  # type: ignore[union-attr]
    hand.bet(1, 200)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.call, legal.raise_to, legal.check) == (2, 200, AmountRange(400, 400), False)
    hand.raise_to(2, 400)
    hand.raise_to(3, 600)
    hand.raise_to(4, 800)
    # "1 bet + 3 raises per round" (DESIGN 7): seat 1 may only call or fold now.
    assert hand.legal_actions().kinds == ("fold", "call")  # type: ignore[union-attr]
    assert hand.legal_actions().call == 600  # type: ignore[union-attr]


def test_pot_limit_gives_the_minimum_and_the_pot_size_amounts() -> None:
    hand = _hand({1: 50_000, 2: 50_000, 3: 50_000, 4: 50_000}, ante_cents=100, betting="pot_limit",
                 min_bet_cents=200)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.bet, legal.pot, legal.all_in) == (AmountRange(200, 400), 400, None)  # the pot is 400
    hand.bet(1, 400)
    legal = hand.legal_actions()
    assert legal is not None
    # Seat 2 may raise to 400 (call) + 1,200 (pot after the call) = 1,600, and at least by the last bet.
    assert (legal.call, legal.raise_to, legal.pot) == (400, AmountRange(800, 1_600), 1_600)


def test_no_limit_bets_run_from_the_minimum_to_all_in() -> None:
    hand = _hand({1: 50_000, 2: 50_000, 3: 3_000, 4: 50_000}, ante_cents=100, betting="no_limit", min_bet_cents=200)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.bet, legal.all_in, legal.pot) == (AmountRange(200, 49_900), 49_900, 400)
    hand.bet(1, 1_000)
    hand.raise_to(2, 5_000)
    legal = hand.legal_actions()
    assert legal is not None
    # Seat 3 has 2,900 behind: it cannot raise, a call puts it all in.
    assert (legal.seat, legal.call, legal.raise_to, legal.all_in) == (3, 2_900, None, 2_900)


def test_no_pot_size_amount_when_the_stack_is_short_of_the_pot() -> None:
    # The pot is 400 and seat 1 has 300 behind: the most it may bet is all in, not "the pot".
    hand = _hand({1: 400, 2: 50_000, 3: 50_000, 4: 50_000}, ante_cents=100, betting="pot_limit", min_bet_cents=200)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.bet, legal.all_in, legal.pot) == (AmountRange(200, 300), 300, None)


def test_a_seat_with_chips_in_the_round_is_told_them_beside_its_all_in_total() -> None:
    # Bob's hand: $13 in this round, $9 behind, facing a raise: a call and going all in both put in $9, to $22.
    hand = _hand({1: 50_000, 2: 2_300, 3: 50_000, 4: 50_000}, ante_cents=100, betting="no_limit",
                 min_bet_cents=200)
    hand.bet(1, 1_300)
    hand.call(2)
    hand.raise_to(3, 5_000)
    hand.fold(4)
    hand.fold(1)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.call, legal.all_in, legal.in_round, legal.raise_to) == (2, 900, 2_200, 1_300, None)
    assert legal.to_dict()["in_round_cents"] == 1_300


def test_every_amount_offered_is_accepted_and_one_beyond_is_refused() -> None:
    hand = _hand({1: 50_000, 2: 50_000, 3: 50_000, 4: 50_000}, ante_cents=100, betting="pot_limit",
                 min_bet_cents=200)
    hand.bet(1, 400)
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.raise_to is not None
    for total in (legal.raise_to.minimum, legal.raise_to.maximum):
        assert hand.can_raise_to(2, total)
    assert not hand.can_raise_to(2, legal.raise_to.minimum - 1)
    assert not hand.can_raise_to(2, legal.raise_to.maximum + 1)


def test_forced_play_offers_no_fold() -> None:
    table = game("three-legged-race", {1: 5_000, 2: 5_000}, forced_play=True, **FIXED)
    hand = table.start_hand(button=2, deck=stacked_deck(2, {1: HANDS[1], 2: HANDS[2]}))
    assert "fold" not in hand.legal_actions().kinds  # type: ignore[union-attr]


def test_the_draw_rule_per_variant_and_per_draw() -> None:
    # Three Legged Race: "every player still in the hand shall discard exactly three cards".
    table = game("three-legged-race", {1: 5_000, 2: 5_000}, **FIXED)
    hand = table.start_hand(button=2, deck=stacked_deck(2, {1: HANDS[1], 2: HANDS[2]}))
    hand.check(1)
    hand.check(2)
    choice = hand.draw_choice()
    assert choice is not None
    assert (choice.seat, choice.minimum, choice.maximum, choice.rule.mandatory) == (1, 3, 3, True)
    assert str(choice) == "Discard exactly 3 cards"
    # Five-card draw: at most 3, or 4 keeping an ace.
    hand = _hand({1: 5_000, 2: 5_000}, button=2)
    hand.check(1)
    hand.check(2)
    assert str(hand.draw_choice()) == "Stand pat or discard up to 3 cards (4 keeping an ace)"
    # Pregnant Threes, two draws of two, optional: the same rule at each draw, numbered.
    hand = _hand({1: 5_000, 2: 5_000}, button=2, variant="pregnant-threes", **FIXED, draws=2, cards_per_draw=2,
                 draw="optional")
    hand.check(1)
    hand.check(2)
    first = hand.draw_choice()
    assert first is not None
    assert (first.number, first.draws, first.minimum, first.maximum) == (1, 2, 0, 2)
    hand.draw(1, ())
    hand.draw(2, ())
    hand.check(1)
    hand.check(2)
    second = hand.draw_choice()
    assert isinstance(second, DrawChoice)
    assert (second.number, str(second)) == (2, "Stand pat or discard up to 2 cards")
    assert hand.legal_actions() is None


def test_main_and_side_pots_while_the_hand_is_played() -> None:
    table = game("five-card-draw", {1: 10_000, 2: 1_000, 3: 3_000, 4: 10_000}, ante_cents=100, betting="no_limit",
                 min_bet_cents=200)
    hand = table.start_hand(button=4, deck=stacked_deck(4, HANDS))
    assert hand.pots == (Pot(400, (1, 2, 3, 4)),)
    hand.bet(1, 500)
    hand.all_in(2)
    hand.all_in(3)
    hand.call(4)
    hand.call(1)
    assert hand.pots == (Pot(4_000, (1, 2, 3, 4)), Pot(6_000, (1, 3, 4)))
    assert hand.draw_choice() is not None


def test_a_bet_the_next_player_has_not_answered_is_no_side_pot() -> None:
    # The tester's hand: antes $1, seat 1 bets $2, seat 2 calls, seat 3 has not acted. Nobody is all in, so there
    # is one pot, not "Main pot $3.00: seats 1, 2, 3 / Side pot 1 $4.00: seats 1, 2".
    hand = _hand({1: 5_000, 2: 5_000, 3: 5_000}, button=3)
    hand.bet(1, 200)
    hand.call(2)
    assert hand.pots == (Pot(700, (1, 2, 3)),)
    hand.raise_to(3, 400)  # an unmatched raise: still one pot, every player may call it
    assert hand.pots == (Pot(1_100, (1, 2, 3)),)


def test_an_unmatched_no_limit_raise_stays_in_the_one_pot() -> None:
    hand = _hand({1: 50_000, 2: 50_000, 3: 50_000}, button=3, ante_cents=100, betting="no_limit",
                 min_bet_cents=200)
    hand.bet(1, 1_000)
    hand.raise_to(2, 11_700)
    assert hand.pots == (Pot(13_000, (1, 2, 3)),)


def test_only_an_all_in_makes_a_side_pot_while_the_round_is_bet() -> None:
    table = game("five-card-draw", {1: 10_000, 2: 1_000, 3: 3_000, 4: 10_000}, ante_cents=100, betting="no_limit",
                 min_bet_cents=200)
    hand = table.start_hand(button=4, deck=stacked_deck(4, HANDS))
    hand.bet(1, 500)
    hand.all_in(2)  # to 1,000 with the ante: nobody has put in more, so no side pot yet
    assert hand.pots == (Pot(1_800, (1, 2, 3, 4)),)
    hand.all_in(3)  # to 3,000: above seat 2's 1,000 is a side pot seat 2 cannot win; seats 1 and 4 may still call
    assert hand.pots == (Pot(2_700, (1, 2, 3, 4)), Pot(2_000, (1, 3, 4)))
    hand.call(4)
    hand.fold(1)  # seat 1's 600 stays in the main pot
    assert hand.pots == (Pot(3_600, (2, 3, 4)), Pot(4_000, (3, 4)))
    assert hand.settlement is None


def _showdown(variant: str, hands: dict[int, str], *, fold: tuple[int, ...] = (), **options: object) -> HomeHand:
    return showdown_hand(variant, hands, fold=fold, **FIXED, **options)


def test_the_result_in_words_for_the_freak_of_nature_example() -> None:
    # "Neither player holds a six, so fives become wild. A's two fives join the pair of nines to make four nines
    # with a king. B has no five and plays three queens. A wins."
    hand = _showdown("freak-of-nature", {1: "5h 5d 9c 9s Kh", 2: "Qs Qd Qc 4h 7d"})
    result = hand.result()
    assert result is not None
    assert result.headline == "Fives wild: four nines beat three queens"
    assert result.wild_rank is Rank.FIVE
    assert result.lines[1] == "Pot $2.00 to Seat 1: four nines beat three queens"
    assert hand.result({1: "Ann"}).lines[1] == "Pot $2.00 to Ann: four nines beat three queens"  # type: ignore[union-attr]
    assert result.to_dict()["headline"] == result.headline


def test_two_hands_described_alike_say_which_kicker_decided() -> None:
    # Both hold a pair of kings: the words alone ("pair of kings beats pair of kings") would not tell a player why.
    hand = _showdown("five-card-draw", {1: "Kh Kd As 7c 3d", 2: "Ks Kc Qh 9d 8s"})
    assert hand.result().headline == "A pair of kings beats a pair of kings, ace kicker against queen"  # type: ignore[union-attr]
    same_top = _showdown("five-card-draw", {1: "9h 9d 6s 6c Ad", 2: "9s 9c 6h 6d Kd"})
    assert same_top.result().headline.endswith(", ace kicker against king")  # type: ignore[union-attr]


def test_the_result_of_a_split_an_uncontested_pot_and_a_kill() -> None:
    split = _showdown("five-card-draw", {1: "Ah Kh Qd Js 9c", 2: "8s 7h 5d 4c 2h", 3: "As Kd Qc Jh 9d"}, fold=(2,))
    assert split.result().headline == "Seat 1 and Seat 3 split with ace high each"  # type: ignore[union-attr]
    alone = _showdown("five-card-draw", {1: "2c 7d 9h Js Kc", 2: "3c 8d Th Qs Ac"}, fold=(2,))
    assert alone.result().headline == "Seat 1 wins uncontested"  # type: ignore[union-attr]
    assert alone.result().lines[1] == "Pot $2.00 to Seat 1, uncontested"  # type: ignore[union-attr]
    killed = _showdown("five-card-draw", {1: "2c 7d 9h Js Kc", 2: "3c 8d Th Qs Ac", 3: "Kd 4d 6h 8s Tc"},
                       kill_cards=["man_with_the_axe"])
    assert "Seat 3 is dead: K♦ is a kill card" in killed.result().lines  # type: ignore[union-attr]


def test_a_split_pot_says_what_each_winner_takes_with_the_odd_chip() -> None:
    # Three ace-high hands split $4.00 of antes (seat 4 folded): the dealer pushes $1.34 to the first winner left
    # of the button (seat 4) and $1.33 to each of the others. "Pot $4.00 split" alone left the dealer to work out
    # the shares and who takes the odd chip.
    split = _showdown("five-card-draw", {1: "Ah Kh Qd Js 9c", 2: "As Kd Qc Jh 9d", 3: "Ad Kc Qh Jd 9s",
                                         4: "8s 7h 5d 4c 2h"}, fold=(4,))
    result = split.result({1: "Ann", 2: "Bob", 3: "Cy"})
    assert result is not None
    assert result.headline == "Ann, Bob and Cy split with ace high each"
    assert result.lines[1] == "Pot $4.00 split with ace high each: $1.34 to Ann, $1.33 to Bob and $1.33 to Cy"
    assert split.settlement is not None
    assert split.settlement.payouts == {1: 134, 2: 133, 3: 133}
    # Two Three Legged Race players reach the legs called on one tied hand and split the pot (DESIGN 7).
    table = game("three-legged-race", {1: 1_000, 2: 1_000}, legs_to_win=1, **FIXED)
    race = table.start_hand(button=2, deck=stacked_deck(
        2, {1: "Ah Kh Qd Js 9c", 2: "As Kd Qc Jh 9d"}, stock="Qh Jd 9s Qs Jc 9h"))
    race.check(1)
    race.check(2)
    race.draw(1, cards("Qd Js 9c"))
    race.draw(2, cards("Qc Jh 9d"))
    race.check(1)
    race.check(2)
    lines = race.result({1: "Ann", 2: "Bob"}).lines  # type: ignore[union-attr]
    assert lines[1] == "Pot $2.00 to Ann and Bob: 1 leg each; $1.00 to Ann and $1.00 to Bob"


def test_the_result_says_who_scored_a_leg_and_who_won_the_game() -> None:
    # Three Legged Race: "Three of a kind beats two pair, so Player B scores a leg."
    table = game("three-legged-race", {1: 1_000, 2: 1_000}, legs_to_win=2, **FIXED)
    hand = table.start_hand(button=2, deck=stacked_deck(
        2, {1: "Qs Qd 4c 5c 7d", 2: "Jc Jh 4d 5d 7c"}, stock="8c 8h 3s Js 6d 2c"))
    hand.check(1)
    hand.check(2)
    hand.draw(1, cards("4c 5c 7d"))
    hand.draw(2, cards("4d 5d 7c"))
    hand.check(1)
    hand.check(2)
    result = hand.result()
    assert result is not None
    assert result.headline == "Three jacks beat two pair, queens and eights"
    assert result.lines[1:] == ("Pot $2.00 stays in the middle", "Seat 2 scores a leg: 1 of 2")
    assert result.legs == {1: 0, 2: 1}
