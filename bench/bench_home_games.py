"""Home-game engine throughput: hands played by random legal actions, and game records replayed, per second."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from casino.engine.cards import ALL_CARDS, Card
from casino.engine.home.betting import MoveKind
from casino.engine.home.game import HomeGame
from casino.engine.home.hand import HomeHand, Phase
from casino.engine.home.record import GameRecord, export_record, replay
from casino.engine.home.rules import HomeRules

GAMES = {
    "five-card-draw": {},
    "pregnant-threes": {"draws": 2, "cards_per_draw": 3, "draw": "mandatory"},
    "three-legged-race": {"legs_to_win": 3},
    "freak-of-nature": {},
}
STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}


def _play(hand: HomeHand, rng: random.Random) -> None:
    while not hand.settled:
        seat = hand.actor
        assert seat is not None
        if hand.phase is Phase.DRAWING:
            held = hand.players[seat].cards
            options: list[tuple[Card, ...]] = [tuple(held[:n]) for n in range(6)]
            if len(hand.stock.cards) < 5:
                hand.stock.reshuffles = [tuple(hand.stock.muck)]
            hand.draw(seat, rng.choice([o for o in options if hand.can_draw(seat, o)]))
            continue
        unit = hand.round.unit
        moves = [
            (MoveKind.CHECK, 0),
            (MoveKind.CALL, 0),
            (MoveKind.FOLD, 0),
            (MoveKind.BET, unit),
            (MoveKind.RAISE, (hand.round.full_bets + 1) * unit),
        ]
        legal = [(kind, amount) for kind, amount in moves if hand.can_bet_action(seat, kind, amount)]
        # Fold rarely, so most hands reach the showdown.
        weights = [1 if kind is MoveKind.FOLD else 6 for kind, _ in legal]
        kind, amount = rng.choices(legal, weights)[0]
        hand.act(seat, kind, amount)


def main() -> None:
    rng = random.Random(7)
    hands = 1_000
    print(f"{hands} hands per variant, 6 players, fixed limit, random legal actions (seed 7)")
    for variant, options in GAMES.items():
        played, start, records = 0, time.perf_counter(), []
        while played < hands:
            game = HomeGame(HomeRules.announce(variant, {**STAKES, **options}), dict.fromkeys(range(1, 7), 1_000_000))
            for number in range(10):
                if game.over:
                    break
                deck = list(ALL_CARDS)
                rng.shuffle(deck)
                _play(game.start_hand(button=number % 6 + 1, deck=deck), rng)
                played += 1
            records.append(export_record(game))
        elapsed = time.perf_counter() - start
        start = time.perf_counter()
        for record in records:
            replay(GameRecord.from_dict(record))
        replayed = time.perf_counter() - start
        print(f"  {variant:18s} play {played / elapsed:8.0f} hands/s   replay {played / replayed:8.0f} hands/s")


if __name__ == "__main__":
    main()
