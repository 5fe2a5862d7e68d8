"""Home-game ledger rows name the person whose stack moved, as of the posting, not the seat's current occupant: P1
plays hand 1 at seat 1 and leaves, Dee sits down there and plays hand 2."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from tables.models import HomeAccount, HomeGame, HomeGamePlayer, HomeHand, HomeLedgerEntry, Table
from tables.selectors.home_ledger import ledger_rows, seat_and_person, with_holders
from tests.tables.pages import signed_in, table_rows

pytestmark = pytest.mark.django_db


def test_each_stack_leg_names_who_held_the_seat_when_it_was_posted(reused: HomeGame) -> None:
    ann, dee = HomeGamePlayer.objects.filter(game=reused, seat=1).order_by("id")
    seat_one = with_holders(HomeLedgerEntry.objects.filter(game=reused, seat=1)).order_by("id")
    by_kind = [(entry.kind, entry.holder_id) for entry in seat_one]  # type: ignore[attr-defined]
    # P1's buy-in, ante, fold... and cash-out come first; Dee's buy-in and her hand after, none of them P1's.
    cash_out = by_kind.index(("cash_out", ann.pk))
    assert by_kind[0] == ("buy_in", ann.pk)
    assert all(holder == ann.pk for _, holder in by_kind[:cash_out + 1])
    assert by_kind[cash_out + 1] == ("buy_in", dee.pk)
    assert all(holder == dee.pk for _, holder in by_kind[cash_out + 1:])
    assert {seat_and_person(entry) for entry in seat_one} == {"Seat 1 · P1", "Seat 1 · Dee"}
    pot = with_holders(HomeLedgerEntry.objects.filter(game=reused, account=HomeAccount.POT)).first()
    assert pot is not None
    assert seat_and_person(pot) == "Pot"


def test_a_player_card_is_named_with_the_player(home_table: Callable[..., Table], dealer_user: User) -> None:
    from tables.services.home_games import game_open

    game = game_open(table=home_table("five-card-draw"), actor=dealer_user,
                     players=[{"seat": 4, "name": "Ann", "player_card": "77-120", "buy_in_cents": 10_000},
                              {"seat": 5, "buy_in_cents": 10_000}])
    assert [row["who"] for row in ledger_rows(game) if row["seat"] is not None] == [
        "Seat 4 · Ann (card 77-120)", "Seat 5 · unnamed player"]


def test_the_hand_timelines_ledger_names_the_person_of_that_hand(reused: HomeGame, compliance_user: User) -> None:
    first, second = HomeHand.objects.filter(game=reused).order_by("number")
    ann, dee = HomeGamePlayer.objects.filter(game=reused, seat=1).order_by("id")
    client = signed_in(compliance_user)
    one = client.get(f"/compliance/home/hands/{first.pk}/").content.decode()
    assert "Chip ledger" in one
    seat_one = [row for row in table_rows(one) if "Seat 1 ·" in row]
    assert seat_one
    assert all("Seat 1 · P1" in row for row in seat_one)
    assert f'href="/compliance/home/players/{ann.pk}/"' in one
    two = client.get(f"/compliance/home/hands/{second.pk}/").content.decode()
    seat_one = [row for row in table_rows(two) if "Seat 1 ·" in row]
    assert seat_one
    assert all("Seat 1 · Dee" in row for row in seat_one)
    game_page = client.get(f"/compliance/home/games/{reused.pk}/").content.decode()
    assert any("buy in" in row and "Seat 1 · P1" in row for row in table_rows(game_page))
    assert any("buy in" in row and "Seat 1 · Dee" in row for row in table_rows(game_page))
    assert f'href="/compliance/home/players/{dee.pk}/"' in game_page


def test_the_admins_ledger_list_names_the_person_as_posted(reused: HomeGame, compliance_user: User) -> None:
    page = signed_in(compliance_user).get("/admin/tables/homeledgerentry/", {"game__table__id__exact":
                                                                              reused.table_id}).content.decode()
    rows = table_rows(page)
    assert any("Seat · player (as posted)" in row and "Kind" in row for row in rows)
    assert any("cash_out" in row and "Seat 1 · P1" in row for row in rows)
    assert any("buy_in" in row and "Seat 1 · Dee" in row for row in rows)
    assert not any("cash_out" in row and "Seat 1 · Dee" in row for row in rows)
    entry = HomeLedgerEntry.objects.filter(game=reused, seat=1, kind="cash_out").get()
    detail = signed_in(compliance_user).get(f"/admin/tables/homeledgerentry/{entry.pk}/change/").content.decode()
    assert "Seat 1 · P1" in detail


def test_a_player_who_left_during_a_hand_keeps_the_seats_rows_until_the_next_sits_down(
    home_table: Callable[..., Table], dealer_user: User
) -> None:
    """P1 leaves in the middle of hand 1 (cashed out at once, the hand played on without her); Dee takes seat 1 for
    hand 2. P1's cash-out is posted after she left, and still hers."""
    from tables.services.home_games import game_open, player_join, player_leave
    from tables.services.home_hands import hand_start
    from tests.tables.test_home_services import play_out, seat_players

    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(3))
    hand = hand_start(game=game, actor=dealer_user)
    player_leave(game=game, actor=dealer_user, seat=1)
    play_out(HomeHand.objects.get(pk=hand.pk), dealer_user)
    player_join(game=game, actor=dealer_user, seat=1, name="Dee", buy_in_cents=5_000)
    play_out(hand_start(game=game, actor=dealer_user), dealer_user)
    ann, dee = HomeGamePlayer.objects.filter(game=game, seat=1).order_by("id")
    assert ann.left_at is not None
    rows = [(row["kind"], row["player_id"]) for row in ledger_rows(game) if row["seat"] == 1]
    cash_out = rows.index(("cash_out", ann.pk))
    assert rows[:cash_out + 1] == [(kind, ann.pk) for kind, _ in rows[:cash_out + 1]]
    assert rows[cash_out + 1] == ("buy_in", dee.pk)
    assert all(holder == dee.pk for _, holder in rows[cash_out + 1:])
