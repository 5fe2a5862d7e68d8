"""The floor's alert for a dealer's call names who called as people say it: "Dealer dave", the full name when the
account has one, and never the role word twice (the demo's shared account "dealer" read "dealer dealer calls")."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from floor.selectors.floor_view import floor_view
from paytables.models import Paytable
from tables.models import CardSource
from tables.services.rounds import round_floor_call, round_start
from tests.tables.conftest import open_table

pytestmark = pytest.mark.django_db


def _dealer(username: str, **names: str) -> User:
    user = User.objects.create_user(username=username, password=f"pw-{username}", **names)
    user.groups.add(Group.objects.get(name="dealer"))
    return user


def _alert_of(dealer: User, floor: User, paytable: Paytable) -> str:
    table = open_table(f"Manual {dealer.username}", CardSource.MANUAL, paytable, floor, dealer)
    round_floor_call(round=round_start(table=table, actor=dealer), actor=dealer, reason="dispute at seat 1")
    return next(alert.text for tile, alert in floor_view().alerts
                if alert.code == "floor_call" and tile.table.pk == table.pk)


@pytest.mark.parametrize(("username", "names", "subject"), [
    ("dealer", {}, "The dealer"),
    ("dave", {}, "Dealer dave"),
    ("ann", {"first_name": "Ann", "last_name": "Lee"}, "Dealer Ann Lee"),
    ("dealer3", {}, "dealer3"),
])
def test_the_alert_names_the_caller_once_as_a_dealer(
    username: str, names: dict[str, str], subject: str, floor_user: User, jacks_paytable: Paytable
) -> None:
    text = _alert_of(_dealer(username, **names), floor_user, jacks_paytable)
    assert text.startswith(f"Round 1: {subject} calls the floor at ")
    assert text.endswith(" (dispute at seat 1)")
    assert "dealer dealer" not in text.lower()

