"""One hand of a home game as a state machine: antes, the deal, betting rounds, draws, showdown, settlement."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from casino.engine.cards import Card, check_unique
from casino.engine.errors import EngineError
from casino.engine.home import errors as e
from casino.engine.home.betting import BettingRound, Move, MoveKind
from casino.engine.home.draws import Replacement, Stock, verify_discard
from casino.engine.home.errors import IllegalAction
from casino.engine.home.evaluation import rank_hands
from casino.engine.home.events import Event, EventKind
from casino.engine.home.pots import clockwise_from_button
from casino.engine.home.settle import Ranker, Settlement, settle
from casino.engine.rules.model import Rules

HAND_SIZE = 5
DECK_SIZE = 52


class Phase(StrEnum):
    BETTING = "betting"
    DRAWING = "drawing"
    SETTLED = "settled"


@dataclass
class PlayerState:
    """A player in this hand: chips behind, chips put in, cards, and how they left the hand if they did."""

    seat: int
    stack: int
    cards: list[Card] = field(default_factory=list)
    contributed: int = 0
    folded: bool = False
    dead: bool = False
    left: bool = False

    @property
    def live(self) -> bool:
        return not (self.folded or self.dead or self.left)


class HomeHand:
    """A hand from a fixed deck (top first) and the recorded reshuffles; every action is a verify/can/do triad.

    Construction posts the antes and deals (one card at a time, clockwise from the button's left), so the hand
    starts in the first betting round; it advances by itself through draws and betting rounds to settlement.

    Rulings where the sheets are silent:
    - The ante is posted in full, or all of a short stack (that player is then all-in for the hand).
    - A kill card kills its receiver the moment it is dealt, but the deal goes on in its usual rotation (cards
      are dealt face down), so the other players' cards do not depend on who was killed.
    - Acting order in every betting round and the draw: clockwise from the first live player to the button's
      left (there are no blinds). All-in players still draw. A betting round with fewer than two players able
      to bet is skipped.
    - A bet nobody called is returned to its maker when the betting round ends or the hand is won uncontested.
    - A player may leave at any moment, out of turn; it counts as a fold. Their chips stay in the pot, and a
      bet they made before leaving still has to be called or folded to.
    """

    def __init__(
        self,
        *,
        rules: Rules,
        stacks: Mapping[int, int],
        button: int,
        deck: Sequence[Card],
        reshuffles: Sequence[Sequence[Card]] = (),
        carried_pot_cents: int = 0,
        legs: Mapping[int, int] | None = None,
        ranker: Ranker | None = None,
        on_settle: Callable[[HomeHand], None] | None = None,
    ) -> None:
        _verify_start(rules, stacks, deck)
        self.rules = rules
        self.button = button
        self.carried_pot_cents = carried_pot_cents
        self.legs = dict(legs or {})
        self._ranker = ranker or _default_ranker(rules)
        self._on_settle = on_settle
        self.players = {seat: PlayerState(seat, stacks[seat]) for seat in clockwise_from_button(stacks, button)}
        self.events: list[Event] = []
        self.actions: list[str] = []  # DESIGN 9 action strings, in the order they were taken
        self.deck = tuple(deck)
        self.used_reshuffles: list[tuple[Card, ...]] = []  # the new stocks the draws actually took
        self.stock = Stock(deck, reshuffles)
        self.phase = Phase.BETTING
        self.betting_round = 0
        self.draws_done = 0
        self.draw_queue: list[int] = []
        self.round = self._new_round()
        self.settlement: Settlement | None = None
        self._post_antes()
        self._deal()
        self.round = self._new_round()
        self._advance()

    # ----- reading the state -----
    @property
    def seats(self) -> list[int]:
        """Seats dealt in, clockwise from the button's left."""
        return list(self.players)

    @property
    def live(self) -> list[int]:
        return [seat for seat, player in self.players.items() if player.live]

    @property
    def dead(self) -> list[int]:
        return [seat for seat, player in self.players.items() if player.dead]

    @property
    def pot_cents(self) -> int:
        """All chips in the middle: this hand's contributions and any pot carried from earlier hands."""
        return self.carried_pot_cents + sum(player.contributed for player in self.players.values())

    @property
    def stacks(self) -> dict[int, int]:
        return {seat: player.stack for seat, player in self.players.items()}

    @property
    def actor(self) -> int | None:
        """The seat whose turn it is to bet or draw; None once the hand is settled."""
        if self.phase is Phase.BETTING:
            return self.round.actor
        if self.phase is Phase.DRAWING:
            return self.draw_queue[0] if self.draw_queue else None
        return None

    @property
    def settled(self) -> bool:
        return self.phase is Phase.SETTLED

    # ----- betting: check, call, bet, raise, fold, all-in -----
    def verify_betting(self, seat: int, kind: MoveKind, amount: int = 0) -> Move:
        """Raise IllegalAction unless the seat may make this betting action now; return what it would do."""
        self._verify_turn(seat, Phase.BETTING)
        return self.round.resolve(seat, kind, amount, stack=self.players[seat].stack, pot_cents=self.pot_cents)

    def can_bet_action(self, seat: int, kind: MoveKind, amount: int = 0) -> bool:
        try:
            self.verify_betting(seat, kind, amount)
        except IllegalAction:
            return False
        return True

    def act(self, seat: int, kind: MoveKind, amount: int = 0) -> Event:
        """Make a betting action and return what happened (past tense)."""
        move = self.verify_betting(seat, kind, amount)
        player = self.players[seat]
        player.stack -= move.chips
        player.contributed += move.chips
        self.round.apply(move)
        if move.kind is MoveKind.FOLD:
            player.folded = True
        event = Event(_EVENT_OF_MOVE[move.kind], seat, move.chips, move.total, all_in=move.all_in)
        self.events.append(event)
        self.actions.append(_action_text(seat, kind, move))
        self._advance()
        return event

    def verify_check(self, seat: int) -> None:
        self.verify_betting(seat, MoveKind.CHECK)

    def can_check(self, seat: int) -> bool:
        return self.can_bet_action(seat, MoveKind.CHECK)

    def check(self, seat: int) -> Event:
        return self.act(seat, MoveKind.CHECK)

    def verify_call(self, seat: int) -> None:
        self.verify_betting(seat, MoveKind.CALL)

    def can_call(self, seat: int) -> bool:
        return self.can_bet_action(seat, MoveKind.CALL)

    def call(self, seat: int) -> Event:
        return self.act(seat, MoveKind.CALL)

    def verify_bet(self, seat: int, amount_cents: int) -> None:
        self.verify_betting(seat, MoveKind.BET, amount_cents)

    def can_bet(self, seat: int, amount_cents: int) -> bool:
        return self.can_bet_action(seat, MoveKind.BET, amount_cents)

    def bet(self, seat: int, amount_cents: int) -> Event:
        return self.act(seat, MoveKind.BET, amount_cents)

    def verify_raise_to(self, seat: int, total_cents: int) -> None:
        self.verify_betting(seat, MoveKind.RAISE, total_cents)

    def can_raise_to(self, seat: int, total_cents: int) -> bool:
        return self.can_bet_action(seat, MoveKind.RAISE, total_cents)

    def raise_to(self, seat: int, total_cents: int) -> Event:
        return self.act(seat, MoveKind.RAISE, total_cents)

    def verify_fold(self, seat: int) -> None:
        self.verify_betting(seat, MoveKind.FOLD)

    def can_fold(self, seat: int) -> bool:
        return self.can_bet_action(seat, MoveKind.FOLD)

    def fold(self, seat: int) -> Event:
        return self.act(seat, MoveKind.FOLD)

    def verify_all_in(self, seat: int) -> None:
        self.verify_betting(seat, MoveKind.ALLIN)

    def can_all_in(self, seat: int) -> bool:
        return self.can_bet_action(seat, MoveKind.ALLIN)

    def all_in(self, seat: int) -> Event:
        return self.act(seat, MoveKind.ALLIN)

    # ----- the draw -----
    def verify_draw(self, seat: int, discards: Sequence[Card]) -> Replacement:
        """Raise IllegalAction unless the seat may discard exactly these cards now; return the replacements."""
        self._verify_turn(seat, Phase.DRAWING)
        verify_discard(self.rules, seat, self.players[seat].cards, discards)
        return self.stock.plan(len(discards))

    def can_draw(self, seat: int, discards: Sequence[Card]) -> bool:
        try:
            self.verify_draw(seat, discards)
        except IllegalAction:
            return False
        return True

    def draw(self, seat: int, discards: Sequence[Card]) -> Event:
        """Discard and take replacements off the top of the stock (standing pat with no discards)."""
        replacement = self.verify_draw(seat, discards)
        player = self.players[seat]
        self.stock.take(replacement, discards)
        for stock in replacement.reshuffled:
            self.used_reshuffles.append(stock)
            self.events.append(Event(EventKind.STOCK_RESHUFFLED, seat, cards=stock))
        player.cards = [card for card in player.cards if card not in discards] + list(replacement.cards)
        self.draw_queue.pop(0)
        event = Event(EventKind.DREW, seat, cards=tuple(discards))
        self.events.append(event)
        self.actions.append(" ".join([str(seat), "draw", *(str(card) for card in discards)]))
        for card in replacement.cards:
            self._receive(player, card)
        self._advance()
        return event

    # ----- leaving the game -----
    def verify_leave(self, seat: int) -> None:
        if self.phase is Phase.SETTLED:
            raise IllegalAction("the hand is over", code=e.WRONG_PHASE, rule="a finished hand takes no actions")
        if seat not in self.players or self.players[seat].left:
            raise IllegalAction(f"seat {seat} is not in this hand", code=e.NOT_IN_HAND,
                                rule="only a player dealt into the hand can leave it")

    def can_leave(self, seat: int) -> bool:
        try:
            self.verify_leave(seat)
        except IllegalAction:
            return False
        return True

    def leave(self, seat: int) -> Event:
        """The player leaves the game at once, out of turn if need be; chips already in the pot stay there."""
        self.verify_leave(seat)
        self.players[seat].left = True
        self.round.remove(seat)
        if seat in self.draw_queue:
            self.draw_queue.remove(seat)
        event = Event(EventKind.LEFT, seat)
        self.events.append(event)
        self.actions.append(f"{seat} leave")
        self._advance()
        return event

    # ----- internals -----
    def _verify_turn(self, seat: int, phase: Phase) -> None:
        player = self.players.get(seat)
        if player is None or player.left:
            raise IllegalAction(f"seat {seat} is not in this hand", code=e.NOT_IN_HAND,
                                rule="only players dealt into the hand act in it")
        if player.dead:
            raise IllegalAction(f"seat {seat} was dealt a kill card and is dead", code=e.PLAYER_DEAD,
                                rule="a player dealt a kill card is dead at once: out of the hand")
        if player.folded:
            raise IllegalAction(f"seat {seat} has folded", code=e.NOT_IN_HAND, rule="a folded hand takes no part")
        if self.phase is not phase:
            raise IllegalAction(f"seat {seat} cannot act now: the hand is {self.phase.value}", code=e.WRONG_PHASE,
                                rule=f"this action belongs to the {phase.value} phase")
        if seat != self.actor:
            raise IllegalAction(f"seat {seat} acts out of turn: it is seat {self.actor}'s turn", code=e.OUT_OF_TURN,
                                rule="players act in turn, clockwise from the dealer's left")

    def _post_antes(self) -> None:
        for player in self.players.values():
            ante = min(self.rules.ante_cents or 0, player.stack)
            player.stack -= ante
            player.contributed += ante
            if ante:
                self.events.append(Event(EventKind.ANTE_POSTED, player.seat, ante, all_in=player.stack == 0))

    def _deal(self) -> None:
        for _ in range(HAND_SIZE):
            for player in self.players.values():
                card = self.stock.deal_one()
                player.cards.append(card)
                self.events.append(Event(EventKind.CARD_DEALT, player.seat, cards=(card,)))
                self._receive(player, card)

    def _receive(self, player: PlayerState, card: Card) -> None:
        if card in self.rules.kill_cards and not player.dead:
            player.dead = True
            self.round.remove(player.seat)
            if player.seat in self.draw_queue:
                self.draw_queue.remove(player.seat)
            self.events.append(Event(EventKind.PLAYER_KILLED, player.seat, cards=(card,)))

    def _new_round(self) -> BettingRound:
        live = self.live
        able = [seat for seat in live if self.players[seat].stack > 0]
        return BettingRound(
            structure=self.rules.betting,
            unit=self.rules.bet_unit(self.betting_round),
            order=live,
            active=able if len(able) > 1 else [],
            forced_play=self.rules.forced_play,
        )

    def _advance(self) -> None:
        while self.phase is not Phase.SETTLED:
            if len(self.live) <= 1:
                self._settle()
            elif self.phase is Phase.BETTING:
                if not self.round.complete:
                    return
                self._return_uncalled()
                if self.draws_done < self.rules.draw_rounds:
                    self.phase = Phase.DRAWING
                    self.draw_queue = self.live
                else:
                    self._settle()
            else:
                if self.draw_queue:
                    return
                self.draws_done += 1
                self.betting_round += 1
                self.phase = Phase.BETTING
                self.round = self._new_round()

    def _return_uncalled(self) -> None:
        contributions = sorted(((p.contributed, p.seat) for p in self.players.values()), reverse=True)
        if not contributions:
            return
        top, seat = contributions[0]
        second = contributions[1][0] if len(contributions) > 1 else 0
        player = self.players[seat]
        if top > second and player.live:
            player.stack += top - second
            player.contributed = second
            self.events.append(Event(EventKind.BET_RETURNED, seat, top - second))

    def _settle(self) -> None:
        self._return_uncalled()
        live = self.live
        result = settle(
            rules=self.rules,
            button=self.button,
            contributions={seat: p.contributed for seat, p in self.players.items()},
            hands={seat: tuple(self.players[seat].cards) for seat in live},
            carried_pot_cents=self.carried_pot_cents,
            legs=self.legs,
            ranker=self._ranker,
        )
        for seat, cents in result.payouts.items():
            self.players[seat].stack += cents
        for pot in result.pots:
            kind = EventKind.POT_AWARDED if pot.winners else EventKind.POT_CARRIED
            self.events.append(Event(kind, amount_cents=pot.amount_cents, seats=pot.winners))
        for seat in result.leg_scorers:
            self.events.append(Event(EventKind.LEG_SCORED, seat))
        if result.game_winners:
            self.events.append(Event(EventKind.GAME_WON, seats=result.game_winners))
        self.settlement = result
        self.legs = result.legs
        self.phase = Phase.SETTLED
        self.draw_queue = []
        if self._on_settle is not None:
            self._on_settle(self)


_EVENT_OF_MOVE = {
    MoveKind.CHECK: EventKind.CHECKED,
    MoveKind.CALL: EventKind.CALLED,
    MoveKind.BET: EventKind.BET,
    MoveKind.RAISE: EventKind.RAISED,
    MoveKind.FOLD: EventKind.FOLDED,
    MoveKind.ALLIN: EventKind.CALLED,
}


def _action_text(seat: int, requested: MoveKind, move: Move) -> str:
    if requested is MoveKind.ALLIN:
        return f"{seat} allin"
    if move.kind in (MoveKind.BET, MoveKind.RAISE):
        return f"{seat} {move.kind.value} {move.total}"
    return f"{seat} {move.kind.value}"


def _verify_start(rules: Rules, stacks: Mapping[int, int], deck: Sequence[Card]) -> None:
    if len(stacks) < 2:
        raise IllegalAction("a hand needs at least two players with chips", code=e.NOT_ENOUGH_PLAYERS,
                            rule="poker needs two or more players")
    if len(stacks) > rules.seat_limit:
        code, limit = rules.variant.code, rules.seat_limit
        raise IllegalAction(f"{len(stacks)} players: {code} seats at most {limit}",
                            code=e.TOO_MANY_PLAYERS, rule=f"{code}: at most {limit} players")
    stock = DECK_SIZE - HAND_SIZE * len(stacks)
    if stock < rules.discards.minimum:
        # The first to draw would find too few cards and no discards to reshuffle: the hand could not go on.
        raise IllegalAction(
            f"{len(stacks)} players leave {stock} cards, fewer than the {rules.discards.minimum} the first to draw "
            "must exchange", code=e.TOO_MANY_PLAYERS,
            rule="a mandatory draw needs enough cards in the stock for the first player to draw",
        )
    if any(stack <= 0 for stack in stacks.values()):
        raise IllegalAction("every player dealt in needs chips", code=e.NOT_ENOUGH_PLAYERS, rule="table stakes")
    if len(deck) != DECK_SIZE:
        raise IllegalAction(f"the deck has {len(deck)} cards, not {DECK_SIZE}", code=e.BAD_DECK,
                            rule="a hand is dealt from a full 52-card deck")
    try:
        check_unique(deck)
    except EngineError as exc:
        raise IllegalAction(exc.message, code=e.BAD_DECK, rule="a deck holds each card once", token=exc.token) from exc


def _default_ranker(rules: Rules) -> Ranker:
    return lambda hands: rank_hands(rules, hands)
