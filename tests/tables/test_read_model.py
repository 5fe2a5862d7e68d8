"""One read model per round: the API and the tablet show the same round, and one change token serves both."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tables.models import Round, SeatHand, Table
from tables.services.bets import bet_place
from tables.services.cards import cards_deal, holds_record, rows_record
from tables.services.rounds import round_close_bets, round_start
from tables.services.settlement import round_settlement_apply
from tests.tables.helpers import ok

HTMX = {"HTTP_HX_REQUEST": "true"}


def tablet_section(user: User, table: Table) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("tablet:state", args=[table.pk]), **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def tablet_token(html: str) -> str:
    return html.split('data-version="', 1)[1].split('"', 1)[0]


def settled_round(table: Table, dealer: User) -> Round:
    rnd = round_start(table=table, actor=dealer)
    bet_place(round=rnd, seat_number=2, amount_cents=1_000, circles=3, actor=dealer)
    bet_place(round=rnd, seat_number=5, amount_cents=2_500, circles=1, actor=dealer)
    round_close_bets(round=rnd, actor=dealer)
    cards_deal(round=rnd, actor=dealer)
    for seat in (2, 5):
        holds_record(round=rnd, seat_number=seat, held=SeatHand.objects.get(round=rnd, seat_number=seat).dealt[:3],
                     actor=dealer)  # fmt: skip
    rows_record(round=rnd, actor=dealer)
    round_settlement_apply(round_id=rnd.pk)
    return Round.objects.get(pk=rnd.pk)


def test_the_tablet_poll_token_is_the_api_etag(rng_table: Table, dealer_user: User, dealer_api: APIClient) -> None:
    def etag() -> str:
        return str(dealer_api.get(f"/api/v1/tables/{rng_table.pk}/")["ETag"]).strip('"')

    assert tablet_token(tablet_section(dealer_user, rng_table)) == etag()
    rnd = round_start(table=rng_table, actor=dealer_user)
    assert tablet_token(tablet_section(dealer_user, rng_table)) == etag()
    before = etag()
    bet_place(round=rnd, seat_number=1, amount_cents=500, circles=1, actor=dealer_user)
    assert etag() != before
    assert tablet_token(tablet_section(dealer_user, rng_table)) == etag()
    # The round's own ETag is the same token while it is the round the table shows.
    assert str(dealer_api.get(f"/api/v1/rounds/{rnd.pk}/")["ETag"]).strip('"') == etag()


def test_a_held_etag_gets_304_until_the_round_changes(
    rng_table: Table, dealer_user: User, dealer_api: APIClient
) -> None:
    rnd = round_start(table=rng_table, actor=dealer_user)
    tag = dealer_api.get(f"/api/v1/rounds/{rnd.pk}/")["ETag"]
    assert dealer_api.get(f"/api/v1/rounds/{rnd.pk}/", HTTP_IF_NONE_MATCH=tag).status_code == 304
    bet_place(round=rnd, seat_number=1, amount_cents=500, circles=1, actor=dealer_user)
    assert dealer_api.get(f"/api/v1/rounds/{rnd.pk}/", HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_the_tablet_and_the_api_show_the_same_results(
    rng_table: Table, dealer_user: User, dealer_api: APIClient
) -> None:
    rnd = settled_round(rng_table, dealer_user)
    state = ok(dealer_api.get(f"/api/v1/rounds/{rnd.pk}/"))
    html = tablet_section(dealer_user, rng_table)
    for seat in state["seats"]:
        if not seat["bets"]:
            continue
        # The tablet shows what the dealer pays from the tray: each circle's return beyond the stake left in it.
        section = html.split(f'id="result-seat-{seat["seat"]}"', 1)[1].split("</li>", 1)[0]
        pay = re.search(r'data-pay-cents="(\d+)"', html.split(f'id="result-seat-{seat["seat"]}"', 1)[1])
        assert pay is not None
        stakes = {int(circle): cents for circle, cents in seat["bets"].items()}
        expected = sum(max(0, o["paid_cents"] - stakes[o["circle"]]) for o in seat["outcomes"])
        assert int(pay.group(1)) == expected
        returned = [int(cents) for cents in re.findall(r'data-returned-cents="(\d+)"', section)]
        assert returned == [o["paid_cents"] for o in seat["outcomes"]]
        for outcome in seat["outcomes"]:
            assert outcome["description"] in html
    table_result = re.search(r'id="table-result" data-cents="(-?\d+)"', html)
    assert table_result is not None
    assert int(table_result.group(1)) == state["totals"]["table_net_cents"]
    for row, cards in enumerate(state["rows"], start=1):
        assert f'id="row-{row}-cards"' in html
        assert len(cards) == 5
