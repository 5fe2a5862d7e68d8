"""The home-game table screen through Django's test client: which screen a table gets, who may act, the poll, and
refusals shown next to their cause with nothing changed (the record, the chips, the audit trail)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from audit.models import AuditEvent
from tables.models import HomeGame, HomeGamePlayer, HomeHand, Table
from tables.screens.home import home_screen_for, home_token
from tables.services.home_games import game_open
from tables.services.home_hands import hand_act, hand_start
from tests.tables.conftest import open_home_table
from tests.tablet.home_support import home_game

HTMX = {"HTTP_HX_REQUEST": "true"}


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _act(client: Client, table: Table, tap: str, **data: Any) -> Any:
    return client.post(reverse("tablet:home-action", args=[table.pk, tap]), data, **HTMX)


def _error(response: Any, where: str) -> str:
    found = re.search(rf'id="{where}-error">([^<]*)<', response.content.decode())
    return found.group(1).strip() if found else ""


@pytest.fixture
def two_players(floor_user: User, dealer_user: User) -> tuple[Table, HomeGame]:
    return home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")])


def _snapshot(game: HomeGame) -> tuple[Any, ...]:
    hands = list(HomeHand.objects.filter(game=game).order_by("number").values_list("record", "status"))
    stacks = list(HomeGamePlayer.objects.filter(game=game).order_by("seat").values_list("stack_cents", "left_at"))
    game.refresh_from_db()
    return hands, stacks, game.pot_cents, game.version, AuditEvent.objects.count()


def test_a_home_game_table_gets_the_home_screen_and_a_triple_draw_table_its_own(
    two_players: tuple[Table, HomeGame], make_table: Any, dealer_user: User
) -> None:
    table, _ = two_players
    triple = make_table("Triple One")
    client = _client(dealer_user)
    home_page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert 'id="home-hand"' in home_page
    assert "Announce the rules before the first card" in home_page
    assert 'id="round"' in client.get(reverse("tablet:table", args=[triple.pk])).content.decode()
    assert client.get(reverse("tablet:home-state", args=[triple.pk])).status_code == 404


def test_the_table_list_says_which_game_and_hand_a_home_table_is_at(
    two_players: tuple[Table, HomeGame], dealer_user: User
) -> None:
    _, game = two_players
    client = _client(dealer_user)
    listed = client.get(reverse("tablet:home")).content.decode()
    assert f"game {game.number}, between hands" in listed
    hand = hand_start(game=game, actor=dealer_user)
    assert f"game {game.number}, hand {hand.number}: betting" in client.get(reverse("tablet:home")).content.decode()


def test_the_poll_answers_204_until_something_changes(
    two_players: tuple[Table, HomeGame], dealer_user: User
) -> None:
    table, game = two_players
    client = _client(dealer_user)
    url = reverse("tablet:home-state", args=[table.pk])
    token = home_token(Table.objects.get(pk=table.pk))
    assert client.get(url, {"v": token}, **HTMX).status_code == 204
    hand_start(game=game.pk, actor=dealer_user)
    table.refresh_from_db()
    response = client.get(url, {"v": token}, **HTMX)
    assert response.status_code == 200
    assert "Seat 2 · Bob to act" in response.content.decode()


def test_compliance_follows_read_only_and_a_dealer_elsewhere_sees_nothing(
    two_players: tuple[Table, HomeGame], compliance_user: User, other_dealer: User
) -> None:
    table, game = two_players
    carl = _client(compliance_user)
    page = carl.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "Read only" in page
    assert "start the first hand" not in page
    before = _snapshot(game)
    response = _act(carl, table, "start", game=game.pk)
    assert response.status_code == 403
    assert _error(response, "readonly") == "Compliance is read-only"
    assert _snapshot(game) == before
    assert _client(other_dealer).get(reverse("tablet:table", args=[table.pk])).status_code == 403


def test_a_tap_out_of_turn_or_on_a_finished_hand_is_refused_next_to_it_and_changes_nothing(
    two_players: tuple[Table, HomeGame], dealer_user: User
) -> None:
    table, game = two_players
    hand = hand_start(game=game.pk, actor=dealer_user)
    client = _client(dealer_user)
    before = _snapshot(game)
    response = _act(client, table, "act", hand=hand.pk, seat=1, action="check")  # Bob is to act
    assert response.status_code == 409
    assert "seat 1" in _error(response, "turn").lower()
    assert _snapshot(game) == before

    response = _act(client, table, "act", hand=hand.pk, seat=2, action="bet", amount="abc")
    assert response.status_code == 400
    assert _error(response, "turn") == "&#x27;abc&#x27; is not an amount of money"
    assert _snapshot(game) == before

    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="fold")
    before = _snapshot(game)
    response = _act(client, table, "act", hand=hand.pk, seat=1, action="check")  # a stale screen's tap
    assert response.status_code == 409
    assert _error(response, "hand") == "Hand 1 is settled"
    assert _snapshot(game) == before


def test_a_manual_draw_above_the_limit_waits_for_the_ace_to_be_confirmed(
    floor_user: User, dealer_user: User
) -> None:
    table, game = home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")],
                            source="manual")
    hand = hand_start(game=game.pk, actor=dealer_user)
    for request in ({"action": "dealt", "seat": None}, {"seat": 2, "action": "check"},
                    {"seat": 1, "action": "check"}):
        hand_act(hand=hand.pk, actor=dealer_user, **request)
    client = _client(dealer_user)
    before = _snapshot(game)
    response = _act(client, table, "draw-count", hand=hand.pk, seat=2, count=4)
    assert response.status_code == 200
    assert "Is the player keeping an ace?" in response.content.decode()
    assert _snapshot(game) == before
    response = _act(client, table, "draw-count", hand=hand.pk, seat=2, count=4, ace="yes")
    assert response.status_code == 200
    assert HomeHand.objects.get(pk=hand.pk).record["actions"][-1] == "2 draw 4 ace"


def test_the_floor_voids_a_hand_from_the_tablet_with_a_reason_and_a_dealer_cannot(
    two_players: tuple[Table, HomeGame], dealer_user: User, floor_user: User
) -> None:
    table, game = two_players
    hand = hand_start(game=game.pk, actor=dealer_user)
    dealer_page = _client(dealer_user).get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "Void this hand" not in dealer_page
    floor = _client(floor_user)
    before = _snapshot(game)
    response = _act(floor, table, "void", hand=hand.pk, reason="")
    assert _error(response, "void") == "Give a reason"
    assert _snapshot(game) == before
    response = _act(floor, table, "void", hand=hand.pk, reason="misdeal")
    assert response.status_code == 200
    assert "Hand 1 was voided: misdeal" in response.content.decode()
    assert list(HomeGamePlayer.objects.filter(game=game).values_list("stack_cents", flat=True)) == [20_000, 20_000]


def test_a_player_leaves_during_a_hand_from_the_seat_menu_and_the_hand_goes_on_without_them(
    floor_user: User, dealer_user: User
) -> None:
    table, game = home_game("five-card-draw", floor_user, dealer_user,
                            players=[(1, "Ann"), (2, "Bob"), (3, "Cy")])
    hand = hand_start(game=game.pk, actor=dealer_user)
    client = _client(dealer_user)
    assert "Leaves now: cash out $199.00" in client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    response = _act(client, table, "leave", game=game.pk, seat=3)
    assert response.status_code == 200
    assert "Seat 2 · Bob to act" in response.content.decode()
    cy = HomeGamePlayer.objects.get(game=game, seat=3)
    assert (cy.stack_cents, cy.cashed_out_cents, cy.left_at is not None) == (0, 19_900, True)
    assert HomeHand.objects.get(pk=hand.pk).record["actions"] == ["3 leave"]
    response = _act(client, table, "leave", game=game.pk, seat=3)
    assert response.status_code == 400
    assert _error(response, "seat-3") == "Nobody is seated at seat 3 in this game"


def test_no_limit_offers_the_minimum_the_pot_and_all_in_and_a_shoe_table_waits_for_its_cards(
    floor_user: User, dealer_user: User
) -> None:
    table, game = home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")],
                            rules={"betting": "no_limit", "min_bet_cents": 200})
    hand_start(game=game.pk, actor=dealer_user)
    page = _client(dealer_user).get(reverse("tablet:table", args=[table.pk])).content.decode()
    buttons = re.findall(r'<button type="submit"[^>]*>([^<]+)<', page)
    # Antes $2 in the pot: the pot-size bet is $2 too (the minimum), so the choices are the minimum and all in.
    assert [text for text in buttons if text.startswith(("Bet", "All in", "Check", "Fold"))] == [
        "Fold", "Check", "All in $199.00", "Bet $2.00 (minimum)", "Bet this amount"]
    assert 'Bet another amount ($2.00 to $199.00)' in page

    shoe_table, shoe_game = home_game("three-legged-race", floor_user, dealer_user, source="shoe",
                                      players=[(1, "Ann"), (2, "Bob")])
    hand_start(game=shoe_game.pk, actor=dealer_user)
    page = _client(dealer_user).get(reverse("tablet:table", args=[shoe_table.pk])).content.decode()
    assert "Waiting for the card-reading shoe" in page
    assert "A card for seat 2." in page


def test_a_player_who_folded_and_then_cashed_out_between_hands_shows_as_left_not_folded(
    floor_user: User, dealer_user: User
) -> None:
    table, game = home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob"), (3, "Cy")])
    hand = hand_start(game=game.pk, actor=dealer_user, button=3)
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="fold")
    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="fold")
    assert HomeHand.objects.get(pk=hand.pk).status == HomeHand.Status.SETTLED
    client = _client(dealer_user)
    page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert 'class="seat-status">Folded<' in _tile(page, 1)  # between hands: how the last hand went
    response = _act(client, table, "leave", game=game.pk, seat=1)
    assert response.status_code == 200
    seat = home_screen_for(Table.objects.get(pk=table.pk)).seats[0]
    assert (seat.seat, seat.status, seat.active) == (1, "left", False)
    tile = _tile(response.content.decode(), 1)
    assert "Folded" not in tile
    assert "Cashed out $199.00" in tile


def _tile(page: str, seat: int) -> str:
    found = re.search(rf'id="seat-{seat}".*?id="seat-{seat}-error"', page, re.S)
    assert found is not None, f"no tile for seat {seat}"
    return found.group(0)


def _game(floor: User, dealer: User, buy_ins: dict[int, int], betting: str) -> tuple[Table, HomeGame]:
    table = open_home_table(f"{betting} table", "five-card-draw", floor, dealer,
                            rules={"betting": betting, "min_bet_cents": 200})
    names = {1: "Ann", 2: "Bob", 3: "Cy"}
    game = game_open(table=table, actor=dealer, players=[{"seat": seat, "name": names[seat], "buy_in_cents": cents}
                                                         for seat, cents in buy_ins.items()])
    return table, game


def _turn_panel(client: Client, table: Table) -> tuple[list[str], str]:
    """The turn panel's buttons as they read, and the panel's text."""
    page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    found = re.search(r'id="turn-panel".*?id="turn-error"', page, re.S)
    assert found is not None
    panel = found.group(0)
    return re.findall(r'<button type="submit"[^>]*>([^<]+)<', panel), panel


def test_every_amount_button_says_what_the_player_puts_in_and_to_what_total(
    floor_user: User, dealer_user: User
) -> None:
    table, game = _game(floor_user, dealer_user, {1: 20_000, 2: 20_000, 3: 20_000}, "no_limit")
    hand = hand_start(game=game.pk, actor=dealer_user, button=3)
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="bet", amount_cents=1_300)
    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="raise", amount_cents=3_000)
    hand_act(hand=hand.pk, actor=dealer_user, seat=3, action="fold")
    buttons, panel = _turn_panel(_client(dealer_user), table)
    # Ann has $13.00 in this round and $186.00 behind, facing a raise to $30.00; the pot is $46.00.
    assert buttons == ["Fold", "Call $17.00 (to $30.00)", "All in $186.00 (to $199.00)",
                       "Raise to $47.00 (minimum; puts in $34.00)", "Raise to $93.00 (pot; puts in $80.00)",
                       "Raise to this total"]
    assert "Raise to another total for this round ($47.00 to $199.00; $13.00 in already)" in panel
    assert "“to” is their total in this betting round (Ann has $13.00 in it already)." in panel


def test_a_call_that_takes_the_whole_stack_is_one_button_in_the_units_of_the_others(
    floor_user: User, dealer_user: User
) -> None:
    # The tester's hand: Bob has $13.00 in this round and $9.00 behind. It read "Call $9.00 / All in $21.00".
    table, game = _game(floor_user, dealer_user, {1: 20_000, 2: 2_300, 3: 20_000}, "no_limit")
    hand = hand_start(game=game.pk, actor=dealer_user, button=3)
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="bet", amount_cents=1_300)
    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="call")
    hand_act(hand=hand.pk, actor=dealer_user, seat=3, action="raise", amount_cents=5_000)
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="fold")
    buttons, panel = _turn_panel(_client(dealer_user), table)
    assert buttons == ["Fold", "Call $9.00, all in (to $22.00)"]
    assert "Bob has $13.00 in it already" in panel


def test_pot_limit_offers_no_pot_button_when_the_stack_is_short_of_the_pot(
    floor_user: User, dealer_user: User
) -> None:
    table, game = _game(floor_user, dealer_user, {1: 20_000, 2: 20_000, 3: 1_000}, "pot_limit")
    hand = hand_start(game=game.pk, actor=dealer_user, button=3)
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="bet", amount_cents=300)
    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="call")
    buttons, panel = _turn_panel(_client(dealer_user), table)
    # Cy has $9.00 behind; a pot-size raise would be to $15.00: the most Cy can do is all in, said once.
    assert buttons == ["Fold", "Call $3.00", "All in $9.00", "Raise to $6.00 (minimum)", "Raise to this total"]
    assert "pot" not in " ".join(buttons)
    assert "Raise to another total for this round ($6.00 to $9.00)" in panel
