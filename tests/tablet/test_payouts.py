"""Issue 14: the pay instructions the results give per circle and per seat, on both paytable bases."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from tables.screens.payouts import LOSS, PUSH, WIN, seat_payouts
from tables.selectors.rounds import OutcomeView, SeatView


def _outcome(circle: int, returned: int, pays: str | None, paid: int | None = None) -> OutcomeView:
    line: Any = None if pays is None else SimpleNamespace(pays=pays, hand="x", pk=1)
    return OutcomeView(
        circle=circle,
        cards=[],
        hand="x",
        description="x",
        line_hand="x" if line else "",
        line=line,
        return_cents=returned,
        paid_cents=returned if paid is None else paid,
    )


def _seat(*outcomes: OutcomeView, bet: int = 1000) -> SeatView:
    return SeatView(
        number=3, occupied=True, player_name="", bets={o.circle: bet for o in outcomes}, outcomes=list(outcomes)
    )


def test_to_1_a_push_is_left_a_win_is_left_and_paid_its_winnings_a_loss_is_taken() -> None:
    (payout,) = seat_payouts([_seat(_outcome(1, 1000, "0"), _outcome(2, 10000, "9"), _outcome(3, 0, None))], "to_1")
    verdicts = [circle.verdict for circle in payout.circles]
    assert verdicts == [PUSH, WIN, LOSS]
    assert [circle.words for circle in payout.circles] == [
        "Leave the $10.00 bet (push: nothing to pay)",
        "Leave the $10.00 bet, pay $90.00 on it",
        "Take the $10.00 bet",
    ]
    assert payout.circles[1].line_words == "pays 9 to 1"
    assert payout.circles[0].line_words == "push (stake returned)"  # DESIGN 6: a "to 1" line paying 0 is a push
    assert payout.pay_cents == 9000  # never the stake that stays in the circle
    assert payout.take_cents == 1000
    assert payout.summary == "Take 1 bet, leave 2, pay $90.00"
    assert payout.verdict == WIN
    assert payout.verdict_words == "Wins $80.00"


def test_for_1_the_same_chips_move_and_the_words_explain_the_return_with_the_stake() -> None:
    # 9 for 1 returns $90 with the $10 bet: the bet stays and $80 is paid; 1 for 1 is a push.
    (payout,) = seat_payouts([_seat(_outcome(1, 9000, "9"), _outcome(2, 1000, "1"))], "for_1")
    assert [circle.words for circle in payout.circles] == [
        "Leave the $10.00 bet, pay $80.00 on it",
        "Leave the $10.00 bet (push: nothing to pay)",
    ]
    assert payout.circles[0].line_words == "pays 9 for 1 ($90.00 back with the bet)"
    assert payout.pay_cents == 8000
    assert payout.summary == "Leave 2 bets, pay $80.00"


def test_a_partial_return_and_a_capped_win_say_so() -> None:
    # Half back ("1/2 for 1"): take half of the bet. A win capped at the seat maximum pays what the cap allows.
    (payout,) = seat_payouts([_seat(_outcome(1, 500, "1/2"), _outcome(2, 80000, "800", paid=50000))], "for_1")
    assert payout.circles[0].verdict == LOSS
    assert payout.circles[0].words == "Take $5.00 of the $10.00 bet, leave $5.00"
    assert payout.circles[1].words == "Leave the $10.00 bet, pay $490.00 on it"
    # It says what comes back after the cap (before: "($800.00 back with the bet), capped ... (was $800.00)").
    assert payout.circles[1].line_words == (
        "pays 800 for 1, capped at the seat maximum: $500.00 back with the bet instead of $800.00"
    )
    assert payout.circles[1].verdict_words == "Win"


def test_a_win_the_seat_cap_cut_to_nothing_reads_capped_not_loss_and_the_chips_still_add_up() -> None:
    # Three full houses at $5.50, 9 for 1 ($49.50 back each), under a $50.00 cap on the seat's winnings: the cap is
    # cut from circle 3 down, so circle 3 returns nothing and circle 2 $17.00. Before, circle 3's full house read
    # "Loss" in red beside "Take the $5.50 bet".
    returned = 4950
    (payout,) = seat_payouts(
        [
            _seat(
                _outcome(1, returned, "9"),
                _outcome(2, returned, "9", paid=1700),
                _outcome(3, returned, "9", paid=0),
                bet=550,
            )
        ],
        "for_1",
    )
    assert [circle.verdict_words for circle in payout.circles] == ["Win", "Win", "Capped"]
    assert payout.circles[2].words == "Take the $5.50 bet"
    assert payout.circles[2].line_words == (
        "pays 9 for 1, capped at the seat maximum: $0.00 back with the bet instead of $49.50"
    )
    assert payout.pay_cents - payout.take_cents == payout.net_cents == 5000
    assert payout.verdict_words == "Wins $50.00"


def test_a_seat_that_comes_out_even_and_a_one_circle_loss() -> None:
    (even,) = seat_payouts([_seat(_outcome(1, 2000, "1"), _outcome(2, 0, None))], "to_1")
    assert even.verdict == PUSH
    assert even.verdict_words == "Even"
    (lost,) = seat_payouts([_seat(_outcome(1, 0, None))], "to_1")
    assert lost.summary == "Take the bet, nothing to pay"
    assert lost.verdict_words == "Loses $10.00"


def test_the_seat_line_says_how_much_of_a_partly_taken_bet_to_take_never_the_whole_bet() -> None:
    # The one line a dealer reads at speed said "Take the bet" for a hand returning half its bet, and "Take 1 bet,
    # leave 2" for a circle the seat's cap cut below its stake: taking the whole bet shorted the player.
    (half,) = seat_payouts([_seat(_outcome(1, 500, "1/2"))], "for_1")
    assert half.summary == "Take $5.00 of the bet, nothing to pay"
    (mixed,) = seat_payouts([_seat(_outcome(1, 500, "1/2"), _outcome(2, 0, None), _outcome(3, 9000, "9"))], "for_1")
    assert mixed.summary == "Take 1 bet, take $5.00 of 1 more bet, leave 1, pay $80.00"
    # Three full houses at $5.50 (9 for 1) under an $85.00 cap on winnings: circle 3 keeps $2.50 of its $5.50.
    (capped,) = seat_payouts(
        [_seat(_outcome(1, 4950, "9"), _outcome(2, 4950, "9"), _outcome(3, 4950, "9", paid=250), bet=550)], "for_1"
    )
    assert capped.summary == "Take $3.00 of 1 bet, leave 2, pay $88.00"
    assert capped.circles[2].words == "Take $3.00 of the $5.50 bet, leave $2.50"
    for payout in (half, mixed, capped):
        assert payout.pay_cents - payout.take_cents == payout.net_cents


def test_a_for_1_line_paying_0_says_it_pays_nothing() -> None:
    (payout,) = seat_payouts([_seat(_outcome(1, 0, "0"))], "for_1")
    assert payout.circles[0].line_words == "pays nothing (stake lost)"
