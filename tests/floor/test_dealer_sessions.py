"""Dealers sign in and out of a table on the tablet: one dealer per table and one table per dealer, audited."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.errors import NotAllowed, WrongPhase
from floor.models import DealerSession
from floor.services.dealers import dealer_sign_in, dealer_sign_out
from tables.models import Table
from tables.services.tables import table_assign_dealer
from tests.floor.conftest import api_for

pytestmark = pytest.mark.django_db


def open_sessions() -> list[tuple[str, str]]:
    return sorted((s.table.name, s.dealer.username) for s in DealerSession.objects.filter(signed_out_at__isnull=True))


def test_a_dealer_signs_in_takes_over_a_table_and_signs_out(
    rng_tables: list[Table], floor_user: User, dealer_user: User, other_dealer: User, assert_audited: Any
) -> None:
    a, b = rng_tables
    table_assign_dealer(table=a, dealer=other_dealer, actor=floor_user)
    session = dealer_sign_in(table=a, actor=dealer_user)
    assert_audited("dealer_sign_in", obj=session, table=a, actor=dealer_user)
    with pytest.raises(WrongPhase, match="already signed in"):
        dealer_sign_in(table=a, actor=dealer_user)
    dealer_sign_in(table=a, actor=other_dealer)  # relief: Olga takes the box
    assert open_sessions() == [("Floor A", "olga")]
    dealer_sign_in(table=b, actor=dealer_user)
    with pytest.raises(NotAllowed, match="not you"):
        dealer_sign_out(table=a, actor=dealer_user)
    dealer_sign_out(table=a, actor=floor_user)  # the floor may sign anyone out
    assert open_sessions() == [("Floor B", "dave")]
    assert_audited("dealer_sign_out", table=a, actor=floor_user, before={"dealer": "olga"})
    with pytest.raises(WrongPhase, match="no dealer is signed in"):
        dealer_sign_out(table=a, actor=floor_user)


def test_only_an_assigned_dealer_signs_in(rng_tables: list[Table], floor_user: User, other_dealer: User) -> None:
    with pytest.raises(NotAllowed, match="not assigned"):
        dealer_sign_in(table=rng_tables[0], actor=other_dealer)
    with pytest.raises(NotAllowed, match="only a dealer"):
        dealer_sign_in(table=rng_tables[0], actor=floor_user)
    assert not DealerSession.objects.exists()


def test_the_api_signs_the_calling_dealer_in_and_out(rng_tables: list[Table], dealer_user: User) -> None:
    table = rng_tables[0]
    api = api_for(dealer_user)
    signed_in = api.post(f"/api/v1/floor/tables/{table.pk}/dealer/sign-in/")
    assert (signed_in.status_code, signed_in.json()["dealer"]) == (201, "dave")
    signed_out = api.post(f"/api/v1/floor/tables/{table.pk}/dealer/sign-out/")
    assert signed_out.status_code == 200
    assert signed_out.json()["signed_out_at"] is not None
    assert api.post("/api/v1/floor/tables/999999/dealer/sign-in/").status_code == 404


def test_the_tablet_control_signs_in_with_one_tap(
    rng_tables: list[Table], dealer_user: User, other_dealer: User
) -> None:
    table = rng_tables[0]
    client = Client()
    client.force_login(dealer_user)
    screen = client.get(f"/tablet/tables/{table.pk}/").content.decode()
    assert 'hx-get="/floor/tablet/' in screen
    # The app login is "logged in"/"Log out"; "signed in" is kept for the table's dealer session.
    assert "Logged in as dave" in screen
    assert ">Log out</button>" in screen
    panel = client.get(f"/floor/tablet/{table.pk}/dealer/").content.decode()
    assert "No dealer signed in at this table" in panel
    assert "Sign in at this table" in panel
    tapped = client.post(f"/floor/tablet/{table.pk}/dealer/sign-in/").content.decode()
    assert "Dealer at this table: <strong>dave</strong> (you)." in tapped
    assert "not signed in here" not in tapped
    assert "Leave this table" in tapped
    stranger = Client()
    stranger.force_login(other_dealer)  # not assigned to this table
    assert stranger.post(f"/floor/tablet/{table.pk}/dealer/sign-in/").status_code == 403
    assert open_sessions() == [("Floor A", "dave")]


def panel_text(user: User, table: Table) -> str:
    client = Client()
    client.force_login(user)
    html = client.get(f"/floor/tablet/{table.pk}/dealer/").content.decode()
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def test_the_tablet_tells_a_logged_in_dealer_they_are_not_signed_in_at_this_table(
    rng_tables: list[Table], floor_user: User, dealer_user: User, other_dealer: User
) -> None:
    table = rng_tables[0]
    assert panel_text(dealer_user, table).startswith(
        "No dealer signed in at this table. You are logged in as dave but not signed in here: Sign in at this table"
    )
    assert panel_text(floor_user, table) == (
        "No dealer signed in at this table. An assigned dealer signs in here, on this tablet."
    )
    table_assign_dealer(table=table, dealer=other_dealer, actor=floor_user)
    dealer_sign_in(table=table, actor=other_dealer)
    assert panel_text(dealer_user, table) == (
        "Dealer at this table: olga. You are logged in as dave but not signed in here; signing in takes over from "
        "olga: Sign in at this table"
    )
    assert panel_text(other_dealer, table) == "Dealer at this table: olga (you). Leave this table"
    assert panel_text(floor_user, table) == "Dealer at this table: olga. Sign olga off this table"
