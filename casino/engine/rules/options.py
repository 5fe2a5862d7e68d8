"""The announced options of DESIGN 7 as data: each code, its values, default and variants, and how a value is read."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from casino.engine.cards import Card, Rank, parse_cards
from casino.engine.errors import CardError, RulesError
from casino.engine.hands import FIVE_OF_A_KIND_POSITIONS
from casino.engine.variants import (
    FIVE_CARD_DRAW,
    FREAK_OF_NATURE,
    HOME_VARIANTS,
    PREGNANT_THREES,
    THREE_LEGGED_RACE,
)

JsonValue = int | str | bool | list[str] | None


class Betting(StrEnum):
    FIXED_LIMIT = "fixed_limit"
    POT_LIMIT = "pot_limit"
    NO_LIMIT = "no_limit"


class DrawMode(StrEnum):
    MANDATORY = "mandatory"
    OPTIONAL = "optional"


class TieRule(StrEnum):
    EACH_SCORES = "each_scores"
    NOBODY_SCORES = "nobody_scores"


FREAK_BOTTOMS = ("no_wild", "aces")
# Freak of Nature's sliding wild rank, highest first (DESIGN 4.7): sixes, else fives, ... down to deuces.
FREAK_RANKS = (Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO)
DRAW_MODES = (DrawMode.OPTIONAL.value, DrawMode.MANDATORY.value)
# Named kill-card presets (DESIGN 4.6), accepted as tokens of the `kill_cards` option.
KILL_CARD_PRESETS: dict[str, tuple[Card, ...]] = {
    "one_eyed_jacks": parse_cards("Js Jh"),
    "man_with_the_axe": parse_cards("Kd"),
}


class OptionKind(StrEnum):
    """How an option's value is written in the `rules` object (and so which form control it needs)."""

    CENTS = "cents"  # whole cents
    NUMBER = "number"  # a whole number between `minimum` and `maximum`
    CHOICE = "choice"  # one of `choices`
    FLAG = "flag"  # true or false
    CARDS = "cards"  # a list of cards ("Js", "Kd"); kill cards also take the preset names
    RANKS = "ranks"  # a list of ranks ("2", "J")


ALL_BETTING = tuple(Betting)
NOT_FIXED = (Betting.POT_LIMIT, Betting.NO_LIMIT)


@dataclass(frozen=True)
class OptionSpec:
    """One row of the DESIGN 7 table.

    `betting` lists the betting structures under which the option means something (the stakes differ between fixed
    limit and pot or no limit); `required_with` those under which a game must announce it before the first card,
    because it has no default. `default_from` names the option whose value is the default (the minimum bet of pot and
    no limit defaults to the big bet when one is announced).
    """

    code: str
    label: str
    kind: OptionKind
    variants: tuple[str, ...]
    default: JsonValue = None
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    betting: tuple[str, ...] = ALL_BETTING
    required_with: tuple[str, ...] = ()
    default_from: str | None = None
    presets: tuple[str, ...] = ()

    def applies(self, betting: str) -> bool:
        """Does this option mean something under the given betting structure (the stakes are per structure)?"""
        return betting in self.betting

    def applies_to_all(self) -> bool:
        """Does this option mean something under every betting structure (not a stake of one of them)?"""
        return set(ALL_BETTING) <= set(self.betting)

    def required(self, betting: str) -> bool:
        """Must a game announce this option under the given betting structure?"""
        return betting in self.required_with

    def to_dict(self) -> dict[str, object]:
        """JSON for a client that builds the floor's form: the code, label, kind, allowed values and default."""
        return {
            "code": self.code,
            "label": self.label,
            "kind": self.kind.value,
            "default": self.default,
            "default_from": self.default_from,
            "choices": list(self.choices),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "betting": [str(structure) for structure in self.betting],
            "required_with": [str(structure) for structure in self.required_with],
            "presets": list(self.presets),
        }

    # ----- reading a value of the `rules` object; every error names this option -----
    def read(self, value: object) -> object:
        """The value as the rules hold it (cents, a choice, a flag, cards, ranks), judged on its own."""
        if self.kind in (OptionKind.CENTS, OptionKind.NUMBER):
            return self.integer(value)
        if self.kind is OptionKind.CHOICE:
            return self.choice(value)
        if self.kind is OptionKind.FLAG:
            return self.flag(value)
        if self.kind is OptionKind.CARDS:
            return self.cards(value)
        return self.ranks(value)

    def integer(self, value: object) -> int | None:
        """A whole number within the bounds; None stands for "not announced" (only where there is no default)."""
        if value is None and self.kind is OptionKind.CENTS:
            return None
        low, high = self.minimum if self.minimum is not None else 0, self.maximum
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            bounds = f"{low}-{high}" if high is not None else f"at least {low}"
            raise self.error(f"must be an integer {bounds}, got {value!r}", token=str(value))
        return value

    def choice(self, value: object) -> str:
        if value not in self.choices:
            raise self.error(f"must be one of {', '.join(self.choices)}, got {value!r}", token=str(value))
        return str(value)

    def flag(self, value: object) -> bool:
        if not isinstance(value, bool):
            raise self.error(f"must be true or false, got {value!r}", token=str(value))
        return value

    def cards(self, value: object) -> frozenset[Card]:
        found: set[Card] = set()
        for token in self._tokens(value, "cards"):
            preset = KILL_CARD_PRESETS.get(token.lower()) if self.presets else None
            if preset is not None:
                found.update(preset)
                continue
            try:
                found.add(Card.parse(token))
            except CardError as exc:
                raise RulesError(f"option {self.code}: {exc.message}", token=token, option=self.code) from None
        return frozenset(found)

    def ranks(self, value: object) -> frozenset[Rank]:
        found: set[Rank] = set()
        for token in self._tokens(value, "ranks"):
            try:
                found.add(Rank.parse(token))
            except CardError as exc:
                raise RulesError(f"option {self.code}: {exc.message}", token=token, option=self.code) from None
        return frozenset(found)

    def error(self, problem: str, *, token: str | None = None) -> RulesError:
        return RulesError(f"option {self.code} {problem}", token=token, option=self.code)

    def _tokens(self, value: object, what: str) -> list[str]:
        # Text ("Js Jh", "Js,Jh"), one number (a rank: 2) or a list of those, as the command line and JSON give them.
        if isinstance(value, str):
            return value.replace(",", " ").split()
        if isinstance(value, int) and not isinstance(value, bool):
            return [str(value)]
        if isinstance(value, list | tuple | set | frozenset):
            return [item.code if isinstance(item, Rank) else str(item) for item in value]
        raise self.error(f"must be a list of {what}, got {value!r}", token=str(value))


_WILD_GAMES = HOME_VARIANTS  # five of a kind and flush duplicates matter wherever wild cards may be announced
_DRAW_DISCARD = (FIVE_CARD_DRAW, FREAK_OF_NATURE)  # "Except for the wild cards, the rules of Five Card Draw apply"
_NAMED_WILDS = (FIVE_CARD_DRAW, THREE_LEGGED_RACE)

# The DESIGN 7 table, in its order. `wild_cards` (named wild cards, such as one-eyed jacks wild) goes with
# `wild_ranks`: both name extra wild cards where a variant has none of its own.
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("ante_cents", "Ante", OptionKind.CENTS, HOME_VARIANTS, minimum=0, required_with=ALL_BETTING),
    OptionSpec("betting", "Betting", OptionKind.CHOICE, HOME_VARIANTS, default="fixed_limit", choices=tuple(Betting)),
    OptionSpec("small_bet_cents", "Small bet (before the draw)", OptionKind.CENTS, HOME_VARIANTS, minimum=0,
               betting=(Betting.FIXED_LIMIT,), required_with=(Betting.FIXED_LIMIT,)),
    OptionSpec("big_bet_cents", "Big bet (after the draw)", OptionKind.CENTS, HOME_VARIANTS, minimum=0,
               betting=(Betting.FIXED_LIMIT,), required_with=(Betting.FIXED_LIMIT,)),
    OptionSpec("min_bet_cents", "Minimum bet", OptionKind.CENTS, HOME_VARIANTS, minimum=0, betting=NOT_FIXED,
               required_with=NOT_FIXED, default_from="big_bet_cents"),
    OptionSpec("max_discard", "Cards a player may exchange", OptionKind.NUMBER, _DRAW_DISCARD, default=3, minimum=0,
               maximum=5),
    OptionSpec("max_discard_with_ace", "Cards a player keeping an ace may exchange", OptionKind.NUMBER, _DRAW_DISCARD,
               default=4, minimum=0, maximum=5),
    OptionSpec("draws", "Number of draws", OptionKind.NUMBER, (PREGNANT_THREES,), default=1, minimum=1, maximum=3,
               required_with=ALL_BETTING),
    OptionSpec("cards_per_draw", "Cards per draw", OptionKind.NUMBER, (PREGNANT_THREES,), default=3, minimum=1,
               maximum=5, required_with=ALL_BETTING),
    OptionSpec("draw", "Draw", OptionKind.CHOICE, (PREGNANT_THREES,), default="optional", choices=DRAW_MODES,
               required_with=ALL_BETTING),
    OptionSpec("kill_cards", "Kill cards", OptionKind.CARDS, HOME_VARIANTS, default=[],
               presets=tuple(KILL_CARD_PRESETS)),
    OptionSpec("wild_ranks", "Wild ranks", OptionKind.RANKS, _NAMED_WILDS, default=[]),
    OptionSpec("wild_cards", "Wild cards", OptionKind.CARDS, _NAMED_WILDS, default=[]),
    OptionSpec("five_of_a_kind", "Five of a kind", OptionKind.CHOICE, _WILD_GAMES, default="highest",
               choices=FIVE_OF_A_KIND_POSITIONS),
    OptionSpec("wild_duplicates_in_flush", "A wild card may duplicate a card of its flush", OptionKind.FLAG,
               _WILD_GAMES, default=True),
    OptionSpec("freak_bottom", "When no showdown hand holds a six down to a deuce", OptionKind.CHOICE,
               (FREAK_OF_NATURE,), default="no_wild", choices=FREAK_BOTTOMS),
    OptionSpec("legs_to_win", "Legs to win", OptionKind.NUMBER, (THREE_LEGGED_RACE,), default=2, minimum=1, maximum=5),
    OptionSpec("uncontested_scores_leg", "A player left alone after folds scores a leg", OptionKind.FLAG,
               (THREE_LEGGED_RACE,), default=True),
    OptionSpec("tie", "A tie at the showdown", OptionKind.CHOICE, (THREE_LEGGED_RACE,), default="each_scores",
               choices=tuple(TieRule)),
    OptionSpec("forced_play", "Forced play (no folding)", OptionKind.FLAG, (THREE_LEGGED_RACE,), default=False),
)
_BY_VARIANT: dict[str, Mapping[str, OptionSpec]] = {
    code: MappingProxyType({spec.code: spec for spec in OPTIONS if code in spec.variants}) for code in HOME_VARIANTS
}
_NONE: Mapping[str, OptionSpec] = MappingProxyType({})


def option_specs(variant_code: str) -> Mapping[str, OptionSpec]:
    """The options a variant's table may announce, by code, in the DESIGN 7 order (none for Triple Draw)."""
    return _BY_VARIANT.get(variant_code, _NONE)


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    """High card first, and within a rank spades, hearts, diamonds, clubs: "Js Jh", as people name them."""
    return sorted(cards, key=lambda card: card.index, reverse=True)
