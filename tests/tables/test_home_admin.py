"""The floor's admin pages of home games, their players, hands and chip ledger: read-only, every person at a seat
taken again shown with their own buy-in, cash-out and time there, in seat order and then the order they sat."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.utils import timezone

from tables.admin_home_games import HomeGameAdmin
from tables.models import HomeGame, HomeGamePlayer, HomeHand, HomeLedgerEntry
from tables.services.home_hands import hand_start
from tables.services.home_rulings import hand_correct, hand_void
from tests.tables.pages import signed_in, table_rows
from tests.tables.test_home_services import play

pytestmark = pytest.mark.django_db

ADMIN = "/admin/tables/"


def test_the_games_page_lists_each_person_at_a_seat_taken_again_with_their_own_money_and_time(
    reused: HomeGame, floor_user: User
) -> None:
    client = signed_in(floor_user)
    listing = client.get(ADMIN + "homegame/")
    assert listing.status_code == 200
    row = next(text for text in table_rows(listing.content.decode()) if "three-legged-race 1" in text)
    assert "Three Legged Race" in row
    assert "open" in row
    assert "$350.00" in row
    page = client.get(f"{ADMIN}homegame/{reused.pk}/change/").content.decode()
    # Each player's row (after the inline's own caption, "<table> game 1 seat 1"), as the page orders them.
    people = [re.sub(r"^.*? seat \d+ (\(\w+\) )?", "", text) for text in table_rows(page)
              if re.search(r"\(\d+ min\)", text)]
    assert [text.split()[:2] for text in people] == [["1", "P1"], ["1", "Dee"], ["2", "P2"], ["3", "P3"]]
    ann, dee = people[0], people[1]
    assert "$100.00" in ann
    assert "$99.00" in ann
    assert "now" not in ann
    assert "$50.00" in dee
    assert "$49.00" in dee
    assert "now (0 min)" in dee
    assert "Ante $1" in page  # the rules as announced to this game, in words


def test_the_players_and_hands_lists_name_who_played_each_hand(reused: HomeGame, floor_user: User) -> None:
    client = signed_in(floor_user)
    players = table_rows(client.get(ADMIN + "homegameplayer/").content.decode())
    assert [text for text in players if " P1 " in f" {text} " and "$99.00" in text]
    first, second = HomeHand.objects.filter(game=reused).order_by("number")
    one = client.get(f"{ADMIN}homehand/{first.pk}/change/").content.decode()
    two = client.get(f"{ADMIN}homehand/{second.pk}/change/").content.decode()
    assert "Seat 1 · P1" in one
    assert "Dee" not in one
    assert "Seat 1 · Dee" in two
    assert "Seat 3 · P3 bets $2.00" in two


def test_a_voided_hand_shows_its_reason(reused: HomeGame, floor_user: User, dealer_user: User) -> None:
    hand = hand_start(game=reused, actor=dealer_user)
    hand_void(hand=hand, actor=floor_user, reason="misdeal: a card face up")
    page = signed_in(floor_user).get(f"{ADMIN}homehand/{hand.pk}/change/").content.decode()
    assert "misdeal: a card face up" in page
    assert "Voided" in page


@pytest.mark.parametrize("model", ["homegame", "homegameplayer", "homehand", "homeledgerentry"])
def test_the_admin_changes_no_game_stack_hand_or_ledger_row(
    reused: HomeGame, floor_user: User, compliance_user: User, model: str
) -> None:
    """Stacks, hands and ledger rows change only through the services (and their audit events)."""
    target = {"homegame": reused, "homegameplayer": HomeGamePlayer.objects.filter(game=reused).first(),
              "homehand": HomeHand.objects.filter(game=reused).first(),
              "homeledgerentry": HomeLedgerEntry.objects.filter(game=reused).first()}[model]
    assert target is not None
    before = HomeGamePlayer.objects.filter(game=reused).values_list("stack_cents", flat=True)
    stacks = list(before)
    for user in (floor_user, compliance_user):
        client = signed_in(user)
        assert client.get(f"{ADMIN}{model}/").status_code == 200
        change = f"{ADMIN}{model}/{target.pk}/change/"
        page = client.get(change)
        assert page.status_code == 200
        assert 'name="_save"' not in page.content.decode()  # shown, not a form
        assert client.post(change, {"stack_cents": "0", "amount_cents": "0", "status": "closed"}).status_code == 403
        assert client.get(f"{ADMIN}{model}/add/").status_code == 403
        assert client.post(f"{ADMIN}{model}/{target.pk}/delete/", {"post": "yes"}).status_code == 403
    assert list(before) == stacks


def test_a_corrected_hand_shows_what_was_first_recorded(reused: HomeGame, floor_user: User, dealer_user: User) -> None:
    hand = play(hand_start(game=reused, actor=dealer_user, button=2), dealer_user, "3 bet 200")
    hand_correct(hand=hand, actor=floor_user, index=0, action="3 check", reason="keyed a bet for a check")
    page = signed_in(floor_user).get(f"{ADMIN}homehand/{hand.pk}/change/").content.decode()
    now, first = page.split("s first recorded (before", 1)
    assert "1. Seat 3 · P3 checks" in now
    assert "1. Seat 3 · P3 bets $2.00" in first


def test_a_home_tables_admin_page_links_its_games_and_says_which_is_open(
    reused: HomeGame, floor_user: User, compliance_user: User
) -> None:
    for user in (floor_user, compliance_user):
        page = signed_in(user).get(f"{ADMIN}table/{reused.table_id}/change/").content.decode()
        assert f'href="/admin/tables/homegame/{reused.pk}/change/">Game 1 is open, 3 seated</a>' in page
        assert f'href="/admin/tables/homegame/?table__id__exact={reused.table_id}">every game (1)</a>' in page


def test_a_games_time_reads_the_same_on_the_list_and_its_page(reused: HomeGame, floor_user: User) -> None:
    client = signed_in(floor_user)
    played = f"{timezone.localtime(reused.opened_at):%b %d %H:%M}–now"
    listing = client.get(ADMIN + "homegame/").content.decode()
    assert played in next(text for text in table_rows(listing) if "three-legged-race 1" in text)
    page = client.get(f"{ADMIN}homegame/{reused.pk}/change/").content.decode()
    assert re.search(r">\s*Played:?\s*</label>\s*<div class=\"readonly\">" + re.escape(played) + "<", page)


def test_a_game_that_ends_past_midnight_shows_the_day_it_ended() -> None:
    opened = timezone.make_aware(datetime(2026, 12, 2, 23, 40))
    shown = HomeGameAdmin(HomeGame, admin.site).when
    assert shown(HomeGame(opened_at=opened, ended_at=opened + timedelta(minutes=50))) == "Dec 02 23:40–Dec 03 00:30"
    assert shown(HomeGame(opened_at=opened, ended_at=opened + timedelta(minutes=15))) == "Dec 02 23:40–23:55"
