"""The carried pot's owners (Three Legged Race: "the pot carries over to the next hand"): shares add up exactly."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from casino.engine.home.carried import carried_shares, returned_shares

seats = st.dictionaries(st.integers(1, 7), st.integers(0, 50_000), max_size=7)


@given(contributed=seats, added=st.integers(0, 200_000))
def test_each_hands_addition_is_shared_to_the_chip(contributed: dict[int, int], added: int) -> None:
    shares = carried_shares(contributed, added)
    if added and any(contributed.values()):
        assert sum(shares.values()) == added
        assert set(shares) <= {seat for seat, cents in contributed.items() if cents}
    else:
        assert shares == {}


def test_shares_follow_what_each_put_in_and_the_odd_chip_goes_to_the_largest() -> None:
    assert carried_shares({1: 200, 2: 100}, 300) == {1: 200, 2: 100}
    assert carried_shares({1: 100, 2: 100, 3: 200}, 401) == {1: 100, 2: 100, 3: 201}


@given(owed=seats, carried=st.integers(0, 200_000))
def test_a_close_gives_back_the_whole_pot_when_anyone_owns_it(owed: dict[int, int], carried: int) -> None:
    carried += sum(owed.values())  # a carried pot holds at least what its known owners put in
    paid = returned_shares(owed, carried)
    if any(owed.values()):
        assert sum(paid.values()) == carried
    assert returned_shares(owed, 0) == {}
    assert all(cents > 0 for cents in paid.values())


def test_chips_nobody_owns_go_to_the_largest_contributor_the_lowest_seat_on_a_tie() -> None:
    assert returned_shares({2: 50, 3: 50}, 101) == {2: 51, 3: 50}
    assert returned_shares({1: 10, 4: 90}, 101) == {1: 10, 4: 91}
