"""Live and deck paths are one state machine: random legal hands dealt card by card, then replayed from the deck they
produced, give identical events and results; a hand rebuilt from its record at any moment is the same hand; the
legal actions offered are exactly those the hand accepts."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.engine.home.hand import HomeHand
from casino.engine.home.record import HandRecord, hand_record
from casino.engine.home.replay import apply_action, rebuild_hand
from casino.engine.rules.model import Rules
from tests.engine.home_play import hands_to_play, play_live


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(setup=hands_to_play(), data=st.data())
def test_a_hand_dealt_live_and_replayed_from_its_deck_gives_identical_events_and_results(
    setup: tuple[Rules, dict[int, int], int], data: st.DataObject
) -> None:
    rules, stacks, button = setup
    live = HomeHand(rules=rules, stacks=stacks, button=button)
    records = play_live(live, data)
    assert sum(live.stacks.values()) + (live.settlement.carried_pot_cents if live.settlement else 0) == sum(
        stacks.values())

    # The deck path: the whole deck and the reshuffles the live hand produced, fed to the same state machine.
    record = HandRecord.from_dict(json.loads(json.dumps(hand_record(live).to_dict())))
    assert record.dealt is None
    replayed = HomeHand(rules=rules, stacks=stacks, button=button, deck=record.deck, reshuffles=record.reshuffles)
    for text in record.actions:
        apply_action(replayed, text)
    assert replayed.events == live.events
    assert replayed.actions == live.actions
    assert replayed.settlement == live.settlement
    assert replayed.stacks == live.stacks
    assert replayed.result() == live.result()
    assert hand_record(replayed) == hand_record(live)

    # A hand in progress rebuilt from its stored record at any moment is that hand as it was then.
    stored, events_then, awaiting_then = records[data.draw(st.integers(0, len(records) - 1), label="rebuilt at")]
    rebuilt = rebuild_hand(rules, HandRecord.from_dict(json.loads(json.dumps(stored.to_dict()))), stacks=stacks)
    assert rebuilt.events == live.events[:events_then]
    assert rebuilt.awaiting == awaiting_then
    assert hand_record(rebuilt) == stored
