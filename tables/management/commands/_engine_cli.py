"""Shared plumbing of the evaluate and showdown commands: variant options, hands from arguments, error exits."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from casino.engine.cards import Card, parse_cards
from casino.engine.errors import EngineError, RulesError
from casino.engine.rules.model import Rules
from casino.engine.variants import VARIANTS

# Bad input (a bad card, the wrong count, an unknown variant or option) exits with this code, as argparse does.
BAD_INPUT_EXIT = 2


def add_variant_arguments(parser: CommandParser) -> None:
    parser.add_argument(
        "--variant",
        default="five-card-draw",
        help=f"variant code: {', '.join(VARIANTS)} (default five-card-draw)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an announced option (DESIGN 7), e.g. freak_bottom=aces, kill_cards='Js Jh', "
        "five_of_a_kind=below_straight_flush, wild_duplicates_in_flush=false; repeatable",
    )
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def variant_from_options(options: dict[str, Any]) -> Rules:
    announced: dict[str, Any] = {}
    for item in options["option"]:
        name, sep, raw = str(item).partition("=")
        if not sep or not name.strip():
            raise RulesError(f"option {item!r} is not NAME=VALUE", token=str(item))
        announced[name.strip()] = _value(raw.strip())
    return Rules.parse(options["variant"], announced)


def _value(raw: str) -> Any:
    """JSON where it parses (true, 3, ["Js"]), else the text itself (aces, Js Jh)."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def hand_from_text(text: str | Sequence[str]) -> tuple[Card, ...]:
    return parse_cards(" ".join(text) if not isinstance(text, str) else text, count=5)


def fail(command: BaseCommand, exc: EngineError, *, as_json: bool) -> NoReturn:
    """Print one line naming the bad value (or a JSON error) and exit with code 2."""
    if as_json:
        command.stdout.write(json.dumps({"error": {"code": exc.code, "message": exc.message, "token": exc.token}}))
    else:
        named = f" ({exc.token!r})" if exc.token and exc.token not in exc.message else ""
        command.stderr.write(f"error: {exc.message}{named}")
    raise SystemExit(BAD_INPUT_EXIT)
