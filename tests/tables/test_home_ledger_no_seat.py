"""A home-game ledger leg with no seat reads as what holds it: the pot, the house (rake or time charge), the cage."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tables.models import HomeGame, Table
from tables.selectors.home_ledger import ledger_rows
from tables.services.home_games import game_open
from tables.services.home_hands import hand_start
from tests.tables.test_home_services import deck, play, seat_players

pytestmark = pytest.mark.django_db

RAKE = {"charge": "rake", "rake_basis_points": 1_000, "rake_cap_cents": 150}


def raked_game(home_table: Callable[..., Table], dealer: User) -> HomeGame:
    """A raked $23.00 pot won by seat 1 (the rake, $1.50, from the winner's stack)."""
    game = game_open(table=home_table("five-card-draw", **RAKE), actor=dealer, players=seat_players(3))
    hand = hand_start(game=game, actor=dealer, button=3, deck=deck(3, {
        1: "As Ad Ac 5c 7d", 2: "Kc Kh 4d 5d 8c", 3: "2c 3d 7h 9s Jd"}))
    play(hand, dealer, "1 bet 200", "2 raise 400", "3 call", "1 call", "1 draw", "2 draw", "3 draw",
         "1 bet 400", "2 call", "3 fold")
    return game


def text_rows(page: str) -> list[str]:
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in re.findall(r"<tr[^>]*>.*?</tr>", page, re.S)]


def test_legs_without_a_seat_name_the_pot_the_house_and_the_cage(
    home_table: Callable[..., Table], dealer_user: User
) -> None:
    rows = ledger_rows(raked_game(home_table, dealer_user))
    no_seat = {(row["kind"], row["who"]) for row in rows if row["seat"] is None}
    assert ("buy_in", "Cage (cashier)") in no_seat
    assert ("ante", "Pot") in no_seat
    assert ("rake", "House (rake)") in no_seat
    assert all(who not in ("", "—") for _, who in no_seat)


def test_a_time_charge_leg_names_the_house_charge(home_table: Callable[..., Table], dealer_user: User) -> None:
    game = game_open(table=home_table("five-card-draw", charge="time", time_charge_cents=500), actor=dealer_user,
                     players=seat_players(3))
    hand_start(game=game, actor=dealer_user, button=3, deck=deck(3, {
        1: "As Ad Ac 5c 7d", 2: "Kc Kh 4d 5d 8c", 3: "2c 3d 7h 9s Jd"}))
    charges = [row["who"] for row in ledger_rows(game) if row["kind"] == "time_charge" and row["seat"] is None]
    assert charges == ["House (time charge)"] * 3


def test_the_compliance_pages_and_the_admin_list_show_who_holds_each_leg(
    home_table: Callable[..., Table], dealer_user: User, compliance_user: User
) -> None:
    game = raked_game(home_table, dealer_user)
    client = Client()
    client.force_login(compliance_user)
    timeline = text_rows(client.get(f"/compliance/home/games/{game.pk}/").content.decode())
    assert any("rake" in row and "House (rake)" in row and "$1.50" in row for row in timeline)
    assert any("buy in" in row and "Cage (cashier)" in row for row in timeline)  # the kind in words
    assert not any("buy_in" in row for row in timeline)
    hand = game.hands.get()
    hand_page = text_rows(client.get(f"/compliance/home/hands/{hand.pk}/").content.decode())
    assert any("ante" in row and " Pot " in f" {row} " for row in hand_page)
    listing = text_rows(client.get("/admin/tables/homeledgerentry/", {"game__table__id__exact": game.table_id})
                        .content.decode())
    assert any("rake" in row and "house" in row and "House (rake)" in row for row in listing)
    pot_rows = [row for row in listing if " pot " in f" {row} "]
    assert pot_rows
    assert all(" Pot " in f" {row} " for row in pot_rows)
