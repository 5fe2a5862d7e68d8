"""Variant rules (DESIGN 7): what is wild, the draw, announced options with their defaults, and the registry."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from casino.engine.cards import Card, Rank, parse_cards
from casino.engine.errors import CardError, RulesError, UnknownVariantError
from casino.engine.hands import FIVE_OF_A_KIND_POSITIONS, HandOptions, WildSpec

BETTING_STRUCTURES = ("fixed_limit", "pot_limit", "no_limit")
DRAW_MODES = ("optional", "mandatory")
FREAK_BOTTOMS = ("no_wild", "aces")
TIE_RULES = ("each_scores", "nobody_scores")
# Named kill-card presets (DESIGN 4.6); usable as tokens in the `kill_cards` option.
KILL_CARD_PRESETS: dict[str, frozenset[Card]] = {
    "one_eyed_jacks": frozenset(parse_cards("Js Jh")),
    "man_with_the_axe": frozenset(parse_cards("Kd")),
}

_BETTING_OPTIONS = ("ante_cents", "betting", "small_bet_cents", "big_bet_cents", "min_bet_cents")
_WILD_OPTIONS = ("five_of_a_kind", "wild_duplicates_in_flush")
# Which announced options each variant accepts (DESIGN 7 "applies to"); kill cards may be named in any home game.
_HOME = (*_BETTING_OPTIONS, *_WILD_OPTIONS, "kill_cards")
_APPLIES: dict[str, tuple[str, ...]] = {
    "five-card-draw": (*_HOME, "max_discard", "max_discard_with_ace", "wild_ranks", "wild_cards"),
    "pregnant-threes": (*_HOME, "draws", "cards_per_draw", "draw"),
    "three-legged-race": (
        *_HOME,
        "wild_ranks",
        "wild_cards",
        "legs_to_win",
        "uncontested_scores_leg",
        "tie",
        "forced_play",
    ),
    "freak-of-nature": (*_HOME, "max_discard", "max_discard_with_ace", "freak_bottom"),
    "triple-draw": (),
}


@dataclass(frozen=True)
class VariantRules:
    """One variant's rules with every announced option resolved (defaults filled in)."""

    code: str
    name: str
    wild: WildSpec = WildSpec.NONE  # fixed wild cards (the variant's own plus any announced)
    options: HandOptions = field(default_factory=HandOptions)
    sliding_wild: bool = False  # Freak of Nature: the wild rank is fixed at the showdown (DESIGN 4.7)
    freak_bottom: str = "no_wild"
    kill_cards: frozenset[Card] = frozenset()
    max_players: int = 10  # draw games reshuffle the discards when the stock runs out (DESIGN 7)
    # The draw: how many draws, at most how many cards each, and whether exactly that many must be exchanged.
    draws: int = 1
    cards_per_draw: int = 3
    draw: str = "optional"
    max_discard_with_ace: int = 4  # five-card draw: a player keeping an ace may exchange this many
    # Betting (home games). None where the table must announce a value before play.
    ante_cents: int | None = None
    betting: str = "fixed_limit"
    small_bet_cents: int | None = None
    big_bet_cents: int | None = None
    min_bet_cents: int | None = None
    # Three Legged Race.
    legs_to_win: int = 2
    uncontested_scores_leg: bool = True
    tie: str = "each_scores"
    forced_play: bool = False
    announced: Mapping[str, Any] = field(default_factory=dict, compare=False)  # the options as given

    @property
    def has_wild_cards(self) -> bool:
        return self.sliding_wild or bool(self.wild)

    @property
    def draw_is_mandatory(self) -> bool:
        return self.draw == "mandatory"

    def max_discard(self, *, keeps_ace: bool = False) -> int:
        """How many cards a player may exchange at one draw."""
        if keeps_ace and self.code in ("five-card-draw", "freak-of-nature"):
            return max(self.cards_per_draw, self.max_discard_with_ace)
        return self.cards_per_draw

    def rules_dict(self) -> dict[str, Any]:
        """Every option that applies to this variant, by its DESIGN 7 code, as JSON-able values (for the game record
        and the audit trail); `get_variant(code, **rules_dict())` gives these rules back."""
        base = VARIANTS[self.code]
        data: dict[str, Any] = {}
        for name in _APPLIES[self.code]:
            if name in ("five_of_a_kind", "wild_duplicates_in_flush"):
                data[name] = getattr(self.options, name)
            elif name == "kill_cards":
                data[name] = [str(card) for card in sorted(self.kill_cards, key=_card_index)]
            elif name == "wild_ranks":  # the variant's own wild ranks are implied
                data[name] = [rank.code for rank in sorted(self.wild.ranks - base.wild.ranks)]
            elif name == "wild_cards":
                data[name] = [str(card) for card in sorted(self.wild.cards - base.wild.cards, key=_card_index)]
            elif name == "max_discard":
                data[name] = self.cards_per_draw
            else:
                data[name] = getattr(self, name)
        return data

    def verify_stakes(self) -> None:
        """Raise RulesError unless the betting options a home game needs before the first card are announced."""
        if self.ante_cents is None:
            raise RulesError("ante_cents must be announced", token="ante_cents")  # noqa: S106
        if self.betting == "fixed_limit":
            for name in ("small_bet_cents", "big_bet_cents"):
                if getattr(self, name) is None:
                    raise RulesError(f"{name} must be announced for fixed_limit betting", token=name)
        elif self.min_bet_cents is None and self.big_bet_cents is None:
            raise RulesError(
                f"min_bet_cents must be announced for {self.betting} betting",
                token="min_bet_cents",  # noqa: S106
            )


VARIANTS: dict[str, VariantRules] = {
    "five-card-draw": VariantRules(code="five-card-draw", name="Five Card Draw"),
    "pregnant-threes": VariantRules(
        code="pregnant-threes",
        name="Pregnant Threes",
        wild=WildSpec.of_ranks([Rank.THREE, Rank.SIX, Rank.NINE]),
    ),
    "three-legged-race": VariantRules(
        code="three-legged-race", name="Three Legged Race", max_players=6, cards_per_draw=3, draw="mandatory"
    ),
    "freak-of-nature": VariantRules(code="freak-of-nature", name="Freak of Nature", sliding_wild=True),
    "triple-draw": VariantRules(code="triple-draw", name="Triple Draw Poker", max_players=7, draws=0, cards_per_draw=0),
}


def get_variant(code: str, **announced: Any) -> VariantRules:
    """The variant's rules with the announced options applied; UnknownVariantError / RulesError on bad input."""
    base = VARIANTS.get(str(code).strip().lower())
    if base is None:
        raise UnknownVariantError(f"unknown variant {code!r}: expected one of {', '.join(VARIANTS)}", token=str(code))
    allowed = _APPLIES[base.code]
    changes: dict[str, Any] = {}
    options = {
        "five_of_a_kind": base.options.five_of_a_kind,
        "wild_duplicates_in_flush": base.options.wild_duplicates_in_flush,
    }
    wild_ranks, wild_cards = set(base.wild.ranks), set(base.wild.cards)
    for name, value in announced.items():
        if name not in allowed:
            raise RulesError(f"option {name!r} does not apply to {base.name}", token=name)
        if name == "five_of_a_kind":
            options[name] = _choice(name, value, FIVE_OF_A_KIND_POSITIONS)
        elif name == "wild_duplicates_in_flush":
            options[name] = _flag(name, value)
        elif name == "kill_cards":
            changes[name] = _cards(name, value)
        elif name == "wild_ranks":
            wild_ranks |= _ranks(name, value)
        elif name == "wild_cards":
            wild_cards |= _cards(name, value)
        elif name in ("ante_cents", "small_bet_cents", "big_bet_cents", "min_bet_cents"):
            changes[name] = _integer(name, value, 0, None) if value is not None else None
        elif name == "betting":
            changes[name] = _choice(name, value, BETTING_STRUCTURES)
        elif name in ("max_discard", "cards_per_draw"):
            changes["cards_per_draw"] = _integer(name, value, 0 if name == "max_discard" else 1, 5)
        elif name == "max_discard_with_ace":
            changes[name] = _integer(name, value, 0, 5)
        elif name == "draws":
            changes[name] = _integer(name, value, 1, 3)
        elif name == "draw":
            changes[name] = _choice(name, value, DRAW_MODES)
        elif name == "freak_bottom":
            changes[name] = _choice(name, value, FREAK_BOTTOMS)
        elif name == "legs_to_win":
            changes[name] = _integer(name, value, 1, 5)
        elif name == "tie":
            changes[name] = _choice(name, value, TIE_RULES)
        else:  # uncontested_scores_leg, forced_play
            changes[name] = _flag(name, value)
    changes["options"] = HandOptions(
        five_of_a_kind=str(options["five_of_a_kind"]),
        wild_duplicates_in_flush=bool(options["wild_duplicates_in_flush"]),
    )
    changes["wild"] = WildSpec(ranks=frozenset(wild_ranks), cards=frozenset(wild_cards))
    changes["announced"] = dict(announced)
    rules = dataclasses.replace(base, **changes)
    if rules.wild.cards & rules.kill_cards:
        card = sorted(rules.wild.cards & rules.kill_cards, key=lambda c: c.index)[0]
        raise RulesError(f"card {card} cannot be both wild and a kill card", token=str(card))
    return rules


def _card_index(card: Card) -> int:
    return card.index


def _choice(name: str, value: Any, allowed: Iterable[str]) -> str:
    allowed = tuple(allowed)
    if value not in allowed:
        raise RulesError(f"option {name} must be one of {', '.join(allowed)}, got {value!r}", token=str(value))
    return str(value)


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesError(f"option {name} must be true or false, got {value!r}", token=str(value))
    return value


def _integer(name: str, value: Any, low: int, high: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bounds = f"{low}-{high}" if high is not None else f"at least {low}"
        raise RulesError(f"option {name} must be an integer {bounds}, got {value!r}", token=str(value))
    return value


def _tokens(value: Any) -> list[str]:
    if isinstance(value, str):
        return value.replace(",", " ").split()
    if isinstance(value, Card | Rank | int):
        return [str(value.code if isinstance(value, Rank) else value)]
    return [str(item.code if isinstance(item, Rank) else item) for item in value]


def _cards(name: str, value: Any) -> frozenset[Card]:
    cards: set[Card] = set()
    for token in _tokens(value):
        preset = KILL_CARD_PRESETS.get(token.lower()) if name == "kill_cards" else None
        if preset is not None:
            cards |= preset
            continue
        try:
            cards.add(Card.parse(token))
        except CardError as exc:
            raise RulesError(f"option {name}: {exc.message}", token=token) from None
    return frozenset(cards)


def _ranks(name: str, value: Any) -> frozenset[Rank]:
    ranks: set[Rank] = set()
    for token in _tokens(value):
        try:
            ranks.add(Rank.parse(token))
        except CardError as exc:
            raise RulesError(f"option {name}: {exc.message}", token=token) from None
    return frozenset(ranks)
