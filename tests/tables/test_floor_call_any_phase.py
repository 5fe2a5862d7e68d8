"""A dealer calls the floor from the table screen in any phase of an unfinished round (a dispute, a misdeal), not
only while a payout waits for approval; the floor supervisor, who is the one called, gets no such button."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from audit.models import AuditEvent
from casino.errors import WrongPhase
from tables.models import Table
from tables.services.rounds import round_floor_call, round_void
from tests.tables.test_payout_queue import logged_in
from tests.tables.test_settlement import to_drawing

pytestmark = pytest.mark.django_db


def test_a_dealer_calls_the_floor_mid_round_and_the_floor_is_not_offered_the_button(
    manual_table: Table, floor_user: User, dealer_user: User
) -> None:
    rnd = to_drawing(manual_table, floor_user)
    screen = f"/tablet/tables/{manual_table.pk}/"
    dealer = logged_in(dealer_user)
    page = dealer.get(screen).content.decode()
    assert 'class="call-floor"' in page, "a dealer in the draw has no way to call the floor"
    assert 'class="call-floor"' not in logged_in(floor_user).get(screen).content.decode()

    called = dealer.post(f"{screen}do/floor-call/", {"round": rnd.pk}, HTTP_HX_REQUEST="true")
    assert called.status_code == 200
    assert AuditEvent.objects.filter(action="round_floor_call", round_id=rnd.pk, actor_username="dave").count() == 1
    after = dealer.get(screen).content.decode()
    assert after.count("Floor called at") == 1, "the dealer reads the call once, beside the button"


def test_a_dealer_calls_the_floor_between_rounds_over_the_round_just_finished(
    manual_table: Table, floor_user: User, dealer_user: User
) -> None:
    """A dispute over a payout comes after the round is settled: a second user test found no Call floor between
    rounds. The call goes on the table's last round; an older round (a screen left behind) is refused."""
    rnd = to_drawing(manual_table, floor_user)
    round_void(round=rnd, reason="misdeal", actor=floor_user)
    screen = f"/tablet/tables/{manual_table.pk}/"
    dealer = logged_in(dealer_user)
    assert 'class="call-floor"' in dealer.get(screen).content.decode(), "no Call floor between rounds"
    called = dealer.post(f"{screen}do/floor-call/", {"round": rnd.pk}, HTTP_HX_REQUEST="true")
    assert called.status_code == 200
    assert AuditEvent.objects.filter(action="round_floor_call", round_id=rnd.pk).count() == 1
    assert "Floor called at" in dealer.get(screen).content.decode()

    to_drawing(manual_table, floor_user)  # the next round
    with pytest.raises(WrongPhase, match="came after it"):
        round_floor_call(round=rnd, actor=dealer_user, reason="old")
