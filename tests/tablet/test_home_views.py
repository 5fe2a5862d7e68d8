"""The home-game table screen through Django's test client: which screen a table gets, who may act, the poll, and
refusals shown next to their cause with nothing changed (the record, the chips, the audit trail)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from audit.models import AuditEvent
from tables.models import HomeGame, HomeGamePlayer, HomeHand, Table
from tables.screens.home import home_screen_for, home_token
from tables.services.home_games import game_close, game_open, player_leave
from tables.services.home_hands import hand_act, hand_start
from tables.services.home_rulings import hand_void
from tests.tables.conftest import open_home_table
from tests.tablet.home_support import home_game, stacked_deck

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
    # A Triple Draw table's poll of the home screen (a stale tab) is sent to its own screen.
    assert client.get(reverse("tablet:home-state", args=[triple.pk]))["Location"] == reverse("tablet:table",
                                                                                             args=[triple.pk])


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
    assert _error(response, "turn") == "&#x27;abc&#x27; is not an amount of money: type dollars, e.g. 25 or 12.50"
    assert _snapshot(game) == before

    # A keypad with a decimal comma types "2,5" for $2.50: refused, never read as $25.00 by dropping the comma.
    response = _act(client, table, "act", hand=hand.pk, seat=2, action="bet", amount="2,5")
    assert response.status_code == 400
    assert _error(response, "turn") == ("&#x27;2,5&#x27; is not an amount of money: type cents after a point "
                                        "(2.50); a comma only groups thousands (1,000)")
    assert _snapshot(game) == before

    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="fold")
    before = _snapshot(game)
    response = _act(client, table, "act", hand=hand.pk, seat=1, action="check")  # a stale screen's tap
    assert response.status_code == 409
    assert _error(response, "hand") == "Hand 1 is settled"  # by its number: the id is for API clients
    assert _snapshot(game) == before


def test_a_tap_from_a_screen_another_tablet_moved_on_records_nothing_and_says_so(
    floor_user: User, dealer_user: User
) -> None:
    # Two tablets on one table. Both show Bob to act with nothing to call (Fold, Check, Bet). On the other tablet
    # Bob checks, Cy bets and Ann calls: Bob is to act again, now facing the bet. The first tablet's Fold, chosen
    # for the turn it showed, used to be recorded for this one: a fold the dealer never saw offered.
    table, game = home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob"), (3, "Cy")])
    hand = hand_start(game=game.pk, actor=dealer_user)
    client = _client(dealer_user)
    page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    shown = _version(hand)
    assert f'name="version" value="{shown}"' in page
    assert "Seat 2 · Bob to act</h3>" in page
    for request in ({"seat": 2, "action": "check"}, {"seat": 3, "action": "bet", "amount_cents": 200},
                    {"seat": 1, "action": "call"}):
        hand_act(hand=hand.pk, actor=dealer_user, **request)
    before = _snapshot(game)
    response = _act(client, table, "act", hand=hand.pk, version=shown, seat=2, action="fold")
    assert response.status_code == 409
    # The tap is named: the refusal stays under the next player's turn, where seat 2's Fold is no longer in sight.
    assert html.unescape(_error(response, "turn")) == (
        "Seat 2's fold: nothing was recorded, as hand 1 moved on before this tap arrived (another tablet, or a second "
        "tap); the screen now shows the hand as it is")
    assert _snapshot(game) == before
    # A second tap of the same button reads the same, not "acts out of turn".
    response = _act(client, table, "act", hand=hand.pk, version=shown, seat=1, action="call")
    assert response.status_code == 409
    assert "nothing was recorded" in _error(response, "turn")
    # From the screen as it is now, the tap is recorded.
    response = _act(client, table, "act", hand=hand.pk, version=_version(hand), seat=2, action="fold", confirm="yes")
    assert response.status_code == 200
    assert HomeHand.objects.get(pk=hand.pk).record["actions"][-1] == "2 fold"
    response = _act(client, table, "act", hand=hand.pk, version="x", seat=3, action="check")
    assert response.status_code == 400


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
    # The player is named as everywhere else on the screen (a user test read "Seat 2 is discarding 4 cards").
    assert "Seat 2 · Bob is discarding 4 cards" in response.content.decode()
    assert _snapshot(game) == before
    response = _act(client, table, "draw-count", hand=hand.pk, seat=2, count=4, ace="yes")
    assert response.status_code == 200
    assert HomeHand.objects.get(pk=hand.pk).record["actions"][-1] == "2 draw 4 ace"
    # The hand shown holds no ace: refused, and the dealer is told what to do next (nothing on the screen records
    # it), not only the rule.
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="draw", count=0)
    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="check")
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="check")
    before = _snapshot(game)
    response = _act(client, table, "show", hand=hand.pk, seat=2, cards="Ks Kh 7c 4d 2s")
    assert response.status_code == 400
    assert _error(response, "show-2") == (
        "Seat 2 drew above the limit keeping an ace but shows no ace. Check the cards picked; if the player has no "
        "ace, call the floor: they correct the draw (a count tapped by mistake) or rule on the hand")
    assert _snapshot(game) == before
    response = _act(client, table, "show", hand=hand.pk, seat=2, cards="As Kh 7c 4d 2s")
    assert response.status_code == 200
    assert HomeHand.objects.get(pk=hand.pk).record["actions"][-1] == "2 show As Kh 7c 4d 2s"


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
    holder = {1: "Seat 1 · Ann", 2: "Seat 2 · Bob"}[hand.button]
    assert (f"Hand 1 was voided by the floor: misdeal. Every chip went back where it was. Deal it again as hand 2: "
            f"the button stays at {holder}.") in response.content.decode()
    assert list(HomeGamePlayer.objects.filter(game=game).values_list("stack_cents", flat=True)) == [20_000, 20_000]


def test_the_void_notice_ends_a_reason_once_and_says_deal_again_only_while_the_game_is_open(
    two_players: tuple[Table, HomeGame], dealer_user: User, floor_user: User
) -> None:
    table, game = two_players
    hand = hand_start(game=game.pk, actor=dealer_user)
    hand_void(hand=hand, actor=floor_user, reason="a card face up.")
    words = home_screen_for(table).void_words
    assert words.startswith("Hand 1 was voided by the floor: a card face up. Every chip went back where it was. Deal")
    game_close(game=game.pk, actor=floor_user, reason="end of the session")
    assert home_screen_for(table).void_words == (
        "Hand 1 was voided by the floor: a card face up. Every chip went back where it was.")


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
    assert "Waiting for the card-reading shoe: the deal" in page
    assert "0 of 10 cards read. Next card: Seat 2 · Bob." in page


def test_a_kill_card_asks_first_and_is_recorded_only_on_yes(floor_user: User, dealer_user: User) -> None:
    # Found by a user test: one tap made the player dead, and only a floor correction could undo a mis-tap.
    table, game = home_game("pregnant-threes", floor_user, dealer_user, source="manual",
                            players=[(1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Dee")],
                            rules={"draws": 1, "cards_per_draw": 3, "draw": "optional", "kill_cards": ["Kd"]})
    hand = hand_start(game=game.pk, actor=dealer_user)
    client = _client(dealer_user)
    before = _snapshot(game)
    response = _act(client, table, "kill", hand=hand.pk, seat=4, card="Kd")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Seat 4 · Dee was dealt K♦?</strong> A kill card cannot be undone at the table" in page
    assert 'id="kill-yes">Yes, Seat 4 · Dee was dealt K♦: dead</button>' in page
    assert _snapshot(game) == before  # asked, nothing recorded
    response = _act(client, table, "kill", hand=hand.pk, seat=4, card="Kd", confirm="yes")
    assert response.status_code == 200
    assert HomeHand.objects.get(pk=hand.pk).record["actions"] == ["4 killed Kd"]
    assert 'id="confirm-kill"' not in response.content.decode()


def test_a_kill_card_recorded_for_one_seat_is_not_offered_for_another_and_a_stale_tap_names_it_as_players_see_it(
    floor_user: User, dealer_user: User
) -> None:
    # A deck holds each card once: after Dee was recorded dealt K♦, "Bob was dealt K♦" is no longer offered.
    table, game = home_game("pregnant-threes", floor_user, dealer_user, source="manual",
                            players=[(1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Dee")],
                            rules={"draws": 1, "cards_per_draw": 3, "draw": "optional", "kill_cards": ["Kd", "Kh"]})
    hand = hand_start(game=game.pk, actor=dealer_user)
    client = _client(dealer_user)
    page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "Bob was dealt K♦" in page
    assert "Bob was dealt K♥" in page
    assert '<span class="red">K♥</span>. The player' in page  # the list ends with its full stop, no space before
    hand_act(hand=hand.pk, actor=dealer_user, seat=4, action="killed", card="Kd")
    page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "Bob was dealt K♥" in page
    assert "was dealt K♦" not in page
    before = _snapshot(game)
    response = _act(client, table, "kill", hand=hand.pk, seat=2, card="Kd")  # a stale screen's tap
    assert response.status_code in (400, 409)
    refusal = _error(response, "kill")
    assert refusal.startswith("K♦ is already recorded in this hand (seat 4 was dealt it as a kill card)"), refusal
    assert _snapshot(game) == before
    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="killed", card="Kh")
    page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert 'id="kill-panel"' not in page  # every kill card is recorded: nothing left to offer


# --- the floor's rulings from the tablet (DESIGN 7: "the floor's ruling is final") -------------------------------


def _version(hand: HomeHand) -> int:
    return HomeHand.objects.get(pk=hand.pk).version


def _stacks(game: HomeGame) -> list[int]:
    return list(HomeGamePlayer.objects.filter(game=game).order_by("seat").values_list("stack_cents", flat=True))


def test_the_floor_awards_a_pot_by_ruling_from_the_tablet_and_a_dealer_cannot(
    two_players: tuple[Table, HomeGame], dealer_user: User, floor_user: User
) -> None:
    table, game = two_players
    hand = hand_start(game=game.pk, actor=dealer_user)
    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="bet", amount_cents=200)  # the pot: $4.00
    dealer, floor = _client(dealer_user), _client(floor_user)
    assert "Award the pot by ruling" not in dealer.get(reverse("tablet:table", args=[table.pk])).content.decode()
    before = _snapshot(game)
    response = _act(dealer, table, "award", hand=hand.pk, version=_version(hand), seats=["1"], reason="exposed card")
    assert response.status_code == 403
    assert _error(response, "hand") == "Only a floor supervisor may award a pot by ruling"
    assert _snapshot(game) == before

    page = floor.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "The pot of $4.00 goes to" in page
    assert "odd chips go to the first of them left of the button" in page
    for data, message in (
        ({"reason": "exposed card"}, "Choose the seat or seats the pot goes to"),
        ({"seats": ["1"], "reason": " "}, "Give a reason"),
        ({"seats": ["7"], "reason": "exposed card"}, "The pot goes to seated players"),
    ):
        response = _act(floor, table, "award", hand=hand.pk, version=_version(hand), **data)
        assert response.status_code == 400
        assert _error(response, "award") == message
        assert _snapshot(game) == before
    response = _act(floor, table, "award", hand=hand.pk, version=_version(hand) - 1, seats=["1"], reason="exposed")
    assert response.status_code == 409
    assert _error(response, "award") == "Hand 1 has changed since this screen was drawn: check it and rule again"
    assert _snapshot(game) == before

    response = _act(floor, table, "award", hand=hand.pk, version=_version(hand), seats=["1"],
                    reason="Bob's card exposed")
    assert response.status_code == 200
    row = HomeHand.objects.get(pk=hand.pk)
    assert row.status == HomeHand.Status.SETTLED
    assert row.record["actions"][-1] == "floor award 1 400 -- Bob's card exposed"
    assert _stacks(game) == [20_300, 19_700]
    assert "Award the pot by ruling" not in response.content.decode()


def test_an_even_split_by_ruling_gives_the_odd_chip_to_the_first_seat_left_of_the_button(
    floor_user: User, dealer_user: User
) -> None:
    table, game = home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob"), (3, "Cy")])
    hand = hand_start(game=game.pk, actor=dealer_user, button=3)  # antes $3.00; seat 1 is left of the button
    response = _act(_client(floor_user), table, "award", hand=hand.pk, version=_version(hand), seats=["2", "1"],
                    reason="misread hands, split")
    assert response.status_code == 200
    assert HomeHand.objects.get(pk=hand.pk).record["actions"][-1] == "floor award 1 150 2 150 -- misread hands, split"
    assert _stacks(game) == [20_050, 20_050, 19_900]


def test_the_floor_corrects_a_recorded_action_and_a_refused_correction_changes_nothing(
    two_players: tuple[Table, HomeGame], dealer_user: User, floor_user: User
) -> None:
    table, game = two_players
    hand = hand_start(game=game.pk, actor=dealer_user)
    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="bet", amount_cents=200)
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="call")
    dealer, floor = _client(dealer_user), _client(floor_user)
    assert "Correct a recorded action" not in dealer.get(reverse("tablet:table", args=[table.pk])).content.decode()
    before = _snapshot(game)
    response = _act(dealer, table, "correct", hand=hand.pk, version=_version(hand), index=1, replacement="",
                    reason="Ann never called")
    assert response.status_code == 403
    assert _snapshot(game) == before

    page = floor.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "1. Seat 2 · Bob bets $2.00 <code>2 bet 200</code>" in page
    assert "2. Seat 1 · Ann calls <code>1 call</code>" in page
    for data, message in (
        ({"replacement": "2 check", "reason": "x"}, "Choose the action to correct"),
        ({"index": "0", "replacement": "2 check", "reason": ""}, "Give a reason"),
        ({"index": "5", "replacement": "", "reason": "x"}, "Choose one of the actions 1 to 2"),
    ):
        response = _act(floor, table, "correct", hand=hand.pk, version=_version(hand), **data)
        assert response.status_code == 400, data
        assert _error(response, "correct") == message
        assert _snapshot(game) == before
    # Bob checked, not bet: then Ann's call (action 2) no longer applies. Shown next to the form, nothing changes.
    response = _act(floor, table, "correct", hand=hand.pk, version=_version(hand), index=0, replacement="2 check",
                    reason="Bob checked")
    assert response.status_code in (400, 409)
    assert _error(response, "correct").startswith("Action 2 (&#x27;1 call&#x27;) no longer applies: ")
    assert 'value="2 check"' in response.content.decode()  # kept to correct
    assert _snapshot(game) == before
    response = _act(floor, table, "correct", hand=hand.pk, version=_version(hand), index=0, replacement="2 raise 50",
                    reason="Bob checked")
    assert _error(response, "correct").startswith("The replacement (&#x27;2 raise 50&#x27;) does not apply: ")
    assert _snapshot(game) == before
    # The engine's amounts are cents; the refusal says dollars, as every other refusal on the screen does.
    response = _act(floor, table, "correct", hand=hand.pk, version=_version(hand), index=0, replacement="2 bet 300",
                    reason="Bob bet more")
    assert _error(response, "correct") == (
        "The replacement (&#x27;2 bet 300&#x27;) does not apply: bet $3.00 is above the fixed limit of $2.00")
    assert _snapshot(game) == before

    # Ann never called: the call is removed, the chips follow, the original record is kept, the ruling audited.
    events = AuditEvent.objects.count()
    response = _act(floor, table, "correct", hand=hand.pk, version=_version(hand), index=1, replacement="",
                    reason="Ann never called")
    assert response.status_code == 200
    row = HomeHand.objects.get(pk=hand.pk)
    assert row.record["actions"] == ["2 bet 200"]
    assert row.original_record is not None
    assert row.original_record["actions"] == ["2 bet 200", "1 call"]
    assert AuditEvent.objects.count() > events
    assert "Seat 1 · Ann to act: $2.00 to call" in response.content.decode()
    assert _stacks(game) == [19_900, 19_700]


def test_closing_a_three_legged_race_awards_the_carried_pot_to_a_seat_by_ruling(
    floor_user: User, dealer_user: User
) -> None:
    table, game = home_game("three-legged-race", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")])
    hand = hand_start(game=game.pk, actor=dealer_user)
    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="fold")  # Ann scores a leg; the $2.00 pot stays
    dealer_page = _client(dealer_user).get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "Close the game" not in dealer_page
    floor = _client(floor_user)
    page = floor.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "The carried pot of $2.00" in page
    assert "By ruling to Seat 2 · Bob" in page
    before = _snapshot(game)
    response = _act(floor, table, "close-game", game=game.pk, award_seat="9", reason="session over")
    assert response.status_code == 400
    assert _error(response, "close-game") == "Nobody played seat 9 in this game"
    assert 'id="close-award-9"' not in response.content.decode()
    assert _snapshot(game) == before
    response = _act(floor, table, "close-game", game=game.pk, award_seat="2", reason="")
    assert _error(response, "close-game") == "Give a reason"
    assert _snapshot(game) == before

    response = _act(floor, table, "close-game", game=game.pk, award_seat="2", reason="Ann's leg was misread")
    assert response.status_code == 200
    assert "closed by the floor (Ann&#x27;s leg was misread)" in response.content.decode()
    cashed = dict(HomeGamePlayer.objects.filter(game=game).values_list("seat", "cashed_out_cents"))
    assert cashed == {1: 19_900, 2: 20_100}


def test_the_close_says_what_each_player_gets_back_before_the_floor_chooses(
    floor_user: User, dealer_user: User
) -> None:
    """The floor closing a race nobody won chooses between "each player's own contributions returned" and a ruling
    (README); the choice named no amounts, so the supervisor decided without seeing that Cy, who left, is owed a
    dollar at the cashier. The screen after the close says it; now the choice says it first."""
    table, game = home_game("three-legged-race", floor_user, dealer_user,
                            players=[(1, "Ann"), (2, "Bob"), (3, "Cy")])
    hand = hand_start(game=game.pk, actor=dealer_user, button=3)
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="fold")
    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="fold")  # Cy's leg; the $3.00 of antes stays
    player_leave(game=game.pk, actor=dealer_user, seat=3)
    page = _client(floor_user).get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert ("Back to each player's own antes and bets: $1.00 to Ann, $1.00 to Bob, $1.00 to Cy (has left: at the "
            "cashier)") in page
    response = _act(_client(floor_user), table, "close-game", game=game.pk, award_seat="", reason="session over")
    assert response.status_code == 200
    assert dict(HomeGamePlayer.objects.filter(game=game).values_list("seat", "cashed_out_cents")) == {
        1: 20_000, 2: 20_000, 3: 20_000}


def test_a_game_without_a_carried_pot_is_closed_without_the_award_choice(
    two_players: tuple[Table, HomeGame], floor_user: User
) -> None:
    table, _ = two_players
    page = _client(floor_user).get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "Close the game (floor)" in page
    assert "The carried pot" not in page


def test_a_player_who_folded_and_then_cashed_out_between_hands_frees_the_seat_not_shown_folded(
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
    # Her seat is free again (offered to the next player, her name off it): not a stale "Folded" seat; the line
    # under the seats says she left and what she took.
    screen = home_screen_for(Table.objects.get(pk=table.pk))
    assert [seat.seat for seat in screen.seats] == [2, 3]
    assert 1 in screen.free_seats
    answer = response.content.decode()
    assert 'id="seat-1"' not in answer
    assert "Left the game: Ann (seat 1), cashed out $199.00" in answer
    assert 'data-seat-choice="1"' in answer


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


def test_a_raise_beyond_the_pot_limit_is_refused_in_dollars_with_the_totals_allowed(
    floor_user: User, dealer_user: User
) -> None:
    table, game = home_game("freak-of-nature", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")],
                            rules={"betting": "pot_limit", "min_bet_cents": 200})
    hand = hand_start(game=game.pk, actor=dealer_user, button=1)
    hand_act(hand=hand.pk, actor=dealer_user, seat=2, action="bet", amount_cents=200)
    client = _client(dealer_user)
    before = _snapshot(game)
    response = _act(client, table, "act", hand=hand.pk, seat=1, action="raise", amount="50")
    assert response.status_code == 400
    # Antes $2.00 and Bob's $2.00: the least raise is to $4.00, the pot-size raise to $8.00 ($2.00 to call + $6.00).
    assert _error(response, "turn") == "A raise to $50.00 is not allowed: a raise now is to a total from $4.00 to $8.00"
    assert _snapshot(game) == before


def test_a_race_to_one_leg_reads_one_leg_not_one_legs(floor_user: User, dealer_user: User) -> None:
    # legs_to_win may be 1 (DESIGN 7: 1-5); the screen read "Race to 1 legs" and "Ann wins the game: 1 legs."
    table, game = home_game("three-legged-race", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")],
                            rules={"legs_to_win": 1})
    client = _client(dealer_user)
    hand = hand_start(game=game.pk, actor=dealer_user, button=2, deck=[str(card) for card in stacked_deck(
        [1, 2], {1: "Qs Qd 4c 5c 7d", 2: "Jc Jh 4d 5d 7c"}, "Qc 8h 3s 2d 6d 9c")])
    page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert 'id="legs-called">Race to 1 leg</p>' in page
    for request in ({"seat": 1, "action": "check"}, {"seat": 2, "action": "check"},
                    {"seat": 1, "action": "draw", "cards": ["4c", "5c", "7d"]},
                    {"seat": 2, "action": "draw", "cards": ["4d", "5d", "7c"]},
                    {"seat": 1, "action": "check"}, {"seat": 2, "action": "check"}):
        hand_act(hand=hand.pk, actor=dealer_user, **request)
    page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert 'id="game-winner">Seat 1 · Ann wins the game: 1 leg.</p>' in page


def test_the_chips_field_says_how_much_may_be_added(
    two_players: tuple[Table, HomeGame], dealer_user: User
) -> None:
    # Chips may be added up to the maximum buy-in ($1,000.00 here; each stack is $200.00): the field says so, instead
    # of the dealer learning the limit from a refusal.
    table, game = two_players
    client = _client(dealer_user)
    page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert '<label for="chips-1">Add chips, in dollars (up to $800.00)</label>' in page
    response = _act(client, table, "chips", game=game.pk, seat=1, amount="800")
    assert response.status_code == 200
    assert ('<label for="chips-1">Add chips, in dollars (none: the stack is at the $1,000.00 maximum)</label>'
            in response.content.decode())
    assert '<label for="chips-2">Add chips, in dollars (up to $800.00)</label>' in response.content.decode()
