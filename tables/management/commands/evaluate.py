"""evaluate: the best hand five cards make under a variant's rules (DESIGN 9), for floor and compliance work."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from casino.engine.cards import Rank
from casino.engine.errors import EngineError
from casino.engine.hands import WildSpec, evaluate
from casino.engine.showdown import freak_wild_rank, hand_wild, is_dead
from tables.management.commands._engine_cli import add_variant_arguments, fail, hand_from_text, variant_from_options


class Command(BaseCommand):
    help = 'Evaluate one five-card hand, e.g. evaluate --variant pregnant-threes "3h 6c Qs Qd 9d".'

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("cards", nargs="+", help='five cards, e.g. "3h 6c Qs Qd 9d" (10 and ♠♥♦♣ accepted)')
        add_variant_arguments(parser)
        parser.add_argument("--wild", help='extra wild cards: ranks and/or cards, e.g. "2" or "Js Jh"')
        parser.add_argument(
            "--wild-rank",
            help="Freak of Nature: the wild rank fixed at the showdown (default: the one this hand would fix alone)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        as_json: bool = options["json"]
        try:
            result = self._evaluate(options)
        except EngineError as exc:
            fail(self, exc, as_json=as_json)
        if as_json:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(_describe(result))

    def _evaluate(self, options: dict[str, Any]) -> dict[str, Any]:
        rules = variant_from_options(options)
        hand = hand_from_text(options["cards"])
        wild_rank: Rank | None = None
        if rules.sliding_wild:
            wild_rank = (
                Rank.parse(options["wild_rank"])
                if options["wild_rank"] is not None
                else freak_wild_rank([hand], rules.freak_bottom)
            )
        wild = hand_wild(rules, wild_rank)
        if options["wild"] is not None:
            extra = WildSpec.parse(options["wild"])
            wild = WildSpec(ranks=wild.ranks | extra.ranks, cards=wild.cards | extra.cards)
        result: dict[str, Any] = {
            "variant": rules.variant.code,
            "wild": str(wild) if wild else None,
            "wild_rank": wild_rank.code if wild_rank is not None else None,
        }
        if is_dead(hand, rules):
            killers = [str(card) for card in hand if card in rules.kill_cards]
            return result | {"dead": True, "kill_cards": killers, "held": [str(card) for card in hand]}
        return result | {"dead": False} | evaluate(hand, wild, rules.options).to_dict()


def _describe(result: dict[str, Any]) -> str:
    held = " ".join(result["held"])
    if result["dead"]:
        return f"{held}: dead hand (kill card {' '.join(result['kill_cards'])})"
    lines = [f"{held}: {result['description']} ({result['category']})"]
    if result["wild_count"]:
        lines.append(f"  plays as {' '.join(result['cards'])} ({result['wild_count']} wild; wild: {result['wild']})")
    elif result["wild"]:
        lines.append(f"  no wild cards in the hand (wild: {result['wild']})")
    return "\n".join(lines)
