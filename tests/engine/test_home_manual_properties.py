"""A manual hand recorded from a dealt one (the counts drawn, the kill-card deaths, the hands shown at the end) gives
the same pots, legs, wild rank and stacks: the engine decides a manual hand as it decides a dealt one."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.engine.home.events import EventKind
from casino.engine.home.hand import HomeHand
from casino.engine.home.record import HandRecord, hand_record
from casino.engine.home.replay import hand_summary, rebuild_hand
from casino.engine.rules.model import Rules
from tests.engine.home_play import hands_to_play, play_live

# The events that come from an action of the record, in the order of `hand.actions`.
_ACTION_EVENTS = {EventKind.CHECKED, EventKind.BET, EventKind.CALLED, EventKind.RAISED, EventKind.FOLDED,
                  EventKind.LEFT, EventKind.DREW}


def manual_actions(hand: HomeHand) -> list[str]:
    """What a dealer records at a manual table for the same hand: each kill-card death when it happens, the end of
    the deal, each draw's count (and the ace kept for a draw above the limit), and at the showdown every live hand
    shown."""
    actions = iter(hand.actions)
    recorded: list[str] = []
    for event in hand.events:
        if event.kind is EventKind.PLAYER_KILLED:
            recorded.append(f"{event.seat} killed {event.cards[0]}")
        elif event.kind is EventKind.DEALT:
            recorded.append("dealt")
        elif event.kind is EventKind.DREW:
            next(actions)
            ace = " ace" if event.count > hand.rules.discards.maximum else ""
            recorded.append(f"{event.seat} draw {event.count}{ace}")
        elif event.kind in _ACTION_EVENTS:
            recorded.append(next(actions))
    assert next(actions, None) is None
    settlement = hand.settlement
    assert settlement is not None
    if settlement.values:  # a showdown: every live hand is shown
        recorded += [" ".join([str(seat), "show", *map(str, hand.players[seat].cards)]) for seat in hand.live]
    return recorded


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(setup=hands_to_play(), data=st.data())
def test_a_dealt_hand_recorded_manually_settles_the_same(
    setup: tuple[Rules, dict[int, int], int], data: st.DataObject
) -> None:
    rules, stacks, button = setup
    dealt = HomeHand(rules=rules, stacks=stacks, button=button)
    play_live(dealt, data)
    record = HandRecord(button, (), (), tuple(manual_actions(dealt)), manual=True)
    manual = rebuild_hand(rules, HandRecord.from_dict(json.loads(json.dumps(record.to_dict()))), stacks=stacks)
    assert manual.settled
    assert hand_summary(manual) == hand_summary(dealt)
    assert manual.settlement == dealt.settlement
    assert manual.stacks == dealt.stacks
    assert manual.result() == dealt.result()
    assert hand_record(manual) == record
