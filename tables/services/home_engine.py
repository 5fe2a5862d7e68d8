"""The bridge between stored home-game hands and the engine: the announced rules, the hand rebuilt from its record,
the system's cards for an `rng` table, and engine refusals as domain errors."""

from __future__ import annotations

import functools
import json
import re
import secrets
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from casino.engine.cards import ALL_CARDS, Card, parse_cards
from casino.engine.errors import EngineError
from casino.engine.home import errors as e
from casino.engine.home.awaiting import AwaitKind
from casino.engine.home.deck import no_reshuffle
from casino.engine.home.errors import IllegalAction
from casino.engine.home.hand import HomeHand
from casino.engine.home.record import HandRecord
from casino.engine.home.replay import apply_action, rebuild_hand
from casino.engine.money import money
from casino.engine.rules.model import Rules
from casino.errors import DomainError, WrongPhase
from tables.models import HomeGame, HomeGamePlayer
from tables.models import HomeHand as HandRow

# Refusals that are about the moment (whose turn, which phase), not the input: 409 rather than 400.
_WRONG_MOMENT = {e.WRONG_PHASE, e.OUT_OF_TURN, e.NO_CARD_DUE, e.GAME_OVER}
_FIELD_OF = {
    e.CARD_NOT_HELD: "cards", e.CARD_ALREADY_SEEN: "cards", e.WRONG_CARD_COUNT: "cards", e.NOT_A_KILL_CARD: "card",
    e.ACE_NOT_SHOWN: "cards", e.WRONG_DISCARD_COUNT: "cards", e.BET_BELOW_MINIMUM: "amount_cents",
    e.BET_ABOVE_LIMIT: "amount_cents", e.WRONG_BET_SIZE: "amount_cents", e.INSUFFICIENT_CHIPS: "amount_cents",
    e.NOT_IN_HAND: "seat", e.PLAYER_DEAD: "seat", e.BAD_BUTTON: "button", e.AWARD_NOT_THE_POT: "amounts",
}


@functools.lru_cache(maxsize=512)
def _announced(variant: str, rules_json: str) -> Rules:
    return Rules.announce(variant, json.loads(rules_json))


def game_rules(game: HomeGame) -> Rules:
    """The rules announced when the game opened (checked then; read back from the cache after the first time)."""
    return _announced(game.variant, json.dumps(game.rules, sort_keys=True))


def seat_map(data: dict[str, Any]) -> dict[int, int]:
    return {int(seat): int(value) for seat, value in data.items()}


def rebuild(row: HandRow, rules: Rules) -> HomeHand:
    """The engine hand from the stored record and the state it began from, waiting for what comes next."""
    with refusals():
        record = HandRecord.from_dict(row.record)
        hand = rebuild_hand(rules, replace(record, actions=()), stacks=seat_map(row.stacks_before),
                            carried_pot_cents=row.carried_before_cents, legs=seat_map(row.legs_before or {}))
        for text in record.actions:
            # A player who left between hands is recorded after the hand they last played (DESIGN 9): the game,
            # not the finished hand, takes that leave.
            if not (hand.settled and text.rstrip().endswith(" leave")):
                apply_action(hand, text)
        return hand


def remember(row: HandRow, hand: HomeHand, players: Mapping[int, HomeGamePlayer]) -> None:
    """Keep on the row the engine hand a write just stored, with the seats' names, so the answer to that request
    (`hand_view`) reads them instead of rebuilding the hand from its record and querying the names again."""
    row._built = (row.version, hand, {seat: player.name for seat, player in players.items()})  # type: ignore[attr-defined]


def remembered(row: HandRow) -> tuple[HomeHand, dict[int, str]] | None:
    """The engine hand and names `remember` kept for this very version of the row, if any."""
    built = getattr(row, "_built", None)
    if built is None or built[0] != row.version:
        return None
    return built[1], built[2]


# Engine hands this process answered with, by hand id, at the version it stored: the next write to the hand (its lock
# bumps the version by one) takes it instead of rebuilding the hand from the record. A write that fails drops it
# (it was taken out), and any other write in between leaves a version that no longer matches.
# A hand is known by its id and when it started (ids come back after a rolled-back test or a flushed database).
_KEPT: OrderedDict[tuple[int, object], tuple[int, HomeHand]] = OrderedDict()
_KEPT_HANDS = 512


def keep_built(row: HandRow) -> None:
    """After the answer to a write is built: keep its engine hand for the hand's next write in this process."""
    built = remembered(row)
    if built is None or row.status != HandRow.Status.IN_PLAY:
        return
    key = (row.pk, row.started_at)
    _KEPT[key] = (row.version, built[0])
    _KEPT.move_to_end(key)
    while len(_KEPT) > _KEPT_HANDS:
        _KEPT.popitem(last=False)


def rebuild_for_write(row: HandRow, rules: Rules) -> HomeHand:
    """The locked hand's engine state: the one kept at the version before the lock's bump, else rebuilt."""
    kept = _KEPT.pop((row.pk, row.started_at), None)
    if kept is not None and kept[0] == row.version - 1 and kept[1].rules == rules:
        return kept[1]
    return rebuild(row, rules)


def shuffled_deck() -> list[Card]:
    """A deck shuffled by the operating system's randomness (DESIGN 5: `secrets.SystemRandom`)."""
    deck = list(ALL_CARDS)
    secrets.SystemRandom().shuffle(deck)
    return deck


def given_stocks(stocks: Any) -> list[list[str]]:
    """Stocks (a deck, reshuffles) given as lists of card codes, read and written canonically."""
    with refusals():
        return [[str(card) for card in parse_cards(stock, unique=True)] for stock in stocks]


def deal_from_stock(hand: HomeHand, planned: list[list[str]] | None = None, limit: int | None = None, *,
                    closed: bool = False) -> list[tuple[int, str]]:
    """A hand dealt by the system: deal every card it awaits off its recorded deck (or the last reshuffled stock);
    when the stock runs out, the next `planned` stock, or else the discards shuffled by the system (refused when the
    plan is `closed`: a record standing in for the shoe, which holds every stock); at most `limit` cards in all (a
    shoe's hand played again: only the cards the shoe reported). Returns (seat, card) as dealt."""
    dealt: list[tuple[int, str]] = []
    while True:
        awaiting = hand.awaiting
        if limit is not None and hand.cards_dealt >= limit:
            return dealt
        if awaiting.kind is AwaitKind.CARD and awaiting.seat is not None:
            reshuffles = hand.used_reshuffles
            current: Sequence[Card] = reshuffles[-1] if reshuffles else hand.deck
            card = next(card for card in current if card in hand.stock.candidates)
            hand.deal_card(card)
            dealt.append((awaiting.seat, str(card)))
        elif awaiting.kind is AwaitKind.RESHUFFLE:
            used = len(hand.used_reshuffles)
            if planned and used < len(planned):
                new_stock = list(parse_cards(planned[used]))
            elif closed:
                raise no_reshuffle()
            else:
                new_stock = list(hand.muck)
                secrets.SystemRandom().shuffle(new_stock)
            hand.reshuffle(new_stock)
        else:
            return dealt


# The engine words a refused amount in cents ("bet 300 is above the fixed limit of 200"); people and the API's other
# refusals say dollars. Its codes that carry amounts, and every number in them but a seat's (or a count of players).
_AMOUNT_CODES = frozenset({e.BET_ALREADY_MADE, e.BET_ABOVE_LIMIT, e.BET_BELOW_MINIMUM, e.INSUFFICIENT_CHIPS,
                           e.AWARD_NOT_THE_POT})
_AMOUNT = re.compile(r"(?<![\w$+-])(?<!seat )([+-]?\d+)(?: cents)?\b")


def refusal_words(exc: IllegalAction) -> str:
    """An engine refusal as people read it: its amounts in dollars ("bet $3.00 is above the fixed limit of $2.00");
    the engine itself, its codes and the API's fields stay in cents."""
    if exc.code not in _AMOUNT_CODES:
        return exc.message
    return _AMOUNT.sub(lambda found: money(int(found.group(1))), exc.message)


@contextmanager
def refusals() -> Iterator[None]:
    """Engine refusals as domain errors: the moment (turn, phase) is 409, the input 400; the rule is in the message."""
    try:
        yield
    except IllegalAction as exc:
        cls = WrongPhase if exc.code in _WRONG_MOMENT else DomainError
        error = cls(f"{refusal_words(exc)} (rule: {exc.rule})", code=exc.code, field=_FIELD_OF.get(exc.code))
        error.rule = exc.rule  # type: ignore[attr-defined]  # play_game names the rule broken
        error.reason = exc.message  # type: ignore[attr-defined]  # and words it as replay_game does
        raise error from exc
    except ValueError as exc:
        if isinstance(exc, EngineError):
            raise DomainError(exc.message, code=exc.code, field="cards" if exc.token else None) from exc
        raise DomainError(str(exc), code="bad_action", field="action") from exc
