"""The home-game record (DESIGN 9): read it from JSON and write a game or a hand back to it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from casino.engine.cards import Card, parse_cards
from casino.engine.errors import EngineError
from casino.engine.home.game import HomeGame
from casino.engine.home.hand import HomeHand
from casino.engine.rules.model import Rules


class RecordError(EngineError):
    """A game record that cannot be read (bad shape, cards or announcements), before any action is replayed."""

    code = "bad_record"


@dataclass(frozen=True)
class HandRecord:
    """One hand: the button, the deck top first, the reshuffled stocks and the actions in order. A hand in progress
    also says how many cards were `dealt` so far (None for a whole record: the hand is dealt all it asks for).

    A `manual` hand (physical cards) has no deck: its actions record draws by count (`3 draw 2`, `3 draw 4 ace`
    when the dealer confirmed an ace is kept), kill-card deaths (`3 killed Kd`), the hands shown
    (`3 show Qs Qd 9h 9c 5d`) and the hands mucked unshown at the showdown (`3 muck`).
    """

    button: int
    deck: tuple[Card, ...]
    reshuffles: tuple[tuple[Card, ...], ...]
    actions: tuple[str, ...]
    dealt: int | None = None
    manual: bool = False
    # What changed at the table after the hand, before the next (a table's game, not the rule sheets): players who
    # joined (seat, name, stack), chips added to stacks (negative: taken, as records written before `house` said a
    # house charge), and the house's charges (seat, cents taken: the rake of this hand, the next hand's time charge).
    joins: tuple[tuple[int, str, int], ...] = ()
    chips: tuple[tuple[int, int], ...] = ()
    house: tuple[tuple[int, int], ...] = ()

    @classmethod
    def from_dict(cls, item: Any, index: int = 0) -> HandRecord:
        """Read `hands[index]` of a record; RecordError names what is wrong."""
        if not isinstance(item, Mapping):
            raise RecordError(f"hands[{index}] must be an object")
        _known_keys(item, HAND_KEYS, f"hands[{index}]")
        button = item.get("button")
        if isinstance(button, bool) or not isinstance(button, int):
            raise RecordError(f"hands[{index}].button must be a seat number")
        manual = item.get("manual", False)
        if not isinstance(manual, bool):
            raise RecordError(f"hands[{index}].manual must be true or false")
        joins, chips, house = _after(item.get("after"), index)
        if manual:
            if any(key in item for key in ("deck", "reshuffles", "dealt")):
                raise RecordError(f"hands[{index}] is manual: it has no deck, reshuffles or dealt count")
            return cls(button, (), (), _actions(item, index), manual=True, joins=joins, chips=chips,
                       house=house)
        try:
            deck = parse_cards(_list(item, "deck"))
            reshuffles = tuple(parse_cards(stock) for stock in item.get("reshuffles", []))
        except EngineError as exc:
            raise RecordError(f"hands[{index}]: {exc.message}", token=exc.token) from exc
        actions = _actions(item, index)
        dealt = item.get("dealt")
        if dealt is not None and (isinstance(dealt, bool) or not isinstance(dealt, int) or dealt < 0):
            raise RecordError(f"hands[{index}].dealt must be a count of cards")
        return cls(button, deck, reshuffles, actions, dealt, joins=joins, chips=chips, house=house)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any]
        if self.manual:
            data = {"button": self.button, "manual": True, "actions": list(self.actions)}
        else:
            data = {"button": self.button, "deck": [str(card) for card in self.deck],
                    "reshuffles": [[str(card) for card in stock] for stock in self.reshuffles],
                    "actions": list(self.actions)}
            if self.dealt is not None:
                data["dealt"] = self.dealt
        if self.joins or self.chips or self.house:
            data["after"] = after_dict(self.joins, self.chips, self.house)
        return data


HOUSE_CHARGES = {"none": (), "rake": ("rake_basis_points", "rake_cap_cents"), "time": ("time_charge_cents",)}


@dataclass(frozen=True)
class BeforeJoin:
    """A player who sat down before the first hand at a seat its player had left (an entry of `before.joins`): their
    stack as seated (buy-in and chips added); `leave`: they got up again before the first hand, with that stack
    (`"leave": true`), so the seat's next player may sit down after them."""

    seat: int
    name: str
    stack: int
    leave: bool = False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "name": self.name, "stack_cents": self.stack}
        if self.leave:  # absent when false: the form records wrote before a join could leave again
            data["leave"] = True
        return data


@dataclass(frozen=True)
class GameRecord:
    variant: str
    rules: Rules
    players: tuple[tuple[int, str, int], ...]  # seat, name, starting stack in cents
    hands: tuple[HandRecord, ...]
    # The table's charge the game was played under ({"charge": "rake", "rake_basis_points", "rake_cap_cents"} or
    # {"charge": "time", "time_charge_cents"}); the replay needs only each hand's `after.house`, a table playing the
    # record again needs the charge. Empty: none, or a record written before it was recorded.
    house: Mapping[str, Any] = field(default_factory=dict)
    # The floor closing the game after its last hand: `floor close -- <reason>` (the carried pot back to its
    # contributors) or `floor close award <seat> -- <reason>`; None: the game ended otherwise, or is not over.
    close: str | None = None
    # The house's charges before the first hand (seat, cents taken: a time charge), out of the players' stacks as
    # seated (the record's `before.house`). Empty in records written before it: their stacks are after the charge.
    before_house: tuple[tuple[int, int], ...] = ()
    # Players who left before the first hand (the record's `before.leave`, seats), each cashed out with their stack
    # as seated: a game whose first hands were voided keeps them in its record, with their buy-in and cash-out.
    before_leave: tuple[int, ...] = ()
    # Players who sat down before the first hand at a seat of `before_leave` (the record's `before.joins`), in the
    # order they sat down at each seat: a seat its player left during hands later voided, or before any hand, taken
    # by the next; one marked `leave` got up again before the first hand and the seat's next join follows them. The
    # time charge `before.house` names for such a seat is its last newcomer's.
    before_joins: tuple[BeforeJoin, ...] = ()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """Read the JSON game record; RecordError (or AnnouncementError) names what is wrong."""
        if not isinstance(data, Mapping):
            raise RecordError("a game record is a JSON object")
        _known_keys(data, RECORD_KEYS, "the game record")
        variant = data.get("variant")
        rules_data = data.get("rules")
        if not isinstance(variant, str) or not isinstance(rules_data, Mapping):
            raise RecordError("a game record needs \"variant\" (a code) and \"rules\" (an object)")
        rules = Rules.announce(variant, rules_data)
        players = tuple(_player(item, index) for index, item in enumerate(_list(data, "players")))
        seats = [seat for seat, _, _ in players]
        if len(set(seats)) != len(seats):
            raise RecordError("two players share a seat")
        hands = tuple(HandRecord.from_dict(item, index) for index, item in enumerate(_list(data, "hands")))
        close = data.get("close")
        if close is not None and not isinstance(close, str):
            raise RecordError("\"close\" must be the floor's close line: \"floor close [award <seat>] -- <reason>\"")
        before = data.get("before")
        leave = _before_leave(before, seats)
        return cls(variant, rules, players, hands, _house(data.get("house")), close, _before(before), leave,
                   _before_joins(before, leave))


def hand_record(hand: HomeHand) -> HandRecord:
    """A hand as its record holds it: the deck it was dealt from, the reshuffles it used and its actions (and, while
    it is in progress, how many cards it has been dealt)."""
    if hand.manual:
        return HandRecord(hand.button, (), (), tuple(hand.actions), manual=True)
    dealt = None if hand.settled else hand.cards_dealt
    return HandRecord(hand.button, hand.deck, tuple(hand.used_reshuffles), tuple(hand.actions), dealt)


def export_record(game: HomeGame, names: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The game as a DESIGN 9 record: announced rules, players, and each hand's deck, reshuffles and actions."""
    names = names or {}
    record: dict[str, Any] = {
        "variant": game.rules.variant.code,
        "rules": game.rules.to_dict(),
        "players": [{"seat": seat, "name": names.get(seat, ""), "stack_cents": stack}
                    for seat, stack in sorted(game.starting_stacks.items())],
        "hands": [hand_record(hand).to_dict() for hand in game.hands],
    }
    if game.closed is not None:
        record["close"] = game.closed.line
    return record


# Every key a record or a hand may hold. Anything else is refused, not skipped: a misspelt key ("clsoe" for "close")
# once replayed with exit code 0 and a different verdict (the pot carried instead of the floor's award).
RECORD_KEYS = ("variant", "rules", "players", "hands", "close", "house", "before")
HAND_KEYS = ("button", "manual", "deck", "reshuffles", "actions", "dealt", "after")


def _known_keys(data: Mapping[str, Any], known: Sequence[str], where: str) -> None:
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        raise RecordError(f"{where} has unknown key{'s' if len(unknown) > 1 else ''} "
                          f"{', '.join(repr(key) for key in unknown)} (known: {', '.join(known)})")


def _list(data: Mapping[str, Any], key: str) -> Sequence[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise RecordError(f"\"{key}\" must be a list")
    return value


def _actions(item: Mapping[str, Any], index: int) -> tuple[str, ...]:
    actions = _list(item, "actions")
    if not all(isinstance(action, str) for action in actions):
        raise RecordError(f"hands[{index}].actions must be strings")
    return tuple(actions)


def after_dict(joins: Sequence[tuple[int, str, int]], chips: Sequence[tuple[int, int]],
               house: Sequence[tuple[int, int]] = ()) -> dict[str, Any]:
    """The `after` object of a hand record: {"joins": [{"seat", "name", "stack_cents"}], "chips": {seat: cents},
    "house": {seat: cents taken}}."""
    data: dict[str, Any] = {}
    if joins:
        data["joins"] = [{"seat": seat, "name": name, "stack_cents": stack} for seat, name, stack in joins]
    if chips:
        data["chips"] = {str(seat): cents for seat, cents in chips}
    if house:
        data["house"] = {str(seat): cents for seat, cents in house}
    return data


def _after(item: Any, index: int) -> tuple[tuple[tuple[int, str, int], ...], tuple[tuple[int, int], ...],
                                           tuple[tuple[int, int], ...]]:
    if item is None:
        return (), (), ()
    if not isinstance(item, Mapping):
        raise RecordError(f"hands[{index}].after must be an object")
    joins = tuple(_player(join, n) for n, join in enumerate(item.get("joins", [])))
    return joins, _seat_cents(item, "chips", index), _seat_cents(item, "house", index, least=1)


def _before(item: Any) -> tuple[tuple[int, int], ...]:
    """The record's `before`: {"house": {seat: cents}}, what the house took from each seat before the first hand
    (and `leave`, read by `_before_leave`)."""
    if item is None:
        return ()
    if not isinstance(item, Mapping) or set(item) - {"house", "leave", "joins"}:
        raise RecordError("\"before\" must be an object: {\"house\": {seat: cents}, \"leave\": [seat, ...], "
                          "\"joins\": [{\"seat\", \"name\", \"stack_cents\", \"leave\"?}, ...]}")
    return _seat_cents(item, "house", -1, least=1, where="before")


def _before_leave(item: Any, seats: list[int]) -> tuple[int, ...]:
    """The record's `before.leave`: the seats of players who left before the first hand, each once."""
    leave = item.get("leave", []) if isinstance(item, Mapping) else []
    if not isinstance(leave, list) or any(isinstance(seat, bool) or not isinstance(seat, int) for seat in leave):
        raise RecordError("before.leave must list seats")
    if len(set(leave)) != len(leave) or not set(leave) <= set(seats):
        raise RecordError("before.leave names each leaving player's seat once, from \"players\"")
    return tuple(leave)


def _before_joins(item: Any, leave: tuple[int, ...]) -> tuple[BeforeJoin, ...]:
    """The record's `before.joins`: players seated before the first hand at seats `before.leave` freed, in the order
    they sat down; at a seat joined more than once, each but the last got up again (`"leave": true`) before the
    next sat down."""
    joins = item.get("joins", []) if isinstance(item, Mapping) else []
    if not isinstance(joins, list):
        raise RecordError("before.joins must list players: [{\"seat\", \"name\", \"stack_cents\", \"leave\"?}, ...]")
    players: list[BeforeJoin] = []
    for index, join in enumerate(joins):
        seat, name, stack = _player(join, index)
        left = join.get("leave", False)
        if not isinstance(left, bool):
            raise RecordError(f"before.joins[{index}].leave must be true or false (true: they left before the first "
                              "hand)")
        if seat not in leave:
            raise RecordError("before.joins seats players at seats of before.leave (a seat its player left)")
        if any(earlier.seat == seat and not earlier.leave for earlier in players):
            raise RecordError(f"before.joins[{index}]: seat {seat} is taken by an earlier join that did not leave "
                              "(\"leave\": true) before the first hand")
        players.append(BeforeJoin(seat, name, stack, left))
    return tuple(players)


def _seat_cents(item: Mapping[str, Any], key: str, index: int, least: int | None = None,
                where: str = "") -> tuple[tuple[int, int], ...]:
    where = where or f"hands[{index}].after"
    data = item.get(key, {})
    if not isinstance(data, Mapping):
        raise RecordError(f"{where}.{key} must map seats to cents")
    pairs: list[tuple[int, int]] = []
    for seat, cents in data.items():
        if (not str(seat).isdigit() or isinstance(cents, bool) or not isinstance(cents, int)
                or (least is not None and cents < least)):
            wanted = "whole cents" if least is None else f"whole cents, at least {least}"
            raise RecordError(f"{where}.{key}: seat {seat!r} needs {wanted}")
        pairs.append((int(seat), cents))
    return tuple(pairs)


def _house(item: Any) -> dict[str, Any]:
    """The record's `house` (the table's charge), checked for shape; the table's own rules check the amounts."""
    if item is None:
        return {}
    if not isinstance(item, Mapping) or item.get("charge") not in HOUSE_CHARGES:
        raise RecordError(f"\"house\" must be an object with \"charge\": {' | '.join(HOUSE_CHARGES)}")
    charge = item["charge"]
    fields = HOUSE_CHARGES[charge]
    for name in fields:
        value = item.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise RecordError(f"house.{name} must be a whole number, at least 1 (charge {charge})")
    return {"charge": charge, **{name: item[name] for name in fields}} if fields else {}


def _player(item: Any, index: int) -> tuple[int, str, int]:
    if not isinstance(item, Mapping):
        raise RecordError(f"players[{index}] must be an object")
    seat, name, stack = item.get("seat"), item.get("name", ""), item.get("stack_cents")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise RecordError(f"players[{index}].seat must be a seat number")
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
        raise RecordError(f"players[{index}].stack_cents must be whole cents, at least 0")
    return seat, str(name), stack
