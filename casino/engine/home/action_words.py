"""A home hand's recorded action (DESIGN 9 notation, "2 raise 400") in words, for every screen that shows one."""

from __future__ import annotations

from collections.abc import Mapping

from casino.engine.cards import Card, card_symbols
from casino.engine.money import money

PLAIN = {"check": "checks", "call": "calls", "fold": "folds", "allin": "goes all in", "leave": "leaves the table",
         "muck": "mucks (concedes, hand not shown)"}


def _face(code: str) -> str:
    try:
        return card_symbols(Card.parse(code))
    except ValueError:
        return code


def _faces(codes: list[str]) -> str:
    return " ".join(_face(code) for code in codes)


def action_words(text: str, labels: Mapping[int, str] | None = None) -> str:
    """ "2 raise 400" -> "Seat 2 · Bob raises to $4.00" (labels name each seat; "Seat 2" without one); a line that
    is not of a known form is shown as written."""
    parts = text.split()
    if [part.lower() for part in parts] == ["dealt"]:
        return "The deal is done"
    if parts[:2] == ["floor", "award"]:
        return f"The floor awards the pot ({text.partition(' -- ')[2]})"
    if len(parts) < 2 or not parts[0].isdigit():
        return text
    who, verb, args = (labels or {}).get(int(parts[0]), f"Seat {parts[0]}"), parts[1].lower(), parts[2:]
    if verb in PLAIN and not args:
        return f"{who} {PLAIN[verb]}"
    if verb in ("bet", "raise") and len(args) == 1 and args[0].isdigit():
        return f"{who} {'bets' if verb == 'bet' else 'raises to'} {money(int(args[0]))}"
    if verb == "draw" and (not args or args in (["0"], ["0", "ace"])):
        return f"{who} stands pat"
    if verb == "draw" and args[0].isdigit():
        return f"{who} draws {args[0]}" + (" (keeps an ace)" if args[1:] == ["ace"] else "")
    if verb == "draw":
        return f"{who} discards {_faces(args)} and draws {len(args)}"
    if verb == "killed" and len(args) == 1:
        return f"{who} is dealt the kill card {_face(args[0])}"
    if verb == "show":
        return f"{who} shows {_faces(args)}"
    return text
