"""A settled hand's result in words a player understands: "Fives wild: four nines beat three queens"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from casino.engine.cards import Card, Rank, card_symbols
from casino.engine.hands import HandCategory, HandValue, rank_name
from casino.engine.home.events import Event, EventKind
from casino.engine.home.pots import split_pot
from casino.engine.home.settle import AwardedPot, Settlement
from casino.engine.money import money
from casino.engine.rules.model import Rules
from casino.engine.rules.words import listed

# Descriptions that read as plurals ("Four nines beat", "Kings full of sevens beat"); the rest take "beats".
_PLURAL = {HandCategory.FIVE_OF_A_KIND, HandCategory.FOUR_OF_A_KIND, HandCategory.FULL_HOUSE,
           HandCategory.THREE_OF_A_KIND, HandCategory.TWO_PAIR}


@dataclass(frozen=True)
class PotResult:
    amount_cents: int
    winners: tuple[int, ...]
    text: str

    def to_dict(self) -> dict[str, object]:
        return {"amount_cents": self.amount_cents, "winners": list(self.winners), "text": self.text}


@dataclass(frozen=True)
class HandResult:
    """Who won what and why: the headline, one line per pot, the dead, legs and the game's winner."""

    headline: str
    pots: tuple[PotResult, ...]
    wild_rank: Rank | None
    hands: dict[int, HandValue]
    dead: tuple[int, ...]
    legs: dict[int, int]
    leg_scorers: tuple[int, ...]
    game_winners: tuple[int, ...]
    carried_pot_cents: int
    lines: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        return {
            "headline": self.headline,
            "lines": list(self.lines),
            "wild_rank": self.wild_rank.code if self.wild_rank is not None else None,
            "hands": {str(seat): value.to_dict() for seat, value in self.hands.items()},
            "dead": list(self.dead),
            "pots": [pot.to_dict() for pot in self.pots],
            "legs": {str(seat): legs for seat, legs in self.legs.items()},
            "leg_scorers": list(self.leg_scorers),
            "game_winners": list(self.game_winners),
            "carried_pot_cents": self.carried_pot_cents,
        }


def hand_result(
    rules: Rules, settlement: Settlement, events: Sequence[Event], names: Mapping[int, str] | None = None
) -> HandResult:
    """Put a settlement into words; `names` (seat -> name) replaces "Seat 3" where given."""
    words = _Words(rules, settlement, names or {})
    kills = kill_cards_of(events)
    dead = tuple(kills)
    lines = [words.headline()]
    pots = tuple(PotResult(pot.amount_cents, pot.winners, words.pot(pot, index, len(settlement.pots)))
                 for index, pot in enumerate(settlement.pots))
    lines += [pot.text for pot in pots]
    lines += [f"{words.who(event.seat)} mucked: conceded without showing" for event in events
              if event.kind is EventKind.MUCKED and event.seat is not None]
    lines += [f"{words.who(seat)} is dead: {' '.join(map(card_symbols, cards))} is a kill card"
              for seat, cards in kills.items()]
    if rules.plays_for_legs:
        lines += [f"{words.who(seat)} scores a leg: {settlement.legs.get(seat, 0)} of {rules.legs_to_win}"
                  for seat in settlement.leg_scorers]
        if settlement.game_winners:
            lines.append(f"{words.several(settlement.game_winners)} {_verb(settlement.game_winners, 'win')} "
                         "the game and the pot")
    return HandResult(
        headline=lines[0],
        pots=pots,
        wild_rank=settlement.wild_rank,
        hands=dict(settlement.values),
        dead=dead,
        legs=dict(settlement.legs),
        leg_scorers=settlement.leg_scorers,
        game_winners=settlement.game_winners,
        carried_pot_cents=settlement.carried_pot_cents,
        lines=tuple(lines),
    )


class _Words:
    def __init__(self, rules: Rules, settlement: Settlement, names: Mapping[int, str]) -> None:
        self.rules = rules
        self.settlement = settlement
        self.names = names

    def who(self, seat: int) -> str:
        return self.names.get(seat) or f"Seat {seat}"

    def several(self, seats: Sequence[int]) -> str:
        return listed(self.who(seat) for seat in seats)

    def wild(self) -> str:
        """Freak of Nature's prefix: the rank the showdown fixed ("Fives wild: "), or that nothing was wild."""
        if not self.rules.sliding_wild or not self.settlement.values:
            return ""
        rank = self.settlement.wild_rank
        return f"{rank_name(rank, plural=True).capitalize()} wild: " if rank is not None else "Nothing wild: "

    def headline(self) -> str:
        values = self.settlement.values
        first = self.settlement.pots[0] if self.settlement.pots else None
        if self.settlement.by_ruling and first is not None:
            return f"By the floor's ruling ({self.settlement.ruling}): the pot to {self.several(first.winners)}"
        if first is None or not values:
            return self.uncontested(first.winners if first is not None else ())
        wild = self.wild()
        return wild + self.comparison(first) if wild else _capitalized(self.comparison(first))

    def uncontested(self, winners: tuple[int, ...]) -> str:
        """No showdown: a player left alone after the others folded (or were killed or left), or no live hand.

        In Three Legged Race the player left alone takes no pot unless the leg it scores is the last one called; the
        headline says whether it scored a leg (as announced) and that the pot stays in the middle otherwise."""
        settlement = self.settlement
        alone = settlement.live[0] if len(settlement.live) == 1 else (winners[0] if len(winners) == 1 else None)
        if alone is None:
            if winners:
                return f"{self.several(winners)} {_verb(winners, 'win')} uncontested"
            return "No live hand: the pot stays in the middle"
        who = self.who(alone)
        if not self.rules.plays_for_legs:
            return f"{who} wins uncontested"
        if alone in settlement.game_winners:
            return f"{who} is left alone and scores the last leg: the game and the pot"
        if alone in settlement.leg_scorers:
            return f"{who} is left alone and scores a leg: the pot stays in the middle"
        return f"{who} is left alone but scores no leg, as announced: the pot stays in the middle"

    def comparison(self, pot: AwardedPot) -> str:
        """The winner's hand against the best other hand in the pot, or the split."""
        values = self.settlement.values
        contenders = [seat for seat in pot.eligible if seat in values]
        best = max((values[seat] for seat in contenders), default=None)
        if best is None:
            return "nobody is in this pot"
        top = [seat for seat in contenders if values[seat] == best]
        if len(top) > 1:
            # A Three Legged Race tie that ends no game shares no pot: it stays in the middle.
            verb = "split" if pot.winners else "tie"
            return f"{self.several(top)} {verb} with {_spoken(best)} each"
        others = [values[seat] for seat in contenders if values[seat] != best]
        if not others:
            return f"{_spoken(best)}, alone in this pot"
        beaten = max(others)
        verb = "beat" if best.category in _PLURAL else "beats"
        winner = _spoken(best)
        # "Two pair, queens and eights, beat a pair of twos": a description with a comma is closed by one.
        said = f"{winner}{',' if ',' in winner else ''} {verb} {_spoken(beaten)}"
        if best.description == beaten.description:  # the same words: say which card decided it
            said += _kicker(best, beaten)
        return said

    def pot(self, pot: AwardedPot, index: int, count: int) -> str:
        name = "Pot" if count == 1 else ("Main pot" if index == 0 else f"Side pot {index}")
        amount = money(pot.amount_cents)
        if not pot.winners:
            return f"{name} {amount} stays in the middle"
        who = self.several(pot.winners)
        if self.settlement.by_ruling:
            shares = self.settlement.payouts
            return f"{name} {amount} by ruling: " + ", ".join(f"{money(shares.get(seat, 0))} to {self.who(seat)}"
                                                              for seat in pot.winners)
        if self.settlement.game_winners and set(pot.winners) <= set(self.settlement.game_winners):
            legs = self.rules.legs_to_win
            said = f"{name} {amount} to {who}: {legs} {'leg' if legs == 1 else 'legs'}"
            return said + (f" each; {self.shares(pot)}" if len(pot.winners) > 1 else "")
        if not self.settlement.values:
            return f"{name} {amount} to {who}, uncontested"
        if len(pot.winners) > 1:
            values = self.settlement.values
            tied = max((values[seat] for seat in pot.winners if seat in values), default=None)
            each = f" with {_spoken(tied)} each" if tied is not None else ""
            return f"{name} {amount} split{each}: {self.shares(pot)}"
        return f"{name} {amount} to {who}: {self.comparison(pot)}"

    def shares(self, pot: AwardedPot) -> str:
        """What each winner of a split pot takes, as the dealer pushes the chips: "$9.34 to Bob, $9.33 to Cy and
        $9.33 to Dee" (the odd chips to the first winners left of the button, DESIGN 7)."""
        return listed(f"{money(cents)} to {self.who(seat)}" for seat, cents in split_pot(pot.amount_cents,
                                                                                          pot.winners).items())


def _kicker(best: HandValue, beaten: HandValue) -> str:
    """", ace kicker against queen": the first rank where two equally described hands differ."""
    for mine, theirs in zip(best.strength[1:], beaten.strength[1:], strict=False):
        if mine != theirs:
            return f", {rank_name(mine)} kicker against {rank_name(theirs)}"
    return ""


def _verb(seats: Sequence[int], verb: str) -> str:
    return verb if len(seats) > 1 else verb + "s"


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _spoken(value: HandValue) -> str:
    """A hand as said in a sentence: "a pair of twos", "two pair, queens and eights", "king high". DESIGN 4.8's
    description of two pair ("Queens and eights") reads as two hands once a verb follows, so its category leads."""
    text = _lower(value.description)
    if value.category is HandCategory.TWO_PAIR:
        return f"two pair, {text}"
    return f"a {text}" if value.category is HandCategory.ONE_PAIR else text


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def kill_cards_of(events: Sequence[Event]) -> dict[int, tuple[Card, ...]]:
    """The kill card that killed each dead seat."""
    return {event.seat: event.cards for event in events
            if event.kind is EventKind.PLAYER_KILLED and event.seat is not None}
