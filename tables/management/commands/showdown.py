"""showdown: who wins among N hands under a variant's rules (kill cards, Freak of Nature wild rank), DESIGN 9."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from casino.engine.cards import Rank
from casino.engine.errors import EngineError
from casino.engine.hands import rank_name
from casino.engine.showdown import showdown
from tables.management.commands._engine_cli import add_variant_arguments, fail, hand_from_text, variant_from_options


class Command(BaseCommand):
    help = 'Show down hands, e.g. showdown --variant freak-of-nature "5h 5d 9c 9s Kh" "Qs Qd Qc 4h 7d".'

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("hands", nargs="+", help="one argument per hand of five cards")
        add_variant_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        as_json: bool = options["json"]
        try:
            rules = variant_from_options(options)
            hands = [hand_from_text(text) for text in options["hands"]]
            result = showdown(hands, rules).to_dict(hands)
        except EngineError as exc:
            fail(self, exc, as_json=as_json)
        result = {"variant": rules.variant.code} | result
        if as_json:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(_describe(result))


def _describe(result: dict[str, Any]) -> str:
    lines = []
    if result["variant"] == "freak-of-nature":
        wild_rank = result["wild_rank"]
        lines.append(f"Wild: {rank_name(Rank.parse(wild_rank), plural=True) if wild_rank else 'nothing'}")
    for number, hand in enumerate(result["hands"], start=1):
        held = " ".join(hand["held"])
        if hand["dead"]:
            lines.append(f"Hand {number}: {held}  dead (kill card)")
            continue
        mark = "  WINNER" if hand["winner"] else ""
        plays = f" as {' '.join(hand['cards'])}" if hand["wild_count"] else ""
        lines.append(f"Hand {number}: {held}  {hand['description']}{plays}{mark}")
    winners = result["winners"]
    if not winners:
        lines.append("No winner: every hand is dead.")
    elif len(winners) > 1:
        lines.append("Split between hands " + " and ".join(str(i + 1) for i in winners) + ".")
    return "\n".join(lines)
