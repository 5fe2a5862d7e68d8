"""analyze_paytable: the exact optimal-hold analysis of a paytable from a JSON file (DESIGN 6) or a stored version."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.engine.analysis import PaytableAnalysis, analyze
from casino.engine.errors import EngineError
from casino.engine.paytable import PaytableSpec, format_pays


class Command(BaseCommand):
    # An analysis needs none of the project's checks; skipping them also skips loading the URL configuration.
    requires_system_checks: list[str] = []
    help = (
        "Exact return, hit frequency, variance and per-line combinations of a paytable under optimal holds "
        "(all 2,598,960 deals x 32 holds), from a JSON paytable (DESIGN 6) or --paytable ID."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="a JSON paytable ('-' reads stdin)")
        parser.add_argument("--paytable", type=int, dest="paytable_id", help="id of a stored paytable version")
        parser.add_argument("--json", action="store_true", help="machine-readable output")
        parser.add_argument(
            "--cache-dir",
            type=Path,
            help="where the paytable-independent tables are kept (default $CASINO_CACHE_DIR or .cache/analysis)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if bool(options["file"]) == bool(options["paytable_id"]):
            raise CommandError("give a FILE.json or --paytable ID (one of them)")
        spec = self._stored(options["paytable_id"]) if options["paytable_id"] else self._file(options["file"])
        result = analyze(spec, options["cache_dir"])
        if options["json"]:
            self.stdout.write(json.dumps(result.to_dict(), indent=2))
        else:
            self._print(result)

    def _file(self, name: str) -> PaytableSpec:
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
            data = json.loads(text)
        except OSError as exc:
            raise CommandError(f"cannot read {name}: {exc.strerror}") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise CommandError(f"{name} is not JSON: {exc}") from None
        try:
            return PaytableSpec.from_dict(data)
        except EngineError as exc:
            raise CommandError(f"bad paytable in {name}: {exc.message}") from None

    def _stored(self, paytable_id: int) -> PaytableSpec:
        # Only here: `analyze_paytable FILE` runs with lean settings that load no models (casino/settings_cli.py).
        from paytables.models import Paytable
        from paytables.selectors import paytable_get, paytable_spec

        try:
            paytable = paytable_get(paytable_id)
        except Paytable.DoesNotExist:
            raise CommandError(f"paytable {paytable_id} does not exist") from None
        try:
            return paytable_spec(paytable)
        except EngineError as exc:
            raise CommandError(f"paytable {paytable_id} is not usable: {exc.message}") from None

    def _print(self, result: PaytableAnalysis) -> None:
        write = self.stdout.write
        write(f"{result.name or 'Paytable'} ({result.basis.replace('_', ' ')})")
        write(f"  return         {result.return_:.6f}   house edge {100 * result.house_edge:.4f} %")
        write(f"  hit frequency  {result.hit_frequency:.6f}")
        write(f"  variance       {result.variance:.4f}   standard deviation {result.std_dev:.4f}  (per hand, per unit)")
        write("")
        write(f"  {'line':<22} {'for 1':>7} {'to 1':>7} {'combinations':>22} {'probability':>13} {'return':>10}")
        for line in result.lines:
            write(
                f"  {line.line.label:<22} {format_pays(line.returns)!s:>7} {format_pays(line.returns - 1)!s:>7} "
                f"{line.combinations:>22,} {float(line.probability):>13.8f} {float(line.contribution):>10.6f}"
            )
        nothing = result.nothing_combinations
        write(f"  {'(no line)':<22} {'':>7} {'':>7} {nothing:>22,} {nothing / result.total_combinations:>13.8f}")
        write("")
        write(
            f"  Optimal holds over all 2,598,960 deals x 32 holds; combinations are weighted outcomes out of "
            f"{result.total_combinations:,}."
        )
