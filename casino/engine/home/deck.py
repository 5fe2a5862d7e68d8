"""The deck path: a known deck (top first) and the recorded reshuffles, fed to a live hand as it asks for cards.

Replay and simulation give the whole deck up front; a hand in progress rebuilt from its stored record gives its
record and how many cards were dealt so far (`limit`), and then receives the rest live. Either way the hand is the
same state machine.
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.engine.cards import Card, check_unique
from casino.engine.errors import EngineError
from casino.engine.home import errors as e
from casino.engine.home.errors import IllegalAction
from casino.engine.home.stock import DECK_SIZE, exhausted, verify_reshuffled


def verify_full_deck(deck: Sequence[Card]) -> None:
    """A DESIGN 9 hand record deals from a full deck: 52 cards, each once."""
    if len(deck) != DECK_SIZE:
        raise IllegalAction(f"the deck has {len(deck)} cards, not {DECK_SIZE}", code=e.BAD_DECK,
                            rule="a hand is dealt from a full 52-card deck")
    verify_unique(deck)


def no_reshuffle() -> IllegalAction:
    """The stock ran out and the record (the replay's, or play_game's standing in for the shoe) has no new stock."""
    return IllegalAction("the stock ran out and the record gives no reshuffle", code=e.BAD_RESHUFFLE,
                         rule="`reshuffles` gives the new stock each time the stock runs out")


def verify_unique(deck: Sequence[Card]) -> None:
    try:
        check_unique(deck)
    except EngineError as exc:
        raise IllegalAction(exc.message, code=e.BAD_DECK, rule="a deck holds each card once", token=exc.token) from exc


class DeckFeed:
    """The cards still to come off the known deck (or the reshuffled stock in use) and the reshuffles to come.

    With a whole record (no `limit`), a draw that the recorded cards cannot serve is refused before anything
    changes, as a replay must. With a `limit` only that many cards are fed; after them the hand waits for cards
    given live.
    """

    def __init__(self, deck: Sequence[Card], reshuffles: Sequence[Sequence[Card]] = (), *, limit: int | None = None
                 ) -> None:
        if limit is None:
            verify_full_deck(deck)
        else:
            verify_unique(deck)
        self.cards: list[Card] = list(deck)
        self.reshuffles: list[tuple[Card, ...]] = [tuple(stock) for stock in reshuffles]
        self.limit = limit

    def verify_draw(self, count: int, muck: Sequence[Card]) -> None:
        """Raise IllegalAction unless `count` replacements can come from the deck and the next recorded reshuffle."""
        if self.limit is not None or count <= len(self.cards):
            return
        if not muck:
            raise exhausted()
        if not self.reshuffles:
            raise no_reshuffle()
        stock = self.reshuffles[0]
        verify_reshuffled(stock, muck)
        if count > len(self.cards) + len(stock):
            raise exhausted()

    def next_card(self) -> Card | None:
        if not self.cards or self.limit == 0:
            return None
        if self.limit is not None:
            self.limit -= 1
        return self.cards.pop(0)

    def next_reshuffle(self) -> tuple[Card, ...] | None:
        if not self.reshuffles:
            return None
        stock = self.reshuffles.pop(0)
        self.cards = list(stock)
        return stock
