"""Properties of the home-game state machine under random legal play: chips are conserved, hands always end."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.engine.cards import ALL_CARDS, Card
from casino.engine.home.betting import MoveKind
from casino.engine.home.errors import IllegalAction
from casino.engine.home.game import HomeGame
from casino.engine.home.hand import HomeHand, Phase
from casino.engine.home.record import GameRecord, export_record
from casino.engine.home.replay import replay
from tests.engine.home_play import announced_rules


@st.composite
def games(draw: st.DrawFn) -> HomeGame:
    rules = draw(announced_rules())
    count = draw(st.integers(2, 6))
    stacks = draw(st.lists(st.integers(1, 600), min_size=count, max_size=count))
    return HomeGame(rules, {seat + 1: stack for seat, stack in enumerate(stacks)})


def _betting_candidates(hand: HomeHand, seat: int, data: st.DataObject) -> list[tuple[MoveKind, int]]:
    betting = hand.round
    stack = hand.players[seat].stack
    committed = betting.committed.get(seat, 0)
    amounts = {betting.unit, stack, hand.pot_cents, data.draw(st.integers(1, max(stack, 1)), label="amount")}
    totals = {
        betting.current_bet + betting.unit,
        (betting.full_bets + 1) * betting.unit,
        betting.current_bet + betting.last_raise,
        committed + stack,
        betting.pot_limit_total(seat, hand.pot_cents),
    }
    moves = [(MoveKind.CHECK, 0), (MoveKind.CALL, 0), (MoveKind.FOLD, 0), (MoveKind.ALLIN, 0)]
    moves += [(MoveKind.BET, amount) for amount in sorted(amounts)]
    moves += [(MoveKind.RAISE, total) for total in sorted(totals)]
    return [(kind, amount) for kind, amount in moves if hand.can_bet_action(seat, kind, amount)]


def _draw_candidates(hand: HomeHand, seat: int, data: st.DataObject) -> list[tuple[Card, ...]]:
    held = hand.players[seat].cards
    choices = [tuple(held[:count]) for count in range(6)]
    choices.append(tuple(data.draw(st.permutations(held), label="discard order")[: data.draw(st.integers(0, 5))]))
    feed = hand.feed
    assert feed is not None
    if len(feed.cards) < 5 and hand.muck:
        # The record would give the reshuffled stock; here any order of the muck will do.
        feed.reshuffles = [tuple(reversed(hand.muck))]
    return [choice for choice in choices if hand.can_draw(seat, choice)]


def _state(hand: HomeHand) -> object:
    feed = hand.feed
    assert feed is not None
    return (copy.deepcopy(hand.players), hand.pot_cents, hand.actor, hand.phase, len(hand.events),
            copy.deepcopy(hand.round.__dict__), list(feed.cards), list(hand.muck))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=games(), data=st.data())
def test_random_legal_play_never_creates_or_destroys_chips_and_always_settles(
    table: HomeGame, data: st.DataObject
) -> None:
    total = table.chips_in_play
    seats = sorted(table.stacks)
    for number in range(3):
        if table.over or sum(1 for seat in seats if table.stacks[seat] > 0) < 2:
            break
        button = seats[number % len(seats)]
        deck = data.draw(st.permutations(ALL_CARDS), label="deck")
        hand = table.start_hand(button=button, deck=deck)
        assert table.chips_in_play == total
        for _ in range(400):
            if hand.settled:
                break
            seat = hand.actor
            assert seat is not None, "an unsettled hand always has a player to act"
            # Now and then try an arbitrary action: if refused, nothing may change.
            wild_seat = data.draw(st.sampled_from(seats), label="any seat")
            wild_kind = data.draw(st.sampled_from(list(MoveKind)), label="any action")
            wild_amount = data.draw(st.integers(0, 2_000), label="any amount")
            if not hand.can_bet_action(wild_seat, wild_kind, wild_amount):
                before = _state(hand)
                with pytest.raises(IllegalAction):
                    hand.act(wild_seat, wild_kind, wild_amount)
                assert _state(hand) == before
            if data.draw(st.integers(0, 19), label="someone leaves") == 0:
                leaver = data.draw(st.sampled_from(seats), label="leaver")
                if table.can_leave(leaver):
                    table.leave(leaver)
                    assert table.chips_in_play == total
                    assert table.legs.get(leaver, 0) == 0
                    continue
            if hand.phase is Phase.BETTING:
                moves = _betting_candidates(hand, seat, data)
                assert moves, f"seat {seat} has no legal betting action"
                kind, amount = data.draw(st.sampled_from(moves), label="move")
                hand.act(seat, kind, amount)
            else:
                discards = _draw_candidates(hand, seat, data)
                assert discards, f"seat {seat} has no legal draw"
                hand.draw(seat, data.draw(st.sampled_from(discards), label="discards"))
            assert table.chips_in_play == total
        assert hand.settled, "the hand did not end"
        seats = [seat for seat in seats if seat not in table.departed]
        assert sum(table.stacks.values()) + table.carried_pot_cents == total
        assert all(stack >= 0 for stack in table.stacks.values())
    # Now and then the floor closes the game: the carried pot back to its contributors or to one seat by ruling.
    closed = None
    if not table.over and data.draw(st.booleans(), label="the floor closes"):
        award = data.draw(st.sampled_from([None, *sorted(table.stacks)]), label="award seat")
        carried, before = table.carried_pot_cents, dict(table.stacks)
        if table.can_close("end of the session", award):
            closed = table.close("end of the session", award)
            assert sum(closed.paid.values()) == carried
            assert table.carried_pot_cents == 0
            assert sum(table.stacks.values()) == total
            assert {seat: table.stacks[seat] - before[seat] for seat in before} == {
                seat: closed.paid.get(seat, 0) for seat in before}
            if award is not None:
                assert set(closed.paid) <= {award}
        else:  # only a carried pot nobody is known to own is refused (it goes by ruling)
            assert award is None
            assert carried > 0
            with pytest.raises(IllegalAction):
                table.close("end of the session", award)
            assert (table.stacks, table.carried_pot_cents) == (before, carried)
    # The exported game record replays to the same end.
    replayed = replay(GameRecord.from_dict(json.loads(json.dumps(export_record(table)))))
    assert replayed.get("close") == (closed.to_dict() if closed is not None else None)
    assert replayed["stacks"] == {str(seat): stack for seat, stack in sorted(table.stacks.items())}
    assert replayed["carried_pot_cents"] == table.carried_pot_cents
    assert replayed["game_winners"] == list(table.game_winners)
    assert len(replayed["hands"]) == len(table.hands)
