"""Template filters of the home-game tablet screen: percentages, phases and seat states in words."""

from __future__ import annotations

from django import template

from casino.engine.rules import words as rules_words

register = template.Library()

PHASES = {
    "dealing": "Dealing",
    "betting": "Betting",
    "drawing": "The draw",
    "showdown": "Showdown",
    "settled": "Hand over",
    "voided": "Voided",
}


@register.filter
def percent(basis_points: int | None) -> str:
    """500 basis points -> "5%", 250 -> "2.5%"."""
    if basis_points is None:
        return ""
    return rules_words.percent(int(basis_points))


@register.filter
def phase_words(phase: str) -> str:
    return PHASES.get(str(phase), str(phase).replace("_", " ").capitalize())


@register.filter
def plural(count: int, word: str) -> str:
    """3|plural:"card" -> "3 cards"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
