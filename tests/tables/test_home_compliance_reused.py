"""Compliance's view of a home game whose seat was taken again: each person with their own money and time at the
seat, and the game's events (its hands' and players' too) exported as the trail's CSV."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tables.models import HomeGame, HomeGamePlayer, Table
from tests.tables.pages import signed_in

pytestmark = pytest.mark.django_db


def clock(moment: object) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S")  # type: ignore[arg-type]


def test_the_games_page_says_when_each_person_sat_down_and_left(reused: HomeGame, compliance_user: User) -> None:
    page = signed_in(compliance_user).get(f"/compliance/home/games/{reused.pk}/").content.decode()
    ann, dee = HomeGamePlayer.objects.filter(game=reused, seat=1).order_by("id")
    assert ann.left_at is not None
    rows = [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in re.findall(r"<tr[^>]*>.*?</tr>", page, re.S)]
    assert "Sat down" in rows[0]
    assert "Left" in rows[0]
    ann_row = next(row for row in rows if row.startswith("1 P1 "))
    dee_row = next(row for row in rows if row.startswith("1 Dee "))
    assert clock(ann.joined_at) in ann_row
    assert clock(ann.left_at) in ann_row
    assert clock(dee.joined_at) in dee_row
    assert "still seated" in dee_row


def csv_rows(response: object) -> list[dict[str, str]]:
    import csv
    import io

    body = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
    return list(csv.DictReader(io.StringIO(body)))


def test_the_trail_and_its_csv_choose_one_home_games_events_by_its_name_or_id(
    reused: HomeGame, compliance_user: User, home_table: Callable[..., Table], dealer_user: User
) -> None:
    """A game's events are its own, its hands' and its players' (each person at a seat taken again): the trail had no
    way to choose them, so its CSV of a game was every event of the casino, or a text search that also matched
    'game 10'."""
    from tables.selectors.home_timeline import game_events
    from tables.services.home_games import game_open
    from tests.tables.test_home_services import seat_players

    other = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(2))
    client = signed_in(compliance_user)
    expected = sorted(str(event.pk) for event in game_events(reused))
    name = f"{reused.table.name} game {reused.number}"
    for chosen in (str(reused.pk), name, name.upper()):
        rows = csv_rows(client.get("/compliance/export.csv", {"game": chosen}))
        assert sorted(row["id"] for row in rows) == expected
    joins = [row["object_repr"] for row in rows if row["action"] == "home_player_join"]
    assert sorted(joins) == sorted(f"{name} seat {seat} ({who})" for seat, who in ((1, "P1"), (2, "P2"), (3, "P3"),
                                                                                  (1, "Dee")))
    # Who went home with what: seat 1's leave is P1's, not the seat's next player's.
    leave = next(row for row in rows if row["action"] == "home_player_leave")
    assert leave["object_repr"] == f"{name} seat 1 (P1)"
    assert "Name: P1" in leave["summary"]
    assert "Cashed out: $99.00" in leave["summary"]
    assert not any(row["table_id"] == str(other.table_id) for row in rows)
    assert csv_rows(client.get("/compliance/export.csv", {"game": f"{reused.table.name} game 9"})) == []
    page = client.get("/compliance/", {"game": name}).content.decode()
    assert "Home-game player bought in" in page
    assert other.table.name not in page.split("<tbody", 1)[1]
    timeline = client.get(f"/compliance/home/games/{reused.pk}/").content.decode()
    assert f'href="/compliance/export.csv?game={reused.pk}"' in timeline


def test_the_games_page_says_which_hand_of_the_record_each_hand_is(
    home_table: Callable[..., Table], compliance_user: User, floor_user: User, dealer_user: User
) -> None:
    """The record leaves a voided hand out, so replay_game's "Hand 2" is the table's hand 3: the page says which."""
    from tables.services.home_games import game_open
    from tables.services.home_hands import hand_start
    from tables.services.home_rulings import hand_void
    from tests.tables.test_home_services import play_out, seat_players

    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(3))
    play_out(hand_start(game=game, actor=dealer_user), dealer_user)
    hand_void(hand=hand_start(game=game, actor=dealer_user), actor=floor_user, reason="misdeal")
    play_out(hand_start(game=game, actor=dealer_user), dealer_user)
    hand_start(game=game, actor=dealer_user)
    page = signed_in(compliance_user).get(f"/compliance/home/games/{game.pk}/").content.decode()
    items = [" ".join(re.sub(r"<[^>]+>", "", item).split()) for item in re.findall(r"<li>.*?</li>", page, re.S)]
    assert [item for item in items if item.startswith("Hand ")] == [
        "Hand 1: settled",  # the same number in the record
        "Hand 2: voided (misdeal) · not in the game record",
        "Hand 3: settled · the record's hand 2",
        "Hand 4: in play · not in the game record until it ends",
    ]


def test_a_time_charge_names_the_player_it_was_taken_from(
    home_table: Callable[..., Table], compliance_user: User, dealer_user: User
) -> None:
    """Seat 1's two time charges were one person's each (P1's, then Dee's), and the trail said only 'seat 1'."""
    from tables.services.home_games import game_open, player_join, player_leave
    from tables.services.home_hands import hand_start
    from tests.tables.test_home_services import play_out, seat_players

    table = home_table("five-card-draw", charge="time", time_charge_cents=500)
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    play_out(hand_start(game=game, actor=dealer_user), dealer_user)
    player_leave(game=game, actor=dealer_user, seat=1)
    player_join(game=game, actor=dealer_user, seat=1, name="Dee", buy_in_cents=5_000)
    hand_start(game=game, actor=dealer_user)
    rows = csv_rows(signed_in(compliance_user).get("/compliance/export.csv", {"game": str(game.pk)}))
    charges = sorted((row for row in rows if row["action"] == "home_house_charge" and row["seat_number"] == "1"),
                     key=lambda row: int(row["id"]))
    assert [row["summary"].split(";")[0] for row in charges] == ["Name: P1", "Name: Dee"]


def test_a_players_event_links_the_game_they_played(reused: HomeGame, compliance_user: User) -> None:
    """A join, chips or a leave named its player's game in words but linked nowhere, where a hand's or a game's event
    links its timeline: the player's event opens their game's page (and the trail lists it by them)."""
    dee = HomeGamePlayer.objects.get(game=reused, name="Dee")
    client = signed_in(compliance_user)
    trail = client.get("/compliance/", {"game": str(reused.pk), "action": "home_player_join"}).content.decode()
    assert f'href="/compliance/home/players/{dee.pk}/"' in trail
    opened = client.get(f"/compliance/home/players/{dee.pk}/")
    assert opened.status_code == 302
    assert opened["Location"] == f"/compliance/home/games/{reused.pk}/#player-{dee.pk}"
    assert f'id="player-{dee.pk}"' in client.get(opened["Location"]).content.decode()
    assert client.get("/compliance/home/players/999999/").status_code == 404
