"""Settling a Triple Draw round in the engine: circle r uses row r, the per-seat cap, the DESIGN 9 record."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.engine.cards import ALL_CARDS, parse_cards
from casino.engine.errors import EngineError
from casino.engine.paytable import PaytableSpec
from casino.engine.round_settlement import SeatPlay, replay_round_record, settle_round

JACKS = PaytableSpec.from_dict(
    {
        "name": "jacks",
        "basis": "for_1",
        "lines": [
            {"hand": "royal_flush", "pays": 800},
            {"hand": "full_house", "pays": 9},
            {"hand": "three_of_a_kind", "pays": 3},
            {"hand": "two_pair", "pays": 2},
            {"hand": "one_pair", "min_rank": "J", "pays": 1},
        ],
    }
)
ROWS = [parse_cards(r) for r in ("Jc 2h 5d Qs 6h", "4d 4h Kh 2c 7s", "As Ah 9h 9d Qh")]


def test_each_circle_completes_the_held_cards_from_its_own_row() -> None:
    # Rule sheet: "Players holding two cards will use Draw Cards 1, 2, and 3".
    seat = SeatPlay(seat=1, bet_cents=100, circles=(1, 2, 3), held=parse_cards("Js Jh"))
    result = settle_round(JACKS, ROWS, [seat])
    hands = result.seats[0].hands
    assert [" ".join(map(str, h.cards)) for h in hands] == [
        "Js Jh Jc 2h 5d",
        "Js Jh 4d 4h Kh",
        "Js Jh As Ah 9h",
    ]
    assert [h.paid_cents for h in hands] == [300, 200, 200]
    assert result.table_net_cents == -(700 - 300)


def test_the_cap_cuts_a_seats_winnings_from_the_highest_circle_down() -> None:
    seat = SeatPlay(seat=2, bet_cents=100, circles=(1, 2, 3), held=parse_cards("Js Jh"))
    result = settle_round(JACKS, ROWS, [seat], cap_cents=150)
    hands = result.seats[0].hands
    assert result.seats[0].capped
    assert result.seats[0].net_cents == 150
    assert [h.paid_cents for h in hands] == [300, 150, 0]
    assert [h.return_cents for h in hands] == [300, 200, 200]


def test_a_card_in_a_row_and_a_hold_is_refused() -> None:
    seat = SeatPlay(seat=1, bet_cents=100, circles=(1,), held=parse_cards("Jc"))
    with pytest.raises(EngineError, match="Jc"):
        settle_round(JACKS, ROWS, [seat])


def test_a_record_with_a_bad_bet_names_it() -> None:
    record = {
        "paytable": JACKS.to_dict(),
        "rows": [[str(c) for c in r] for r in ROWS],
        "seats": [{"seat": 1, "bet_cents": "ten", "circles": 1, "held": []}],
    }
    with pytest.raises(EngineError, match="bet_cents"):
        replay_round_record(record)


@settings(max_examples=60, deadline=None)
@given(st.permutations(ALL_CARDS), st.lists(st.integers(0, 5), min_size=1, max_size=7), st.integers(1, 3))
def test_returns_minus_stakes_is_minus_the_table_net(deck: list, holds: list[int], circles: int) -> None:
    rows = [tuple(deck[i * 5 : i * 5 + 5]) for i in range(3)]
    seats = []
    for index, k in enumerate(holds):
        dealt = tuple(deck[15 + index * 5 : 20 + index * 5])
        seats.append(
            SeatPlay(seat=index + 1, bet_cents=100, circles=tuple(range(1, circles + 1)), held=dealt[:k], dealt=dealt)
        )
    result = settle_round(JACKS, rows, seats, cap_cents=50_000)
    stakes = sum(seat.stake_cents for seat in result.seats)
    returns = sum(seat.total_return_cents for seat in result.seats)
    assert result.table_net_cents == stakes - returns
    for seat, play in zip(result.seats, seats, strict=True):
        assert seat.net_cents <= 50_000
        for hand in seat.hands:
            k = len(play.held)
            assert hand.cards == play.held + rows[hand.circle - 1][: 5 - k]
            assert 0 <= hand.paid_cents <= hand.return_cents
