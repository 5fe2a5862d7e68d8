"""Helpers for the home-game tests: fixed decks that deal chosen hands, and short game set-ups."""

from __future__ import annotations

from collections.abc import Mapping

from casino.engine.cards import ALL_CARDS, Card, parse_cards
from casino.engine.home.game import HomeGame
from casino.engine.home.hand import HomeHand, Phase
from casino.engine.home.pots import clockwise_from_button
from casino.engine.rules.model import Rules


def stacked_deck(button: int, hands: Mapping[int, str], stock: str = "") -> list[Card]:
    """A 52-card deck, top first, that deals `hands` (one card at a time from the button's left), then `stock`."""
    order = clockwise_from_button(hands, button)
    cards = {seat: parse_cards(text, count=5) for seat, text in hands.items()}
    deck = [cards[seat][position] for position in range(5) for seat in order]
    deck += parse_cards(stock)
    deck += [card for card in ALL_CARDS if card not in deck]
    assert len(set(deck)) == 52, "the chosen cards repeat"
    return deck


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def game(variant: str, stacks: Mapping[int, int], **options: object) -> HomeGame:
    return HomeGame(Rules.announce(variant, options), stacks)


def showdown_hand(variant: str, hands: Mapping[int, str], *, fold: tuple[int, ...] = (), **options: object) -> HomeHand:
    """A hand dealt `hands` (button on the highest seat) in which everyone checks and stands pat; the seats in `fold`
    fold at their first turn."""
    table = game(variant, dict.fromkeys(hands, 5_000), **options)
    button = max(hands)
    hand = table.start_hand(button=button, deck=stacked_deck(button, hands))
    while not hand.settled:
        seat = hand.actor
        assert seat is not None
        if hand.phase is Phase.DRAWING:
            hand.draw(seat, ())
        elif seat in fold:
            hand.fold(seat)
        else:
            hand.check(seat)
    return hand
