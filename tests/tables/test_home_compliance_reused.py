"""Compliance's view of a home game whose seat was taken again: each person with their own money and time at the
seat, and the game's events (its hands' and players' too) exported as the trail's CSV."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tables.models import HomeGame, HomeGamePlayer, Table
from tests.tables.test_home_seat_reuse import _game_with_seat_one_taken_again

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def reused(home_table: Callable[..., Table], dealer_user: User) -> HomeGame:
    return _game_with_seat_one_taken_again(home_table("three-legged-race"), dealer_user)


def clock(moment: object) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S")  # type: ignore[arg-type]


def test_the_games_page_says_when_each_person_sat_down_and_left(reused: HomeGame, compliance_user: User) -> None:
    page = signed_in(compliance_user).get(f"/compliance/home/games/{reused.pk}/").content.decode()
    ann, dee = HomeGamePlayer.objects.filter(game=reused, seat=1).order_by("id")
    assert ann.left_at is not None
    rows = [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in re.findall(r"<tr>.*?</tr>", page, re.S)]
    assert "Sat down" in rows[0]
    assert "Left" in rows[0]
    ann_row = next(row for row in rows if row.startswith("1 P1 "))
    dee_row = next(row for row in rows if row.startswith("1 Dee "))
    assert clock(ann.joined_at) in ann_row
    assert clock(ann.left_at) in ann_row
    assert clock(dee.joined_at) in dee_row
    assert "still seated" in dee_row
