"""Home-game engine speed: hands played and records replayed per second per variant; one 6-player hand replayed from
its record; and one action applied to a hand rebuilt from its stored record (what a service does per request).

Run: .venv/bin/python bench/bench_home_games.py
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from casino.engine.cards import ALL_CARDS
from casino.engine.home.betting import MoveKind
from casino.engine.home.game import HomeGame
from casino.engine.home.hand import HomeHand, Phase
from casino.engine.home.record import GameRecord, HandRecord, export_record, hand_record
from casino.engine.home.replay import apply_action, rebuild_hand, replay
from casino.engine.rules.model import Rules

GAMES = {
    "five-card-draw": {},
    "pregnant-threes": {"draws": 2, "cards_per_draw": 3, "draw": "mandatory"},
    "three-legged-race": {"legs_to_win": 3},
    "freak-of-nature": {},
}
STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}
SEATS = dict.fromkeys(range(1, 7), 1_000_000)


def _play(hand: HomeHand, rng: random.Random) -> None:
    """Random legal play, folding rarely so that most hands reach the showdown."""
    while not hand.settled:
        seat = hand.actor
        assert seat is not None
        if hand.phase is Phase.DRAWING:
            held = hand.players[seat].cards
            options = [tuple(held[:n]) for n in range(6)]
            if hand.feed is not None and len(hand.feed.cards) < 5:
                hand.feed.reshuffles = [tuple(hand.muck)]
            hand.draw(seat, rng.choice([o for o in options if hand.can_draw(seat, o)]))
            continue
        legal = hand.legal_actions()
        assert legal is not None
        kinds = [kind for kind in legal.kinds if kind != MoveKind.FOLD or rng.random() < 0.15]
        kind = MoveKind(rng.choice(kinds))
        amount = legal.bet.minimum if kind is MoveKind.BET and legal.bet else 0
        if kind is MoveKind.RAISE and legal.raise_to:
            amount = legal.raise_to.minimum
        hand.act(seat, kind, amount)


def throughput(rng: random.Random, hands: int) -> None:
    print(f"{hands} hands per variant, 6 players, fixed limit, random legal actions (seed 7), per CPU second")
    for variant, options in GAMES.items():
        played, start, records = 0, time.process_time(), []
        while played < hands:
            game = HomeGame(Rules.announce(variant, {**STAKES, **options}), dict(SEATS))
            for number in range(10):
                if game.over:
                    break
                deck = list(ALL_CARDS)
                rng.shuffle(deck)
                _play(game.start_hand(button=number % 6 + 1, deck=deck), rng)
                played += 1
            records.append(export_record(game))
        elapsed = time.process_time() - start
        start = time.process_time()
        for record in records:
            replay(GameRecord.from_dict(record))
        replayed = time.process_time() - start
        print(f"  {variant:18s} play {played / elapsed:8.0f} hands/s   replay {played / replayed:8.0f} hands/s")


@dataclass
class Request:
    """What a service holds between two requests for a hand in progress, and the action the next request makes."""

    variant: str
    rules: dict[str, Any]
    stacks: dict[int, int]
    stored: dict[str, Any]
    action: str


def stored_requests(rng: random.Random, hands: int, *, manual: bool) -> tuple[list[Request], list[Request]]:
    """Hands played at random, as services would store them: for every action, the hand's record as stored before
    it (`hand_record`, with the cards dealt so far) and the action; and every whole hand's record."""
    per_action: list[Request] = []
    whole: list[Request] = []
    for number in range(hands):
        variant = list(GAMES)[number % len(GAMES)]
        rules = Rules.announce(variant, {**STAKES, **GAMES[variant]})
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        dealt = HomeHand(rules=rules, stacks=SEATS, button=number % 6 + 1, deck=deck)
        _play(dealt, rng)
        record = hand_record(dealt)
        if manual:
            record = HandRecord(record.button, (), (), tuple(_manual_actions(dealt)), manual=True)
        rules_json = rules.to_dict()
        hand = HomeHand(rules=rules, stacks=SEATS, button=record.button, manual=manual,
                        deck=None if manual else record.deck, reshuffles=record.reshuffles)
        for text in record.actions:
            stored = json.loads(json.dumps(hand_record(hand).to_dict()))
            per_action.append(Request(variant, rules_json, SEATS, stored, text))
            apply_action(hand, text)
        whole.append(Request(variant, rules_json, SEATS, json.loads(json.dumps(record.to_dict())), ""))
    return per_action, whole


def _manual_actions(hand: HomeHand) -> list[str]:
    """The same hand as a dealer at a manual table records it: counts drawn and the hands shown."""
    actions = ["dealt"]
    for text in hand.actions:
        seat, verb, *cards = text.split()
        ace = " ace" if len(cards) > hand.rules.discards.maximum else ""  # the dealer confirms the ace kept
        actions.append(f"{seat} draw {len(cards)}{ace}" if verb == "draw" else text)
    if hand.settlement is not None and hand.settlement.values:
        actions += [" ".join([str(seat), "show", *map(str, hand.players[seat].cards)]) for seat in hand.live]
    return actions


def serve(request: Request) -> HomeHand:
    """One request: read the stored rules and record, rebuild the hand, apply the action."""
    rules = Rules.announce(request.variant, request.rules)
    hand = rebuild_hand(rules, HandRecord.from_dict(request.stored), stacks=request.stacks)
    if request.action:
        apply_action(hand, request.action)
    return hand


def timed(requests: list[Request], work: Callable[[Request], object]) -> tuple[float, float, float]:
    """CPU microseconds per request (mean), and the wall-clock p50 and p99, best of three passes."""
    best: tuple[float, float, float] | None = None
    for _ in range(3):
        walls = []
        cpu_start = time.process_time()
        for request in requests:
            began = time.perf_counter()
            work(request)
            walls.append(time.perf_counter() - began)
        cpu = (time.process_time() - cpu_start) / len(requests) * 1e6
        walls.sort()
        figures = (cpu, statistics.median(walls) * 1e6, walls[int(len(walls) * 0.99)] * 1e6)
        best = figures if best is None or figures[0] < best[0] else best
    assert best is not None
    return best


def main() -> None:
    rng = random.Random(7)
    throughput(rng, 1_000)
    print("\nPer request, 6 players, the four variants in turn (CPU mean; wall p50 / p99), best of 3:")
    for manual in (False, True):
        per_action, whole = stored_requests(random.Random(11), 400, manual=manual)
        form = "manual record (counts, shown hands)" if manual else "dealt record (deck, reshuffles)"
        actions = sum(len(HandRecord.from_dict(r.stored).actions) for r in whole) / len(whole)
        cpu, p50, p99 = timed(whole, serve)
        print(f"  {form}: {actions:.1f} actions a hand")
        print(f"    replay one hand from its record:                   {cpu:6.0f} us   ({p50:.0f} / {p99:.0f})")
        cpu, p50, p99 = timed(per_action, serve)
        print(f"    rebuild from the stored record + apply one action: {cpu:6.0f} us   ({p50:.0f} / {p99:.0f})"
              f"   [{len(per_action)} actions]")
        # The dearest request: the hand's last action rebuilds every action before it.
        last = [request for request, after in zip(per_action, [*per_action[1:], None], strict=True)
                if after is None or not after.stored["actions"]]
        cpu, p50, p99 = timed(last, serve)
        print(f"    ... the hand's last action (the longest rebuild):  {cpu:6.0f} us   ({p50:.0f} / {p99:.0f})")


if __name__ == "__main__":
    main()
