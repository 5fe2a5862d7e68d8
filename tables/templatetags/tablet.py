"""Template filters for the dealer tablet: money in dollars and cards as rank + suit symbol."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django import template

from casino.engine import hand_words
from casino.engine.cards import Card
from casino.engine.errors import CardError
from tables.models import CardSource

register = template.Library()

SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
RANK_NAMES = {
    "2": "Two",
    "3": "Three",
    "4": "Four",
    "5": "Five",
    "6": "Six",
    "7": "Seven",
    "8": "Eight",
    "9": "Nine",
    "T": "Ten",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    "A": "Ace",
}


@register.filter
def money(cents: int | None) -> str:
    """1234567 -> "$12,345.67"; negative amounts keep their sign in front: "-$5.00"."""
    if cents is None:
        return ""
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(int(cents)), 100)
    return f"{sign}${dollars:,}.{rest:02d}"


@register.filter
def dollars(cents: int | None) -> str:
    """An amount in cents as the dealer types it: 2500 -> "25", 2550 -> "25.50"."""
    if cents is None:
        return ""
    whole, rest = divmod(int(cents), 100)
    return f"{whole}" if rest == 0 else f"{whole}.{rest:02d}"


def _card(code: str) -> Card | None:
    try:
        return Card.parse(code)
    except (CardError, ValueError):
        return None


@register.filter
def card_face(code: str) -> str:
    """ "Qs" -> "Q♠" ("T" shown as "10", as on the cards)."""
    card = _card(code)
    if card is None:
        return code
    rank = card.rank.code
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card.suit.value]


_WORD = re.compile(r"[0-9A-Za-z]+")


def with_card_faces(message: str, codes: Iterable[str]) -> str:
    """A refusal's words with the cards it names (`codes`: the cards sent) as the dealer sees them ("card Js appears
    twice" -> "card J♠ appears twice"). Only those codes are cards here: a word that only looks like one stays."""
    cards = {code for code in codes if card_face(code) != code}
    return _WORD.sub(lambda word: card_face(word.group()) if word.group() in cards else word.group(), message)


@register.filter
def card_faces(codes: str) -> str:
    """ "Qs Td" -> "Q♠ 10♦": cards picked into a field, shown as the dealer sees them on the cards."""
    return " ".join(card_face(code) for code in re.split(r"[\s,]+", str(codes).strip()) if code)


@register.filter
def card_name(code: str) -> str:
    """ "Qs" -> "Queen of spades", for screen readers."""
    card = _card(code)
    if card is None:
        return code
    return f"{RANK_NAMES[card.rank.code]} of {SUIT_NAMES[card.suit.value]}"


@register.filter
def card_colour(code: str) -> str:
    """CSS class for the suit colour: "red" for diamonds and hearts, "" otherwise."""
    card = _card(code)
    return "red" if card is not None and card.suit.value in ("d", "h") else ""


@register.filter
def hand_label(code: str) -> str:
    """A stored hand code in words: "full_house" -> "Full house" (casino.engine.hand_words)."""
    return hand_words.hand_label(code)


@register.filter
def line_label(line: object) -> str:
    """A paytable line as the layout prints it: "Pair, jacks or better", "Four of a kind (aces)"."""
    ranks = getattr(line, "ranks", None) or []
    return hand_words.line_label(str(getattr(line, "hand", "")), str(getattr(line, "min_rank", "") or ""), ranks)


@register.filter
def get(mapping: object, key: object) -> object:
    """mapping[key] for keys a template cannot spell ("close-bets", "seat-3"); "" when absent."""
    getter = getattr(mapping, "get", None)
    if getter is None:
        return ""
    value = getter(str(key))
    return "" if value is None else value


@register.filter
def card_source_words(code: str) -> str:
    """Where a table's cards come from, by the one name every screen gives it (CardSource's label)."""
    return CardSource(code).label if code in CardSource.values else str(code)


@register.filter
def chip_label(cents: int) -> str:
    """A chip as printed on it: 500 -> "$5", 50 -> "50¢", 100000 -> "$1k"."""
    cents = int(cents)
    if cents < 100:
        return f"{cents}¢"
    dollars = cents // 100
    if dollars >= 1000 and dollars % 1000 == 0:
        return f"${dollars // 1000}k"
    return f"${dollars}" if cents % 100 == 0 else money(cents)


@register.filter
def entered_cards(posted: object, target: object) -> str:
    """What was picked into a card field before a refused save, so it can be corrected (only the seat's own)."""
    seat = str(getattr(target, "seat", "") or "")
    getter = getattr(posted, "get", None)
    if getter is None or (seat and str(getter("seat") or "") != seat):
        return ""
    return str(getter(str(getattr(target, "name", ""))) or "")
