"""The draw: how many cards each variant lets a player discard, checked, and told to the player to draw."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from casino.engine.cards import Card, Rank
from casino.engine.home import errors as e
from casino.engine.home.errors import IllegalAction
from casino.engine.rules.model import DiscardRule, Rules
from casino.engine.variants import PREGNANT_THREES, THREE_LEGGED_RACE


def verify_discard(rules: Rules, seat: int, held: Sequence[Card], discards: Sequence[Card]) -> None:
    """Raise IllegalAction unless `discards` are distinct cards the seat holds, as many as the variant allows."""
    seen: set[Card] = set()
    for card in discards:
        if card not in held or card in seen:
            raise IllegalAction(f"seat {seat} does not hold {card} to discard", code=e.CARD_NOT_HELD,
                                rule="a player discards only cards from their own hand, each once", token=str(card))
        seen.add(card)
    keeps_ace = any(card.rank is Rank.ACE for card in held if card not in seen)
    verify_discard_count(rules, seat, len(discards), keeps_ace=keeps_ace)


def verify_discard_count(rules: Rules, seat: int, count: int, *, keeps_ace: bool) -> None:
    """Raise IllegalAction unless the variant lets a player exchange `count` cards (keeping an ace or not)."""
    rule = rules.discards
    if rule.allows(count, keeps_ace=keeps_ace):
        return
    if rules.variant.code == PREGNANT_THREES:
        wanted = rule.maximum
        if rule.mandatory:
            raise IllegalAction(
                f"seat {seat} discards {count}: this draw is mandatory, exactly {wanted}", code=e.WRONG_DISCARD_COUNT,
                rule=f"mandatory draw: each player must exchange exactly {wanted} cards, even breaking up wild cards",
            )
        raise IllegalAction(f"seat {seat} discards {count}: at most {wanted} at this draw",
                            code=e.WRONG_DISCARD_COUNT, rule=f"optional draw: 0 up to {wanted} cards")
    if rules.variant.code == THREE_LEGGED_RACE:
        raise IllegalAction(
            f"seat {seat} discards {count}: Three Legged Race needs exactly three", code=e.WRONG_DISCARD_COUNT,
            rule="Three Legged Race: every player still in the hand shall discard exactly three cards, "
            "no more and no fewer; no player may stand pat",
        )
    raise IllegalAction(
        f"seat {seat} discards {count}: at most {rule.maximum} ({rule.maximum_keeping_ace} when keeping an ace)",
        code=e.WRONG_DISCARD_COUNT,
        rule=f"five-card draw: at most {rule.maximum} cards, {rule.maximum_keeping_ace} when keeping an ace",
    )


@dataclass(frozen=True)
class DrawChoice:
    """How many cards `seat` may exchange at draw `number` of `draws`: the variant's rule, within what the stock
    and the reshuffled discards can still serve (`available`)."""

    seat: int
    number: int
    draws: int
    rule: DiscardRule
    available: int

    @property
    def minimum(self) -> int:
        return self.rule.minimum

    @property
    def maximum(self) -> int:
        return min(self.rule.maximum, self.available)

    @property
    def maximum_keeping_ace(self) -> int:
        return min(self.rule.maximum_keeping_ace, self.available)

    def __str__(self) -> str:
        if self.rule.mandatory:
            return f"Discard exactly {self.minimum} cards"
        text = f"Stand pat or discard up to {self.maximum} cards"
        if self.maximum_keeping_ace > self.maximum:
            text += f" ({self.maximum_keeping_ace} keeping an ace)"
        return text

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "draw": self.number, "draws": self.draws, "minimum": self.minimum,
                "maximum": self.maximum, "maximum_keeping_ace": self.maximum_keeping_ace,
                "mandatory": self.rule.mandatory, "text": str(self)}
