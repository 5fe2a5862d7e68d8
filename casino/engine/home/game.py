"""A home game over many hands: seats and stacks, the pot carried between hands, legs and the game's end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from casino.engine.cards import Card
from casino.engine.home import errors as e
from casino.engine.home.carried import carried_shares, returned_shares
from casino.engine.home.errors import IllegalAction
from casino.engine.home.events import Event, EventKind
from casino.engine.home.hand import HomeHand
from casino.engine.home.settle import Ranker
from casino.engine.money import money
from casino.engine.rules.model import Rules


@dataclass(frozen=True)
class GameClose:
    """The floor closing the game between hands: the carried pot back to each player's own contributions (the
    rounding remainder to the largest contributor) or, by ruling, all of it to `award_seat`."""

    reason: str
    award_seat: int | None
    carried_pot_cents: int
    paid: Mapping[int, int]  # seat -> cents from the carried pot (seats paid nothing are left out)
    # Players who left a seat someone else then took, paid back their own chips in the carried pot: (seat, occupant,
    # cents), occupant counting the players who sat there in turn (1 = the first). The seat's present player is in
    # `paid`; nothing of a departed player's passes to whoever took the seat after them.
    paid_earlier: tuple[tuple[int, int, int], ...] = ()

    @property
    def line(self) -> str:
        """The record's line: `floor close -- <reason>` or `floor close award <seat> -- <reason>`."""
        return close_text(self.award_seat, self.reason)

    def words(self, names: Mapping[int, str] | None = None,
              earlier_names: Mapping[tuple[int, int], str] | None = None) -> str:
        """What became of the carried pot, for the players: "The carried pot of $2.00 went back to the players who
        put it in: $1.00 to Ann, $1.00 to Bob" or "The carried pot of $2.00 went to Cy by the floor's ruling
        (<reason>)"; empty when no pot was carried. `names` (seat -> name) replaces "Seat 3" where given,
        `earlier_names` ((seat, occupant) -> name) "the earlier player at seat 3"."""
        if not self.carried_pot_cents:
            return ""
        names = names or {}
        earlier_names = earlier_names or {}

        def who(seat: int) -> str:
            return names.get(seat) or f"Seat {seat}"

        pot = f"The carried pot of {money(self.carried_pot_cents)}"
        if self.award_seat is not None:
            reason = f" ({self.reason})" if self.reason else ""
            return f"{pot} went to {who(self.award_seat)} by the floor's ruling{reason}"
        shares = [(seat, 0, f"{money(cents)} to {who(seat)}") for seat, cents in self.paid.items() if cents]
        shares += [(seat, -1, f"{money(cents)} to "
                    + (earlier_names.get((seat, occupant)) or f"the earlier player at seat {seat}"))
                   for seat, occupant, cents in self.paid_earlier if cents]
        listed = ", ".join(text for _, _, text in sorted(shares, key=lambda share: share[:2]))
        return f"{pot} went back to the players who put it in: {listed}"

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "reason": self.reason, "award_seat": self.award_seat, "carried_pot_cents": self.carried_pot_cents,
            "paid": {str(seat): cents for seat, cents in sorted(self.paid.items())}}
        if self.paid_earlier:
            data["paid_earlier"] = earlier_list(self.paid_earlier)
        return data


def earlier_list(paid: Sequence[tuple[int, int, int]]) -> list[dict[str, int]]:
    """`paid_earlier` as the replay prints it and the close's audit event stores it."""
    return [{"seat": seat, "occupant": occupant, "cents": cents} for seat, occupant, cents in sorted(paid)]


@dataclass
class Former:
    """A player who left a seat that someone else then took: what they went home with (their stack as they left,
    plus what the close gave back) and their own chips still in a carried pot. `occupant` counts the players who sat
    at the seat in turn (1 = the first)."""

    seat: int
    occupant: int
    stack: int
    carried: int = 0


def close_text(award_seat: int | None, reason: str) -> str:
    """The game record's `close` line (DESIGN 9 extended): the floor closing the game, with its reason."""
    award = f" award {award_seat}" if award_seat is not None else ""
    return f"floor close{award} -- {' '.join(reason.split())}"


def not_seated(seat: int) -> IllegalAction:
    """The refusal of a leave by a seat nobody sits at: replay_game's words, which play_game says too."""
    return IllegalAction(f"seat {seat} is not in the game", code=e.NOT_IN_HAND, rule="only a seated player can leave")


class HomeGame:
    """The table's game: hands are started here and report back when settled.

    A player with no chips sits out a hand (keeping any legs). A player who leaves mid-game loses their legs;
    chips they already put in stay in the pot (DESIGN 7, Three Legged Race), the rest of their stack goes with
    them. A pot that no live hand could win (every hand killed) stays in the middle for the next hand. A seat a
    player left may be taken by a newcomer between hands: the seat starts afresh (their stack, no legs, nothing in
    the carried pot), and what the one who left still owns (their chips in a carried pot) stays theirs, in `former`.
    """

    def __init__(self, rules: Rules, stacks: Mapping[int, int], *, ranker: Ranker | None = None) -> None:
        if len(stacks) > rules.seat_limit:
            code, limit = rules.variant.code, rules.seat_limit
            raise IllegalAction(f"{len(stacks)} players: {code} seats at most {limit}",
                                code=e.TOO_MANY_PLAYERS, rule=f"{code}: at most {limit} players")
        if any(stack < 0 for stack in stacks.values()):
            raise IllegalAction("a stack cannot be negative", code=e.INSUFFICIENT_CHIPS, rule="table stakes")
        self.rules = rules
        self.stacks = dict(stacks)
        self.starting_stacks = dict(stacks)
        self.legs = dict.fromkeys(stacks, 0) if rules.plays_for_legs else {}
        self.carried_pot_cents = 0
        self.departed: set[int] = set()
        self.game_winners: tuple[int, ...] = ()
        self.hands: list[HomeHand] = []
        # Each player's own chips in the carried pot (given back to them if the floor closes the game unwon), and
        # the floor's close once it happened.
        self.carried_contributions: dict[int, int] = {}
        # Players who left a seat someone then took, in the order they were replaced.
        self.former: list[Former] = []
        self.closed: GameClose | None = None
        self._ranker = ranker

    @property
    def current(self) -> HomeHand | None:
        """The hand in progress, if any."""
        return self.hands[-1] if self.hands and not self.hands[-1].settled else None

    @property
    def over(self) -> bool:
        return bool(self.game_winners)

    @property
    def chips_in_play(self) -> int:
        """Stacks plus every chip in the middle; no action changes it."""
        hand = self.current
        gone = sum(former.stack for former in self.former)
        if hand is None:
            return sum(self.stacks.values()) + self.carried_pot_cents + gone
        behind = sum(stack for seat, stack in self.stacks.items() if seat not in hand.players)
        return behind + sum(hand.stacks.values()) + hand.pot_cents + gone

    def verify_start_hand(self, button: int) -> None:
        if self.closed is not None:
            raise IllegalAction("the floor closed the game", code=e.GAME_OVER, rule="no hand follows the close")
        if self.over:
            raise IllegalAction(f"the game is over: seat {self.game_winners[0]} took the pot", code=e.GAME_OVER,
                                rule="the game ends when a player reaches the announced number of legs")
        if self.current is not None:
            raise IllegalAction("the previous hand is not finished", code=e.WRONG_PHASE,
                                rule="one hand at a time")
        if button not in self.stacks or button in self.departed:
            raise IllegalAction(f"the button is at seat {button}, where nobody sits", code=e.BAD_BUTTON,
                                rule="the button is at a seated player's place")
        if len(self._dealt_in()) < 2:
            raise IllegalAction("fewer than two players have chips", code=e.NOT_ENOUGH_PLAYERS,
                                rule="poker needs two or more players")

    def can_start_hand(self, button: int) -> bool:
        try:
            self.verify_start_hand(button)
        except IllegalAction:
            return False
        return True

    def start_hand(
        self,
        *,
        button: int,
        deck: Sequence[Card] | None = None,
        reshuffles: Sequence[Sequence[Card]] = (),
        manual: bool = False,
    ) -> HomeHand:
        """Post the antes and return the new hand: live (it then asks for each card) without a deck, dealt from
        `deck` and `reshuffles` (settled at once if the deal killed all but one player), or `manual`."""
        self.verify_start_hand(button)
        dealt_in = self._dealt_in()
        hand = HomeHand(
            rules=self.rules,
            stacks={seat: self.stacks[seat] for seat in dealt_in},
            button=button,
            deck=deck,
            reshuffles=reshuffles,
            manual=manual,
            carried_pot_cents=self.carried_pot_cents,
            legs=self.legs,
            ranker=self._ranker,
            on_settle=self._absorb,
        )
        self.hands.append(hand)
        if hand.settled:
            self._absorb(hand)
        return hand

    def verify_leave(self, seat: int) -> None:
        self._verify_not_closed()
        if seat not in self.stacks or seat in self.departed:
            raise not_seated(seat)

    def can_leave(self, seat: int) -> bool:
        try:
            self.verify_leave(seat)
        except IllegalAction:
            return False
        return True

    def leave(self, seat: int) -> Event:
        """Between hands or during one: the player is out of the game and loses their legs."""
        self.verify_leave(seat)
        hand = self.current
        if hand is not None and seat in hand.players:
            event = hand.leave(seat)
        else:
            event = Event(EventKind.LEFT, seat)
            # Recorded with the hand in progress or just played, so the game record replays it (DESIGN 9).
            if self.hands:
                self.hands[-1].actions.append(f"{seat} leave")
        self.departed.add(seat)
        if seat in self.legs:
            self.legs[seat] = 0
        return event

    def verify_join(self, seat: int, stack: int) -> None:
        self._verify_not_closed()
        if self.current is not None:
            raise IllegalAction("players join between hands", code=e.WRONG_PHASE, rule="one hand at a time")
        if seat in self.stacks and seat not in self.departed:
            raise IllegalAction(f"seat {seat} is taken", code=e.SEAT_TAKEN,
                                rule="one player to a seat: a seat is taken again once its player has left")
        if len(set(self.stacks) - self.departed) >= self.rules.seat_limit:
            code, limit = self.rules.variant.code, self.rules.seat_limit
            raise IllegalAction(f"{code} seats at most {limit}", code=e.TOO_MANY_PLAYERS,
                                rule=f"{code}: at most {limit} players")
        if stack < 0:
            raise IllegalAction("a stack cannot be negative", code=e.INSUFFICIENT_CHIPS, rule="table stakes")

    def can_join(self, seat: int, stack: int) -> bool:
        try:
            self.verify_join(seat, stack)
        except IllegalAction:
            return False
        return True

    def join(self, seat: int, stack: int) -> Event:
        """A player sits down between hands with `stack` (they hold no legs yet), at a seat nobody played or one whose
        player left: the one who left keeps what was theirs (`former`), the newcomer starts with nothing else."""
        self.verify_join(seat, stack)
        if seat in self.departed:
            occupant = 1 + sum(1 for former in self.former if former.seat == seat)
            self.former.append(Former(seat, occupant, self.stacks[seat], self.carried_contributions.pop(seat, 0)))
            self.departed.discard(seat)
        self.stacks[seat] = stack
        if self.rules.plays_for_legs:
            self.legs[seat] = 0
        return Event(EventKind.JOINED, seat, stack)

    def verify_adjust(self, seat: int, cents: int) -> None:
        self._verify_not_closed()
        if self.current is not None:
            raise IllegalAction("chips change between hands", code=e.WRONG_PHASE, rule="one hand at a time")
        if seat not in self.stacks or self.stacks[seat] + cents < 0:
            raise IllegalAction(f"seat {seat} cannot have {cents:+d} chips", code=e.INSUFFICIENT_CHIPS,
                                rule="table stakes: a stack is never negative")

    def adjust(self, seat: int, cents: int) -> None:
        """Chips added to a stack (a buy-in added) or taken from it (a house charge), between hands."""
        self.verify_adjust(seat, cents)
        self.stacks[seat] += cents

    def _verify_not_closed(self) -> None:
        if self.closed is not None:
            raise IllegalAction("the floor closed the game", code=e.GAME_OVER, rule="nothing follows the close")

    def verify_close(self, reason: str, award_seat: int | None = None) -> None:
        """Raise IllegalAction unless the floor can close the game now (between hands, with a reason; an awarded
        carried pot goes to a player of the game; a returned one needs someone known to own it)."""
        if self.closed is not None:
            raise IllegalAction("the floor already closed the game", code=e.GAME_OVER,
                                rule="a game is closed once")
        if self.over:
            raise IllegalAction(f"the game is over: seat {self.game_winners[0]} took the pot", code=e.GAME_OVER,
                                rule="the game ends when a player reaches the announced number of legs")
        if self.current is not None:
            raise IllegalAction("a hand is in play: finish or void it first", code=e.WRONG_PHASE,
                                rule="the floor closes a game between hands")
        if not reason.strip():
            raise IllegalAction("closing a game needs a reason", code=e.REASON_REQUIRED,
                                rule="the floor rules with a reason (DESIGN 7)")
        if award_seat is not None and award_seat not in self.stacks:
            raise IllegalAction(f"nobody played seat {award_seat} in this game", code=e.NO_PLAYER,
                                rule="the floor awards the carried pot to a player of the game")
        if award_seat is None and self.carried_pot_cents and not self._owed():
            raise IllegalAction("nobody is known to own the carried pot", code=e.CARRIED_POT_UNOWNED,
                                rule="a carried pot nobody is known to own goes by ruling to one seat")

    def can_close(self, reason: str, award_seat: int | None = None) -> bool:
        try:
            self.verify_close(reason, award_seat)
        except IllegalAction:
            return False
        return True

    def close(self, reason: str, award_seat: int | None = None) -> GameClose:
        """The floor closes the game between hands: the carried pot goes back to each player's own contributions
        (chips nobody is known to own, from rounding, to the largest contributor, the lowest seat on a tie) or, by
        ruling, all of it to `award_seat`; the stacks are then what each player cashes out. Recorded as the game's
        `close` line: `floor close -- <reason>` or `floor close award <seat> -- <reason>`."""
        self.verify_close(reason, award_seat)
        carried = self.carried_pot_cents
        earlier: list[tuple[int, int, int]] = []
        if award_seat is not None:
            paid = {award_seat: carried} if carried else {}
        else:
            paid = {}
            formers = {(former.seat, former.occupant): former for former in self.former}
            for (seat, occupant), cents in returned_shares(self._owed(), carried).items():
                if (seat, occupant) in formers:
                    formers[seat, occupant].stack += cents
                    earlier.append((seat, occupant, cents))
                else:
                    paid[seat] = cents
        for seat, cents in paid.items():
            self.stacks[seat] += cents
        self.carried_pot_cents = 0
        self._forget_carried()
        self.closed = GameClose(" ".join(reason.split()), award_seat, carried, paid, tuple(sorted(earlier)))
        return self.closed

    def _owed(self) -> dict[tuple[int, int], int]:
        """Each owner's chips in the carried pot, keyed (seat, occupant): the seat's present (or last) player and
        the players who left it before someone else sat down."""
        owed = {(former.seat, former.occupant): former.carried for former in self.former if former.carried > 0}
        for seat, cents in self.carried_contributions.items():
            if cents > 0:
                owed[seat, 1 + sum(1 for former in self.former if former.seat == seat)] = cents
        return dict(sorted(owed.items()))

    def _forget_carried(self) -> None:
        self.carried_contributions = {}
        for former in self.former:
            former.carried = 0

    def _track_carried(self, hand: HomeHand, carried: int) -> None:
        """Each player's own chips in a pot carried to the next hand (returned to them if the floor closes the game)."""
        if carried == 0:
            self._forget_carried()
            return
        added = carried - self.carried_pot_cents
        contributed = {seat: player.contributed for seat, player in hand.players.items()}
        for seat, cents in carried_shares(contributed, added).items():
            self.carried_contributions[seat] = self.carried_contributions.get(seat, 0) + cents

    def _dealt_in(self) -> list[int]:
        return [seat for seat, stack in self.stacks.items() if stack > 0 and seat not in self.departed]

    def _absorb(self, hand: HomeHand) -> None:
        if hand.settlement is None or (self.hands and hand is not self.hands[-1]):
            return
        self.stacks.update(hand.stacks)
        self._track_carried(hand, hand.settlement.carried_pot_cents)
        self.carried_pot_cents = hand.settlement.carried_pot_cents
        if self.rules.plays_for_legs:
            self.legs.update(hand.settlement.legs)
        for seat, player in hand.players.items():
            if player.left:
                self.departed.add(seat)
                if seat in self.legs:
                    self.legs[seat] = 0
        self.game_winners = hand.settlement.game_winners
