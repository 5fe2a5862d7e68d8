"""A floor ruling chosen on a screen the hand has since moved past is refused under the hand's lock (409
stale_screen), whatever came between the screen and the ruling; DESIGN 7: "the floor's ruling is final", so it must
be about the hand the floor looked at."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from casino.errors import WrongPhase
from tables.models import HomeHand, Table
from tables.services.home_games import game_open
from tables.services.home_hands import hand_act, hand_start
from tables.services.home_rulings import hand_award, hand_correct
from tests.tables.test_home_services import balanced, seat_players


def test_a_ruling_from_a_screen_the_hand_moved_past_is_refused_and_changes_nothing(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(3))
    hand = hand_start(game=game, actor=dealer_user, button=3)
    seen = HomeHand.objects.get(pk=hand.pk).version  # the floor's screen is drawn here
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="bet", amount_cents=200)  # ... and the hand moves on
    moved = HomeHand.objects.get(pk=hand.pk)
    for ruling in (
        lambda: hand_award(hand=hand.pk, actor=floor_user, seats=[2], reason="exposed card", seen_version=seen),
        lambda: hand_correct(hand=hand.pk, actor=floor_user, index=0, action="1 check", reason="misheard",
                             seen_version=seen),
    ):
        with pytest.raises(WrongPhase, match="has changed since this screen was drawn") as stale:
            ruling()
        assert stale.value.code == "stale_screen"
        after = HomeHand.objects.get(pk=hand.pk)
        assert (after.version, after.status, after.record) == (moved.version, "in_play", moved.record)
    balanced(game)
    # Ruled from the screen as it is now, the same award applies.
    awarded = hand_award(hand=hand.pk, actor=floor_user, seats=[2], reason="exposed card", seen_version=moved.version)
    assert awarded.status == "settled"
    balanced(game)
