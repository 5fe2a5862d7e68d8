"""replay_round: recompute a Triple Draw round from its record (DESIGN 9) or a stored round, and report differences."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.engine.errors import EngineError
from casino.engine.round_settlement import replay_round_record
from tables.models import Round
from tables.selectors.records import compare_outcomes, round_replay


class Command(BaseCommand):
    help = (
        "Recompute a round's outcomes: from a JSON round record (DESIGN 9), or --round ID to check a stored round "
        "independently against what was paid. Exit 1 on any difference."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="a JSON round record ('-' reads stdin)")
        parser.add_argument("--round", type=int, dest="round_id", help="id of a stored round")
        parser.add_argument("--json", action="store_true", help="machine-readable output")

    def handle(self, *args: Any, **options: Any) -> None:
        if bool(options["file"]) == bool(options["round_id"]):
            raise CommandError("give a FILE.json or --round ID (one of them)", returncode=2)
        if options["round_id"]:
            self._stored(options["round_id"], as_json=options["json"])
        else:
            self._record(options["file"], as_json=options["json"])

    def _read(self, name: str) -> Any:
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
            return json.loads(text)
        except OSError as exc:
            raise CommandError(f"cannot read {name}: {exc.strerror}", returncode=2) from None
        except json.JSONDecodeError as exc:
            raise CommandError(f"{name} is not JSON: {exc}", returncode=2) from None

    def _record(self, name: str, *, as_json: bool) -> None:
        data = self._read(name)
        try:
            result = replay_round_record(data).to_dict()
        except EngineError as exc:
            raise CommandError(f"bad round record: {exc.message}", returncode=2) from None
        differences: list[str] = []
        recorded = data.get("outcome") if isinstance(data, dict) else None
        if recorded is not None:
            differences = compare_outcomes(result, recorded)
        if as_json:
            payload = dict(result)
            if recorded is not None:
                payload["differences"] = differences
            self.stdout.write(json.dumps(payload, indent=2))
        else:
            self._print(result)
            for line in differences:
                self.stdout.write(f"DIFFERENCE {line}")
        if differences:
            raise CommandError(f"{len(differences)} difference(s) from the recorded outcome", returncode=1)

    def _stored(self, round_id: int, *, as_json: bool) -> None:
        rnd = Round.objects.select_related("table").filter(pk=round_id).first()
        if rnd is None:
            raise CommandError(f"round {round_id} does not exist", returncode=2)
        verdict = round_replay(rnd)
        if as_json:
            self.stdout.write(json.dumps(verdict, indent=2))
        else:
            self.stdout.write(f"{rnd} ({rnd.phase})")
            if not verdict["checked"]:
                self.stdout.write("nothing paid yet: nothing to compare")
            if verdict["recomputed"]:
                self._print(verdict["recomputed"])
            for line in verdict["differences"]:
                self.stdout.write(f"DIFFERENCE {line}")
            if verdict["checked"] and verdict["ok"]:
                self.stdout.write("OK: the recomputation matches what was recorded and paid")
        if not verdict["ok"]:
            raise CommandError(f"{len(verdict['differences'])} difference(s) from what was paid", returncode=1)

    def _print(self, result: dict[str, Any]) -> None:
        for seat in result["seats"]:
            self.stdout.write(
                f"seat {seat['seat']}: returns {seat['total_return_cents']}c, net {seat['net_cents']:+d}c"
            )
            for hand in seat["hands"]:
                line = hand.get("line") or "no line"
                self.stdout.write(
                    f"  circle {hand['circle']}: {' '.join(hand['cards'])}  {hand['hand']} ({line}) "
                    f"-> {hand['return_cents']}c"
                )
        self.stdout.write(f"table net {result['table_net_cents']:+d}c")
