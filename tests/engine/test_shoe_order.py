"""The order a shoe deals a Triple Draw round in, and a report that only repeats the round's last cards."""

from __future__ import annotations

from casino.engine.cards import parse_cards
from casino.engine.shoe_order import RETRY_WINDOW_SECONDS, may_be_late_retry, repeats_last, shoe_order


def test_the_deal_goes_one_card_to_each_seat_in_turn_then_the_rows_in_order() -> None:
    dealt = [parse_cards("Js Jh 4c"), parse_cards("Ac Kc")]
    rows = [parse_cards("2h 3h")]
    assert shoe_order(dealt, rows) == parse_cards("Js Ac Jh Kc 4c 2h 3h")


def test_only_the_last_cards_in_order_are_a_repeat() -> None:
    order = parse_cards("Js Ac Jh Kc 4c")
    assert repeats_last(parse_cards("Kc 4c"), order)
    assert repeats_last(order, order)
    assert not repeats_last(parse_cards("4c Kc"), order)  # the same cards in another order
    assert not repeats_last(parse_cards("Jh Kc"), order)  # recorded, but not the last
    assert not repeats_last(parse_cards("4c 9d"), order)  # the last card and a new one
    assert not repeats_last(parse_cards("2d Js Ac Jh Kc 4c"), order)  # longer than what was recorded
    assert not repeats_last((), order)


def test_a_late_retry_is_the_last_reports_last_cards_within_the_window_only() -> None:
    last = parse_cards("9d Qh")
    assert may_be_late_retry(parse_cards("9d Qh"), last, 0)
    assert may_be_late_retry(parse_cards("Qh"), last, RETRY_WINDOW_SECONDS - 0.1)  # the last card read twice
    assert not may_be_late_retry(parse_cards("Qh"), last, RETRY_WINDOW_SECONDS)  # too late for a retry: a new card
    assert not may_be_late_retry(parse_cards("9d"), last, 1)  # not the last card
    assert not may_be_late_retry(parse_cards("Qh 9d"), last, 1)  # not in order
    assert not may_be_late_retry(parse_cards("Qh"), (), 1)  # no accepted report
    assert not may_be_late_retry(parse_cards("Qh"), last, -5)  # a clock that moved back answers no guess
