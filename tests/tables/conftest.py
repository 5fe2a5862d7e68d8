"""Fixtures for Triple Draw tables: approved paytables on both bases, open tables with seated players."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from paytables.models import Paytable
from tables.models import CardSource, HomeGame, Table
from tables.services.seats import seat_join
from tables.services.tables import table_assign_dealer, table_create, table_open
from tests.paytables.factories import make_paytable
from tests.tables.shoe_support import TripleDrawShoe
from tests.tables.test_home_seat_reuse import _game_with_seat_one_taken_again

__all__ = ["HOUSE_TO_1", "make_paytable"]  # test modules import both from here

# A table-style (to_1) paytable: pays 0 is a push (the stake comes back). Not one of paytables/standard/: the
# round tests pin its pays (a royal flush pays 250 to 1), so it is these tests' own schedule.
HOUSE_TO_1 = {
    "name": "House Triple Draw",
    "basis": "to_1",
    "lines": [
        {"hand": "royal_flush", "pays": 250},
        {"hand": "straight_flush", "pays": 50},
        {"hand": "four_of_a_kind", "pays": 25},
        {"hand": "full_house", "pays": 8},
        {"hand": "flush", "pays": 5},
        {"hand": "straight", "pays": 4},
        {"hand": "three_of_a_kind", "pays": 2},
        {"hand": "two_pair", "pays": 1},
        {"hand": "one_pair", "min_rank": "J", "pays": 0},
    ],
}


@pytest.fixture
def jacks_for_1(approved_paytable: Callable[..., Paytable]) -> Paytable:
    """Jacks or Better 9/6, the video-poker (for 1) basis."""
    return approved_paytable("jacks_or_better_9_6")


@pytest.fixture
def house_to_1(approved_paytable: Callable[..., Paytable]) -> Paytable:
    """The house paytable above, the table-style (to 1) basis."""
    return approved_paytable(HOUSE_TO_1)


def open_table(
    name: str, source: str, paytable: Paytable, floor: User, dealer: User, seats: int = 7, **limits: Any
) -> Table:
    table = table_create(name=name, card_source=source, paytable=paytable, actor=floor, **limits)
    table_open(table=table, actor=floor)
    table_assign_dealer(table=table, dealer=dealer, actor=floor)
    for number in range(1, seats + 1):
        seat_join(table=table, seat_number=number, player_name=f"Player {number}", actor=floor)
    return Table.objects.get(pk=table.pk)


@pytest.fixture
def manual_table(floor_user: User, dealer_user: User, jacks_for_1: Paytable) -> Table:
    return open_table(
        "Manual 1", CardSource.MANUAL, jacks_for_1, floor_user, dealer_user, min_bet_cents=500, max_bet_cents=10_000
    )


@pytest.fixture
def rng_table(floor_user: User, dealer_user: User, house_to_1: Paytable) -> Table:
    return open_table("RNG 1", CardSource.RNG, house_to_1, floor_user, dealer_user)


def client_for(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def dealer_api(dealer_user: User) -> APIClient:
    return client_for(dealer_user)


@pytest.fixture
def floor_api(floor_user: User) -> APIClient:
    return client_for(floor_user)


# ----- home-game tables (issue 12) -----
HOME_STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}


def open_home_table(
    name: str, variant: str, floor: User, dealer: User, *, source: str = CardSource.RNG,
    rules: dict[str, Any] | None = None, **config: Any,
) -> Table:
    """An open home-game table of `variant` with house rules (fixed limit 1/2/4 dollars unless `rules` says)."""
    from tables.services.home_config import home_config_set

    table = table_create(name=name, table_type=variant, card_source=source, actor=floor)
    table_open(table=table, actor=floor)
    table_assign_dealer(table=table, dealer=dealer, actor=floor)
    settings = {"buy_in_min_cents": 1_000, "buy_in_max_cents": 100_000, **config}
    rules = rules or {}
    # The fixed-limit bets only under fixed limit: an option of another betting structure is refused.
    stakes = HOME_STAKES if rules.get("betting", "fixed_limit") == "fixed_limit" else {"ante_cents": 100}
    home_config_set(table=table, actor=floor, rules={**stakes, **rules}, **settings)
    return Table.objects.get(pk=table.pk)


@pytest.fixture
def home_table(floor_user: User, dealer_user: User) -> Callable[..., Table]:
    """home_table("pregnant-threes", source="manual", rules={...}, charge="rake"): an open table, Dave deals."""
    count = iter(range(1, 100))

    def make(variant: str, **options: Any) -> Table:
        return open_home_table(f"{variant} {next(count)}", variant, floor_user, dealer_user, **options)

    return make


@pytest.fixture
def reused(home_table: Callable[..., Table], dealer_user: User) -> HomeGame:
    """A Three Legged Race game whose seat 1 was taken again: P1 played hand 1 and left, Dee played hand 2 there."""
    return _game_with_seat_one_taken_again(home_table("three-legged-race"), dealer_user)


@pytest.fixture
def shoe_table(floor_user: User, dealer_user: User, jacks_for_1: Paytable) -> Table:
    """An open one-seat Triple Draw table dealt from a shoe, no device issued yet."""
    return open_table("Shoe table", CardSource.SHOE, jacks_for_1, floor_user, dealer_user, seats=1)


@pytest.fixture
def shoe(floor_user: User, dealer_user: User, dealer_api: APIClient, jacks_for_1: Paytable) -> TripleDrawShoe:
    """A two-seat Triple Draw table dealt from a shoe, its round's bets closed (tests/tables/shoe_support.py)."""
    table = open_table("Shoe 9", CardSource.SHOE, jacks_for_1, floor_user, dealer_user, seats=2)
    return TripleDrawShoe(table, floor_user, dealer_api)
