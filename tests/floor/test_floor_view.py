"""The live floor view: a tile per table with what a supervisor needs, alerts that stand out, a poll that answers
204 while nothing changed, for floor supervisors only."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.utils import timezone

from floor.selectors.floor_view import Tile, floor_view
from floor.services.dealers import dealer_sign_in
from tables.models import Round, Table
from tables.services.cards import rows_record
from tables.services.home_games import game_open, player_leave
from tables.services.home_hands import hand_start
from tables.services.rounds import round_start, round_void_request
from tables.services.tables import table_close
from tests.floor.conftest import payouts_need_approval
from tests.tables.conftest import open_home_table
from tests.tables.helpers import settle_now
from tests.tables.test_settlement import ROWS, to_drawing

pytestmark = pytest.mark.django_db


def tile(table: Table, now: datetime | None = None) -> Tile:
    return next(t for t in floor_view(now).tiles if t.table.pk == table.pk)


def codes(table: Table, now: datetime | None = None) -> list[str]:
    return [alert.code for alert in tile(table, now).alerts]


def test_a_tile_shows_type_state_dealer_paytable_round_seats_and_last_action(
    manual_table: Table, floor_user: User, dealer_user: User
) -> None:
    dealer_sign_in(table=manual_table, actor=dealer_user)
    rnd = round_start(table=manual_table, actor=dealer_user)
    shown = tile(manual_table)
    assert (shown.type_label, shown.table.is_open, shown.dealer) == ("Triple Draw Poker", True, "dave")
    assert shown.paytable == "Jacks or Better 9/6 v1"
    assert (shown.round, shown.phase_label, shown.seats_taken) == (rnd, "Betting", 7)
    assert shown.minutes_since_action == 0
    assert codes(manual_table) == []


def test_a_home_game_tile_shows_its_hand_in_play_and_the_players_at_the_table(
    floor_user: User, dealer_user: User, client: Client
) -> None:
    table = open_home_table("Freak 9", "freak-of-nature", floor_user, dealer_user)
    players = [{"seat": seat, "name": f"P{seat}", "buy_in_cents": 5_000} for seat in (1, 2, 3)]
    game = game_open(table=table, actor=dealer_user, players=players)
    player_leave(game=game.pk, actor=dealer_user, seat=3)
    # A game open with no hand dealt yet is play at the table, not an empty tile.
    assert tile(table).in_play == f"Game {game.number}: between hands"
    hand = hand_start(game=game, actor=dealer_user)
    shown = tile(table)
    assert (shown.type_label, shown.hand, shown.seats_taken) == ("Freak of Nature", hand, 2)
    assert shown.in_play == f"Hand {hand.number}: Betting"
    client.force_login(floor_user)
    assert f"Hand {hand.number}: Betting" in client.get("/floor/").content.decode()


def test_only_a_triple_draw_tile_has_a_paytable_row(
    manual_table: Table, floor_user: User, dealer_user: User, client: Client
) -> None:
    """A home game pays from no paytable: its tile does not show an empty "Paytable —" row as if one were missing."""
    home = open_home_table("Freak 9", "freak-of-nature", floor_user, dealer_user)
    client.force_login(floor_user)
    page = client.get("/floor/").content.decode()
    tiles = {name: re.search(rf'<li id="table-{pk}".*?</li>\s*(?=<li id=|</ul>)', page, re.S)
             for name, pk in (("td", manual_table.pk), ("home", home.pk))}
    assert tiles["td"] is not None
    assert tiles["home"] is not None
    assert "<dt>Paytable</dt><dd>Jacks or Better 9/6 v1</dd>" in tiles["td"].group(0)
    assert "Paytable" not in tiles["home"].group(0)


def test_a_payout_awaiting_approval_and_a_void_request_raise_alerts(
    manual_table: Table, floor_user: User, dealer_user: User
) -> None:
    payouts_need_approval(manual_table, floor_user)
    rnd = to_drawing(manual_table, floor_user)
    round_void_request(round=rnd, reason="card flashed", actor=dealer_user)
    assert codes(manual_table) == ["void_request"]
    assert "card flashed" in tile(manual_table).alerts[0].text
    rows_record(round=rnd, rows=ROWS, actor=floor_user)
    assert settle_now(rnd.pk) == Round.Phase.AWAITING_APPROVAL
    assert codes(manual_table) == ["payout_approval", "void_request"]


@override_settings(FLOOR_STUCK_SETTLEMENT_SECONDS=120)
def test_a_round_settling_too_long_is_stuck(manual_table: Table, floor_user: User) -> None:
    rnd = to_drawing(manual_table, floor_user)
    rows_record(round=rnd, rows=ROWS, actor=floor_user)  # the settlement job is not run here
    assert codes(manual_table) == []
    later = timezone.now() + timedelta(minutes=3)
    assert "stuck_settlement" in codes(manual_table, later)


@override_settings(FLOOR_IDLE_MINUTES=20)
def test_an_open_table_with_no_action_is_idle_and_a_closed_one_is_not(manual_table: Table, floor_user: User) -> None:
    assert codes(manual_table, timezone.now() + timedelta(minutes=19)) == []
    assert codes(manual_table, timezone.now() + timedelta(minutes=21)) == ["idle"]
    table_close(table=manual_table, actor=floor_user)
    assert codes(manual_table, timezone.now() + timedelta(minutes=60)) == []


def test_the_poll_answers_204_until_something_changes(manual_table: Table, floor_user: User, dealer_user: User) -> None:
    client = Client()
    client.force_login(floor_user)
    page = client.get("/floor/")
    assert page.status_code == 200
    token = floor_view().token
    assert f"?v={token}" in page.content.decode()
    assert client.get(f"/floor/tiles/?v={token}").status_code == 204
    round_start(table=manual_table, actor=dealer_user)
    changed = client.get(f"/floor/tiles/?v={token}")
    assert changed.status_code == 200
    assert "Round 1: Betting" in changed.content.decode()


def test_only_floor_supervisors_see_the_floor(
    floor_user: User, compliance_user: User, dealer_user: User, count_user: User
) -> None:
    for user in (compliance_user, dealer_user, count_user):
        client = Client()
        client.force_login(user)
        assert client.get("/floor/").status_code == 403
        assert client.get("/floor/tiles/").status_code == 403
        assert client.get("/floor/pits/").status_code == 403
    assert Client().get("/floor/").status_code == 302
