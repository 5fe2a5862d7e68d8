"""seed_demo's card-reading shoes: a Triple Draw and a Five Card Draw table dealt from a shoe, whose tokens and curl
lines the banner prints (a new token every run, the last one revoked), and which a new user can deal from."""

from __future__ import annotations

import re
import shlex
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.errors import NotAllowed
from tables.models import HomeGame, Table, TableDevice
from tables.services.devices import device_authenticate
from tables.services.seats import seat_join
from tests.tables.helpers import bet, ok, start

pytestmark = pytest.mark.django_db

SHOE_LINE = re.compile(r"^ {4}(?P<table>.+) \(table (?P<id>\d+), (?P<device>shoe \d+)\): token (?P<token>\S+)$", re.M)


def seed() -> tuple[str, dict[str, dict[str, str]]]:
    out = StringIO()
    call_command("seed_demo", "--force", "--host", "http://127.0.0.1:8715", stdout=out)
    text = out.getvalue()
    return text, {match["table"]: match.groupdict() for match in SHOE_LINE.finditer(text)}


def pasted(text: str, token: str) -> tuple[str, dict[str, str], str]:
    """The banner's curl line for `token`, as a shell would split it: (url, headers, body)."""
    line = next(line for line in text.splitlines() if line.strip().startswith("curl") and token in line)
    words = shlex.split(line)
    headers = dict(words[i + 1].split(": ", 1) for i, word in enumerate(words) if word == "-H")
    return words[words.index("POST") + 1], headers, words[words.index("-d") + 1]


def test_the_banner_prints_a_working_token_for_each_shoe_table_and_a_new_one_each_run() -> None:
    text, shoes = seed()
    assert set(shoes) == {"Triple Draw Shoe 1", "Five Card Draw Shoe 1"}
    for name, shoe in shoes.items():
        table = Table.objects.get(name=name)
        assert (table.card_source, shoe["id"], shoe["device"]) == ("shoe", str(table.pk), "shoe 1")
        assert device_authenticate(shoe["token"]).table_id == table.pk
    assert HomeGame.objects.get(table__name="Five Card Draw Shoe 1", status="open").players.count() == 4
    url, headers, body = pasted(text, shoes["Triple Draw Shoe 1"]["token"])
    assert url == "http://127.0.0.1:8715/api/v1/shoe/cards/"
    assert headers["Authorization"] == f"Device {shoes['Triple Draw Shoe 1']['token']}"
    # Pasted before a round has started, the curl is told so (and changes nothing).
    answer = APIClient().post("/api/v1/shoe/cards/", body, content_type=headers["Content-Type"],
                              HTTP_AUTHORIZATION=headers["Authorization"])
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "no_round")

    again, renewed = seed()
    for name, shoe in renewed.items():
        assert shoe["device"] == "shoe 2"
        assert shoe["token"] != shoes[name]["token"]
        assert device_authenticate(shoe["token"]).name == "shoe 2"
        with pytest.raises(NotAllowed):
            device_authenticate(shoes[name]["token"])
        assert list(TableDevice.objects.filter(table__name=name).values_list("name", "active").order_by("name")) == [
            ("shoe 1", False), ("shoe 2", True)]
    assert "exists already" in again  # the rest of the demo was left as it was
    assert AuditEvent.objects.filter(action="device_create").count() == 4
    assert AuditEvent.objects.filter(action="device_revoke").count() == 2


def test_the_printed_token_deals_a_triple_draw_round_the_tablet_follows() -> None:
    _, shoes = seed()
    table = Table.objects.get(name="Triple Draw Shoe 1")
    floor, dealer = User.objects.get(username="floor"), User.objects.get(username="dealer")
    seat_join(table=table, seat_number=1, actor=floor, player_name="Ann")
    seat_join(table=table, seat_number=3, actor=floor, player_name="Bob")
    api = APIClient()
    api.force_authenticate(dealer)
    round_id = start(api, table.pk)
    ok(bet(api, round_id, 1, 500, 1))
    ok(bet(api, round_id, 3, 500, 1))
    ok(api.post(f"/api/v1/rounds/{round_id}/close-bets/"))
    tablet = Client()
    tablet.force_login(dealer)
    assert "0 of 10 cards read; next: seat 1 · Ann." in tablet.get(f"/tablet/tables/{table.pk}/").content.decode()
    token = shoes["Triple Draw Shoe 1"]["token"]
    posted = APIClient().post("/api/v1/shoe/cards/", {"cards": ["As", "9c", "Ah"], "table": table.pk}, format="json",
                              HTTP_AUTHORIZATION=f"Device {token}")
    assert ok(posted)["phase"] == "dealing"
    assert "3 of 10 cards read; next: seat 3 · Bob." in tablet.get(f"/tablet/tables/{table.pk}/").content.decode()
    posted = APIClient().post("/api/v1/shoe/cards/", {"cards": ["9d", "Kd", "5h", "2c", "Jc", "7d", "3s"]},
                              format="json", HTTP_AUTHORIZATION=f"Device {token}")
    assert ok(posted)["phase"] == "holding"
    ok(api.post(f"/api/v1/rounds/{round_id}/holds/", {"seat": 1, "held": ["As", "Ah"]}, format="json"))
    ok(api.post(f"/api/v1/rounds/{round_id}/holds/", {"seat": 3, "held": ["9c", "9d"]}, format="json"))
    posted = APIClient().post("/api/v1/shoe/cards/", {"cards": ["Ac", "Kh", "4d", "8s", "6c", "Qs", "Qh"]},
                              format="json", HTTP_AUTHORIZATION=f"Device {token}")
    assert ok(posted)["phase"] == "drawing"
    page = tablet.get(f"/tablet/tables/{table.pk}/").content.decode()
    assert "7 of 15 row cards read; next: row 2" in page
