"""The home-game table screen: the game and hand read models (the API's) shaped for the dealer tablet: seats with
stacks and the button, whose turn it is with only the legal actions as buttons and their amounts, the draw step,
the manual showdown picker, and the result in words."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from audit.models import AuditEvent
from casino.engine.cards import Card, Rank, Suit
from casino.engine.hands import WildSpec
from casino.engine.home.action_words import action_words
from casino.engine.home.awaiting import AwaitKind
from casino.engine.home.carried import returned_shares
from casino.engine.home.game import GameClose
from casino.engine.rules.model import Rules
from casino.engine.showdown import hand_wild
from casino.engine.variants import HOME_VARIANTS
from tables import actions
from tables.models import CardSource, FloorCall, HomeGame, HomeGamePlayer, HomeTableConfig, Table, seat_limit
from tables.models import HomeHand as HandRow
from tables.screens.home_shoe import ShoeWait, last_refusal, shoe_wait_at
from tables.screens.shoe_refusal import ShoeRefusal, refusal_token
from tables.selectors.floor_calls import call_token, table_call
from tables.selectors.home import game_view, hand_view
from tables.selectors.home_records import game_close_summary
from tables.selectors.home_timeline import hand_rulings
from tables.services.home_chips import occupant_numbers
from tables.services.home_config import announce_rules
from tables.services.home_config import announcement as home_announcement
from tables.services.home_engine import game_rules
from tables.templatetags.tablet import card_face, money

# Picker order: suits as rows (spades first, as most dealers sort), ranks high to low (as the Triple Draw picker).
PICKER = [[f"{rank.code}{suit.value}" for rank in sorted(Rank, reverse=True)]
          for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)]
NUMBER_WORDS = {0: "none", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def is_home_table(table: Table) -> bool:
    return table.table_type in HOME_VARIANTS


@dataclass
class SeatView:
    """One seat as the dealer sees it: the player, chips behind and in the pot, how they stand in the hand."""

    seat: int
    name: str
    player_card: str
    stack_cents: int
    cashed_out_cents: int = 0
    in_pot_cents: int = 0
    legs: int = 0
    active: bool = True
    in_hand: bool = False
    status: str = ""
    is_button: bool = False
    is_turn: bool = False
    cards: list[str] = field(default_factory=list)
    shown: bool = False
    chips_room_cents: int = 0  # between hands, the chips that may be added: up to the maximum buy-in

    @property
    def key(self) -> str:
        return f"seat-{self.seat}"

    @property
    def show_key(self) -> str:
        """Where a refusal of this seat's hand at a manual showdown is shown: beside its Record button."""
        return f"show-{self.seat}"

    @property
    def label(self) -> str:
        return seat_label(self.seat, self.name)


def seat_label(seat: int, name: str) -> str:
    """"Seat 2 · Bob"; "Seat 2" for a player seated without a name."""
    plain = f"Seat {seat}"
    return f"{plain} · {name}" if name and name != plain else plain


@dataclass(frozen=True)
class ShownHand:
    """One row of a hand's result: the seat and the player who played it (from the hand's own record), the hand's
    value, and its cards as given, each with whether it played wild."""

    seat: int
    label: str
    value: dict[str, Any]
    cards: list[tuple[str, bool]]


# How every amount on the betting buttons reads (DESIGN 9 posts a bet's amount and a raise's total): a bare amount
# is what the player puts in now, an amount after "to" is their total in this betting round. A button shows both
# when they differ (the player already has chips in the round): "Call $9.00 (to $22.00)", "All in $9.00 (to
# $22.00)", "Raise to $30.00 (minimum; puts in $17.00)". A bet is both at once (nobody has bet in the round).
AMOUNT_RULE = "Amounts are what the player puts in now; “to” is their total in this betting round"


@dataclass(frozen=True)
class AmountChoice:
    """A pre-filled amount button: "Bet $2.00 (minimum)", "Raise to $30.00 (pot, the most allowed; puts in $17.00)".
    `cents` is what the action posts: the bet, or the raise's total for the round."""

    verb: str  # bet | raise
    cents: int
    note: str
    in_round: int = 0  # the player's chips already in this betting round

    @property
    def words(self) -> str:
        if self.verb == "bet":
            head, details = f"Bet {money(self.cents)}", [self.note]
        else:
            puts_in = f"puts in {money(self.cents - self.in_round)}" if self.in_round else ""
            head, details = f"Raise to {money(self.cents)}", [self.note, puts_in]
        said = "; ".join(detail for detail in details if detail)
        return f"{head} ({said})" if said else head


@dataclass(frozen=True)
class CountChoice:
    """A manual draw's count button; `needs_ace`: above the limit, the dealer confirms an ace is kept."""

    count: int
    needs_ace: bool

    @property
    def words(self) -> str:
        if self.count == 0:
            return "Stand pat"
        return f"Draws {self.count}" + (" (keeps an ace)" if self.needs_ace else "")


@dataclass(frozen=True)
class RecordedAction:
    """One line of the hand's record as the floor reads it: "3. Seat 2 · Bob calls" (`index` counts from 0, as
    the record and the correction service do; `number` from 1, as people do)."""

    index: int
    text: str
    words: str

    @property
    def number(self) -> int:
        return self.index + 1


@dataclass
class HomeScreen:
    """Everything one home-game table screen shows."""

    table: Table
    token: str
    config: HomeTableConfig | None
    announcement: list[str]
    game: HomeGame | None
    game_state: dict[str, Any] | None
    hand_row: HandRow | None
    hand: dict[str, Any] | None
    seats: list[SeatView]
    plays_for_legs: bool = False
    legs_to_win: int | None = None
    kill_cards: list[str] = field(default_factory=list)
    seat_limit: int = 0
    rules: Rules | None = None
    floor_call: FloorCall | None = None  # the table's call for the floor: open, or lately answered
    shoe_refusal: ShoeRefusal | None = None  # the shoe's last refused report, until it reports again
    # What a new game would announce now, shown under "Rules" while no game is open: the last game's announcement is
    # history by then, and the house rules may have changed since it opened.
    house_announcement: list[str] = field(default_factory=list)
    rulings: list[AuditEvent] = field(default_factory=list)  # the shown hand's corrections and award by ruling

    # --- the game -----------------------------------------------------------------------------------------------
    @property
    def is_manual(self) -> bool:
        return (self.game.card_source if self.game else self.table.card_source) == CardSource.MANUAL

    @property
    def is_rng(self) -> bool:
        return (self.game.card_source if self.game else self.table.card_source) == CardSource.RNG

    @property
    def game_open(self) -> bool:
        return self.game is not None and self.game.is_open

    @property
    def rules_lines(self) -> list[str]:
        """What "Rules" shows: the open game's announcement, else what a new game would announce."""
        return self.announcement if self.game_open else self.house_announcement

    @property
    def rules_source(self) -> HomeGame | HomeTableConfig | None:
        """Where the chips "Rules" shows come from: the open game, else the house rules a new game takes them from."""
        return self.game if self.game_open else self.config

    @property
    def in_play(self) -> bool:
        return self.hand is not None and self.hand["status"] == HandRow.Status.IN_PLAY

    @property
    def between_hands(self) -> bool:
        return self.game_open and not self.in_play

    @property
    def active_seats(self) -> list[SeatView]:
        return [seat for seat in self.seats if seat.active]

    @property
    def free_seats(self) -> list[int]:
        used = {seat.seat for seat in self.seats}
        return [number for number in range(1, self.seat_limit + 1) if number not in used]

    @property
    def table_full(self) -> bool:
        return len(self.active_seats) >= self.seat_limit

    @property
    def first_hand(self) -> bool:
        """No hand dealt yet in this game: the rules are announced before the first card."""
        return self.game_open and self.hand is None

    @property
    def game_winners(self) -> list[SeatView]:
        winners = set(self.game.winners) if self.game else set()
        return [seat for seat in self.seats if seat.seat in winners]

    @property
    def close_words(self) -> str:
        """A game the floor closed: what became of the pot it carried (back to each player's own chips in it, or
        to one seat by ruling), from the close's audit events as the replay verdict reads them; else empty."""
        if self.game is None or self.game.status != HomeGame.Status.CLOSED:
            return ""
        close = game_close_summary(self.game)
        if close is None:
            return ""
        paid = {int(seat): int(cents) for seat, cents in close["paid"].items()}
        names = {seat.seat: seat.name for seat in self.seats if seat.name}
        earlier = tuple((item["seat"], item["occupant"], item["cents"]) for item in close.get("paid_earlier", []))
        # The notice already gives the close's reason (the game's end reason): not a second time for the ruling.
        return GameClose("", close["award_seat"], close["carried_pot_cents"], paid, earlier).words(
            names, self.earlier_names)

    @property
    def void_words(self) -> str:
        """The last hand voided, for the dealer: whose ruling and why, the chips back, and that the next hand deals it
        again with the same button (the service keeps it; the next hand has the next number). Empty otherwise."""
        if self.hand is None or self.hand["status"] != HandRow.Status.VOIDED:
            return ""
        reason = str(self.hand["void_reason"]).strip()
        said = reason if reason.endswith((".", "!", "?")) else f"{reason}."
        words = f"Hand {self.hand['number']} was voided by the floor: {said} Every chip went back where it was."
        if not self.game_open:
            return words
        button = self.hand["button"]
        holder = next((seat.label for seat in self.seats if seat.seat == button), f"Seat {button}")
        return f"{words} Deal it again as hand {self.hand['number'] + 1}: the button stays at {holder}."

    @property
    def ruling_lines(self) -> list[str]:
        """The floor's corrections of the shown hand and its pot awarded by ruling, each in a line for the dealer and
        the floor (as a void's is): what changed, by whom, why. A correction changes stacks with no other trace."""
        if self.hand is None:
            return []
        labels = {seat.seat: seat.label for seat in self.seats}
        return [ruling_words(event, self.hand["number"], labels) for event in self.rulings]

    @property
    def left_players(self) -> list[str]:
        """An open game's players who left, their seats free again and shown on no seat: "Bob (seat 2), cashed out
        $200.00" ("Seat 2, ..." for a player seated without a name). The one who left during the hand in play is
        still on their seat until it ends."""
        if not self.game_open or self.game_state is None:
            return []
        shown = {(seat.seat, seat.name) for seat in self.seats}
        lines = []
        for player in self.game_state["players"]:
            if player["active"] or (player["seat"], player["name"]) in shown:
                continue
            plain = f"Seat {player['seat']}"
            who = f"{player['name']} (seat {player['seat']})" if player["name"] and player["name"] != plain else plain
            lines.append(f"{who}, cashed out {money(player['cashed_out_cents'])}")
        return lines

    @property
    def earlier_names(self) -> dict[tuple[int, int], str]:
        """(seat, occupant) -> name of every player of the game, a seat taken again naming each in turn."""
        turns: dict[int, int] = {}
        names: dict[tuple[int, int], str] = {}
        for player in self.game_state["players"] if self.game_state else []:
            turns[player["seat"]] = turns.get(player["seat"], 0) + 1
            names[player["seat"], turns[player["seat"]]] = player["name"]
        return names

    @property
    def carried_pot_cents(self) -> int:
        return self.game.pot_cents if self.game else 0

    # --- the hand in play ---------------------------------------------------------------------------------------
    @property
    def awaiting(self) -> dict[str, Any]:
        return self.hand["awaiting"] if self.hand else {"kind": "nothing", "seat": None, "seats": []}

    @property
    def awaiting_kind(self) -> str:
        return str(self.awaiting["kind"]) if self.in_play else ""

    @property
    def is_shoe(self) -> bool:
        return (self.game.card_source if self.game else self.table.card_source) == CardSource.SHOE

    @cached_property
    def shoe_wait(self) -> ShoeWait | None:
        """While the hand waits for the shoe's cards: how far the deal or the draw has come, and who gets them."""
        if not self.in_play or self.hand is None or not self.is_shoe:
            return None
        return shoe_wait_at(self.table, self.hand, {seat.seat: seat.label for seat in self.seats})

    @property
    def dealt_by_shoe(self) -> list[SeatView]:
        """A shoe hand in play: each seat dealt in with the cards the shoe reported for it (the floor corrects a
        misread one)."""
        if not self.in_play or not self.is_shoe:
            return []
        return [seat for seat in self.seats if seat.in_hand and seat.cards]

    @property
    def turn_seat(self) -> SeatView | None:
        seat = self.awaiting.get("seat")
        return next((s for s in self.seats if s.seat == seat), None) if self.in_play else None

    @property
    def legal(self) -> dict[str, Any] | None:
        return self.hand["legal"] if self.hand else None

    @property
    def legal_actions(self) -> list[str]:
        return list(self.legal["actions"]) if self.legal else []

    @property
    def in_round_cents(self) -> int:
        """The chips the player to act already has in this betting round."""
        return int(self.legal.get("in_round_cents") or 0) if self.legal else 0

    def _to(self, chips: int) -> str:
        """ " (to $22.00)": the round total after putting in `chips`, when the player already has chips in it."""
        return f" (to {money(self.in_round_cents + chips)})" if self.in_round_cents else ""

    @property
    def call_all_in(self) -> bool:
        """The call takes the whole stack: one button says so, and no All in button repeats it."""
        legal = self.legal
        return bool(legal and legal["call_cents"] is not None and legal["all_in_cents"] is not None
                    and self.in_round_cents + legal["call_cents"] == legal["all_in_cents"])

    @property
    def call_words(self) -> str:
        legal = self.legal
        if not legal or legal["call_cents"] is None:
            return ""
        chips = int(legal["call_cents"])
        return f"Call {money(chips)}{', all in' if self.call_all_in else ''}{self._to(chips)}"

    @property
    def all_in_words(self) -> str:
        """ "All in $9.00 (to $22.00)": the chips the player pushes, then the round total; empty when not offered."""
        legal = self.legal
        if not legal or legal["all_in_cents"] is None or self.call_all_in:
            return ""
        chips = int(legal["all_in_cents"]) - self.in_round_cents
        return f"All in {money(chips)}{self._to(chips)}"

    @property
    def amount_rule(self) -> str:
        """The one line saying how the buttons' amounts read, with the chips already in the round when there are."""
        if not self.legal:
            return ""
        seat = self.turn_seat
        name = seat.name if seat and seat.name else "the player"
        already = f" ({name} has {money(self.in_round_cents)} in it already)" if self.in_round_cents else ""
        return f"{AMOUNT_RULE}{already}."

    @property
    def amount_choices(self) -> list[AmountChoice]:
        """The bet or raise buttons with their amounts pre-filled: the minimum, and the pot when it is an amount the
        player may choose (pot limit: the most allowed). An amount that is all the player's chips is left to the
        All in button, so no two buttons do the same thing."""
        legal = self.legal
        if not legal:
            return []
        verb = "bet" if legal["bet"] else "raise" if legal["raise"] else ""
        if not verb:
            return []
        bounds = legal[verb]
        low, high = bounds["minimum_cents"], bounds["maximum_cents"]
        in_round = self.in_round_cents if verb == "raise" else 0
        all_in = legal.get("all_in_cents")
        if low == high:
            choices = [AmountChoice(verb, low, "", in_round)]
        else:
            choices = [AmountChoice(verb, low, "minimum", in_round)]
            pot = legal.get("pot_cents")
            if pot is not None and low < pot <= high:
                choices.append(AmountChoice(verb, pot, "pot" if pot < high else "pot, the most allowed", in_round))
            elif high != all_in:
                choices.append(AmountChoice(verb, high, "the most allowed", in_round))
        return [choice for choice in choices if choice.cents != all_in]

    @property
    def amount_range(self) -> dict[str, Any] | None:
        """A free amount between the minimum and the maximum (pot and no limit only), with its label: a bet is the
        amount, a raise the player's total for the round."""
        legal = self.legal
        if not legal:
            return None
        verb = "bet" if legal["bet"] else "raise" if legal["raise"] else ""
        if not verb or legal[verb]["minimum_cents"] == legal[verb]["maximum_cents"]:
            return None
        low, high = money(legal[verb]["minimum_cents"]), money(legal[verb]["maximum_cents"])
        if verb == "bet":
            words, button = f"Bet another amount ({low} to {high})", "Bet this amount"
        else:
            already = f"; {money(self.in_round_cents)} in already" if self.in_round_cents else ""
            words, button = f"Raise to another total for this round ({low} to {high}{already})", "Raise to this total"
        return {"verb": verb, **legal[verb], "words": words, "button": button}

    @property
    def draw(self) -> dict[str, Any] | None:
        return self.hand["draw"] if self.hand and self.awaiting_kind == AwaitKind.DRAW else None

    @property
    def draw_counts(self) -> list[CountChoice]:
        """A manual draw: the counts the rules allow, the ones above the limit needing an ace kept."""
        draw = self.draw
        if draw is None:
            return []
        counts = [CountChoice(n, False) for n in range(draw["minimum"], draw["maximum"] + 1)]
        counts += [CountChoice(n, True) for n in range(draw["maximum"] + 1, draw["maximum_keeping_ace"] + 1)]
        return counts

    @property
    def showing_seats(self) -> list[SeatView]:
        """A manual showdown: the seats whose hands are still to be recorded."""
        if self.awaiting_kind != AwaitKind.SHOW:
            return []
        pending = set(self.awaiting.get("seats", []))
        return [seat for seat in self.seats if seat.seat in pending]

    @property
    def muck_offered(self) -> bool:
        """A manual showdown offers each seat still to show a muck, unless forced play has every hand shown."""
        return bool(self.showing_seats) and not (self.rules is not None and self.rules.forced_play)

    @property
    def offered_kill_cards(self) -> list[str]:
        """The kill cards that may yet be recorded in this hand: a deck holds each card once, so one already
        recorded (another seat was dealt it, or a hand shown holds it) is not offered again."""
        used = self.used_cards
        return [code for code in self.kill_cards if code not in used]

    @property
    def killable_seats(self) -> list[SeatView]:
        """A manual hand with kill cards announced and not all recorded: the live seats that may yet be recorded
        dead."""
        if not (self.in_play and self.is_manual and self.offered_kill_cards):
            return []
        return [seat for seat in self.seats if seat.in_hand and not seat.status and not seat.shown]

    @property
    def pots(self) -> list[dict[str, Any]]:
        return list(self.hand["pots"]) if self.in_play and self.hand else []

    @property
    def pot_cents(self) -> int:
        return int(self.hand["pot_cents"]) if self.hand else self.carried_pot_cents

    @property
    def used_cards(self) -> set[str]:
        """Cards already seen in this hand (shown hands and kill cards): the picker greys them out."""
        if not self.hand:
            return set()
        seen = {card for seat in self.seats for card in seat.cards if seat.shown}
        for text in self.hand["actions"]:
            parts = text.split()
            if len(parts) == 3 and parts[1] == "killed":
                seen.add(parts[2])
        return seen

    @property
    def picker(self) -> list[list[str]]:
        return PICKER

    # --- the floor's rulings on the hand in play ----------------------------------------------------------------
    @property
    def recorded_actions(self) -> list[RecordedAction]:
        """The hand's recorded actions, numbered, in words: what the floor picks one of to correct."""
        if not self.in_play or not self.hand:
            return []
        labels = {seat.seat: seat.label for seat in self.seats}
        return [RecordedAction(index, text, action_words(text, labels))
                for index, text in enumerate(self.hand["actions"])]

    @property
    def award_seats(self) -> list[SeatView]:
        """The seats a pot may be awarded to by ruling: dealt into the hand and still seated (folded or dead
        players among them: the ruling may be that they should not be)."""
        return [seat for seat in self.seats if seat.in_hand and seat.active and seat.status != "left"]

    @property
    def close_award_seats(self) -> list[SeatView]:
        """Closing a Three Legged Race game with a carried pot: the seated players it may be awarded to."""
        if not (self.between_hands and self.plays_for_legs and self.carried_pot_cents):
            return []
        return self.active_seats

    @property
    def close_returns(self) -> str:
        """What closing gives back to each player's own chips in the carried pot, before the floor chooses: "$1.00 to
        Ann, $1.00 to Cy (has left: at the cashier)"; empty without a carried pot or when nobody is known to own it."""
        if not self.close_award_seats or self.game is None:
            return ""
        # Each person's own chips, the one who left a seat someone then took included: by (seat, occupant), as the
        # close pays them (tables.services.home_games._return_carried).
        everyone = list(HomeGamePlayer.objects.filter(game=self.game))
        numbers = occupant_numbers(everyone)
        person = {numbers[player.pk]: player for player in everyone}
        owed = returned_shares({numbers[p.pk]: p.carried_contribution_cents for p in everyone}, self.carried_pot_cents)
        return ", ".join(f"{money(cents)} to {person[key].name or f'Seat {key[0]}'}"
                         + (" (has left: at the cashier)" if person[key].left_at is not None else "")
                         for key, cents in sorted(owed.items()))

    # --- the result ---------------------------------------------------------------------------------------------
    @property
    def result(self) -> dict[str, Any] | None:
        return self.hand["result"] if self.hand and self.hand["status"] == HandRow.Status.SETTLED else None

    @property
    def house(self) -> dict[str, Any]:
        """What the house took for this hand (the hand view's, read from the ledger): time charge and rake."""
        house = self.hand.get("house") if self.hand else None
        return house or {"time_charge": None, "rake": None}

    @property
    def house_cents(self) -> int:
        """The rake the house took from this hand's pots (0 without a rake)."""
        rake = self.house["rake"]
        return int(rake["total_cents"]) if rake and self.result else 0

    @property
    def time_charge_line(self) -> str:
        """"Time charge $5.00 from each of seats 1, 2 and 3": what the house took as this hand started."""
        charge = self.house["time_charge"]
        return str(charge["line"]) if charge else ""

    @property
    def result_lines(self) -> list[tuple[str, str]]:
        """The result's lines under the headline, each with its element id (the rake's line: "rake")."""
        result = self.result
        if not result:
            return []
        rake = self.house["rake"]
        rake_line = rake["line"] if rake else None
        return [(line, "rake" if line == rake_line else "") for line in result["lines"][1:]]

    @property
    def result_wild(self) -> WildSpec:
        """The cards that were wild at this hand's showdown: the fixed ones plus Freak of Nature's slide."""
        result = self.result
        if not result or self.rules is None:
            return WildSpec.NONE
        slide = result.get("wild_rank")
        return hand_wild(self.rules, Rank.parse(slide) if slide else None)

    @property
    def result_hands(self) -> list[ShownHand]:
        """Each shown hand: the seat and its player as the hand recorded them (one who cashed out since is still
        named), its value, and its cards as given, each with whether it played wild."""
        result = self.result
        if not result or self.hand is None:
            return []
        hands = result["hands"]
        wild = self.result_wild
        return [ShownHand(player["seat"], seat_label(player["seat"], player["name"]), hands[key],
                          [(code, wild.is_wild(Card.parse(code))) for code in hands[key]["held"]])
                for player in self.hand["players"] if (key := str(player["seat"])) in hands]


def _seats(game: HomeGame, state: dict[str, Any], hand: dict[str, Any] | None) -> list[SeatView]:
    in_play = hand is not None and hand["status"] == HandRow.Status.IN_PLAY
    in_hand = {p["seat"]: p for p in hand["players"]} if hand else {}
    turn = hand["awaiting"].get("seat") if in_play and hand else None
    kind = hand["awaiting"].get("kind") if in_play and hand else None
    seats = []
    # One player to a seat: its last (the game's players come by seat, in the order they sat down). A seat its player
    # left is free again between hands, as one nobody played (the dealer seats the next player there): its player is
    # shown only while the hand they left is in play, or once the game is over.
    last = {player["seat"]: player for player in state["players"]}
    for player in last.values():
        number = player["seat"]
        if not player["active"] and game.is_open and not (in_play and number in in_hand):
            continue
        view = SeatView(seat=number, name=player["name"], player_card=player["player_card"],
                        stack_cents=player["stack_cents"], legs=player["legs"], active=player["active"],
                        cashed_out_cents=player["cashed_out_cents"],
                        chips_room_cents=max(game.buy_in_max_cents - player["stack_cents"], 0))
        played = in_hand.get(number)
        if played is not None and hand is not None:
            view.is_button = hand["button"] == number
            view.cards = list(played["cards"])
            view.shown = bool(played["cards"]) and hand["manual"]
            if in_play:
                view.in_hand = True
                view.stack_cents = played["stack_cents"] if player["active"] else 0
                view.in_pot_cents = played["in_pot_cents"]
                view.is_turn = number == turn and kind in (AwaitKind.ACTION, AwaitKind.DRAW)
            # A player who cashed out after the hand has left the game: the last hand's "folded" is stale.
            view.status = ("left" if played["left"] or not player["active"] else "dead" if played["dead"] else
                           "mucked" if played["mucked"] else "folded" if played["folded"] else
                           "all in" if in_play and played["stack_cents"] == 0 else "")
        elif not player["active"]:
            view.status = "left"
        elif in_play:
            view.status = "sitting out"
        seats.append(view)
    return seats


def _quoted(text: str, labels: dict[int, str]) -> str:
    return f"\u201c{action_words(text, labels)}\u201d"


def ruling_words(event: AuditEvent, number: int, labels: dict[int, str]) -> str:
    """One ruling on hand `number` in words: "Hand 3 corrected by the floor (fiona): action 3, “Seat 1 · Ann calls”,
    is now “Seat 1 · Ann folds”. Reason: ..."; a card the shoe misread; a pot awarded by ruling."""
    after = event.after or {}
    by = f"the floor ({event.actor_username})" if event.actor_username else "the floor"
    reason = event.reason.strip()
    why = f" Reason: {reason}" + ("" if reason.endswith((".", "!", "?")) else ".")
    if event.action == actions.HOME_POT_RULING.code:
        shares = ", ".join(f"{money(int(cents))} to {labels.get(int(seat), f'Seat {seat}')}"
                           for seat, cents in (after.get("awarded") or {}).items())
        return f"Hand {number}: the pot was awarded by ruling of {by}: {shares}.{why}"
    if "card" in after:
        seat = after.get("seat")
        held = f", in {labels.get(int(seat), f'Seat {seat}')}'s hand" if seat is not None else ""
        return (f"Hand {number} corrected by {by}: the card the shoe read as {card_face(str(after['replaced']))} was "
                f"{card_face(str(after['card']))}{held}; the hand was played again from its start.{why}")
    what = f"action {int(after.get('index', 0)) + 1}, {_quoted(str(after.get('replaced', '')), labels)},"
    done = (f"is now {_quoted(str(after['action']), labels)}" if after.get("action")
            else "was removed")
    return f"Hand {number} corrected by {by}: {what} {done}; the hand was played again from its start.{why}"


def _last_game(table: Table) -> HomeGame | None:
    return (HomeGame.objects.filter(table=table, status=HomeGame.Status.OPEN).select_related("table").first()
            or HomeGame.objects.filter(table=table).select_related("table").order_by("-number").first())


def home_token(table: Table) -> str:
    """The change token of the screen: the table's, its house rules' and the shown game's versions (each write to
    a game bumps its version under the game's lock), a shoe's last refusal and the table's latest floor call (a call
    outlives its game, and its answered line goes away after a while with no write at all)."""
    game = _last_game(table)
    config = HomeTableConfig.objects.filter(table=table).values_list("updated_at", flat=True).first()
    shown = f"{game.pk}.{game.version}" if game is not None else "-"
    shoe = refusal_token(table) if table.card_source == CardSource.SHOE or (
        game is not None and game.card_source == CardSource.SHOE) else "-"
    return (f"h{table.pk}.{table.version}.{table.is_open}.{config.timestamp() if config else '-'}.{shown}.{shoe}"
            f".call-{call_token(table) or '-'}")


def home_screen_for(table: Table) -> HomeScreen:
    """The screen of one home-game table: its house rules, the open (or last) game and its current (or last) hand."""
    token = home_token(table)
    config = HomeTableConfig.objects.filter(table=table).first()
    game = _last_game(table)
    announcement: list[str] = []
    state = None
    hand = row = None
    seats: list[SeatView] = []
    rules = None
    rulings: list[AuditEvent] = []
    if game is not None:
        rules = game_rules(game)
        state = game_view(game)
        announcement = list(state["announcement"])
        row = HandRow.objects.filter(game=game).order_by("-number").first()
        hand = hand_view(row, game) if row is not None else None
        rulings = hand_rulings(row) if row is not None else []
        seats = _seats(game, state, hand)
    elif config is not None:
        rules = announce_rules(table.table_type, config.rules)
        announcement = home_announcement(rules, config)
    screen = HomeScreen(table=table, token=token, config=config, announcement=announcement, game=game,
                        game_state=state, hand_row=row, hand=hand, seats=seats, rulings=rulings)
    if not screen.game_open and config is not None:
        screen.house_announcement = (announcement if game is None
                                     else home_announcement(announce_rules(table.table_type, config.rules), config))
    # A call outlives its hand and game: nobody but the floor closes it.
    screen.floor_call = table_call(table)
    if game is not None and game.is_open and game.card_source == CardSource.SHOE:
        screen.shoe_refusal = last_refusal(table, game, row)
    if rules is not None:
        screen.rules = rules
        screen.plays_for_legs = rules.plays_for_legs
        screen.legs_to_win = rules.legs_to_win if rules.plays_for_legs else None
        screen.kill_cards = [str(card) for card in sorted(rules.kill_cards, key=lambda c: c.index)] \
            if rules.kill_cards else []
        screen.seat_limit = min(seat_limit(table.table_type), rules.seat_limit)
    return screen
