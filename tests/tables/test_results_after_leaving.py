"""The results panel of a settled round marks a seat whose player has left since betting, also once somebody else
sits down there: found by a user test, the panel then read "Seat 1 Wins $15.00 ... Pay $15.00" for the newcomer."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tables.models import Table
from tables.services.seats import seat_join, seat_leave
from tests.tables.helpers import play_manual

pytestmark = pytest.mark.django_db

# Jacks or better on row 1: seat 1 holds the pair of jacks and wins its circle; seat 2 holds nothing and loses.
SEATS = {1: {"bet": 1000, "circles": 1, "dealt": "Js Jh 4c 7d 9s", "held": "Js Jh"},
         2: {"bet": 1000, "circles": 1, "dealt": "2d 5s 8c Td 3h", "held": ""}}
ROWS = ["Jc 2h 5d Qs 6h", "4d 4h Kh 2c 7s", "As Ah 9h 9d Qh"]


def _seat_names(client: Client, table: Table) -> dict[str, str]:
    page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    return dict(re.findall(r'id="result-seat-(\d)".*?<span class="seat-name">([^<]+)</span>', page, re.S))


def test_a_seat_whose_winner_left_stays_marked_when_a_new_player_sits_down(
    manual_table: Table, dealer_api: APIClient, dealer_user: User
) -> None:
    play_manual(dealer_api, manual_table.pk, SEATS, ROWS)
    client = Client()
    client.force_login(dealer_user)
    assert _seat_names(client, manual_table) == {"1": "Seat 1", "2": "Seat 2"}
    seat_leave(table=manual_table, seat_number=1, actor=dealer_user)
    assert _seat_names(client, manual_table) == {"1": "Seat 1 (left)", "2": "Seat 2"}
    seat_join(table=manual_table, seat_number=1, actor=dealer_user, player_name="Ann")
    assert _seat_names(client, manual_table) == {"1": "Seat 1 (left)", "2": "Seat 2"}
