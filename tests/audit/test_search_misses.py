"""A compliance search that names a table, round or home game that does not exist says which part named nothing
("No round 99 at table Manual 1"); "No events match" stays for a search whose every name is real."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tables.models import HomeGame, Table
from tables.services.home_games import game_open
from tables.services.rounds import round_start
from tests.tables.conftest import home_table  # noqa: F401 (a pytest fixture)
from tests.tables.test_home_services import seat_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def searched(manual_table: Table, home_table: Callable[..., Table], dealer_user: User,  # noqa: F811
             compliance_user: User) -> Callable[..., str]:
    """Round 1 played at "Manual 1" and game 1 open at "five-card-draw 1"; search(**filters) is the empty-page line
    (or the whole page when events match)."""
    round_start(table=manual_table, actor=dealer_user)
    game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(2))
    client = Client()
    client.force_login(compliance_user)

    def search(**filters: str) -> str:
        page = client.get("/compliance/", filters).content.decode()
        found = re.search(r'<td colspan="10"[^>]*>([^<]*)</td>', page)
        return found.group(1) if found else page

    return search


def test_a_round_that_does_not_exist_is_named(searched: Callable[..., str]) -> None:
    assert searched(round="Manual 1 round 99") == "No round 99 at table Manual 1."
    assert searched(round="manual 1  ROUND 99") == "No round 99 at table Manual 1."
    assert searched(round="Manual 9 round 1") == "No table named Manual 9."
    assert searched(round="987654") == "No round with id 987654."
    assert searched(round="the big one") == ("No round named “the big one”: give its id or its name as the screens "
                                             "show it (“Triple Draw 1 round 9”).")


def test_a_game_or_table_that_does_not_exist_is_named(searched: Callable[..., str]) -> None:
    game = HomeGame.objects.get()
    assert searched(game="five-card-draw 1 game 7") == "No game 7 at table five-card-draw 1."
    assert searched(game="Stud 1 game 1") == "No table named Stud 1."
    assert searched(game="987654") == "No home game with id 987654."
    assert searched(table="987654") == "No table with id 987654."
    # Each part that names nothing is said, and only those.
    assert searched(table=str(game.table_id), round="Manual 1 round 99", game="five-card-draw 1 game 7") == (
        "No round 99 at table Manual 1. No game 7 at table five-card-draw 1.")


def test_a_real_search_without_events_still_says_no_events_match(searched: Callable[..., str]) -> None:
    game = HomeGame.objects.get()
    assert searched(round="Manual 1 round 1", game=f"five-card-draw 1 game {game.number}") == "No events match."
    assert searched(round="Manual 1 round 1", actor="nobody") == "No events match."
    # The round's name in any case finds its events.
    assert "Round started" in searched(round="manual 1 round 1")
