"""The home-game screen's guards for a dealer at speed, through Django's test client: a fold asks first, a hand shown
or a draw the rules refuse is refused beside its button with nothing changed, a hand's result names the players who
played it, and each game's pages answer for their own tables only."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tables.models import HomeGame, HomeHand, Table
from tables.services.home_games import player_leave
from tables.services.home_hands import hand_act, hand_start
from tests.tablet.home_support import home_game, manual_showdown, stacked_deck

HTMX = {"HTTP_HX_REQUEST": "true"}


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _page(client: Client, table: Table) -> str:
    return client.get(reverse("tablet:table", args=[table.pk])).content.decode()


def _record(hand: HomeHand) -> list[str]:
    return list(HomeHand.objects.get(pk=hand.pk).record["actions"])


def _heads_up(floor: User, dealer: User) -> tuple[Table, HomeGame, HomeHand]:
    """Ann (seat 1, king high) and Bob (seat 2, a pair of kings) dealt five-card draw, Ann first to act."""
    table, game = home_game("five-card-draw", floor, dealer, players=[(1, "Ann"), (2, "Bob")])
    deck = stacked_deck([1, 2], {1: "Kd Jc 9h 6s 3d", 2: "Ks Kh 8c 5d 2s"})
    hand = hand_start(game=game.pk, actor=dealer, button=2, deck=[str(card) for card in deck])
    return table, game, hand


def test_a_hand_result_still_names_a_player_who_cashed_out_after_it(floor_user: User, dealer_user: User) -> None:
    table, game, hand = _heads_up(floor_user, dealer_user)
    for request in ({"seat": 1, "action": "check"}, {"seat": 2, "action": "check"},
                    {"seat": 1, "action": "draw", "cards": []}, {"seat": 2, "action": "draw", "cards": []},
                    {"seat": 1, "action": "check"}, {"seat": 2, "action": "check"}):
        hand_act(hand=hand.pk, actor=dealer_user, **request)
    client = _client(dealer_user)
    player_leave(game=game.pk, actor=dealer_user, seat=1)
    page = _page(client, table)
    rows = re.findall(r'<tr class="shown-hand" data-seat="(\d)"><th scope="row">([^<]+)</th><td>([^<]+)</td>', page)
    # Her seat is free again, but the hand she played is read from its own record: her row and her name stay.
    assert rows == [("1", "Seat 1 · Ann", "King high"), ("2", "Seat 2 · Bob", "Pair of kings")]
    assert 'id="seat-1"' not in page


def _act(client: Client, table: Table, tap: str, **data: Any) -> Any:
    return client.post(reverse("tablet:home-action", args=[table.pk, tap]), data, **HTMX)


def _version(hand: HomeHand) -> int:
    return HomeHand.objects.get(pk=hand.pk).version


def _asks_first(response: Any, step: str, question: str) -> str:
    """The answer to a fold or muck tap: its second step asks `question` and offers Cancel first, then Yes."""
    answer: str = response.content.decode()
    assert response.status_code == 200
    assert question in answer
    buttons = re.findall(rf'id="confirm-{step}".*?</div>', answer, re.S)[0]
    assert re.findall(rf'id="{step}-(cancel|yes)"', buttons) == ["cancel", "yes"]
    return answer


def test_fold_asks_first_and_records_only_the_yes(floor_user: User, dealer_user: User) -> None:
    table, _, hand = _heads_up(floor_user, dealer_user)
    client = _client(dealer_user)
    before = (_record(hand), _version(hand))
    response = _act(client, table, "act", hand=hand.pk, version=_version(hand), seat=1, action="fold")
    answer = _asks_first(response, "fold", "<strong>Fold Seat 1 · Ann?</strong> A fold cannot be undone")
    assert 'value="check"' not in answer  # no Fold or Check of the turn the second step replaced
    assert (_record(hand), _version(hand)) == before  # nothing recorded before the Yes
    # Cancel brings the turn back as it was.
    assert "Seat 1 · Ann to act</h3>" in client.get(reverse("tablet:home-state", args=[table.pk])).content.decode()
    response = _act(client, table, "act", hand=hand.pk, version=_version(hand), seat=1, action="fold", confirm="yes")
    assert response.status_code == 200
    assert _record(hand)[-1] == "1 fold"


def test_a_fold_from_a_screen_that_moved_on_is_refused_not_asked(floor_user: User, dealer_user: User) -> None:
    table, _, hand = _heads_up(floor_user, dealer_user)
    shown = _version(hand)
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="check")
    before = _record(hand)
    response = _act(_client(dealer_user), table, "act", hand=hand.pk, version=shown, seat=1, action="fold")
    assert response.status_code == 409
    assert 'id="confirm-fold"' not in response.content.decode()
    assert "nothing was recorded" in response.content.decode()
    assert _record(hand) == before


def test_a_draw_the_rules_refuse_is_refused_by_the_server_beside_the_draw(
    floor_user: User, dealer_user: User
) -> None:
    # The screen disables the button for such a draw; a page without scripts still sends it, and the server refuses.
    table, _, hand = _heads_up(floor_user, dealer_user)
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="check")
    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="check")
    before = _record(hand)
    response = _act(_client(dealer_user), table, "draw", hand=hand.pk, version=_version(hand), seat=1,
                    discard=["Kd", "Jc", "9h", "6s"])  # four, keeping the three of diamonds: no ace kept
    assert response.status_code == 400
    assert re.search(r'id="draw-error">[^<]*at most 3 \(4 when keeping an ace\)', response.content.decode())
    assert _record(hand) == before


def test_a_hand_of_fewer_than_five_cards_is_refused_beside_its_record_button(
    floor_user: User, dealer_user: User
) -> None:
    table, _, hand = manual_showdown("five-card-draw", floor_user, dealer_user)
    before = _record(hand)
    response = _act(_client(dealer_user), table, "show", hand=hand.pk, seat=1, cards="Ks Kh")
    answer = response.content.decode()
    assert response.status_code == 400
    # Beside seat 1's Record button (above the card grid), not under the 52 cards.
    assert re.search(r'id="show-1-error">Tap the five cards seat 1 shows \(2 chosen\)<', answer)
    assert answer.index('id="show-1-error"') < answer.index('class="hpicker"')
    assert re.search(r'id="show-2-error"></p>', answer)
    assert _record(hand) == before


def test_each_game_rules_page_answers_for_its_own_tables_only(
    floor_user: User, dealer_user: User, make_table: Any
) -> None:
    table, _ = home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")])
    triple = make_table("Triple One")
    client = _client(dealer_user)
    response = client.get(reverse("tablet:rules", args=[table.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("tablet:home-rules", args=[table.pk])
    assert "One draw: up to 3 cards" in client.get(response["Location"]).content.decode()
    response = client.get(reverse("tablet:home-rules", args=[triple.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("tablet:rules", args=[triple.pk])
    # The polls and taps of one game's screen, aimed at the other's table (a stale tab): its own screen, nothing done.
    for url in (reverse("tablet:home-state", args=[triple.pk]), reverse("tablet:state", args=[table.pk])):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"] == reverse("tablet:table", args=[triple.pk if "home" in url else table.pk])
        response = client.get(url, **HTMX)
        assert response.status_code == 200
        assert response["HX-Redirect"] == reverse("tablet:table", args=[triple.pk if "home" in url else table.pk])
    response = client.post(reverse("tablet:action", args=[table.pk, "start"]), **HTMX)
    assert response["HX-Redirect"] == reverse("tablet:table", args=[table.pk])
    assert not HomeHand.objects.filter(game__table=table).exists()
    response = client.post(reverse("tablet:home-action", args=[triple.pk, "start"]))
    assert response.status_code == 302


def test_a_muck_asks_first_and_records_only_the_yes(floor_user: User, dealer_user: User) -> None:
    table, _, hand = manual_showdown("five-card-draw", floor_user, dealer_user,
                                     players=((1, "Ann"), (2, "Bob"), (3, "Cy")))
    client = _client(dealer_user)
    page = _page(client, table)
    assert "Seat 2 · Bob mucks (concedes, hand not shown)</button>" in page
    before = (_record(hand), _version(hand))
    response = _act(client, table, "muck", hand=hand.pk, seat=2)
    answer = _asks_first(response, "muck", "<strong>Seat 2 · Bob mucks?</strong> A muck cannot be undone")
    # The second step stands in place of Bob's Record and Muck; the others' stay.
    assert "Seat 2 · Bob mucks (concedes" not in answer
    assert "Seat 3 · Cy mucks (concedes, hand not shown)</button>" in answer
    assert (_record(hand), _version(hand)) == before  # nothing recorded before the Yes
    response = _act(client, table, "muck", hand=hand.pk, version=_version(hand), seat=2, confirm="yes")
    assert response.status_code == 200
    assert _record(hand)[-1] == "2 muck"
    answer = response.content.decode()
    assert 'data-seat="2"' not in re.findall(r'class="show-forms".*?class="hpicker"', answer, re.S)[0]


def test_a_muck_from_a_screen_that_moved_on_is_refused_beside_its_seat(floor_user: User, dealer_user: User) -> None:
    table, _, hand = manual_showdown("five-card-draw", floor_user, dealer_user,
                                     players=((1, "Ann"), (2, "Bob"), (3, "Cy")))
    shown = _version(hand)
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="show", cards=["As", "Ad", "Kc", "Kd", "2h"])
    before = _record(hand)
    response = _act(_client(dealer_user), table, "muck", hand=hand.pk, version=shown, seat=2, confirm="yes")
    assert response.status_code == 409
    assert re.search(r'id="show-2-error">[^<]*nothing was recorded', response.content.decode())
    assert _record(hand) == before


def test_forced_play_offers_no_muck_and_refuses_one(floor_user: User, dealer_user: User) -> None:
    table, _, hand = manual_showdown("three-legged-race", floor_user, dealer_user, drawn=3, forced_play=True)
    client = _client(dealer_user)
    assert "mucks (concedes" not in _page(client, table)
    before = _record(hand)
    response = _act(client, table, "muck", hand=hand.pk, version=_version(hand), seat=1, confirm="yes")
    assert response.status_code == 400
    assert re.search(r'id="show-1-error">Seat 1 may not muck under forced play', response.content.decode())
    assert _record(hand) == before
