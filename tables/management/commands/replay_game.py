"""replay_game: replay a home-game record (DESIGN 9) and print each hand's pots, legs and the final stacks."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.engine.errors import EngineError
from casino.engine.home.record import GameRecord
from casino.engine.home.replay import ReplayError, is_close, replay
from casino.engine.money import money


class Command(BaseCommand):
    help = "Replay a home-game record FILE.json; an illegal action stops the replay with exit code 1."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="game record JSON (DESIGN 9); '-' reads standard input")
        parser.add_argument("--json", action="store_true", help="print machine-readable JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        as_json: bool = options["json"]
        data = self._load(options["file"])
        try:
            result = replay(GameRecord.from_dict(data))
        except ReplayError as exc:
            self._fail(
                as_json,
                {"error": exc.to_dict()},
                f"illegal action {where(exc.hand, exc.index, exc.action)} = {exc.action!r}\n"
                f"  {exc.reason}\n  rule broken ({exc.code}): {exc.rule}",
            )
        except EngineError as exc:
            self._fail(
                as_json,
                {"error": {"code": exc.code, "message": exc.message, "token": exc.token}},
                f"bad game record ({exc.code}): {exc.message}",
            )
        if as_json:
            self.stdout.write(json.dumps(result, indent=2))
            return
        self.stdout.write(describe(result))

    def _load(self, name: str) -> Any:
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
            return json.loads(text)
        except OSError as exc:
            raise CommandError(f"cannot read {name}: {exc.strerror}") from exc
        except json.JSONDecodeError as exc:
            raise CommandError(f"{name} is not JSON: {exc}") from exc

    def _fail(self, as_json: bool, payload: dict[str, Any], text: str) -> None:
        if as_json:
            self.stdout.write(json.dumps(payload, indent=2))
        else:
            self.stderr.write(text)
        raise SystemExit(1)


def where(hand: int, index: int, action: str) -> str:
    """Where a refused line is in the record: `hands[h].actions[i]`, or `close` (the game's close line)."""
    return "close" if is_close(action) else f"hands[{hand}].actions[{index}]"


def describe(result: dict[str, Any]) -> str:
    """The DESIGN 9 output in words (play_game prints the same)."""
    lines: list[str] = []
    for number, hand in enumerate(result["hands"], start=1):
        wild = f", wild rank {hand['wild_rank']}" if hand["wild_rank"] else ""
        dead = f", dead: {', '.join(map(str, hand['dead']))}" if hand["dead"] else ""
        lines.append(f"Hand {number}{wild}{dead}")
        for pot in hand["pots"]:
            cents = pot["amount_cents"]
            who = ("won by seat " + " and ".join(map(str, pot["winners"]))) if pot["winners"] else "stays in the pot"
            lines.append(f"  pot {money(cents)} {who}")
        if hand.get("ruling"):
            lines.append(f"  by the floor's ruling: {hand['ruling']['reason']}")
        if hand["legs"]:
            lines.append("  legs: " + ", ".join(f"seat {seat} {legs}" for seat, legs in hand["legs"].items()))
    if close := result.get("close"):
        lines.append(f"Closed by the floor: {close['reason']}")
        paid = ", ".join(f"seat {seat} {money(cents)}" for seat, cents in close["paid"].items())
        if close["award_seat"] is not None and close["carried_pot_cents"]:
            lines.append(f"  carried pot {money(close['carried_pot_cents'])} awarded by ruling to seat "
                         f"{close['award_seat']}")
        elif close["carried_pot_cents"]:
            # A player who left a seat someone else then took is paid their own chips too, named apart.
            earlier_paid = [f"seat {e['seat']}'s player {e['occupant']} {money(e['cents'])}"
                            for e in close.get("paid_earlier", [])]
            paid = ", ".join([*([paid] if paid else []), *earlier_paid])
            lines.append(f"  carried pot {money(close['carried_pot_cents'])} back to its contributors: {paid}")
    lines.append("Stacks: " + ", ".join(f"seat {seat} {money(c)}" for seat, c in result["stacks"].items()))
    if earlier := result.get("earlier"):
        # Each seat's earlier players (1 = its first), who left it to someone else: what each took home.
        lines.append("Earlier players: " + ", ".join(
            f"seat {e['seat']}'s player {e['occupant']} {money(e['stack_cents'])}" for e in earlier))
    if result["carried_pot_cents"]:
        lines.append(f"Pot carried: {money(result['carried_pot_cents'])}")
    if result["game_winner"] is not None:
        lines.append(f"Game won by seat {' and '.join(map(str, result['game_winners']))}")
    return "\n".join(lines)

