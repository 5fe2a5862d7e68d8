"""The home-game record (DESIGN 9): parse it, replay every hand through the state machine, report the result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from casino.engine.cards import Card, parse_cards
from casino.engine.errors import EngineError
from casino.engine.home.betting import MoveKind
from casino.engine.home.errors import IllegalAction
from casino.engine.home.game import HomeGame
from casino.engine.home.hand import HomeHand
from casino.engine.home.settle import Ranker
from casino.engine.rules.model import Rules


class RecordError(EngineError):
    """A game record that cannot be read (bad shape, cards or announcements), before any action is replayed."""

    code = "bad_record"


class ReplayError(EngineError):
    """An action of the record that the rules refuse; the replay stops there."""

    def __init__(self, message: str, *, code: str, rule: str, hand: int, index: int, action: str,
                 reason: str = "") -> None:
        super().__init__(message, token=action)
        self.reason = reason or message
        self.code = code
        self.rule = rule
        self.hand = hand
        self.index = index
        self.action = action

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "rule": self.rule, "hand": self.hand,
                "index": self.index, "action": self.action}


@dataclass(frozen=True)
class HandRecord:
    button: int
    deck: tuple[Card, ...]
    reshuffles: tuple[tuple[Card, ...], ...]
    actions: tuple[str, ...]


@dataclass(frozen=True)
class GameRecord:
    variant: str
    rules: Rules
    players: tuple[tuple[int, str, int], ...]  # seat, name, starting stack in cents
    hands: tuple[HandRecord, ...]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """Read the JSON game record; RecordError (or AnnouncementError) names what is wrong."""
        if not isinstance(data, Mapping):
            raise RecordError("a game record is a JSON object")
        variant = data.get("variant")
        rules_data = data.get("rules")
        if not isinstance(variant, str) or not isinstance(rules_data, Mapping):
            raise RecordError("a game record needs \"variant\" (a code) and \"rules\" (an object)")
        rules = Rules.announce(variant, rules_data)
        players = tuple(_player(item, index) for index, item in enumerate(_list(data, "players")))
        seats = [seat for seat, _, _ in players]
        if len(set(seats)) != len(seats):
            raise RecordError("two players share a seat")
        hands = tuple(_hand(item, index) for index, item in enumerate(_list(data, "hands")))
        return cls(variant, rules, players, hands)


def parse_action(text: str) -> tuple[int, str, list[str]]:
    """Split "<seat> <verb> [arguments]"; ValueError when it is not of that form."""
    parts = text.split()
    if len(parts) < 2 or not parts[0].isdigit():
        raise ValueError("an action is \"<seat> check | call | fold | bet <cents> | raise <total-cents> | allin | "
                         "draw <discarded cards> | leave\"")
    return int(parts[0]), parts[1].lower(), parts[2:]


def apply_action(game: HomeGame, hand: HomeHand, text: str) -> None:
    """Apply one action string to the hand in progress; IllegalAction or ValueError when it is refused."""
    seat, verb, args = parse_action(text)
    amount_verbs = {"bet": MoveKind.BET, "raise": MoveKind.RAISE}
    plain_verbs = {"check": MoveKind.CHECK, "call": MoveKind.CALL, "fold": MoveKind.FOLD, "allin": MoveKind.ALLIN}
    if verb in plain_verbs and not args:
        hand.act(seat, plain_verbs[verb])
    elif verb in amount_verbs and len(args) == 1 and args[0].isdigit():
        hand.act(seat, amount_verbs[verb], int(args[0]))
    elif verb == "draw":
        hand.draw(seat, parse_cards(args, unique=False))
    elif verb == "leave" and not args:
        game.leave(seat)
    else:
        parse_action("")  # raises the ValueError that describes the grammar


def replay(record: GameRecord, *, ranker: Ranker | None = None) -> dict[str, Any]:
    """Replay every hand; return the DESIGN 9 output, or raise ReplayError at the first illegal action."""
    game = HomeGame(record.rules, {seat: stack for seat, _, stack in record.players}, ranker=ranker)
    out_hands: list[dict[str, Any]] = []
    for number, hand_record in enumerate(record.hands):
        try:
            hand = game.start_hand(button=hand_record.button, deck=hand_record.deck,
                                   reshuffles=hand_record.reshuffles)
        except IllegalAction as exc:
            raise ReplayError(f"hand {number}: {exc.message}", code=exc.code, rule=exc.rule, hand=number, index=-1,
                              action="start", reason=exc.message) from exc
        for index, text in enumerate(hand_record.actions):
            try:
                if hand.settled and not text.rstrip().endswith(" leave"):
                    raise IllegalAction("the hand is already settled", code="hand_over",
                                        rule="no action follows the end of a hand")
                apply_action(game, hand, text)
            except IllegalAction as exc:
                raise ReplayError(f"hand {number}, action {index} ({text!r}): {exc.message}", code=exc.code,
                                  rule=exc.rule, hand=number, index=index, action=text, reason=exc.message) from exc
            except (ValueError, EngineError) as exc:
                message = exc.message if isinstance(exc, EngineError) else str(exc)
                raise ReplayError(f"hand {number}, action {index} ({text!r}): {message}", code="bad_action",
                                  rule="actions follow DESIGN 9", hand=number, index=index, action=text,
                                  reason=message) from exc
        if not hand.settled:
            raise ReplayError(
                f"hand {number} ends unfinished: seat {hand.actor} is still to act ({hand.phase.value})",
                code="hand_unfinished", rule="every recorded hand is played to its end", hand=number,
                index=len(hand_record.actions), action="",
            )
        out_hands.append(hand_summary(hand))
    return {
        "hands": out_hands,
        "stacks": {str(seat): stack for seat, stack in sorted(game.stacks.items())},
        "carried_pot_cents": game.carried_pot_cents,
        "game_winner": game.game_winners[0] if game.game_winners else None,
        "game_winners": list(game.game_winners),
    }


def export_record(game: HomeGame, names: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The game as a DESIGN 9 record: announced rules, players, and each hand's deck, reshuffles and actions."""
    names = names or {}
    return {
        "variant": game.rules.variant.code,
        "rules": game.rules.to_dict(),
        "players": [{"seat": seat, "name": names.get(seat, ""), "stack_cents": stack}
                    for seat, stack in sorted(game.starting_stacks.items())],
        "hands": [
            {"button": hand.button, "deck": [str(card) for card in hand.deck],
             "reshuffles": [[str(card) for card in stock] for stock in hand.used_reshuffles],
             "actions": list(hand.actions)}
            for hand in game.hands
        ],
    }


def hand_summary(hand: HomeHand) -> dict[str, Any]:
    """One settled hand as DESIGN 9 prints it."""
    result = hand.settlement
    assert result is not None  # only settled hands are summarised
    return {
        "wild_rank": result.wild_rank.code if result.wild_rank is not None else None,
        "dead": sorted(hand.dead),
        "pots": [{"amount_cents": pot.amount_cents, "winners": list(pot.winners)} for pot in result.pots],
        # A player who leaves loses their legs (DESIGN 7).
        "legs": {str(seat): 0 if seat in hand.players and hand.players[seat].left else legs
                 for seat, legs in sorted(result.legs.items())},
    }


def _list(data: Mapping[str, Any], key: str) -> Sequence[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise RecordError(f"\"{key}\" must be a list")
    return value


def _player(item: Any, index: int) -> tuple[int, str, int]:
    if not isinstance(item, Mapping):
        raise RecordError(f"players[{index}] must be an object")
    seat, name, stack = item.get("seat"), item.get("name", ""), item.get("stack_cents")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise RecordError(f"players[{index}].seat must be a seat number")
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
        raise RecordError(f"players[{index}].stack_cents must be whole cents, at least 0")
    return seat, str(name), stack


def _hand(item: Any, index: int) -> HandRecord:
    if not isinstance(item, Mapping):
        raise RecordError(f"hands[{index}] must be an object")
    button = item.get("button")
    if isinstance(button, bool) or not isinstance(button, int):
        raise RecordError(f"hands[{index}].button must be a seat number")
    try:
        deck = parse_cards(_list(item, "deck"))
        reshuffles = tuple(parse_cards(stock) for stock in item.get("reshuffles", []))
    except EngineError as exc:
        raise RecordError(f"hands[{index}]: {exc.message}", token=exc.token) from exc
    actions = _list(item, "actions")
    if not all(isinstance(action, str) for action in actions):
        raise RecordError(f"hands[{index}].actions must be strings")
    return HandRecord(button, deck, reshuffles, tuple(actions))


