"""The tablet's pages through Django's test client: who may open what, polling, errors in place, nothing half-saved."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from audit.models import AuditEvent
from tables.models import Bet, Round, RoundCard, SeatHand
from tables.services.bets import bet_place
from tables.services.rounds import round_start, round_void
from tables.services.tables import table_close
from tables.tasks import settle_round

HTMX = {"HTTP_HX_REQUEST": "true"}


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _act(client: Client, table: Any, action: str, **data: Any) -> Any:
    return client.post(reverse("tablet:action", args=[table.pk, action]), data, **HTMX)


@pytest.fixture
def betting(make_table: Any, dealer_user: User) -> tuple[Any, Round]:
    table = make_table("Table One", seated=(1, 3))
    round_ = round_start(table=table, actor=dealer_user)
    return table, round_


def test_dealer_signs_in_and_lands_on_the_tables_assigned_to_them(
    make_table: Any, dealer_user: User, other_dealer: User, floor_user: User
) -> None:
    mine = make_table("Mine")
    theirs = make_table("Theirs")
    theirs.dealers.remove(dealer_user)
    client = Client()
    response = client.post(reverse("tablet:login"), {"username": "dave", "password": "pw-dave"})
    assert response.status_code == 302
    assert response["Location"] == reverse("tablet:home")
    page = client.get(reverse("tablet:home")).content.decode()
    assert reverse("tablet:table", args=[mine.pk]) in page
    assert reverse("tablet:table", args=[theirs.pk]) not in page


def test_tablet_pages_send_a_signed_out_visitor_to_the_dealer_sign_in(make_table: Any) -> None:
    table = make_table("Table One")
    response = Client().get(reverse("tablet:table", args=[table.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("tablet:login"))


def test_a_poll_after_the_session_ended_sends_the_whole_page_to_sign_in(make_table: Any) -> None:
    table = make_table("Table One")
    page = reverse("tablet:table", args=[table.pk])
    response = Client().get(
        reverse("tablet:state", args=[table.pk]), HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL=f"http://t{page}"
    )
    assert response.status_code == 401
    assert response["HX-Redirect"] == f"{reverse('tablet:login')}?next={page.replace('/', '%2F')}"


def test_a_dealer_cannot_open_or_act_on_a_table_not_assigned_to_them(
    betting: tuple[Any, Round], other_dealer: User
) -> None:
    table, round_ = betting
    client = _client(other_dealer)
    assert client.get(reverse("tablet:table", args=[table.pk])).status_code == 403
    assert client.get(reverse("tablet:state", args=[table.pk])).status_code == 403
    response = _act(client, table, "bet", round=round_.pk, seat=1, amount="10", circles=1)
    assert response.status_code == 403
    assert not Bet.objects.filter(round=round_).exists()


def test_a_person_without_a_casino_role_sees_no_tables(betting: tuple[Any, Round], stranger: User) -> None:
    table, _ = betting
    client = _client(stranger)
    assert table.name not in client.get(reverse("tablet:home")).content.decode()
    assert client.get(reverse("tablet:table", args=[table.pk])).status_code == 403


def test_the_poll_answers_204_while_nothing_changed_and_the_new_state_after_a_change(
    betting: tuple[Any, Round], dealer_user: User
) -> None:
    table, round_ = betting
    client = _client(dealer_user)
    first = client.get(reverse("tablet:state", args=[table.pk]), **HTMX)
    assert first.status_code == 200
    version = first.content.decode().split('data-version="', 1)[1].split('"', 1)[0]
    unchanged = client.get(reverse("tablet:state", args=[table.pk]), {"v": version}, **HTMX)
    assert unchanged.status_code == 204
    # A change made elsewhere (the API, another tablet) moves the version on.
    bet_place(round=round_, seat_number=3, amount_cents=2500, circles=2, actor=dealer_user)
    changed = client.get(reverse("tablet:state", args=[table.pk]), {"v": version}, **HTMX)
    assert changed.status_code == 200
    assert "2 × $25.00" in changed.content.decode()


def test_placing_a_bet_calls_the_service_and_shows_it_on_the_seat(
    betting: tuple[Any, Round], dealer_user: User
) -> None:
    table, round_ = betting
    response = _act(_client(dealer_user), table, "bet", round=round_.pk, seat=3, amount="25.50", circles=3)
    assert response.status_code == 200
    assert sorted(Bet.objects.filter(round=round_, seat_number=3).values_list("circle", "amount_cents")) == [
        (1, 2550),
        (2, 2550),
        (3, 2550),
    ]
    assert "3 × $25.50" in response.content.decode()
    assert AuditEvent.objects.filter(round_id=round_.pk, action="bet_place").exists()


def test_a_bet_over_the_table_maximum_shows_the_error_at_its_seat_and_changes_nothing(
    betting: tuple[Any, Round], dealer_user: User
) -> None:
    table, round_ = betting
    client = _client(dealer_user)  # signing in is itself audited, so count after it
    events = AuditEvent.objects.count()
    response = _act(client, table, "bet", round=round_.pk, seat=3, amount="1000", circles=1)
    assert response.status_code == 400
    html = response.content.decode()
    error = html.split('id="seat-3-error">', 1)[1].split("</p>", 1)[0]
    assert error == "Seat 3: $1,000.00 is outside the table limits $5.00 to $500.00 per circle"
    assert re.search(r'id="amount-3" name="amount" autocomplete="off"\s+value="1000"', html)  # kept to correct
    assert not Bet.objects.filter(round=round_).exists()
    assert AuditEvent.objects.count() == events


@pytest.mark.parametrize("typed", ["ten", "0", "-5", "12.345", ""])
def test_an_amount_that_is_not_money_is_refused_in_plain_words(
    betting: tuple[Any, Round], dealer_user: User, typed: str
) -> None:
    table, round_ = betting
    response = _act(_client(dealer_user), table, "bet", round=round_.pk, seat=1, amount=typed, circles=1)
    assert response.status_code == 400
    error = response.content.decode().split('id="seat-1-error">', 1)[1].split("</p>", 1)[0]
    assert error.startswith("Seat 1: ")
    assert not Bet.objects.filter(round=round_).exists()


def test_a_duplicate_card_in_the_deal_is_refused_and_no_card_is_saved(
    betting: tuple[Any, Round], dealer_user: User
) -> None:
    table, round_ = betting
    client = _client(dealer_user)
    _act(client, table, "bet", round=round_.pk, seat=1, amount="10", circles=1)
    _act(client, table, "bet", round=round_.pk, seat=3, amount="10", circles=1)
    _act(client, table, "close-bets", round=round_.pk)
    response = _act(client, table, "deal", round=round_.pk, seat1="As Ks Qs Js Ts", seat3="As 2c 3c 4c 5c")
    assert response.status_code == 400
    error = response.content.decode().split('id="deal-error">', 1)[1].split("</p>", 1)[0]
    assert error == "Card A♠ appears twice: seat 1 and seat 3"  # the card as the dealer picked it, not its code
    assert not RoundCard.objects.filter(round=round_).exists()
    assert not SeatHand.objects.filter(round=round_).exclude(dealt=[]).exists()
    round_.refresh_from_db()
    assert round_.phase == "dealing"


def test_a_plain_form_post_without_javascript_redirects_back_to_the_table(
    betting: tuple[Any, Round], dealer_user: User
) -> None:
    table, round_ = betting
    form = {"round": round_.pk, "seat": 1, "amount": "10", "circles": "2"}
    response = _client(dealer_user).post(reverse("tablet:action", args=[table.pk, "bet"]), form)
    assert response.status_code == 302
    assert response["Location"] == reverse("tablet:table", args=[table.pk])
    assert Bet.objects.filter(round=round_, seat_number=1).count() == 2


def test_a_tap_on_a_stale_screen_is_refused_by_the_round_phase(
    betting: tuple[Any, Round], dealer_user: User, floor_user: User
) -> None:
    table, round_ = betting
    round_void(round=round_, reason="shuffle error", actor=floor_user)
    response = _act(_client(dealer_user), table, "bet", round=round_.pk, seat=1, amount="10", circles=1)
    assert response.status_code == 409
    assert not Bet.objects.filter(round=round_).exists()


def test_a_dealer_requests_a_void_and_a_floor_supervisor_voids_from_the_same_screen(
    betting: tuple[Any, Round], dealer_user: User, floor_user: User
) -> None:
    table, round_ = betting
    dealer = _client(dealer_user)
    refused = _act(dealer, table, "void", round=round_.pk, reason="misdeal")
    assert refused.status_code == 403
    requested = _act(dealer, table, "void-request", round=round_.pk, reason="misdeal at seat 3")
    assert requested.status_code == 200
    round_.refresh_from_db()
    assert round_.phase == "betting"
    floor_page = _client(floor_user).get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "Void requested by dave: misdeal at seat 3" in floor_page
    voided = _act(_client(floor_user), table, "void", round=round_.pk, reason="misdeal at seat 3")
    assert voided.status_code == 200
    round_.refresh_from_db()
    assert round_.phase == "voided"
    assert "Round voided: return all bets" in voided.content.decode()
    assert "Reason: misdeal at seat 3" in voided.content.decode()


def test_a_void_request_needs_a_reason(betting: tuple[Any, Round], dealer_user: User) -> None:
    table, round_ = betting
    response = _act(_client(dealer_user), table, "void-request", round=round_.pk, reason="  ")
    assert response.status_code == 400
    assert not AuditEvent.objects.filter(round_id=round_.pk, action="round_void_request").exists()


def test_the_paytable_and_rules_are_on_the_table_screen_and_their_own_page(
    betting: tuple[Any, Round], dealer_user: User
) -> None:
    table, _ = betting
    client = _client(dealer_user)
    screen = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert 'id="rules-dialog"' in screen
    assert "Pair, jacks or better" in screen
    rules = client.get(reverse("tablet:rules", args=[table.pk])).content.decode()
    assert "Full house" in rules
    assert "9 for 1" in rules
    assert "first 5 − k cards" in rules


def test_every_control_on_the_betting_screen_has_a_label(betting: tuple[Any, Round], dealer_user: User) -> None:
    table, _ = betting
    html = _client(dealer_user).get(reverse("tablet:table", args=[table.pk])).content.decode()
    for number in (1, 3):  # seated: bet entry
        assert f'<label for="amount-{number}"><span class="visually-hidden">Seat {number} </span>Bet per' in html
        assert f'<legend><span class="visually-hidden">Seat {number} </span>Circles</legend>' in html
    for number in (2, 4, 5, 6, 7):  # empty: a player can be seated
        assert f'<label for="player-{number}"><span class="visually-hidden">Seat {number} </span>Player name' in html
    assert 'role="list" aria-label="Seats"' in html
    assert html.count('role="alert"') >= 7  # each seat's error slot is announced when it fills


def test_a_whole_manual_round_through_the_tablet_forms_settles_with_the_engine_payouts(
    betting: tuple[Any, Round], dealer_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    table, round_ = betting
    client = _client(dealer_user)
    assert _act(client, table, "bet", round=round_.pk, seat=1, amount="10", circles=2).status_code == 200
    assert _act(client, table, "close-bets", round=round_.pk).status_code == 200
    assert _act(client, table, "deal", round=round_.pk, seat1="Js Jh 4c 7d 9s").status_code == 200
    # Held cards come as the tapped checkboxes, in dealt order.
    response = _act(client, table, "hold", round=round_.pk, seat=1, held=["Js", "Jh"])
    assert response.status_code == 200
    assert "Recorded: holds 2:" in response.content.decode()
    # Under a `db` test the queued settlement job does not run, so the round waits in "settling"...
    rows = {"row1": "Jc Kd 2s 3h 5c", "row2": "8c 8d 8h Ac 2d", "row3": "Qh Kh Ah Tc 6d"}
    response = _act(client, table, "rows", round=round_.pk, **rows)
    assert response.status_code == 200
    assert 'id="settling"' in response.content.decode()
    # ...and the dealer's Settle tap queues it again (idempotent); here the job body then runs in this process.
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = _act(client, table, "settle", round=round_.pk)
    assert response.status_code == 200
    assert len(queued) >= 1
    assert AuditEvent.objects.filter(round_id=round_.pk, action="round_settle").exists()
    settle_round.apply(args=[round_.pk])
    round_.refresh_from_db()
    assert round_.phase == "settled"
    html = _client(dealer_user).get(reverse("tablet:table", args=[table.pk])).content.decode()
    # Circle 1: Js Jh + Jc Kd 2s = three jacks, 3 for 1. Circle 2: Js Jh + 8c 8d 8h = eights full, 9 for 1.
    assert 'id="result-seat-1"' in html
    assert "Three jacks" in html
    assert "Eights full of jacks" in html
    # $30 and $90 come back with the $10 stakes (for 1): the bets stay and the dealer pays $20 + $80 from the tray.
    assert "Leave the $10.00 bet, pay $20.00 on it" in html
    assert "Leave the $10.00 bet, pay $80.00 on it" in html
    assert 'id="seat-1-pay" data-cents="10000"' in html
    assert 'id="table-result" data-cents="-10000"' in html


def test_a_floor_supervisor_opens_a_closed_table_from_the_tablet_and_a_dealer_cannot(
    make_table: Any, dealer_user: User, floor_user: User
) -> None:
    table = make_table("Closed One")
    table_close(table=table, actor=floor_user)
    page = _client(dealer_user).get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "The table is closed; a floor supervisor opens it." in page
    assert "Open the table" not in page
    assert _act(_client(dealer_user), table, "open").status_code == 403
    table.refresh_from_db()
    assert not table.is_open
    response = _act(_client(floor_user), table, "open")
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.is_open
    assert "Start a round" in response.content.decode()


def test_compliance_follows_a_table_read_only_and_cannot_change_it(
    betting: tuple[Any, Round], dealer_user: User, compliance_user: User
) -> None:
    table, round_ = betting
    bet_place(round=round_, seat_number=1, amount_cents=1000, circles=2, actor=dealer_user)
    client = _client(compliance_user)
    html = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "2 × $10.00" in html
    assert "Read only" in html
    assert "Place bet" not in html
    assert "Close bets" not in html
    assert "Request a void" not in html
    response = _act(client, table, "close-bets", round=round_.pk)
    assert response.status_code == 403
    round_.refresh_from_db()
    assert round_.phase == "betting"



def test_refused_dealt_cards_come_back_in_the_fields_they_were_picked_into(
    betting: tuple[Any, Round], dealer_user: User
) -> None:
    """Issue 14: entry errors keep what was picked, in the field it was picked into (hidden inputs the picker fills)."""
    table, round_ = betting
    client = _client(dealer_user)
    for seat in (1, 3):
        assert _act(client, table, "bet", round=round_.pk, seat=seat, amount="10", circles=1).status_code == 200
    assert _act(client, table, "close-bets", round=round_.pk).status_code == 200
    response = _act(client, table, "deal", round=round_.pk, seat1="As Kd 7c 2s 9h", seat3="As Qd 3c 4s 5h")
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r'id="deal-seat-1" name="seat1" value="As Kd 7c 2s 9h"', html)
    assert re.search(r'id="deal-seat-3" name="seat3" value="As Qd 3c 4s 5h"', html)
    # Shown on the field's button as faces, as the picker shows them once it runs.
    assert re.search(r'data-cards-of="deal-seat-1">A♠ K♦ 7♣ 2♠ 9♥<', html)
    assert "Numbers here are ids" not in html  # template comments stay out of the page
    assert not SeatHand.objects.filter(round=round_).exclude(dealt=[]).exists()
