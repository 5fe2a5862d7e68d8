"""Every refused report of a Triple Draw shoe is answered as before, changes nothing, and is audited as the device's
`shoe_cards_refuse` (on the round's timeline while a round is in play, else the device's) and kept on the device as
its last refusal; a report naming another round than the one in play is refused (409 `round_moved_on`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEvent
from tables.models import Round, TableDevice
from tables.selectors.round_shoe import round_shoe_wait
from tables.services.tables import table_update
from tables.templatetags.tablet import card_face, with_card_faces
from tests.tables.conftest import client_for
from tests.tables.helpers import ok, settle_now
from tests.tables.shoe_support import DEAL, ROWS, TripleDrawShoe

pytestmark = pytest.mark.django_db


def _none(shoe: TripleDrawShoe) -> None:
    return None


def _dealt(shoe: TripleDrawShoe) -> None:
    ok(shoe.post(DEAL[:4]))


def _holding(shoe: TripleDrawShoe) -> None:
    ok(shoe.post(DEAL))


def _drawing(shoe: TripleDrawShoe) -> None:
    ok(shoe.post(DEAL))
    shoe.hold_all()


# (what the round has seen, the report, the status and code the shoe gets, a part of the message)
CASES: list[tuple[Callable[[TripleDrawShoe], None], list[str], dict[str, Any], int, str, str]] = [
    (_none, ["Zz"], {}, 400, "bad_card", "Zz"),
    (_none, [*DEAL, "3h"], {}, 400, "too_many_cards", "11 cards sent, but the deal awaits 10 more"),
    (_drawing, [*ROWS, "3h"], {}, 400, "too_many_cards", "16 cards sent, but the rows await 15 more"),
    (_dealt, ["Js"], {}, 400, "duplicate_card", "Js"),
    (_holding, ["3h"], {}, 409, "wrong_phase", "no row card may be known before every hold is locked"),
    (_none, ["3h"], {"round": 999_999}, 409, "round_moved_on", "the cards were for round id 999999"),
    (_none, ["3h"], {"table": 999_999}, 403, "wrong_table", "not table id 999999"),
]


@pytest.mark.parametrize(("seen", "cards", "extra", "status", "code", "words"), CASES,
                         ids=[f"{case[4]}-{case[0].__name__}" for case in CASES])
def test_a_refused_report_changes_nothing_is_audited_on_the_round_and_kept_on_the_device(
    shoe: TripleDrawShoe, compliance_user: User, seen: Callable[[TripleDrawShoe], None], cards: list[str],
    extra: dict[str, Any], status: int, code: str, words: str
) -> None:
    seen(shoe)
    before = shoe.snapshot()
    answer = shoe.post(cards, **extra)
    assert answer.status_code == status, answer.content
    error = answer.json()["error"]
    assert error["code"] == code
    assert words in error["message"]
    assert shoe.snapshot()[:5] == before[:5]  # the round, its cards: nothing dealt
    event = AuditEvent.objects.filter(action="shoe_cards_refuse").latest("id")
    assert (event.actor_kind, event.actor_username) == ("device", f"device:{shoe.table.name}/shoe-a")
    assert event.round_id == shoe.round_id
    rnd = Round.objects.get(pk=shoe.round_id)
    assert event.after == {"cards": cards, "code": code, "message": error["message"], "device": "shoe-a",
                           "round": rnd.number, "round_id": rnd.pk, "round_version": rnd.version}
    device = TableDevice.objects.get(pk=shoe.device.pk)
    assert device.last_refused_at is not None
    assert device.last_refusal == event.after
    timeline = ok(client_for(compliance_user).get(f"/api/v1/audit/rounds/{shoe.round_id}/"))
    assert [e["action"] for e in timeline["events"]].count("shoe_cards_refuse") == 1


def test_round_moved_on_deals_nothing_into_the_round_in_play(shoe: TripleDrawShoe) -> None:
    ok(shoe.post(DEAL[:2], round=shoe.round_id, table=shoe.table.pk))
    answer = shoe.post(DEAL[2:4], round=shoe.round_id + 1)
    assert answer.status_code == 409
    message = answer.json()["error"]["message"]
    assert message == (f"the cards were for round id {shoe.round_id + 1}, but the round in play is round "
                       f"{Round.objects.get(pk=shoe.round_id).number} (id {shoe.round_id}): nothing was dealt")
    assert ok(shoe.post(DEAL[2:4], round=shoe.round_id))["repeated"] is False


def test_a_refusal_without_a_round_in_play_is_on_the_devices_timeline_and_the_replay_stays_clean(
    shoe: TripleDrawShoe, floor_user: User, compliance_user: User
) -> None:
    ok(shoe.post(DEAL))
    shoe.post(["3h"])  # holding: refused on the round's timeline
    shoe.hold_all()
    ok(shoe.post(ROWS))
    settle_now(shoe.round_id)
    timeline = ok(client_for(compliance_user).get(f"/api/v1/audit/rounds/{shoe.round_id}/"))
    assert timeline["verdict"]["ok"] is True, timeline["verdict"]
    browser = Client()
    browser.force_login(compliance_user)
    screen = browser.get(f"/compliance/rounds/{shoe.round_id}/")
    assert screen.status_code == 200
    assert "Shoe report refused" in screen.content.decode()
    answer = shoe.post(["3d"])  # no round in play
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "no_round")
    table_update(table=shoe.table, actor=floor_user, card_source="manual")
    answer = shoe.post(["3d"])
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "not_a_shoe_table")
    events = list(AuditEvent.objects.filter(action="shoe_cards_refuse").order_by("id"))
    assert [e.after["code"] for e in events] == ["wrong_phase", "no_round", "not_a_shoe_table"]
    assert [e.round_id for e in events] == [shoe.round_id, None, None]
    assert (events[-1].object_type, events[-1].object_id, events[-1].table_id) == (
        "tables.tabledevice", str(shoe.device.pk), shoe.table.pk)
    assert TableDevice.objects.get(pk=shoe.device.pk).last_refusal["code"] == "not_a_shoe_table"


def test_a_revoked_or_unknown_token_is_refused_before_any_device_is_known(shoe: TripleDrawShoe) -> None:
    answer = APIClient().post("/api/v1/shoe/cards/", {"cards": ["3h"]}, format="json",
                              HTTP_AUTHORIZATION="Device not-a-token")
    assert (answer.status_code, answer.json()["error"]["code"]) == (403, "bad_device_token")
    assert not AuditEvent.objects.filter(action="shoe_cards_refuse").exists()


def test_the_tablet_says_to_deal_again_every_card_of_a_refused_report(shoe: TripleDrawShoe, dealer_user: User) -> None:
    ok(shoe.post(DEAL[:2]))
    tablet = Client()
    tablet.force_login(dealer_user)

    def refusal() -> str:
        page = tablet.get(f"/tablet/tables/{shoe.table.pk}/").content.decode()
        line = page.split('id="shoe-refusal">', 1)[1]
        return line.split("</p>", 1)[0]

    assert shoe.post(["Zz"]).status_code == 400
    assert refusal().endswith("Nothing was recorded: check the card and deal it again.")
    # A good card beside a card dealt already: neither is recorded, so both are dealt again.
    answer = shoe.post([DEAL[2], DEAL[0]])
    assert answer.status_code == 400
    assert refusal().endswith("Nothing was recorded: check the cards and deal all of them again.")
    # The shoe's answer is for a machine and names the card by its code; the dealer reads it as on the card.
    assert f"card {DEAL[0]} appears twice" in answer.json()["error"]["message"]
    assert f"card {card_face(DEAL[0])} appears twice" in refusal()
    assert f"card {DEAL[0]} " not in refusal()
    progress = round_shoe_wait(Round.objects.get(pk=shoe.round_id))
    assert progress is not None
    assert progress.read == 2  # the good card was not recorded either


def test_a_refusal_shows_as_faces_only_the_cards_the_shoe_sent() -> None:
    assert with_card_faces("table As 1: card Td appears twice: seat 1 and row 2", ["Td", "Zz"]) == (
        "table As 1: card 10♦ appears twice: seat 1 and row 2")
    assert with_card_faces("bad card 'Zz'", ["Zz"]) == "bad card 'Zz'"
