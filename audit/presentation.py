"""How stored audit values read to a person: fields and stored codes in words, cents as dollars, cards as symbols."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from audit import providers
from audit.hand_words import settled_words
from casino.engine.cards import Card, Rank, card_symbols
from casino.engine.hands import rank_name
from casino.engine.home.action_words import action_words
from casino.engine.money import money

CARD_CODE = re.compile(r"^(10|[2-9TJQKA])[cdhs]$", re.IGNORECASE)

# Names a person would not guess from the code; anything else is spelled out from the code itself.
FIELD_LABELS = {
    "paytable_id": "Paytable",
    "max_payout_per_seat_cents": "Payout cap per seat",
    "supervisor_approval_threshold_cents": "Approval threshold",
    "min_bet_cents": "Minimum bet",
    "max_bet_cents": "Maximum bet",
    "table_net_cents": "Table net",
    "stakes_cents": "Stakes",
    "returns_cents": "Paid out (stakes included)",
    "capped_seats": "Seats capped",
    "awaiting_approval_seats": "Seats awaiting approval",
    "is_open": "Open",
    "card_source": "Card source",
    "table_type": "Table type",
    "player_card": "Player card",
    "spec_hash": "Paytable fingerprint",
    "hit_frequency": "Hit frequency",
    "std_dev": "Standard deviation",
    "return": "Theoretical return",
    "held": "Cards held",
    "dealt": "Cards dealt",
    "rows": "Draw rows",
    "bets": "Bets",
    "seats": "Seats",
    "phase": "Phase",
    "up_to_id": "Up to event",
    # A home hand's correction names the action as the API does, counting from 0; the tablet lists them from 1.
    "index": "Action index (from 0)",
    "replaced": "Replacing",
}


def field_label(name: str) -> str:
    """ "supervisor_approval_threshold_cents" -> "Approval threshold"; unknown codes are spelled out."""
    if name in FIELD_LABELS:
        return FIELD_LABELS[name]
    words = re.sub(r"_(cents|id)$", "", name).replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else name


# Money fields without the `_cents` suffix; the home games' per-seat maps of cents among them (a void's chips
# returned, a ruling's award, a close's cash-outs and payments, a carried pot's return "to" each seat).
MONEY_FIELDS = {"bets", "bet", "amount", "stack", "returned", "awarded", "cashed_out", "paid", "to"}


# A home hand's action as recorded ("2 raise 1600"), and the one a correction replaced: shown in words; the stored
# notation stays in the event's JSON and the CSV export.
ACTION_FIELDS = {"action", "replaced"}


# A paytable analysis's figures, recorded empty when the analysis had not finished.
ANALYSIS_FIELDS = {"return", "hit_frequency", "variance", "std_dev"}


def is_money_field(name: str) -> bool:
    return name.endswith("_cents") or name in MONEY_FIELDS


def _card(text: str) -> str:
    try:
        return card_symbols(Card.parse(text))
    except ValueError:
        return text


def _ranks(code: str) -> str:
    try:
        return rank_name(Rank.parse(code), plural=True)
    except ValueError:
        return code


def _by_seat(value: list[Any]) -> str | None:
    """Cards dealt one at a time, [[seat, card], ...] (a home hand's deal and draws), read per seat in the order the
    seats got them: "seat 2: 10♣ 7♣; seat 3: 3♣"; None for any other list."""
    if not value or not all(isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and not isinstance(v[0], bool)
                            and isinstance(v[1], str) and CARD_CODE.match(v[1]) for v in value):
        return None
    seats: dict[int, list[str]] = {}
    for seat, card in value:
        seats.setdefault(seat, []).append(_card(card))
    return "; ".join(f"seat {seat}: {' '.join(cards)}" for seat, cards in seats.items())


ISO_MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})")


def _moment(text: str) -> str:
    """ISO text in the casino's zone to the second; text that only looks like a moment (month 13) stays as stored."""
    try:
        return timezone.localtime(dt.datetime.fromisoformat(text)).strftime("%Y-%m-%d %H:%M:%S")
    except (ValueError, OverflowError):
        return text


def _pots(value: list[Any]) -> str | None:
    """A home hand's pots, [{"amount_cents", "winners": [seats]}]: "$9.00 to seats 1, 3; $7.00 stays in the middle"
    (a Three Legged Race pot nobody won yet); None for a list of anything else."""
    if not all(set(pot) == {"amount_cents", "winners"} and isinstance(pot["amount_cents"], int)
               and isinstance(pot["winners"], list) for pot in value):
        return None
    parts = []
    for pot in value:
        winners = [str(seat) for seat in pot["winners"]]
        to = (f"to seat{'s' if len(winners) > 1 else ''} {', '.join(winners)}" if winners
              else "stays in the middle")
        parts.append(f"{money(pot['amount_cents'])} {to}")
    return "; ".join(parts)


def show_value(value: Any, *, name: str = "") -> str:
    """One stored JSON value as a person reads it, knowing its field name (cents fields become dollars)."""
    if value is None:
        # A paytable's analysis is a job: an event recorded before it finished has no figures yet.
        return "not yet computed" if name in ANALYSIS_FIELDS else "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and is_money_field(name):
        return money(value)
    if name == "paytable_id" and isinstance(value, int) and not isinstance(value, bool):
        # Events record the version by id; people know it by name and version. The id stays for the search.
        named = providers.paytable_name(value)
        return f"{named} (#{value})" if named else f"#{value}"
    if isinstance(value, str):
        # A table's type and card source are stored as codes; people know them by the names the screens use.
        named_code = providers.code_name(name, value)
        if named_code is not None:
            return named_code
        if name in ACTION_FIELDS:
            return action_words(value)
        if ISO_MOMENT.fullmatch(value):  # a moment stored as ISO text (a time charge's paid_until), as screens show one
            return _moment(value)
        if CARD_CODE.match(value) and "card" in name:
            return _card(value)
        if name == "wild_rank":  # the rank Freak of Nature's showdown fixed, "6": "sixes"
            return _ranks(value)
        return value.replace("_", " ") if re.fullmatch(r"[a-z]+(_[a-z]+)+", value) else value
    if isinstance(value, list):
        if value and all(isinstance(v, str) and CARD_CODE.match(v) for v in value):
            return " ".join(_card(v) for v in value)
        if value and all(isinstance(v, Mapping) for v in value):
            pots = _pots(value)
            if pots is not None:
                return pots
            # Paytable lines and the like: the event's page shows each.
            return f"{len(value)} entr{'y' if len(value) == 1 else 'ies'}"
        dealt = _by_seat(value)
        if dealt is not None:
            return dealt
        if all(isinstance(v, list) for v in value) and value:
            return "; ".join(f"{number}: {show_value(v, name=name)}" for number, v in enumerate(value, start=1))
        return ", ".join(show_value(v, name=name) for v in value) if value else "none"
    if isinstance(value, Mapping):
        # {"1": 500, "2": 500} keyed by seat: each entry keeps the field's unit (cents stay money). A named entry
        # ({"ante_cents": 100} in a game's rules) is a field of its own and has its own unit.
        parts = []
        for key, item in value.items():
            if key == "wild_rank" and item is None:
                continue  # a home hand's record names one only where the variant fixes one (Freak of Nature)
            item_name = name if str(key).isdigit() else str(key)
            key_text = field_label(str(key))
            if str(key).isdigit():
                key_text = {"bets": f"circle {key}", "chips": money(int(key))}.get(name, f"seat {key}")
            parts.append(f"{key_text}: {show_value(item, name=item_name)}")
        return "; ".join(parts) if parts else "none"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


@dataclass(frozen=True)
class Fact:
    label: str
    value: str


def facts(data: Any) -> list[Fact]:
    """The fields of a before/after value, each labelled and shown (non-dict values are one "Value" fact)."""
    if data is None:
        return []
    if not isinstance(data, Mapping):
        return [Fact("Value", show_value(data))]
    return [Fact(fact_label(str(key), data), show_value(value, name=str(key))) for key, value in data.items()]


def fact_label(name: str, data: Mapping[str, Any]) -> str:
    """A home action's amount is the chips that action put in ("raises to $16.00" may put in $12.00), not its total."""
    if name == "amount_cents" and "action" in data:
        return "Chips put in"
    return field_label(name)


def changed(before: Any, after: Any) -> Any:
    """What an event changed: the after values that differ from before (a limit change names the limit it moved
    first, not every setting of the table); all of them when there is no before to compare with."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return after
    moved = {key: value for key, value in after.items() if key not in before or before[key] != value}
    return moved or after


def summary(after: Any, *, limit: int = 160) -> str:
    """One line of what an event recorded (its after values), for lists and the CSV: a home hand's settlement in the
    words of its result, any other event as its fields."""
    settled = settled_words(after) if isinstance(after, Mapping) else None
    # A field recorded blank (no player card) says nothing on one line: "Player card: ;" only looked broken.
    fields = (f"{fact.label}: {fact.value}" for fact in facts(after) if fact.label != "Phase" and fact.value)
    text = settled or "; ".join(fields)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# A price or rate set for a game (its ante, bet sizes, time charge), shown in its event but not money that moved.
SETTINGS = frozenset({"ante_cents", "small_bet_cents", "big_bet_cents", "time_charge_cents"})
# Fields that say what an event moved, most telling first (after a named `amount_cents`): what a settlement paid
# back, the antes a hand took, what a cash-out, a top-up or a buy-in moved.
MOVED_FIELDS = ("returns_cents", "antes_cents", "cashed_out_cents", "added_cents", "buy_in_cents")
# Per-seat cents whose total is what an event moved: a void's chips given back, an award by ruling, a carried pot's
# return, a game's cash-outs.
MOVED_BY_SEAT = ("returned", "awarded", "to", "cashed_out")


def _is_limit(name: str) -> bool:
    """A bound or a price someone set (a table's maximum bet, a buy-in range, a rake's cap, an ante), not money
    that moved."""
    return ("min_" in name or "max_" in name or "_cap_" in name or name.startswith(("min", "max", "cap"))
            or name in SETTINGS)


def _cents(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _total(values: Any) -> int | None:
    """The cents of a per-seat mapping (or the pots of a hand's result that went to someone), added up."""
    if isinstance(values, Mapping):
        found = [c for c in map(_cents, values.values()) if c is not None]
    elif isinstance(values, list):  # a home hand's result: its pots, each {"amount_cents", "winners"}
        found = [c for pot in values if isinstance(pot, Mapping) and pot.get("winners")
                 for c in [_cents(pot.get("amount_cents"))] if c is not None]
    else:
        return None
    return sum(found) if found else None


def amount_cents(after: Any) -> int | None:
    """The amount an event is about, blank (None) when it moved nothing: the `amount_cents` it names (a house
    charge, the chips a home-game action put in), else the field or per-seat total that says what it moved (a
    settlement's returns, the antes, a cash-out, a void's or an award's chips, the pots a hand's result gave), else
    the largest money field it recorded that is not a limit or a price, or the sum of per-seat bets."""
    if not isinstance(after, Mapping):
        return None
    named = [_cents(after.get(name)) for name in ("amount_cents", *MOVED_FIELDS)]
    for cents in named:
        if cents is not None:
            return abs(cents) or None  # an event that says it moved nothing shows a blank, not $0.00 or its pot
    result = after.get("result")
    for total in (*(_total(after.get(name)) for name in MOVED_BY_SEAT),
                  _total(result.get("pots")) if isinstance(result, Mapping) else None):
        if total is not None:
            return abs(total) or None
    amounts = [v for k, v in after.items()
               if isinstance(v, int) and not isinstance(v, bool) and is_money_field(str(k)) and not _is_limit(str(k))]
    bets = after.get("bets")
    if isinstance(bets, Mapping):
        amounts.append(sum(v for v in bets.values() if isinstance(v, int)))
    amounts = [abs(a) for a in amounts]
    return max(amounts) if amounts else None
