"""One hand of a home game as a state machine: antes, the deal, betting rounds, draws, showdown, settlement."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from casino.engine.cards import ALL_CARDS, Card, Rank, card_symbols
from casino.engine.home import errors as e
from casino.engine.home.awaiting import Awaiting, AwaitKind
from casino.engine.home.betting import BettingRound, Move, MoveKind
from casino.engine.home.deck import DeckFeed
from casino.engine.home.draws import DrawChoice, verify_discard, verify_discard_count
from casino.engine.home.errors import IllegalAction
from casino.engine.home.evaluation import rank_hands
from casino.engine.home.events import Event, EventKind
from casino.engine.home.legal import LegalActions, legal_actions
from casino.engine.home.pots import Pot, clockwise_from_button, pots_in_play
from casino.engine.home.result import HandResult, hand_result
from casino.engine.home.settle import AwardedPot, Ranker, Settlement, settle
from casino.engine.home.stock import DECK_SIZE, CountedStock, LiveStock
from casino.engine.rules.model import Rules

HAND_SIZE = 5


class Phase(StrEnum):
    DEALING = "dealing"
    BETTING = "betting"
    DRAWING = "drawing"
    SHOWDOWN = "showdown"  # a manual hand: the dealer records the hands shown
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
    shown: bool = False  # a manual hand: the player's cards were recorded at the showdown
    mucked: bool = False  # a manual hand: the player conceded at the showdown, hand not shown (also `folded`)
    kept_ace: bool = False  # a manual hand: the dealer confirmed a draw above the limit keeps an ace

    @property
    def live(self) -> bool:
        return not (self.folded or self.dead or self.left)


@dataclass
class _Replacing:
    """A draw whose replacement cards are still being dealt; the discards join the muck when it is done."""

    seat: int
    remaining: int
    discards: tuple[Card, ...]


class HomeHand:
    """A hand given its cards as they are dealt, or fed from a known deck; every action is a verify/can/do triad.

    Live: start it with no deck; `awaiting` says what it needs next (a card for seat N, seat N's betting action or
    draw, the reshuffled stock); `deal_card`, `reshuffle` and the player actions give it. Deck path (replay,
    simulation): give `deck` (top first) and the recorded `reshuffles`; a `DeckFeed` then deals every card the hand
    asks for, through `deal_card`'s own effect and `reshuffle`, so both paths are one state machine. A hand in progress
    rebuilt from its record also gives `dealt_so_far`: the feed stops there and the hand goes on live.

    Manual (`manual=True`, physical cards the system never sees until the showdown): the dealer records a player
    dead by a kill card dealt (`kill`, at any time), the end of the deal (`close_deal`: kills recorded before it
    count as known when the first betting round begins, as they are when the system deals), the betting, how many
    cards each player draws (`draw_unseen`, confirming an ace is kept for a draw above the limit), and at the
    showdown each hand shown (`show`) or thrown away unshown (`concede`, recorded `3 muck`); the hand decides the
    wild rank, the winners, pots and legs as for dealt cards.

    Rulings where the sheets are silent:
    - The ante is posted in full, or all of a short stack (that player is then all-in for the hand).
    - Cards are dealt one at a time, clockwise from the button's left. A kill card kills its receiver the moment it
      is dealt, but the deal goes on in its usual rotation (cards are dealt face down), so the other players' cards
      do not depend on who was killed; once at most one player is live the hand ends and no more cards are dealt.
      A draw's replacements are dealt as one packet: all go to the drawing player, even after one of them kills
      them, and only then can the hand end.
    - Acting order in every betting round and the draw: clockwise from the first live player to the button's
      left (there are no blinds). All-in players still draw. A betting round with fewer than two players able
      to bet is skipped.
    - A bet nobody called is returned to its maker when the betting round ends or the hand is won uncontested.
    - A player may leave at any moment, out of turn; it counts as a fold. Their chips stay in the pot, and a
      bet they made before leaving still has to be called or folded to. A player who leaves while their
      replacements are being dealt gets no more of them; their discards join the muck.
    """

    def __init__(
        self,
        *,
        rules: Rules,
        stacks: Mapping[int, int],
        button: int,
        deck: Sequence[Card] | None = None,
        reshuffles: Sequence[Sequence[Card]] = (),
        dealt_so_far: int | None = None,
        manual: bool = False,
        carried_pot_cents: int = 0,
        legs: Mapping[int, int] | None = None,
        ranker: Ranker | None = None,
        on_settle: Callable[[HomeHand], None] | None = None,
    ) -> None:
        _verify_start(rules, stacks)
        if manual and deck is not None:
            raise IllegalAction("a manual hand has no deck: the system never sees its cards before the showdown",
                                code=e.BAD_DECK, rule="a manual hand records counts, kill cards and shown hands")
        self.rules = rules
        self.manual = manual
        self.button = button
        self.carried_pot_cents = carried_pot_cents
        self.legs = dict(legs or {})
        self._ranker = ranker or _default_ranker(rules)
        self._on_settle = on_settle
        self.players = {seat: PlayerState(seat, stacks[seat]) for seat in clockwise_from_button(stacks, button)}
        self._order = list(self.players)
        self._live_count = len(self._order)
        self._anyone_left = False
        self._deal_seat: int | None = self._order[0]  # the next card of the deal goes here (None: deal done)
        self.events: list[Event] = []
        self.actions: list[str] = []  # DESIGN 9 action strings, in the order they were taken
        self.stock = LiveStock()  # a manual hand uses only its `seen`: the cards shown or recorded as kill cards
        self.counted = CountedStock(len(self._order), HAND_SIZE) if manual else None
        self._known: dict[Card, str] = {}  # a manual hand: where each card seen was recorded, for refusals
        self.feed = DeckFeed(deck, reshuffles, limit=dealt_so_far) if deck is not None else None
        self._deck_order: Sequence[Card] = deck if deck is not None else ALL_CARDS  # to write the record's deck
        self._dealt: list[list[Card]] = [[]]  # cards dealt from the first stock, then from each reshuffled one
        self._reshuffled: list[tuple[Card, ...]] = []  # each reshuffled stock, as given
        self.phase = Phase.DEALING
        self.betting_round = 0
        self.draws_done = 0
        self.draw_queue: list[int] = []
        self._replacing: _Replacing | None = None
        self._round_opened = False
        self.round = self._new_round()
        self.settlement: Settlement | None = None
        self._feeding = False
        self._post_antes()
        self._advance()
        self._run_feed()

    # ----- reading the state -----
    @property
    def seats(self) -> list[int]:
        """Seats dealt in, clockwise from the button's left."""
        return list(self._order)

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
    def muck(self) -> list[Card]:
        """The discards since the last reshuffle (the drawing player's own join once their replacements are dealt)."""
        return self.stock.muck

    @property
    def settled(self) -> bool:
        return self.phase is Phase.SETTLED

    @property
    def awaiting(self) -> Awaiting:
        """The input the hand needs next."""
        if self.phase is Phase.DEALING:
            if self.manual:
                return Awaiting(AwaitKind.DEAL)
            return Awaiting(AwaitKind.CARD, self._deal_seat, 1)
        if self.phase is Phase.BETTING:
            return Awaiting(AwaitKind.ACTION, self.round.actor)
        if self.phase is Phase.DRAWING:
            replacing = self._replacing
            if replacing is not None:
                kind = AwaitKind.RESHUFFLE if self.stock.count == 0 else AwaitKind.CARD
                return Awaiting(kind, replacing.seat, replacing.remaining)
            return Awaiting(AwaitKind.DRAW, self.draw_queue[0])
        if self.phase is Phase.SHOWDOWN:
            pending = tuple(seat for seat in self.live if not self.players[seat].shown)
            return Awaiting(AwaitKind.SHOW, pending[0], seats=pending)
        return Awaiting(AwaitKind.NOTHING)

    @property
    def actor(self) -> int | None:
        """The seat whose turn it is to bet or draw; None while the hand waits for cards and once it is settled."""
        awaiting = self.awaiting
        return awaiting.seat if awaiting.kind in (AwaitKind.ACTION, AwaitKind.DRAW) else None

    @property
    def pots(self) -> tuple[Pot, ...]:
        """The main pot and side pots as they stand (with any carried pot), and who can still win each: side pots
        only from all-ins, a bet not yet matched counted in the pot it goes to (`pots_in_play`). The settlement
        builds its own pots from the final contributions."""
        contributions = {seat: player.contributed for seat, player in self.players.items()}
        all_in = [seat for seat in self.live if self.players[seat].stack == 0]
        return tuple(pots_in_play(contributions, self.live, all_in, self.carried_pot_cents))

    def legal_actions(self) -> LegalActions | None:
        """The betting actions of the player to act, with their amounts; None when no betting action is due."""
        seat = self.actor
        if self.phase is not Phase.BETTING or seat is None:
            return None
        return legal_actions(self.round, seat, stack=self.players[seat].stack, pot_cents=self.pot_cents)

    def draw_choice(self) -> DrawChoice | None:
        """How many cards the player to draw may or must exchange; None when no draw is due."""
        seat = self.actor
        if self.phase is not Phase.DRAWING or seat is None:
            return None
        counted = self.counted
        available = counted.count + counted.muck_count if counted else self.stock.count + len(self.stock.muck)
        return DrawChoice(seat, self.draws_done + 1, self.rules.draw_rounds, self.rules.discards, available)

    def result(self, names: Mapping[int, str] | None = None) -> HandResult | None:
        """The settled hand in words ("Fives wild: four nines beat three queens"); None before it is settled."""
        if self.settlement is None:
            return None
        return hand_result(self.rules, self.settlement, self.events, names)

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck as the record holds it, top first: the cards dealt from it in order, then the rest."""
        return _dealt_then_rest(self._dealt[0], self._deck_order)

    @property
    def cards_dealt(self) -> int:
        """Cards given to the hand so far: the deal and every replacement."""
        return sum(len(dealt) for dealt in self._dealt)

    @property
    def cards_due(self) -> int:
        """How many cards the hand awaits before anyone acts again: the rest of the deal to every player still at the
        table, or the rest of a draw's replacements; 0 when no card is due (and in a manual hand)."""
        awaiting = self.awaiting
        if awaiting.kind not in (AwaitKind.CARD, AwaitKind.RESHUFFLE):
            return 0
        if self.phase is Phase.DEALING:
            return sum(HAND_SIZE - len(p.cards) for p in self.players.values() if not p.left)
        return awaiting.count

    @property
    def card_progress(self) -> tuple[int, int] | None:
        """(cards received, cards in all) of the deal or of the draw whose replacements are being dealt; None when
        no card is due."""
        due = self.cards_due
        if not due:
            return None
        if self.phase is Phase.DEALING:
            received = len(self._dealt[0])
            return received, received + due
        replacing = self._replacing
        total = len(replacing.discards) if replacing is not None else due
        return total - due, total

    def last_dealt(self, count: int) -> tuple[Card, ...]:
        """The last `count` cards given to the hand, in the order they were dealt (fewer if fewer were dealt)."""
        order = [card for dealt in self._dealt for card in dealt]
        return tuple(order[-count:]) if count > 0 else ()

    @property
    def deals(self) -> tuple[tuple[int, Card], ...]:
        """Every card given to the hand, in order, with the seat it went to."""
        return tuple((event.seat, event.cards[0]) for event in self.events
                     if event.kind is EventKind.CARD_DEALT and event.seat is not None)

    def holder(self, card: Card) -> int | None:
        """The seat holding `card` now, if any."""
        return next((seat for seat, player in self.players.items() if card in player.cards), None)

    @property
    def used_reshuffles(self) -> list[tuple[Card, ...]]:
        """Each reshuffled stock as the record holds it: the cards dealt from it in order, then the rest."""
        return [_dealt_then_rest(self._dealt[n + 1], stock) for n, stock in enumerate(self._reshuffled)]

    # ----- cards: the deal and the replacements, one at a time -----
    def verify_deal_card(self, card: Card, seat: int | None = None) -> int:
        """Raise IllegalAction unless a card is due and `card` can be it; return the seat that receives it."""
        self._verify_not_manual()
        awaiting = self.awaiting
        if awaiting.kind is not AwaitKind.CARD or awaiting.seat is None:
            raise IllegalAction(f"no card is due: the hand awaits {awaiting}", code=e.NO_CARD_DUE,
                                rule="cards are dealt when the deal or a draw needs them", token=str(card))
        if seat is not None and seat != awaiting.seat:
            raise IllegalAction(f"the next card goes to seat {awaiting.seat}, not seat {seat}", code=e.OUT_OF_TURN,
                                rule="cards are dealt clockwise from the dealer's left, replacements to the drawer")
        if card in self.stock.seen and card not in self.stock.candidates:
            holder = self.holder(card)
            where = f"seat {holder} holds it" if holder is not None else "it was discarded"
            raise IllegalAction(f"{card_symbols(card)} was already dealt in this hand ({where})",
                                code=e.CARD_ALREADY_SEEN, rule="a deck holds each card once", token=str(card))
        self.stock.verify_card(card)
        return awaiting.seat

    def can_deal_card(self, card: Card, seat: int | None = None) -> bool:
        try:
            self.verify_deal_card(card, seat)
        except IllegalAction:
            return False
        return True

    def deal_card(self, card: Card, seat: int | None = None) -> Event:
        """Give the next card off the stock to the seat it is due to (the deal, or a draw's replacement)."""
        receiver = self.verify_deal_card(card, seat)
        event = self._give_card(card, receiver)
        self._run_feed()
        return event

    def verify_reshuffle(self, stock: Sequence[Card]) -> None:
        """Raise IllegalAction unless the stock ran out during a draw and `stock` is exactly the discards so far."""
        self._verify_not_manual()
        awaiting = self.awaiting
        if awaiting.kind is not AwaitKind.RESHUFFLE:
            raise IllegalAction(f"no reshuffle is due: the hand awaits {awaiting}", code=e.BAD_RESHUFFLE,
                                rule="the discards are reshuffled only when the stock runs out during a draw")
        self.stock.verify_reshuffle(stock)

    def can_reshuffle(self, stock: Sequence[Card]) -> bool:
        try:
            self.verify_reshuffle(stock)
        except IllegalAction:
            return False
        return True

    def reshuffle(self, stock: Sequence[Card]) -> Event:
        """The discards so far, except the drawing player's own, become the new stock (top first)."""
        self.verify_reshuffle(stock)
        self.stock.reshuffle(stock)
        self._reshuffled.append(tuple(stock))
        self._dealt.append([])
        # The event names the cards reshuffled, not their order: a live shuffle's order shows only as the cards are
        # dealt (the record keeps it), so the live and deck paths report the same event.
        event = Event(EventKind.STOCK_RESHUFFLED, self.awaiting.seat, cards=tuple(sorted(stock, key=_index)))
        self.events.append(event)
        self._advance()
        self._run_feed()
        return event

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
        self._round_opened = True
        if move.kind is MoveKind.FOLD:
            self._out(player, "folded")
        event = Event(_EVENT_OF_MOVE[move.kind], seat, move.chips, move.total, all_in=move.all_in)
        self.events.append(event)
        self.actions.append(_action_text(seat, kind, move))
        self._advance()
        self._run_feed()
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
    def verify_draw(self, seat: int, discards: Sequence[Card]) -> None:
        """Raise IllegalAction unless the seat may discard exactly these cards now and replacements can come."""
        self._verify_not_manual()
        self._verify_turn(seat, Phase.DRAWING)
        verify_discard(self.rules, seat, self.players[seat].cards, discards)
        if self.feed is not None:
            self.feed.verify_draw(len(discards), self.stock.muck)
        self.stock.verify_serves(len(discards))

    def can_draw(self, seat: int, discards: Sequence[Card]) -> bool:
        try:
            self.verify_draw(seat, discards)
        except IllegalAction:
            return False
        return True

    def draw(self, seat: int, discards: Sequence[Card]) -> Event:
        """Discard; the hand then awaits as many replacements off the stock (none when standing pat)."""
        self.verify_draw(seat, discards)
        player = self.players[seat]
        thrown = set(discards)
        player.cards = [card for card in player.cards if card not in thrown]
        self.draw_queue.pop(0)
        self._replacing = _Replacing(seat, len(discards), tuple(discards))
        if not discards:
            self._finish_replacing()
        event = Event(EventKind.DREW, seat, cards=tuple(discards), count=len(discards))
        self.events.append(event)
        self.actions.append(" ".join([str(seat), "draw", *(str(card) for card in discards)]))
        self._advance()
        self._run_feed()
        return event

    # ----- a manual hand: the end of the deal, draws by count, kill cards, the hands shown -----
    def verify_close_deal(self) -> None:
        """Raise IllegalAction unless a manual hand's cards are being dealt at the table."""
        self._verify_manual("the deal ends with the last card the system deals")
        if self.phase is not Phase.DEALING:
            raise IllegalAction(f"the deal is over: the hand is {self.phase.value}", code=e.WRONG_PHASE,
                                rule="the deal ends once, before the first betting round")

    def can_close_deal(self) -> bool:
        try:
            self.verify_close_deal()
        except IllegalAction:
            return False
        return True

    def close_deal(self) -> Event:
        """Every player has five cards: the first betting round begins."""
        self.verify_close_deal()
        self.actions.append("dealt")
        return self._end_deal()

    def verify_draw_unseen(self, seat: int, count: int, *, keeps_ace: bool = False) -> None:
        """Raise IllegalAction unless the seat may exchange `count` cards now (`keeps_ace`: the dealer confirms the
        cards kept include an ace, which a draw above the limit needs; the hand shown must then hold one)."""
        counted = self._verify_manual("draws by count are recorded only in a manual hand")
        self._verify_turn(seat, Phase.DRAWING)
        if isinstance(count, bool) or not 0 <= count <= HAND_SIZE:
            raise IllegalAction(f"seat {seat} cannot discard {count} cards", code=e.WRONG_DISCARD_COUNT,
                                rule="a player discards 0 to 5 cards")
        verify_discard_count(self.rules, seat, count, keeps_ace=keeps_ace)
        rule = self.rules.discards
        if keeps_ace and count <= rule.maximum:
            raise IllegalAction(
                f"seat {seat} draws {count}: keeping an ace matters only for a draw of more than {rule.maximum}",
                code=e.ACE_NOT_NEEDED, rule="the dealer confirms an ace is kept only when it allows a bigger draw",
            )
        counted.verify_serves(count)

    def can_draw_unseen(self, seat: int, count: int, *, keeps_ace: bool = False) -> bool:
        try:
            self.verify_draw_unseen(seat, count, keeps_ace=keeps_ace)
        except IllegalAction:
            return False
        return True

    def draw_unseen(self, seat: int, count: int, *, keeps_ace: bool = False) -> Event:
        """The player exchanged `count` cards the system does not see; the next player draws."""
        self.verify_draw_unseen(seat, count, keeps_ace=keeps_ace)
        counted = self.counted
        assert counted is not None  # verified: a manual hand
        self.draw_queue.pop(0)
        self.players[seat].kept_ace |= keeps_ace
        if counted.take(count):
            self.events.append(Event(EventKind.STOCK_RESHUFFLED, seat))
        counted.discard(count)
        event = Event(EventKind.DREW, seat, count=count)
        self.events.append(event)
        self.actions.append(f"{seat} draw {count}" + (" ace" if keeps_ace else ""))
        self._advance()
        return event

    def verify_kill(self, seat: int, card: Card) -> None:
        """Raise IllegalAction unless the seat, still in the hand, can be recorded as dealt the kill card `card`."""
        self._verify_manual("a kill card kills its receiver the moment the system deals it")
        if self.phase is Phase.SETTLED:
            raise IllegalAction("the hand is over", code=e.WRONG_PHASE, rule="a finished hand takes no actions")
        player = self._verify_in_hand(seat)
        if player.shown:
            raise IllegalAction(f"seat {seat} has shown its hand", code=e.ALREADY_SHOWN,
                                rule="a hand shown at the showdown is judged as shown")
        if card not in self.rules.kill_cards:
            named = " ".join(card_symbols(kill) for kill in sorted(self.rules.kill_cards, key=_index)) or "none"
            raise IllegalAction(f"{card_symbols(card)} is not a kill card (announced: {named})",
                                code=e.NOT_A_KILL_CARD,
                                rule="only the kill cards named before the deal kill", token=str(card))
        self._verify_unseen(card)

    def can_kill(self, seat: int, card: Card) -> bool:
        try:
            self.verify_kill(seat, card)
        except IllegalAction:
            return False
        return True

    def kill(self, seat: int, card: Card) -> Event:
        """Record that the seat was dealt the kill card `card`: dead at once, out of turn if need be."""
        self.verify_kill(seat, card)
        self._see(card, f"seat {seat} was dealt it as a kill card")
        self._kill(self.players[seat], card)
        event = self.events[-1]
        self.actions.append(f"{seat} killed {card}")
        self._advance()
        return event

    def verify_show(self, seat: int, cards: Sequence[Card]) -> None:
        """Raise IllegalAction unless the seat, still in the hand at the showdown, can show these five cards."""
        self._verify_manual("the system already holds every hand it dealt")
        if self.phase is not Phase.SHOWDOWN:
            raise IllegalAction(f"seat {seat} cannot show now: the hand is {self.phase.value}", code=e.WRONG_PHASE,
                                rule="hands are shown at the showdown, after the last betting round")
        player = self._verify_in_hand(seat)
        if player.shown:
            raise IllegalAction(f"seat {seat} has already shown its hand", code=e.ALREADY_SHOWN,
                                rule="each player shows one hand")
        if len(cards) != HAND_SIZE:
            raise IllegalAction(f"seat {seat} shows {len(cards)} cards, not {HAND_SIZE}", code=e.WRONG_CARD_COUNT,
                                rule="a hand shown has five cards")
        for index, card in enumerate(cards):
            if card in cards[:index]:
                raise IllegalAction(f"{card_symbols(card)} appears twice in seat {seat}'s hand",
                                    code=e.CARD_ALREADY_SEEN, rule="a deck holds each card once", token=str(card))
            self._verify_unseen(card)
        if player.kept_ace and not any(card.rank is Rank.ACE for card in cards):
            raise IllegalAction(
                f"seat {seat} drew above the limit keeping an ace but shows no ace", code=e.ACE_NOT_SHOWN,
                rule=f"five-card draw: more than {self.rules.discards.maximum} cards only when keeping an ace, so "
                "the hand shown holds the ace kept",
            )

    def can_show(self, seat: int, cards: Sequence[Card]) -> bool:
        try:
            self.verify_show(seat, cards)
        except IllegalAction:
            return False
        return True

    def show(self, seat: int, cards: Sequence[Card]) -> Event:
        """Record the hand the seat shows. A hand holding a kill card is dead: its player received the card."""
        self.verify_show(seat, cards)
        player = self.players[seat]
        player.cards = list(cards)
        player.shown = True
        for card in cards:
            self._see(card, f"shown by seat {seat}")
        event = Event(EventKind.SHOWN, seat, cards=tuple(cards))
        self.events.append(event)
        self.actions.append(" ".join([str(seat), "show", *(str(card) for card in cards)]))
        killer = next((card for card in cards if card in self.rules.kill_cards), None)
        if killer is not None:
            self._kill(player, killer)
        self._advance()
        return event

    def verify_concede(self, seat: int) -> None:
        """Raise IllegalAction unless the seat, live at a manual showdown and not yet shown, can muck its hand."""
        self._verify_manual("a dealt hand's cards are all known: the best hand wins")
        if self.phase is not Phase.SHOWDOWN:
            raise IllegalAction(f"seat {seat} cannot muck now: the hand is {self.phase.value}", code=e.WRONG_PHASE,
                                rule="a hand is mucked at the showdown, after the last betting round")
        player = self._verify_in_hand(seat)
        if player.shown:
            raise IllegalAction(f"seat {seat} has already shown its hand", code=e.ALREADY_SHOWN,
                                rule="a hand shown at the showdown is in play: it cannot be mucked")
        if self.rules.forced_play:
            raise IllegalAction(f"seat {seat} may not muck under forced play", code=e.MUCK_NOT_ALLOWED,
                                rule="forced play: no folding, every hand is played to the showdown and shown")

    def can_concede(self, seat: int) -> bool:
        try:
            self.verify_concede(seat)
        except IllegalAction:
            return False
        return True

    def concede(self, seat: int) -> Event:
        """The seat mucks its hand unshown: out of the hand like a fold (it loses every pot it was in) and no
        showdown hand (Freak of Nature's wild rank is fixed by the hands shown). Recorded as `<seat> muck`.

        Ruling: once one live seat is left it wins what is left without showing, as a hand won after folds does
        (in Three Legged Race it scores a leg only when `uncontested_scores_leg` is on), so the last live seat never
        mucks: the hand is already settled."""
        self.verify_concede(seat)
        player = self.players[seat]
        self._out(player, "folded")
        player.mucked = True
        event = Event(EventKind.MUCKED, seat)
        self.events.append(event)
        self.actions.append(f"{seat} muck")
        self._advance()
        return event

    # ----- the floor's ruling -----
    def verify_award(self, awards: Mapping[int, int], reason: str) -> None:
        """Raise IllegalAction unless the floor can award everything in the middle as `awards` (seat -> cents)."""
        if self.phase is Phase.SETTLED:
            raise IllegalAction("the hand is over", code=e.WRONG_PHASE, rule="a ruling applies to the hand in play")
        if not reason.strip():
            raise IllegalAction("a ruling needs a reason", code=e.REASON_REQUIRED,
                                rule="the floor rules with a reason (DESIGN 7)")
        if not awards:
            raise IllegalAction("a ruling awards the pot to at least one seat", code=e.NOT_IN_HAND,
                                rule="the floor awards the pot to players dealt into the hand")
        for seat, cents in awards.items():
            player = self.players.get(seat)
            if player is None or player.left:
                raise IllegalAction(f"seat {seat} is not in this hand", code=e.NOT_IN_HAND,
                                    rule="the floor awards the pot to players dealt into the hand")
            if cents < 0:
                raise IllegalAction(f"seat {seat} cannot be awarded {cents} cents", code=e.AWARD_NOT_THE_POT,
                                    rule="a ruling awards whole cents")
        if sum(awards.values()) != self.pot_cents:
            raise IllegalAction(f"the ruling awards {sum(awards.values())} cents but {self.pot_cents} are in the "
                                "middle", code=e.AWARD_NOT_THE_POT, rule="a ruling awards everything in the middle")

    def can_award(self, awards: Mapping[int, int], reason: str) -> bool:
        try:
            self.verify_award(awards, reason)
        except IllegalAction:
            return False
        return True

    def award(self, awards: Mapping[int, int], reason: str) -> Event:
        """The floor's ruling ends the hand: everything in the middle (the carried pot too) goes to the seats as
        given, in that order; nobody scores a leg and nothing is carried. Recorded as
        `floor award <seat> <cents> [<seat> <cents> ...] -- <reason>`."""
        self.verify_award(awards, reason)
        seats = tuple(awards)
        total = self.pot_cents
        for seat, cents in awards.items():
            self.players[seat].stack += cents
        event = Event(EventKind.POT_AWARDED_BY_RULING, amount_cents=total, seats=seats)
        self.events.append(event)
        self.actions.append(award_text(awards, reason))
        self.settlement = Settlement(pots=(AwardedPot(total, seats, seats),), payouts=dict(awards), wild_rank=None,
                                     legs=dict(self.legs), leg_scorers=(), carried_pot_cents=0, game_winners=(),
                                     ruling=" ".join(reason.split()))
        self.phase = Phase.SETTLED
        self.draw_queue = []
        self._replacing = None
        if self._on_settle is not None:
            self._on_settle(self)
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
        self._out(self.players[seat], "left")
        self._anyone_left = True
        if self.phase is Phase.DEALING:
            self._deal_seat = self._next_to_deal()
        self.round.remove(seat)
        if seat in self.draw_queue:
            self.draw_queue.remove(seat)
        if self._replacing is not None and self._replacing.seat == seat:
            self._finish_replacing()
        event = Event(EventKind.LEFT, seat)
        self.events.append(event)
        self.actions.append(f"{seat} leave")
        self._advance()
        self._run_feed()
        return event

    # ----- internals -----
    def _verify_manual(self, what: str) -> CountedStock:
        if self.counted is None:
            raise IllegalAction(f"the system deals this hand's cards: {what}", code=e.CARDS_DEALT_BY_SYSTEM,
                                rule="only a manual hand records draws by count, kill cards and shown hands")
        return self.counted

    def _verify_not_manual(self) -> None:
        if self.manual:
            raise IllegalAction("a manual hand's cards are not given to the system before the showdown",
                                code=e.MANUAL_HAND, rule="a manual hand records counts, kill cards and shown hands")

    def _verify_in_hand(self, seat: int) -> PlayerState:
        player = self.players.get(seat)
        if player is None or player.left or player.folded:
            raise IllegalAction(f"seat {seat} is not in this hand", code=e.NOT_IN_HAND,
                                rule="only a player still in the hand is recorded")
        if player.dead:
            raise IllegalAction(f"seat {seat} is already dead", code=e.PLAYER_DEAD,
                                rule="a player dealt a kill card is dead at once: out of the hand")
        return player

    def _verify_unseen(self, card: Card) -> None:
        if card in self._known:
            raise IllegalAction(f"{card_symbols(card)} is already recorded in this hand ({self._known[card]})",
                                code=e.CARD_ALREADY_SEEN, rule="a deck holds each card once", token=str(card))

    def _see(self, card: Card, where: str) -> None:
        self._known[card] = where

    def _next_to_deal(self) -> int | None:
        """The deal goes round by round, clockwise: the next card is the first seat's with the fewest cards (a
        player who has left gets no more); None once everyone has five."""
        dealt, seats = len(self._dealt[0]), len(self._order)
        if not self._anyone_left:  # the usual case: the rotation alone says who is next
            return self._order[dealt % seats] if dealt < HAND_SIZE * seats else None
        fewest, seat_found = HAND_SIZE, None
        for seat in self._order:
            player = self.players[seat]
            if not player.left and len(player.cards) < fewest:
                fewest, seat_found = len(player.cards), seat
        return seat_found

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
        if self._replacing is not None:
            raise IllegalAction(f"seat {seat} cannot act now: the hand awaits {self.awaiting}", code=e.WRONG_PHASE,
                                rule="a draw's replacements are dealt before the next player acts")
        due = self.round.actor if phase is Phase.BETTING else self.draw_queue[0]
        if seat != due:
            raise IllegalAction(f"seat {seat} acts out of turn: it is seat {due}'s turn", code=e.OUT_OF_TURN,
                                rule="players act in turn, clockwise from the dealer's left")

    def _post_antes(self) -> None:
        ante_cents = self.rules.ante_cents or 0
        for player in self.players.values():
            ante = min(ante_cents, player.stack)
            player.stack -= ante
            player.contributed += ante
            if ante:
                self.events.append(Event(EventKind.ANTE_POSTED, player.seat, ante, all_in=player.stack == 0))

    def _receive(self, player: PlayerState, card: Card) -> None:
        if card in self.rules.kill_cards and not player.dead:
            self._kill(player, card)

    def _kill(self, player: PlayerState, card: Card) -> None:
        self._out(player, "dead")
        if self.phase is Phase.BETTING and not self._round_opened:
            # A kill recorded before anyone acts in the round (a manual hand's death at the deal or the draw) counts
            # as known when the round began, as it is when the system deals: the round forms without the player.
            self.round = self._new_round()
        self.round.remove(player.seat)
        if player.seat in self.draw_queue:
            self.draw_queue.remove(player.seat)
        self.events.append(Event(EventKind.PLAYER_KILLED, player.seat, cards=(card,)))

    def _finish_replacing(self) -> None:
        replacing = self._replacing
        if replacing is not None:
            self.stock.discard(replacing.discards)
            self._replacing = None

    def _out(self, player: PlayerState, how: Literal["folded", "dead", "left"]) -> None:
        if player.live:
            self._live_count -= 1
        setattr(player, how, True)

    def _give_card(self, card: Card, receiver: int) -> Event:
        """The effect of `deal_card` once verified: the card goes to `receiver` (who may be killed by it)."""
        self.stock.take(card)
        self._dealt[-1].append(card)
        player = self.players[receiver]
        player.cards.append(card)
        event = Event(EventKind.CARD_DEALT, receiver, cards=(card,))
        self.events.append(event)
        self._receive(player, card)
        replacing = self._replacing
        if replacing is not None:
            replacing.remaining -= 1
            if replacing.remaining == 0:
                self._finish_replacing()
        elif self.phase is Phase.DEALING:
            self._deal_seat = self._next_to_deal()
            if self._deal_seat is not None and self._live_count > 1:
                return event  # the deal goes on: nothing else can have changed
        self._advance()
        return event

    def _run_feed(self) -> None:
        """On the deck path, deal every card (and reshuffle) the hand awaits that the known deck can give.

        The feed's cards need no check: the deck holds each card once and a reshuffled stock is checked against
        the muck when it is given, so each goes through `deal_card`'s effect directly (this runs for every card of
        every replayed or rebuilt hand).
        """
        feed = self.feed
        if feed is None or self._feeding:
            return
        self._feeding = True
        try:
            while True:
                if self.phase is Phase.DEALING and not self.manual:
                    receiver = self._deal_seat
                elif self.phase is Phase.DRAWING and self._replacing is not None:
                    if self.stock.count == 0:
                        stock = feed.next_reshuffle()
                        if stock is None:
                            return
                        self.reshuffle(stock)
                        continue
                    receiver = self._replacing.seat
                else:
                    return
                card = feed.next_card()
                if card is None or receiver is None:
                    return
                self._give_card(card, receiver)
        finally:
            self._feeding = False

    def _new_round(self) -> BettingRound:
        self._round_opened = False
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
            # A draw's replacements are dealt as one packet: a kill among them ends the hand only after the packet.
            if self._live_count <= 1 and self._replacing is None:
                self._settle()
            elif self.phase is Phase.DEALING:
                if self.manual or self._deal_seat is not None:
                    return
                self._end_deal()
                return
            elif self.phase is Phase.BETTING:
                if not self.round.complete:
                    return
                self._return_uncalled()
                if self.draws_done < self.rules.draw_rounds:
                    self.phase = Phase.DRAWING
                    self.draw_queue = self.live
                elif self.manual:
                    self.phase = Phase.SHOWDOWN
                else:
                    self._settle()
            elif self.phase is Phase.SHOWDOWN:
                if any(not self.players[seat].shown for seat in self.live):
                    return
                self._settle()
            else:
                if self._replacing is not None or self.draw_queue:
                    return
                self.draws_done += 1
                self.betting_round += 1
                self.phase = Phase.BETTING
                self.round = self._new_round()

    def _end_deal(self) -> Event:
        event = Event(EventKind.DEALT)
        self.events.append(event)
        self.phase = Phase.BETTING
        self.round = self._new_round()
        self._advance()
        return event

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
        self._replacing = None
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


def award_text(awards: Mapping[int, int], reason: str) -> str:
    """The record's line for a pot awarded by the floor's ruling: `floor award 3 600 5 600 -- <reason>`."""
    amounts = " ".join(f"{seat} {cents}" for seat, cents in awards.items())
    return f"floor award {amounts} -- {' '.join(reason.split())}"


def _action_text(seat: int, requested: MoveKind, move: Move) -> str:
    if requested is MoveKind.ALLIN:
        return f"{seat} allin"
    if move.kind in (MoveKind.BET, MoveKind.RAISE):
        return f"{seat} {move.kind.value} {move.total}"
    return f"{seat} {move.kind.value}"


def _index(card: Card) -> int:
    return card.index


def _dealt_then_rest(dealt: Sequence[Card], order: Sequence[Card]) -> tuple[Card, ...]:
    taken = set(dealt)
    return (*dealt, *(card for card in order if card not in taken))


def _verify_start(rules: Rules, stacks: Mapping[int, int]) -> None:
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


def _default_ranker(rules: Rules) -> Ranker:
    return lambda hands: rank_hands(rules, hands)
