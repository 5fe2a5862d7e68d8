"""Announced options of a home game (DESIGN 7 table): parsed, defaulted and checked before the first deal."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from casino.engine.cards import Card, Rank
from casino.engine.errors import EngineError
from casino.engine.home.errors import AnnouncementError
from casino.engine.variants import KILL_CARD_PRESETS, get_variant


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


FIVE_CARD_DRAW = "five-card-draw"
PREGNANT_THREES = "pregnant-threes"
THREE_LEGGED_RACE = "three-legged-race"
FREAK_OF_NATURE = "freak-of-nature"
HOME_VARIANTS = (FIVE_CARD_DRAW, PREGNANT_THREES, THREE_LEGGED_RACE, FREAK_OF_NATURE)

_COMMON = frozenset(
    {"ante_cents", "betting", "small_bet_cents", "big_bet_cents", "min_bet_cents", "kill_cards",
     "five_of_a_kind", "wild_duplicates_in_flush"}
)
_OWN_OPTIONS: dict[str, frozenset[str]] = {
    FIVE_CARD_DRAW: frozenset({"max_discard", "max_discard_with_ace", "wild_ranks", "wild_cards"}),
    # "Except for the wild cards, the rules of Five Card Draw apply" (Freak of Nature 1.1): its discard limit too.
    FREAK_OF_NATURE: frozenset({"max_discard", "max_discard_with_ace", "freak_bottom"}),
    PREGNANT_THREES: frozenset({"draws", "cards_per_draw", "draw"}),
    THREE_LEGGED_RACE: frozenset(
        {"wild_ranks", "wild_cards", "legs_to_win", "uncontested_scores_leg", "tie", "forced_play"}
    ),
}
# Pregnant Threes 2.2: "Before the deal, the dealer shall announce" these; the deal cannot start without them.
_REQUIRED: dict[str, frozenset[str]] = {PREGNANT_THREES: frozenset({"draws", "cards_per_draw", "draw"})}
MAX_PLAYERS = {FIVE_CARD_DRAW: 10, FREAK_OF_NATURE: 10, PREGNANT_THREES: 10, THREE_LEGGED_RACE: 6}


@dataclass(frozen=True)
class HomeRules:
    """Everything announced for one home game; build it with `HomeRules.announce(variant, options)`."""

    variant: str
    ante_cents: int
    betting: Betting = Betting.FIXED_LIMIT
    small_bet_cents: int = 0
    big_bet_cents: int = 0
    min_bet_cents: int = 0
    max_discard: int = 3
    max_discard_with_ace: int = 4
    draws: int = 1
    cards_per_draw: int = 3
    draw: DrawMode = DrawMode.OPTIONAL
    kill_cards: frozenset[Card] = frozenset()
    wild_ranks: frozenset[Rank] = frozenset()
    wild_cards: frozenset[Card] = frozenset()
    five_of_a_kind: str = "highest"
    wild_duplicates_in_flush: bool = True
    freak_bottom: str = "no_wild"
    legs_to_win: int = 2
    uncontested_scores_leg: bool = True
    tie: TieRule = TieRule.EACH_SCORES
    forced_play: bool = False
    announced: Mapping[str, object] = field(default_factory=dict, compare=False)

    @property
    def max_players(self) -> int:
        return MAX_PLAYERS[self.variant]

    @property
    def plays_for_legs(self) -> bool:
        return self.variant == THREE_LEGGED_RACE

    def bet_unit(self, betting_round: int) -> int:
        """Fixed limit: the small bet before the (first) draw, the big bet after; otherwise the minimum bet."""
        if self.betting is Betting.FIXED_LIMIT:
            return self.small_bet_cents if betting_round == 0 else self.big_bet_cents
        return self.min_bet_cents

    def to_dict(self) -> dict[str, object]:
        """The `rules` object of a game record (DESIGN 9), every option by its code, defaults filled in."""
        data: dict[str, object] = {"ante_cents": self.ante_cents, "betting": self.betting.value}
        if self.betting is Betting.FIXED_LIMIT:
            data |= {"small_bet_cents": self.small_bet_cents, "big_bet_cents": self.big_bet_cents}
        else:
            data["min_bet_cents"] = self.min_bet_cents
        data |= {"kill_cards": sorted(str(card) for card in self.kill_cards),
                 "five_of_a_kind": self.five_of_a_kind, "wild_duplicates_in_flush": self.wild_duplicates_in_flush}
        own = _OWN_OPTIONS[self.variant]
        for code in sorted(own):
            value = getattr(self, code)
            if code == "wild_ranks":
                value = [rank.code for rank in sorted(value)]
            elif code == "wild_cards":
                value = sorted(str(card) for card in value)
            elif isinstance(value, StrEnum):
                value = value.value
            data[code] = value
        return data

    @classmethod
    def announce(cls, variant: str, options: Mapping[str, object]) -> HomeRules:
        """Check every announced option of DESIGN 7 for `variant`; refuse unknown, missing or bad ones."""
        if variant not in HOME_VARIANTS:
            raise AnnouncementError(
                f"unknown home-game variant {variant!r}; expected one of {', '.join(HOME_VARIANTS)}", option="variant"
            )
        allowed = _COMMON | _OWN_OPTIONS[variant]
        for code in options:
            if code not in allowed:
                raise AnnouncementError(f"option {code!r} does not apply to {variant}", option=code)
        for code in sorted(_REQUIRED.get(variant, frozenset()) | {"ante_cents"}):
            if code not in options:
                raise AnnouncementError(f"{code} must be announced before the deal ({variant})", option=code)
        reader = _Reader(options)
        betting = Betting(reader.choice("betting", [b.value for b in Betting], Betting.FIXED_LIMIT.value))
        small = big = 0
        if betting is Betting.FIXED_LIMIT:
            small = reader.integer("small_bet_cents", None, low=1)
            big = reader.integer("big_bet_cents", None, low=1)
        elif "small_bet_cents" in options or "big_bet_cents" in options:
            small = reader.integer("small_bet_cents", 0, low=0)
            big = reader.integer("big_bet_cents", 0, low=0)
        min_default = big if big > 0 else None
        min_bet = reader.integer("min_bet_cents", min_default, low=1) if betting is not Betting.FIXED_LIMIT else 0
        max_discard = reader.integer("max_discard", 3, low=0, high=5)
        with_ace = reader.integer("max_discard_with_ace", min(max_discard + 1, 5), low=max_discard, high=5)
        kill = _cards("kill_cards", options.get("kill_cards", []))
        wild = _ranks(options.get("wild_ranks", []))
        wild_cards = _cards("wild_cards", options.get("wild_cards", []))
        if kill & wild_cards:
            raise AnnouncementError("a card cannot be both wild and a kill card", option="kill_cards")
        rules = cls(
            variant=variant,
            ante_cents=reader.integer("ante_cents", None, low=0),
            betting=betting,
            small_bet_cents=small,
            big_bet_cents=big,
            min_bet_cents=min_bet,
            max_discard=max_discard,
            max_discard_with_ace=with_ace,
            draws=reader.integer("draws", 1, low=1, high=3),
            cards_per_draw=reader.integer("cards_per_draw", 3, low=1, high=5),
            draw=DrawMode(reader.choice("draw", [d.value for d in DrawMode], DrawMode.OPTIONAL.value)),
            kill_cards=kill,
            wild_ranks=wild,
            wild_cards=wild_cards,
            five_of_a_kind=reader.choice("five_of_a_kind", ["highest", "below_straight_flush"], "highest"),
            wild_duplicates_in_flush=reader.boolean("wild_duplicates_in_flush", True),
            freak_bottom=reader.choice("freak_bottom", ["no_wild", "aces"], "no_wild"),
            legs_to_win=reader.integer("legs_to_win", 2, low=1, high=5),
            uncontested_scores_leg=reader.boolean("uncontested_scores_leg", True),
            tie=TieRule(reader.choice("tie", [t.value for t in TieRule], TieRule.EACH_SCORES.value)),
            forced_play=reader.boolean("forced_play", False),
            announced=dict(options),
        )
        try:
            # The registry must accept the same announcements, so the showdown sees exactly these rules.
            get_variant(variant, **options)
        except EngineError as exc:
            raise AnnouncementError(exc.message, option=exc.token or "rules") from exc
        return rules


class _Reader:
    """Typed access to the raw announcement mapping, with errors naming the option."""

    def __init__(self, options: Mapping[str, object]) -> None:
        self.options = options

    def integer(self, code: str, default: int | None, *, low: int, high: int | None = None) -> int:
        value = self.options.get(code, default)
        if value is None:
            raise AnnouncementError(f"{code} must be announced", option=code)
        if isinstance(value, bool) or not isinstance(value, int):
            raise AnnouncementError(f"{code} must be a whole number, got {value!r}", option=code)
        if value < low or (high is not None and value > high):
            span = f"{low}-{high}" if high is not None else f"at least {low}"
            raise AnnouncementError(f"{code} must be {span}, got {value}", option=code)
        return value

    def choice(self, code: str, allowed: list[str], default: str) -> str:
        value = self.options.get(code, default)
        if value not in allowed:
            raise AnnouncementError(f"{code} must be one of {', '.join(allowed)}, got {value!r}", option=code)
        return str(value)

    def boolean(self, code: str, default: bool) -> bool:
        value = self.options.get(code, default)
        if not isinstance(value, bool):
            raise AnnouncementError(f"{code} must be true or false, got {value!r}", option=code)
        return value


def _cards(code: str, value: object) -> frozenset[Card]:
    """Cards by notation; kill cards may also be named by preset ("one_eyed_jacks", "man_with_the_axe")."""
    items = value.replace(",", " ").split() if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        raise AnnouncementError(f"{code} must be a list of cards, got {value!r}", option=code)
    cards: set[Card] = set()
    for item in items:
        preset = KILL_CARD_PRESETS.get(str(item).lower()) if code == "kill_cards" else None
        try:
            cards |= preset if preset is not None else {Card.parse(str(item))}
        except EngineError as exc:
            raise AnnouncementError(f"{code}: {exc.message}", option=code) from exc
    return frozenset(cards)


def _ranks(value: object) -> frozenset[Rank]:
    items = value.split() if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        raise AnnouncementError(f"wild_ranks must be a list of ranks, got {value!r}", option="wild_ranks")
    try:
        return frozenset(Rank.parse(str(item)) for item in items)
    except EngineError as exc:
        raise AnnouncementError(f"wild_ranks: {exc.message}", option="wild_ranks") from exc
