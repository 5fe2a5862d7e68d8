"""The trail's "Home game" filter finds a game by the name its table had when the game was played, as well as by the
table's name today: a compliance officer reads the old name on a slip or in a report."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tables.models import HomeGame, Table
from tables.selectors.home_timeline import game_events
from tables.services.home_games import game_close, game_open
from tables.services.tables import table_update
from tests.tables.conftest import home_table, open_home_table  # noqa: F401 (home_table: a pytest fixture)
from tests.tables.test_home_services import play_out, seat_players

pytestmark = pytest.mark.django_db


def exported_ids(client: Client, chosen: str) -> list[str]:
    response = client.get("/compliance/export.csv", {"game": chosen})
    body = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
    return sorted(row["id"] for row in csv.DictReader(io.StringIO(body)))


@pytest.fixture
def played_then_renamed(home_table: Callable[..., Table], dealer_user: User, floor_user: User) -> HomeGame:  # noqa: F811
    """Game 1 played and closed at "Friday Draw", which the floor then renames "Main Draw"."""
    from tables.services.home_hands import hand_start

    table = home_table("five-card-draw")
    table = table_update(table=table, actor=floor_user, name="Friday Draw")
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    play_out(hand_start(game=game, actor=dealer_user), dealer_user)
    game_close(game=game, actor=floor_user, reason="end of the night")
    table_update(table=Table.objects.get(pk=table.pk), actor=floor_user, name="Main Draw")
    game.refresh_from_db()
    return game


def test_a_game_is_found_by_its_tables_old_name_and_by_its_new_one(
    played_then_renamed: HomeGame, compliance_user: User
) -> None:
    client = Client()
    client.force_login(compliance_user)
    expected = sorted(str(event.pk) for event in game_events(played_then_renamed))
    assert len(expected) > 3  # the opening, the hand's events, the players' joins, the close
    assert exported_ids(client, "Friday Draw game 1") == expected
    assert exported_ids(client, "friday draw  GAME 1") == expected
    assert exported_ids(client, "Main Draw game 1") == expected
    assert exported_ids(client, "Friday Draw game 2") == []
    page = client.get("/compliance/", {"game": "Friday Draw game 1"}).content.decode()
    assert "Home game opened" in page
    assert "no home game" not in page.lower()


def test_an_old_name_now_on_another_table_finds_both_games(
    played_then_renamed: HomeGame, compliance_user: User, floor_user: User, dealer_user: User
) -> None:
    """Someone searching "Friday Draw game 1" may mean either game: the trail shows both rather than guess."""
    table = open_home_table("Friday Draw", "five-card-draw", floor_user, dealer_user)
    newer = game_open(table=table, actor=dealer_user, players=seat_players(2))
    client = Client()
    client.force_login(compliance_user)
    both = sorted(str(event.pk) for game in (played_then_renamed, newer) for event in game_events(game))
    assert exported_ids(client, "Friday Draw game 1") == both
    assert exported_ids(client, "Main Draw game 1") == sorted(str(e.pk) for e in game_events(played_then_renamed))
