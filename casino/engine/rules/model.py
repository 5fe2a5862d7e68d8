"""The one model of a game's announced rules (DESIGN 7, 9): read from the `rules` object, checked, written back.

Evaluation and the showdown, the home-game hand and game, the game record and (through them) the tables and screens
all read the same `Rules`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from casino.engine.cards import Card, Rank
from casino.engine.errors import AnnouncementError, RulesError
from casino.engine.hands import HandOptions, WildSpec, rank_name
from casino.engine.rules.options import (
    FREAK_RANKS,
    Betting,
    DrawMode,
    JsonValue,
    OptionKind,
    OptionSpec,
    TieRule,
    option_specs,
    sorted_cards,
)
from casino.engine.variants import HOME_VARIANTS, PREGNANT_THREES, THREE_LEGGED_RACE, Variant, find_variant

# Three Legged Race: "Every player still in the hand shall discard exactly three cards, no more and no fewer".
THREE_LEGGED_RACE_DISCARD = 3


@dataclass(frozen=True)
class DiscardRule:
    """How many cards a player exchanges at each draw: `minimum` to `maximum`, or up to `maximum_keeping_ace`
    when the cards kept include an ace (five-card draw: "at most 3, or 4 when keeping an ace")."""

    minimum: int
    maximum: int
    maximum_keeping_ace: int

    @property
    def mandatory(self) -> bool:
        """Exactly one count is allowed and it is not zero: standing pat is refused."""
        return self.minimum == self.maximum > 0

    def allows(self, count: int, *, keeps_ace: bool) -> bool:
        return self.minimum <= count <= (self.maximum_keeping_ace if keeps_ace else self.maximum)

    def to_dict(self) -> dict[str, int | bool]:
        return {"minimum": self.minimum, "maximum": self.maximum, "maximum_keeping_ace": self.maximum_keeping_ace,
                "mandatory": self.mandatory}


@dataclass(frozen=True)
class Rules:
    """A variant with every announced option resolved (defaults filled in); build it with `parse` or `announce`.

    Options that do not apply to the variant keep their defaults and are left out of `to_dict()`. `wild_ranks` and
    `wild_cards` are the announced extras; `wild` adds the variant's own (Pregnant Threes' threes, sixes and nines).
    """

    variant: Variant
    ante_cents: int | None = None
    betting: Betting = Betting.FIXED_LIMIT
    small_bet_cents: int | None = None
    big_bet_cents: int | None = None
    min_bet_cents: int | None = None
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

    # ----- building -----
    @classmethod
    def parse(cls, variant_code: str, data: Mapping[str, object] | None = None) -> Rules:
        """The variant's rules with the options of `data` (a DESIGN 9 `rules` object) applied and the rest defaulted.

        Raises UnknownVariantError, or RulesError naming the option (`.option`) for an option that does not apply
        to the variant, a bad value, or an invalid combination. Nothing is required here: evaluating a hand needs
        no stakes. A game's announcement is checked by `announce`.
        """
        variant = find_variant(variant_code)
        data = data or {}
        specs = option_specs(variant.code)
        for code in data:
            if code not in specs:
                raise RulesError(f"option {code!r} does not apply to {variant.name}", token=code, option=code)
        values: dict[str, Any] = {code: spec.read(data.get(code, spec.default)) for code, spec in specs.items()}
        if not values:
            return cls(variant)
        values["betting"] = betting = Betting(values["betting"])
        refused = other_structure_refusals(specs, data, betting)
        if refused:
            raise refused[0]
        if betting is Betting.FIXED_LIMIT:
            values["min_bet_cents"] = None
            small, big = values["small_bet_cents"], values["big_bet_cents"]
            if small is not None and big is not None and big < small:
                # Fixed limit: the big bet after the draw is (usually twice) the small bet, never less.
                raise specs["big_bet_cents"].error(
                    f"must be at least small_bet_cents ({small}), got {big}", token=str(big)
                )
        else:
            if values["min_bet_cents"] is None:
                values["min_bet_cents"] = values["big_bet_cents"]
            values["small_bet_cents"] = values["big_bet_cents"] = None
        if "max_discard" in specs:
            _resolve_discard_with_ace(specs, data, values)
        for code, enum in (("draw", DrawMode), ("tie", TieRule)):
            if code in values:
                values[code] = enum(values[code])
        _refuse_wild_kill_cards(variant, values)
        return cls(variant, **values)

    @classmethod
    def announce(cls, variant_code: str, data: Mapping[str, object]) -> Rules:
        """A home game's announcement (DESIGN 7: "before the first card"): `parse`, and every option without a
        default must be there; AnnouncementError names the option missing or wrong."""
        if variant_code not in HOME_VARIANTS:
            raise AnnouncementError(
                f"unknown home-game variant {variant_code!r}; expected one of {', '.join(HOME_VARIANTS)}",
                option="variant",
            )
        try:
            rules = cls.parse(variant_code, data)
            missing = missing_refusals(variant_code, data, rules.betting)
            if missing:
                raise missing[0]
            rules.verify_playable()
        except RulesError as exc:
            raise AnnouncementError(exc.message, option=exc.option or "rules") from exc
        return rules

    def verify_playable(self) -> None:
        """Raise RulesError unless a hand can be dealt under these rules: the ante and the bets are announced."""
        specs = option_specs(self.variant.code)
        if not specs:
            raise RulesError(f"{self.name} is not a home game", token=self.variant.code, option="variant")
        if self.ante_cents is None:
            raise specs["ante_cents"].error(f"must be announced before the deal ({self.name})", token="ante_cents")  # noqa: S106
        stakes = ("small_bet_cents", "big_bet_cents") if self.betting is Betting.FIXED_LIMIT else ("min_bet_cents",)
        for code in stakes:
            value = getattr(self, code)
            if value is None:
                raise specs[code].error(f"must be announced for {self.betting} betting", token=code)
            if value < 1:
                raise specs[code].error(f"must be an integer at least 1, got {value}", token=str(value))

    def to_dict(self) -> dict[str, JsonValue]:
        """The DESIGN 9 `rules` object: every option of the variant by its code, defaults filled in (an option
        with no default that was not announced, such as the ante when only ranking hands, is left out)."""
        data: dict[str, JsonValue] = {}
        for code, spec in option_specs(self.variant.code).items():
            value = getattr(self, code)
            if self.betting not in spec.betting or value is None:
                continue
            if spec.kind is OptionKind.CARDS:
                data[code] = [str(card) for card in sorted_cards(value)]
            elif spec.kind is OptionKind.RANKS:
                data[code] = [rank.code for rank in sorted(value)]
            else:
                data[code] = str(value) if spec.kind is OptionKind.CHOICE else value
        return data

    # ----- what the rules mean -----
    @property
    def name(self) -> str:
        return self.variant.name

    @property
    def seat_limit(self) -> int:
        return self.variant.seat_limit

    @property
    def sliding_wild(self) -> bool:
        return self.variant.sliding_wild

    @property
    def plays_for_legs(self) -> bool:
        return self.variant.plays_for_legs

    @functools.cached_property
    def wild(self) -> WildSpec:
        """The fixed wild cards: the variant's own and the announced ones (Freak of Nature's slide comes on top)."""
        own = self.variant.wild
        return WildSpec(ranks=own.ranks | self.wild_ranks, cards=own.cards | self.wild_cards)

    @functools.cached_property
    def options(self) -> HandOptions:
        return HandOptions(five_of_a_kind=self.five_of_a_kind, wild_duplicates_in_flush=self.wild_duplicates_in_flush)

    @property
    def has_wild_cards(self) -> bool:
        return self.sliding_wild or bool(self.wild)

    @property
    def draw_is_mandatory(self) -> bool:
        return self.draw is DrawMode.MANDATORY

    @property
    def draw_rounds(self) -> int:
        """How many draws a hand has: Pregnant Threes announces 1-3, the other home games have one."""
        return self.draws if self.variant.code == PREGNANT_THREES else 1

    @property
    def discards(self) -> DiscardRule:
        """The variant's draw rule, the same at every draw of a hand."""
        if self.variant.code == THREE_LEGGED_RACE:
            return DiscardRule(THREE_LEGGED_RACE_DISCARD, THREE_LEGGED_RACE_DISCARD, THREE_LEGGED_RACE_DISCARD)
        if self.variant.code == PREGNANT_THREES:
            low = self.cards_per_draw if self.draw_is_mandatory else 0
            return DiscardRule(low, self.cards_per_draw, self.cards_per_draw)
        return DiscardRule(0, self.max_discard, self.max_discard_with_ace)

    def bet_unit(self, betting_round: int) -> int:
        """Fixed limit: the small bet before the (first) draw, the big bet after; otherwise the minimum bet."""
        if self.betting is Betting.FIXED_LIMIT:
            return (self.small_bet_cents if betting_round == 0 else self.big_bet_cents) or 0
        return self.min_bet_cents or 0


def missing_refusals(variant_code: str, data: Mapping[str, object], betting: str) -> list[RulesError]:
    """Each option a game of the variant must announce under `betting` (it has no default) that `data` leaves out."""
    name = find_variant(variant_code).name
    refusals = []
    for code, spec in option_specs(variant_code).items():
        defaulted = spec.default_from is not None and data.get(spec.default_from) is not None
        if spec.required(betting) and data.get(code) is None and not defaulted:
            # A stake of one structure says which ("for fixed_limit betting"): the floor just switched structures.
            when = f"for {betting} betting" if not spec.applies_to_all() else f"before the deal ({name})"
            refusals.append(spec.error(f"must be announced {when}", token=code))
    return refusals


def other_structure_refusals(
    specs: Mapping[str, OptionSpec], data: Mapping[str, object], betting: str
) -> list[RulesError]:
    """Each announced option of another betting structure than `betting`, refused by name.

    Refused, not dropped: the floor would never see it go (fixed limit with a minimum bet of $9.99). The one
    exception is DESIGN 7's default: under pot or no limit the big bet stands in for a minimum bet that is not
    announced."""
    refusals = []
    for code, spec in specs.items():
        if data.get(code) is None or spec.applies(betting):
            continue
        standing = [other.code for other in specs.values() if other.default_from == code and other.applies(betting)]
        if standing and all(data.get(other) is None for other in standing):
            continue
        structures = " or ".join(str(structure) for structure in spec.betting)
        note = f" (it stands in only for {standing[0]} when that is not announced)" if standing else ""
        refusals.append(spec.error(f"applies only to {structures} betting, not {betting}{note}", token=code))
    return refusals


def _refuse_wild_kill_cards(variant: Variant, values: Mapping[str, Any]) -> None:
    # A card cannot be both wild and a kill card (DESIGN 4.6): not one named wild, nor one of a wild rank, whether
    # announced (`wild_ranks`) or the variant's own (Pregnant Threes' threes, sixes and nines), nor, in Freak of
    # Nature, one of a rank the wild card may slide to (six down to deuce, aces when `freak_bottom` is aces).
    kills: frozenset[Card] = values["kill_cards"]
    if not kills:
        return
    reasons: dict[Rank, str] = {}
    if variant.sliding_wild:
        top, *below = FREAK_RANKS
        reasons[top] = f"{rank_name(top, plural=True)} are wild in {variant.name}"
        for rank in below:
            reasons[rank] = f"{rank_name(rank, plural=True)} are wild in {variant.name} when no hand holds a higher one"
        if values.get("freak_bottom") == "aces":
            reasons[Rank.ACE] = f"aces are wild in {variant.name} when no hand holds a six down to a deuce"
    for rank in values.get("wild_ranks", frozenset()):
        # The ranks are the subject, not the option: "jacks are announced wild in wild_ranks" reads right when a
        # screen names the option by its label, a plural ("the wild ranks").
        reasons[rank] = f"{rank_name(rank, plural=True)} are announced wild in wild_ranks"
    for rank in variant.wild.ranks:
        reasons[rank] = f"{rank_name(rank, plural=True)} are wild in {variant.name}"
    named: frozenset[Card] = variant.wild.cards | values.get("wild_cards", frozenset())
    for card in sorted_cards(kills):
        reason = "it is named in wild_cards" if card in named else reasons.get(card.rank)
        if reason is not None:
            raise RulesError(f"card {card} cannot be both wild and a kill card ({reason})", token=str(card),
                             option="kill_cards")


def _resolve_discard_with_ace(
    specs: Mapping[str, OptionSpec], data: Mapping[str, object], values: dict[str, Any]
) -> None:
    # DESIGN 7: at most 3, or 4 when keeping an ace; keeping an ace never allows fewer than the plain limit.
    limit = values["max_discard"]
    if "max_discard_with_ace" not in data:
        values["max_discard_with_ace"] = max(values["max_discard_with_ace"], limit)
    elif values["max_discard_with_ace"] < limit:
        raise specs["max_discard_with_ace"].error(
            f"must be at least max_discard ({limit}), got {values['max_discard_with_ace']}",
            token=str(values["max_discard_with_ace"]),
        )
