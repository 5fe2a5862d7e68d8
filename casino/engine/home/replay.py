"""Replaying home-game records through the state machine: a whole game (DESIGN 9 output), or one hand rebuilt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casino.engine.cards import Card, parse_cards
from casino.engine.errors import EngineError
from casino.engine.home.awaiting import AwaitKind
from casino.engine.home.betting import MoveKind
from casino.engine.home.errors import IllegalAction
from casino.engine.home.game import HomeGame
from casino.engine.home.hand import HomeHand, Phase
from casino.engine.home.house import rake_due, time_due, verify_house
from casino.engine.home.record import GameRecord, HandRecord
from casino.engine.home.settle import Ranker
from casino.engine.rules.model import Rules

_GRAMMAR = ("an action is \"<seat> check | call | fold | bet <cents> | raise <total-cents> | allin | "
            "draw <discarded cards> | leave\" or the floor's ruling \"floor award <seat> <cents> ... -- <reason>\"")
_RULING_GRAMMAR = "the floor's ruling is \"floor award <seat> <cents> [<seat> <cents> ...] -- <reason>\""
_CLOSE_GRAMMAR = "the floor's close is \"floor close -- <reason>\" or \"floor close award <seat> -- <reason>\""
_MANUAL_GRAMMAR = ("an action of a manual hand is \"dealt\" or \"<seat> check | call | fold | bet <cents> | "
                   "raise <total-cents> | allin | draw <count> [ace] | killed <kill card> | show <five cards> | "
                   "muck | leave\"")
# A manual record may mark the end of the deal with "dealt"; without it the deal ends at the first action that is not
# a kill-card death or a player leaving (the deal's kills are recorded first).
_DURING_THE_DEAL = ("killed", "leave")
_AMOUNT_VERBS = {"bet": MoveKind.BET, "raise": MoveKind.RAISE}
_PLAIN_VERBS = {"check": MoveKind.CHECK, "call": MoveKind.CALL, "fold": MoveKind.FOLD, "allin": MoveKind.ALLIN}


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


def parse_action(text: str, *, manual: bool = False) -> tuple[int, str, list[str]]:
    """Split "<seat> <verb> [arguments]"; ValueError when it is not of that form."""
    parts = text.split()
    if len(parts) < 2 or not parts[0].isdigit():
        raise ValueError(_MANUAL_GRAMMAR if manual else _GRAMMAR)
    return int(parts[0]), parts[1].lower(), parts[2:]


def apply_action(hand: HomeHand, text: str, *, game: HomeGame | None = None) -> None:
    """Apply one action string to the hand in progress (a leave goes through `game` when given, so the game
    forgets the player's legs); IllegalAction or ValueError when it is refused.

    A dealt hand's draw names the discarded cards (`3 draw 4c 9h`); a manual hand's gives the count, with `ace`
    when the dealer confirmed an ace is kept (`3 draw 4 ace`), and adds `dealt` (the end of the deal),
    `3 killed Kd`, `3 show Qs Qd 9h 9c 5d` and `3 muck` (a hand thrown away unshown at the showdown).
    """
    if hand.manual and text.strip().lower() == "dealt":
        hand.close_deal()
        return
    if is_ruling(text):
        awards, reason = parse_award(text)
        hand.award(awards, reason)
        return
    seat, verb, args = parse_action(text, manual=hand.manual)
    if hand.manual and hand.phase is Phase.DEALING and verb not in _DURING_THE_DEAL:
        hand.close_deal()
    if verb in _PLAIN_VERBS and not args:
        hand.act(seat, _PLAIN_VERBS[verb])
    elif verb in _AMOUNT_VERBS and len(args) == 1 and args[0].isdigit():
        hand.act(seat, _AMOUNT_VERBS[verb], int(args[0]))
    elif verb == "draw" and hand.manual:
        count, keeps_ace = _count(args)
        hand.draw_unseen(seat, count, keeps_ace=keeps_ace)
    elif verb == "draw":
        hand.draw(seat, parse_cards(args, unique=False))
    elif verb == "killed" and hand.manual and len(args) == 1:
        hand.kill(seat, Card.parse(args[0]))
    elif verb == "show" and hand.manual:
        hand.show(seat, parse_cards(args, unique=False))
    elif verb == "muck" and not args:  # a dealt hand's muck is refused by the hand, naming why
        hand.concede(seat)
    elif verb == "leave" and not args:
        if game is not None:
            game.leave(seat)
        else:
            hand.leave(seat)
    else:
        raise ValueError(_MANUAL_GRAMMAR if hand.manual else _GRAMMAR)


def is_ruling(text: str) -> bool:
    """A line of the floor's ruling ("floor award ..."), not a player's action."""
    return text.lstrip().lower().startswith("floor ")


def parse_award(text: str) -> tuple[dict[int, int], str]:
    """`floor award 3 600 5 600 -- <reason>` as ({3: 600, 5: 600}, reason); ValueError when it is not of that form."""
    head, separator, reason = text.strip().partition(" -- ")
    parts = head.split()
    if len(parts) > 1 and parts[1].lower() == "close":
        raise ValueError(f"the floor closes the game in the record's \"close\", after the last hand: {_CLOSE_GRAMMAR}")
    numbers = parts[2:]
    if (len(parts) < 4 or [word.lower() for word in parts[:2]] != ["floor", "award"] or len(numbers) % 2
            or not all(number.isdigit() for number in numbers) or not separator):
        raise ValueError(_RULING_GRAMMAR)
    awards: dict[int, int] = {}
    for seat, cents in zip(numbers[::2], numbers[1::2], strict=True):
        if int(seat) in awards:
            raise ValueError(f"seat {seat} is awarded twice: {_RULING_GRAMMAR}")
        awards[int(seat)] = int(cents)
    return awards, reason.strip()


def is_close(text: str) -> bool:
    """The floor's close of the game (the record's `close` line)."""
    return text.lstrip().lower().startswith("floor close")


def parse_close(text: str) -> tuple[int | None, str]:
    """`floor close -- <reason>` as (None, reason), `floor close award 3 -- <reason>` as (3, reason); ValueError when
    it is not of that form (the reason may be empty here: the game's close refuses it, naming the rule)."""
    head, separator, reason = f"{text.strip()} ".partition(" -- ")
    parts = [word.lower() for word in head.split()]
    if not separator or parts[:2] != ["floor", "close"]:
        raise ValueError(_CLOSE_GRAMMAR)
    if len(parts) == 2:
        return None, reason.strip()
    if len(parts) == 4 and parts[2] == "award" and parts[3].isdigit():
        return int(parts[3]), reason.strip()
    raise ValueError(_CLOSE_GRAMMAR)


def _count(args: list[str]) -> tuple[int, bool]:
    """A manual draw's arguments: nothing (standing pat), a count, or a count and `ace`."""
    if not args:
        return 0, False
    if args[0].isdigit() and (len(args) == 1 or (len(args) == 2 and args[1].lower() == "ace")):
        return int(args[0]), len(args) == 2
    raise ValueError(_MANUAL_GRAMMAR)


def rebuild_hand(
    rules: Rules,
    record: HandRecord,
    *,
    stacks: Mapping[int, int],
    carried_pot_cents: int = 0,
    legs: Mapping[int, int] | None = None,
) -> HomeHand:
    """A hand rebuilt from its stored record, finished or in progress: the record's cards (`record.dealt` of them
    for a hand in progress) and reshuffles are fed as the hand asks for them, between its actions. The hand then
    waits for whatever comes next (the next card live, a player's action, ...). IllegalAction or ValueError if the
    record is not a legal hand."""
    hand = HomeHand(rules=rules, stacks=stacks, button=record.button, deck=None if record.manual else record.deck,
                    reshuffles=record.reshuffles, dealt_so_far=record.dealt, manual=record.manual,
                    carried_pot_cents=carried_pot_cents, legs=legs)
    for text in record.actions:
        apply_action(hand, text)
    return hand


def replay(record: GameRecord, *, ranker: Ranker | None = None) -> dict[str, Any]:
    """Replay every hand; return the DESIGN 9 output, or raise ReplayError at the first illegal action."""
    return replay_on(HomeGame(record.rules, {seat: stack for seat, _, stack in record.players}, ranker=ranker), record)


def replay_on(game: HomeGame, record: GameRecord) -> dict[str, Any]:
    """`replay` on `game`, a new game of the record's rules and players (a caller reading more than the output
    passes its own: casino.engine.home.buy_ins watches its stacks)."""
    try:
        # The house's charges before the first hand (a time charge), as the announced charge takes them; at a seat
        # taken again before it (`before.joins`), from the newcomer, once seated.
        joined = {join.seat for join in record.before_joins}
        charges = [[(seat, cents) for seat, cents in record.before_house if (seat in joined) == late]
                   for late in (False, True)]
        _verify_time_charges(record.house, dict(charges[0]), game)
        for seat, cents in charges[0]:
            game.adjust(seat, -cents)
        for seat in record.before_leave:  # cashed out before the first hand (a game whose first hands were voided)
            game.leave(seat)
        for join in record.before_joins:  # in the order they sat down; one who got up again before the next
            game.join(join.seat, join.stack)
            if join.leave:
                game.leave(join.seat)
        _verify_time_charges(record.house, dict(charges[1]), game)
        for seat, cents in charges[1]:
            game.adjust(seat, -cents)
    except IllegalAction as exc:
        raise ReplayError(f"before the first hand: {exc.message}", code=exc.code, rule=exc.rule, hand=0, index=-1,
                          action="before", reason=exc.message) from exc
    out_hands: list[dict[str, Any]] = []
    for number, hand_record in enumerate(record.hands):
        try:
            if hand_record.manual:
                hand = game.start_hand(button=hand_record.button, manual=True)
            else:
                hand = game.start_hand(button=hand_record.button, deck=hand_record.deck,
                                       reshuffles=hand_record.reshuffles)
        except IllegalAction as exc:
            raise ReplayError(f"hand {number}: {exc.message}", code=exc.code, rule=exc.rule, hand=number, index=-1,
                              action="start", reason=exc.message) from exc
        leaves: list[tuple[int, str]] = []  # players who left after the hand: with its `after`, in order
        for index, text in enumerate(hand_record.actions):
            try:
                if hand.settled and not text.rstrip().endswith(" leave"):
                    raise IllegalAction("the hand is already settled", code="hand_over",
                                        rule="no action follows the end of a hand")
                if hand.settled:
                    if parse_action(text)[1:] != ("leave", []):
                        raise ValueError(_GRAMMAR)
                    leaves.append((index, text))
                    continue
                apply_action(hand, text, game=game)
            except IllegalAction as exc:
                raise ReplayError(f"hand {number}, action {index} ({text!r}): {exc.message}", code=exc.code,
                                  rule=exc.rule, hand=number, index=index, action=text, reason=exc.message) from exc
            except (ValueError, EngineError) as exc:
                message = exc.message if isinstance(exc, EngineError) else str(exc)
                raise ReplayError(f"hand {number}, action {index} ({text!r}): {message}", code="bad_action",
                                  rule="actions follow DESIGN 9", hand=number, index=index, action=text,
                                  reason=message) from exc
        if hand.settled:
            _apply_after(game, hand_record, number, house=record.house, last=number == len(record.hands) - 1,
                         leaves=leaves)
        if not hand.settled:
            awaiting = hand.awaiting
            waits = "show" if awaiting.kind is AwaitKind.SHOW else "act"
            raise ReplayError(
                f"hand {number} ends unfinished: seat {awaiting.seat} is still to {waits} ({hand.phase.value})",
                code="hand_unfinished", rule="every recorded hand is played to its end", hand=number,
                index=len(hand_record.actions), action="",
            )
        out_hands.append(hand_summary(hand))
    if record.close is not None:
        _close(game, record.close, len(record.hands))
    result: dict[str, Any] = {
        "hands": out_hands,
        "stacks": {str(seat): stack for seat, stack in sorted(game.stacks.items())},
        "carried_pot_cents": game.carried_pot_cents,
        "game_winner": game.game_winners[0] if game.game_winners else None,
        "game_winners": list(game.game_winners),
    }
    if game.former:
        # Players who left a seat someone else then took: what each went home with (their stack as they left, and
        # their own chips in a carried pot the floor's close gave back). `stacks` is each seat's present player.
        result["earlier"] = [{"seat": former.seat, "occupant": former.occupant, "stack_cents": former.stack}
                             for former in sorted(game.former, key=lambda former: (former.seat, former.occupant))]
    if game.closed is not None:
        result["close"] = game.closed.to_dict()
    return result


def _close(game: HomeGame, text: str, number: int) -> None:
    """The record's `close`: the floor closes the game after its last hand (named as hand `number`, the count of
    hands, index 0)."""
    try:
        award_seat, reason = parse_close(text)
        game.close(reason, award_seat)
    except IllegalAction as exc:
        raise ReplayError(f"close ({text!r}): {exc.message}", code=exc.code, rule=exc.rule, hand=number, index=0,
                          action=text, reason=exc.message) from exc
    except ValueError as exc:
        raise ReplayError(f"close ({text!r}): {exc}", code="bad_action", rule="the close follows DESIGN 9",
                          hand=number, index=0, action=text, reason=str(exc)) from exc


def _apply_after(game: HomeGame, record: HandRecord, number: int, *, house: Mapping[str, Any] | None = None,
                 last: bool = False, leaves: Sequence[tuple[int, str]] = ()) -> None:
    """What happened at the table after the hand, in the order it happened: the rake of the hand (from its winners),
    chips added by the players still seated from the hand, the players who left (`leaves`: the hand's actions after
    its end), players who joined and chips they added, and the time charge before the next hand (the record's
    `after`). A seat its player left and a newcomer took between the same two hands is the one who left's for the
    rake and the chips before the leave, and the newcomer's after it (a newcomer's chips there are in their join's
    stack); a seat newcomers take in turn has each one's leave before the next one's join. When the record says the
    table's charge (`house`), the charges must be what it takes: the rake of this hand, or the time charge before the
    next (none after the last hand)."""
    house = house or {}
    joined = {seat for seat, _, _ in record.joins}
    # A leave of a seat nobody sits at yet is a newcomer's who joined after the hand and left before the next: it
    # follows their join (and the chips they added), where the others precede the joins.
    seated = {seat for seat in game.stacks if seat not in game.departed}
    early: list[tuple[int, str]] = []
    late: list[tuple[int, str]] = []
    for position, text in leaves:
        seat = parse_action(text)[0]
        (early if seat in seated else late).append((position, text))
        seated.discard(seat)
    leaves = early
    left = {parse_action(text)[0] for _, text in leaves}
    index = len(record.actions)
    try:
        taken = list(record.house)
        if house.get("charge") == "rake":
            due = rake_due(game.hands[-1], house["rake_basis_points"], house["rake_cap_cents"], game.stacks)
            verify_house(house, dict(record.house), due, what="rake")
            for seat, cents in taken:
                game.adjust(seat, -cents)
            taken = []
        for seat, cents in record.chips:
            if seat not in joined or seat in left:
                game.adjust(seat, cents)
        for position, text in leaves:
            index = position  # a refused leave is named as the action it is
            apply_action(game.hands[-1], text, game=game)
        index = len(record.actions)
        topped: set[int] = set()
        for seat, _, stack in record.joins:
            if seat in game.stacks and seat not in game.departed:
                # A seat a newcomer took after the hand and left again before the next newcomer sat down: their
                # leave (the seat's next among the late ones) comes first.
                for late_leave in late:
                    if parse_action(late_leave[1])[0] == seat:
                        late.remove(late_leave)
                        index = late_leave[0]
                        apply_action(game.hands[-1], late_leave[1], game=game)
                        index = len(record.actions)
                        break
            game.join(seat, stack)
            if seat not in topped and seat not in left:
                # The seat's `chips` are its first newcomer's (the next ones' are in their joins' stacks).
                topped.add(seat)
                for chipped, cents in record.chips:
                    if chipped == seat:
                        game.adjust(seat, cents)
        for position, text in late:
            index = position
            apply_action(game.hands[-1], text, game=game)
        index = len(record.actions)
        if house.get("charge") == "time":
            if last and record.house:
                verify_house(house, dict(record.house), {}, what="time charge after the last hand")
            _verify_time_charges(house, dict(record.house), game)
        for seat, cents in taken:
            game.adjust(seat, -cents)
    except IllegalAction as exc:
        where, action = (f"action {index} ({record.actions[index]!r})", record.actions[index]) \
            if index < len(record.actions) else ("after", "after")
        raise ReplayError(f"hand {number}, {where}: {exc.message}", code=exc.code, rule=exc.rule, hand=number,
                          index=index, action=action, reason=exc.message) from exc


def _verify_time_charges(house: Mapping[str, Any], recorded: Mapping[int, int], game: HomeGame) -> None:
    """Time charges the record says the house took before a hand (it says which seats were due): each the announced
    amount, at most the seat's stack; a table without a time charge takes none (a record without `house`: unchecked)."""
    if not house or not recorded:
        return
    if house.get("charge") != "time":
        verify_house(house, recorded, {}, what="time charge")
        return
    due = {seat: 0 if seat in game.departed else time_due(house["time_charge_cents"], game.stacks.get(seat, 0))
           for seat in recorded}
    verify_house(house, recorded, due, what="time charge")


def hand_summary(hand: HomeHand) -> dict[str, Any]:
    """One settled hand as DESIGN 9 prints it (and, for a pot awarded by the floor's ruling, the ruling)."""
    result = hand.settlement
    assert result is not None  # only settled hands are summarised
    summary: dict[str, Any] = {
        "wild_rank": result.wild_rank.code if result.wild_rank is not None else None,
        "dead": sorted(hand.dead),
        "pots": [{"amount_cents": pot.amount_cents, "winners": list(pot.winners)} for pot in result.pots],
        # A player who leaves loses their legs (DESIGN 7).
        "legs": {str(seat): 0 if seat in hand.players and hand.players[seat].left else legs
                 for seat, legs in sorted(result.legs.items())},
    }
    if result.by_ruling:
        summary["ruling"] = {"awarded": {str(seat): cents for seat, cents in result.payouts.items()},
                             "reason": result.ruling}
    return summary
