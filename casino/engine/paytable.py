"""Paytables as values (DESIGN 6): lines, validation of the JSON form, line matching and payout arithmetic."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from casino.engine.cards import Card, Rank, check_unique
from casino.engine.errors import EngineError, HandSizeError
from casino.engine.pay_classes import HAND_CODES, WILD_ONLY_CODES, PayClass, pay_class

BASES: tuple[str, ...] = ("for_1", "to_1")
_LINE_KEYS = frozenset({"hand", "pays", "min_rank", "ranks"})


class PaytableError(EngineError):
    """A paytable that cannot be used: the message names the line and the problem."""

    code = "bad_paytable"


@dataclass(frozen=True)
class PaytableLineSpec:
    """One paying hand: its code, what it pays (exact), and the qualifier it may carry.

    `min_rank` qualifies `one_pair` (jacks or better: the pair's rank is at least J); `ranks` qualifies
    `four_of_a_kind` (the four are one of these ranks).
    """

    hand: str
    pays: Fraction
    min_rank: Rank | None = None
    ranks: frozenset[Rank] = frozenset()

    def matches(self, klass: PayClass) -> bool:
        """Whether a hand of this pay class can make this line."""
        if self.hand not in klass.codes:
            return False
        if self.min_rank is not None and klass.pair_rank < self.min_rank:
            return False
        return not self.ranks or any(klass.quad_ranks >> rank & 1 for rank in self.ranks)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"hand": self.hand}
        if self.min_rank is not None:
            data["min_rank"] = self.min_rank.code
        if self.ranks:
            data["ranks"] = [rank.code for rank in sorted(self.ranks, reverse=True)]
        data["pays"] = format_pays(self.pays)
        return data

    @property
    def label(self) -> str:
        """Short human text, e.g. 'one_pair J+' or 'four_of_a_kind A'."""
        if self.min_rank is not None:
            return f"{self.hand} {self.min_rank.code}+"
        if self.ranks:
            return f"{self.hand} {''.join(rank.code for rank in sorted(self.ranks, reverse=True))}"
        return self.hand


@dataclass(frozen=True)
class HandPayout:
    """How one five-card hand settles: the line it made (None: it lost) and what it returns, stake included."""

    line_index: int | None
    hand_code: str | None
    return_cents: int


@dataclass(frozen=True)
class PaytableSpec:
    """A paytable: lines ordered high to low, the first line a hand makes pays it."""

    name: str
    basis: str
    lines: tuple[PaytableLineSpec, ...]
    wild_ranks: frozenset[Rank] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        _validate(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PaytableSpec:
        """Read the DESIGN 6 JSON form; PaytableError names the first problem found."""
        if not isinstance(data, Mapping):
            raise PaytableError("a paytable must be a JSON object with 'basis' and 'lines'")
        name = data.get("name", "")
        if not isinstance(name, str):
            raise PaytableError("paytable 'name' must be text", token=str(name))
        basis = data.get("basis")
        if basis not in BASES:
            raise PaytableError(f"paytable 'basis' must be 'for_1' or 'to_1', got {basis!r}", token=str(basis))
        wild_ranks = _parse_ranks(data.get("wild_ranks", []), where="'wild_ranks'")
        raw_lines = data.get("lines")
        if not isinstance(raw_lines, list) or not raw_lines:
            raise PaytableError("paytable 'lines' must be a non-empty list of lines")
        lines = tuple(_parse_line(raw, number) for number, raw in enumerate(raw_lines, start=1))
        return cls(name=name, basis=str(basis), lines=lines, wild_ranks=wild_ranks)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "basis": self.basis}
        if self.wild_ranks:
            data["wild_ranks"] = [rank.code for rank in sorted(self.wild_ranks)]
        data["lines"] = [line.to_dict() for line in self.lines]
        return data

    def pay_class(self, cards: Sequence[Card]) -> PayClass:
        """The pay class of exactly five distinct cards under this paytable's wild ranks."""
        hand = tuple(cards)
        if len(hand) != 5:
            raise HandSizeError(f"a paytable hand has 5 cards, got {len(hand)}", token=" ".join(map(str, hand)))
        check_unique(hand)
        naturals = [card for card in hand if card.rank not in self.wild_ranks]
        return pay_class(
            [int(card.rank) for card in naturals],
            wild_count=5 - len(naturals),
            suited=len({card.suit for card in naturals}) <= 1,
        )

    def match_class(self, klass: PayClass) -> int | None:
        """Index of the first line a hand of this pay class makes, or None."""
        for index, line in enumerate(self.lines):
            if line.matches(klass):
                return index
        return None

    def match(self, cards: Sequence[Card]) -> int | None:
        """Index of the first line the five-card hand makes (wild cards substituted as best for it), or None."""
        return self.match_class(self.pay_class(cards))

    def line_return(self, index: int | None) -> Fraction:
        """What a hand paid by line `index` returns per unit bet, stake included (0 for None: a loss)."""
        if index is None:
            return Fraction(0)
        pays = self.lines[index].pays
        return pays if self.basis == "for_1" else pays + 1

    def settle_hand(self, cards: Sequence[Card], bet_cents: int) -> HandPayout:
        """Settle one hand: the line it makes and the return in cents (stake included, 0 for a loss)."""
        index = self.match(cards)
        if index is None:
            _check_bet(bet_cents)
            return HandPayout(line_index=None, hand_code=None, return_cents=0)
        line = self.lines[index]
        return HandPayout(index, line.hand, payout_cents(bet_cents, line.pays, self.basis))


def payout_cents(bet_cents: int, pays: Fraction, basis: str) -> int:
    """The return of a winning hand in cents, stake included, rounded down once:
    for_1 returns bet × pays, to_1 returns bet × (pays + 1) (pays 0 there is a push)."""
    _check_bet(bet_cents)
    if basis not in BASES:
        raise PaytableError(f"unknown basis {basis!r}", token=str(basis))
    if pays < 0:
        raise PaytableError(f"pays must not be negative, got {pays}", token=str(pays))
    factor = Fraction(pays) if basis == "for_1" else Fraction(pays) + 1
    return math.floor(bet_cents * factor)


def format_pays(pays: Fraction) -> int | str:
    """JSON form of a pays value: an integer, or 'n/d' text for a fraction."""
    return int(pays) if pays.denominator == 1 else f"{pays.numerator}/{pays.denominator}"


def pays_words(pays: object, basis: str) -> str:
    """A line's pays as people read it: "pays 9 to 1", "pays 3/2 for 1"; a line paying 0 says what that means
    (DESIGN 6): on a "to 1" table a push, the stake comes back; on a "for 1" table nothing comes back."""
    if str(pays) == "0":
        return "push (stake returned)" if basis == "to_1" else "pays nothing (stake lost)"
    return f"pays {pays} {'to' if basis == 'to_1' else 'for'} 1"


def parse_pays(value: object, *, where: str = "pays") -> Fraction:
    """Read a pays value: an integer, 'n/d' or decimal text ('3/2', '1.5'), or a JSON number."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise PaytableError(f"{where} must be a number or text like '3/2', got {value!r}", token=str(value))
    try:
        pays = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise PaytableError(f"{where} {value!r} is not a number or a fraction like '3/2'", token=str(value)) from None
    if pays < 0:
        raise PaytableError(f"{where} must not be negative, got {value!r}", token=str(value))
    return pays


def _check_bet(bet_cents: int) -> None:
    if isinstance(bet_cents, bool) or not isinstance(bet_cents, int) or bet_cents < 0:
        raise PaytableError(f"a bet is a non-negative whole number of cents, got {bet_cents!r}", token=str(bet_cents))


def _parse_ranks(value: object, *, where: str) -> frozenset[Rank]:
    if not isinstance(value, list):
        raise PaytableError(f'{where} must be a list of ranks such as ["2"]', token=str(value))
    ranks: list[Rank] = []
    for item in value:
        try:
            rank = Rank.parse(str(item))
        except EngineError:
            raise PaytableError(f"{where}: unknown rank {item!r}", token=str(item)) from None
        if rank in ranks:
            raise PaytableError(f"{where}: rank {rank.code} is listed twice", token=str(item))
        ranks.append(rank)
    return frozenset(ranks)


def _parse_line(raw: object, number: int) -> PaytableLineSpec:
    where = f"line {number}"
    if not isinstance(raw, Mapping):
        raise PaytableError(f"{where} must be an object with 'hand' and 'pays'", token=str(raw))
    unknown = sorted(set(raw) - _LINE_KEYS)
    if unknown:
        raise PaytableError(f"{where}: unknown field {unknown[0]!r}", token=str(unknown[0]))
    hand = raw.get("hand")
    if not isinstance(hand, str) or hand not in HAND_CODES:
        raise PaytableError(f"{where}: unknown hand code {hand!r}", token=str(hand))
    if "pays" not in raw:
        raise PaytableError(f"{where} ({hand}): 'pays' is missing", token=hand)
    pays = parse_pays(raw["pays"], where=f"{where} ({hand}): pays")
    min_rank: Rank | None = None
    if raw.get("min_rank") not in (None, ""):
        try:
            min_rank = Rank.parse(str(raw["min_rank"]))
        except EngineError:
            raise PaytableError(
                f"{where} ({hand}): unknown min_rank {raw['min_rank']!r}", token=str(raw["min_rank"])
            ) from None
    ranks = _parse_ranks(raw.get("ranks") or [], where=f"{where} ({hand}): ranks")
    return PaytableLineSpec(hand=hand, pays=pays, min_rank=min_rank, ranks=ranks)


def _validate(spec: PaytableSpec) -> None:
    """Checks every spec, however it was built (from_dict or directly)."""
    if spec.basis not in BASES:
        raise PaytableError(f"paytable basis must be 'for_1' or 'to_1', got {spec.basis!r}", token=str(spec.basis))
    if not spec.lines:
        raise PaytableError("a paytable needs at least one line")
    seen: set[tuple[str, Rank | None, frozenset[Rank]]] = set()
    for number, line in enumerate(spec.lines, start=1):
        where = f"line {number} ({line.hand})"
        if line.hand not in HAND_CODES:
            raise PaytableError(f"line {number}: unknown hand code {line.hand!r}", token=line.hand)
        if line.hand in WILD_ONLY_CODES and not spec.wild_ranks:
            raise PaytableError(f"{where}: {line.hand} needs wild_ranks on the paytable", token=line.hand)
        if line.pays < 0:
            raise PaytableError(f"{where}: pays must not be negative, got {line.pays}", token=str(line.pays))
        if line.min_rank is not None and line.hand != "one_pair":
            raise PaytableError(f"{where}: min_rank applies only to one_pair", token=line.hand)
        if line.ranks and line.hand != "four_of_a_kind":
            raise PaytableError(f"{where}: ranks applies only to four_of_a_kind", token=line.hand)
        key = (line.hand, line.min_rank, line.ranks)
        if key in seen:
            raise PaytableError(f"{where}: duplicate line {line.label}", token=line.hand)
        seen.add(key)
    if not any(line.pays > 0 for line in spec.lines):
        raise PaytableError("a paytable needs at least one line that pays more than 0")
