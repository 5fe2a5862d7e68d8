"""The trail's row for a home hand's settlement reads in words, as the tablet said the result ("Fives wild: four
nines beat three queens; Pot $2.00 to P1: ..."), not as a dump of its stored fields; a wild rank is shown only for
the variant whose showdown fixes one (Freak of Nature), never "Wild rank: —" for Pregnant Threes, whose threes,
sixes and nines are always wild."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from audit.models import AuditEvent
from tables.models import HomeHand, Table
from tables.services.home_games import game_open
from tables.services.home_hands import hand_start
from tests.tables.conftest import home_table  # noqa: F401 (a pytest fixture)
from tests.tables.test_home_services import play_out, seat_players
from tests.tablet.home_support import stacked_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def settled(home_table: Callable[..., Table], dealer_user: User, compliance_user: User,  # noqa: F811
            monkeypatch: pytest.MonkeyPatch) -> Callable[..., tuple[str, str]]:
    """settled(variant, rules, seat 1's cards, seat 2's cards): one hand dealt from that deck and played to the
    showdown without a discard; (its settlement row's details on the hand's timeline, the event's own page)."""

    def play(variant: str, rules: dict[str, Any], first: str, second: str) -> tuple[str, str]:
        deck = stacked_deck([2, 1], {1: first, 2: second})
        monkeypatch.setattr("tables.services.home_hands.shuffled_deck", lambda: list(deck))
        game = game_open(table=home_table(variant, rules=rules), actor=dealer_user, players=seat_players(2))
        play_out(hand_start(game=game, actor=dealer_user), dealer_user)
        client = Client()
        client.force_login(compliance_user)
        page = client.get(reverse("home-compliance:hand", args=[HomeHand.objects.get(game=game).pk])).content.decode()
        row = re.search(r'title="home_hand_settle">.*?<td class="details">(.*?)</td>', page, re.DOTALL)
        assert row is not None
        event = AuditEvent.objects.get(action="home_hand_settle")
        detail = client.get(reverse("audit:event-detail", args=[event.pk])).content.decode()
        return html.unescape(re.sub(r"<[^>]+>", "", row.group(1))).strip(), html.unescape(detail)

    return play


def test_a_pregnant_threes_settlement_reads_in_words_without_a_wild_rank(settled: Callable[..., Any]) -> None:
    row, detail = settled("pregnant-threes", {"draws": 1, "cards_per_draw": 3, "draw": "optional"},
                          "3h 6c Qs Qd 9d", "Ah Kd 7c 5s 2h")
    assert row.endswith(" Five queens beat ace high; Pot $2.00 to P1: five queens beat ace high")
    assert "Wild rank" not in row
    assert "Wild rank" not in detail


def test_a_freak_of_nature_settlement_names_the_wild_rank_its_showdown_fixed(settled: Callable[..., Any]) -> None:
    row, detail = settled("freak-of-nature", {}, "5h 5d 9c 9s Kh", "Qs Qd Qc 4h 7d")
    assert row.endswith(" Fives wild: four nines beat three queens; Pot $2.00 to P1: four nines beat three queens")
    assert "Wild rank: fives" in detail
