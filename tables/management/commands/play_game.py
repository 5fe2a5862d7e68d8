"""play_game: play a DESIGN 9 game record through the home-game services (as the tablet and the API do) and print
what replay_game prints for it, from the stored game."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from audit.context import acting_as
from casino.engine.errors import EngineError
from casino.engine.home.awaiting import AwaitKind
from casino.engine.home.buy_ins import buy_in_range
from casino.engine.home.errors import IllegalAction
from casino.engine.home.game import not_seated
from casino.engine.home.house import verify_house
from casino.engine.home.record import GameRecord, HandRecord
from casino.engine.home.replay import is_close, is_ruling, parse_award, parse_close
from casino.errors import DomainError
from tables.management.commands.replay_game import Command as ReplayGame
from tables.management.commands.replay_game import describe, where
from tables.models import CardSource, HomeGame, HomeGamePlayer, HomeTableConfig, HouseCharge, Table
from tables.models import HomeHand as HandRow
from tables.selectors.home_records import charged_before, earlier_players, game_close_summary, house_charge
from tables.services.home_config import home_config_set
from tables.services.home_engine import game_rules, rebuild, refusals
from tables.services.home_games import game_close, game_open, player_add_chips, player_join, player_leave
from tables.services.home_hands import hand_act_text, hand_start
from tables.services.home_rulings import hand_award
from tables.services.tables import table_create, table_open

# The rule each refusal of the game's close breaks (the service names the code; the engine's replay the same rules).
_CLOSE_RULES = {
    "floor_only": "only a floor supervisor closes a game (DESIGN 7: the floor's ruling is final)",
    "read_only": "only a floor supervisor closes a game (DESIGN 7: the floor's ruling is final)",
    "reason_required": "the floor rules with a reason (DESIGN 7)",
    "no_player": "the floor awards the carried pot to a player of the game",
    "carried_pot_unowned": "a carried pot nobody is known to own goes by ruling to one seat",
    "game_over": "the game ends once: by the legs called or by the floor",
    "hand_in_play": "the floor closes a game between hands",
}

# The rule a refused `floor award` breaks, where the ruling service names only the code.
_RULING_RULES = {
    "floor_only": "only a floor supervisor awards a pot by ruling (DESIGN 7: the floor's ruling is final)",
    "read_only": "only a floor supervisor awards a pot by ruling (DESIGN 7: the floor's ruling is final)",
    "reason_required": "the floor rules with a reason (DESIGN 7)",
}


# The rule a refusal breaks where the service names only the code (the engine's replay names the same rules).
_RULES = {
    "bad_action": "actions follow DESIGN 9",
    "hand_over": "no action follows the end of a hand",
    "hand_unfinished": "every recorded hand is played to its end",
    "house_charge": "the house takes only the charge its table announced",
    "not_in_hand": "only a player dealt into the hand acts in it",
}


class Refused(Exception):
    """An action of the record the services refused: where it is and why, worded as replay_game words it."""

    def __init__(self, error: DomainError, hand: int, index: int, action: str) -> None:
        super().__init__(error.message)
        self.error, self.hand, self.index, self.action = error, hand, index, action
        # The engine's words without the service's "(rule: ...)"; the rule is said apart.
        self.reason: str = getattr(error, "reason", "") or error.message
        self.rule: str = getattr(error, "rule", "") or _RULES.get(error.code, "") or self.reason

    @property
    def message(self) -> str:
        """replay_game's message for the same refusal."""
        if is_close(self.action):
            return f"close ({self.action!r}): {self.reason}"
        if self.action == "before":
            return f"before the first hand: {self.reason}"
        if self.action == "after":
            return f"hand {self.hand}, after: {self.reason}"
        if self.action in ("start", "open") or self.index < 0 or not self.action:
            return f"hand {self.hand}: {self.reason}" if self.action == "start" else self.reason
        return f"hand {self.hand}, action {self.index} ({self.action!r}): {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.error.code, "message": self.message, "rule": self.rule, "hand": self.hand,
                "index": self.index, "action": self.action}


def _nothing(row: HandRow) -> None:
    """No check as a hand begins (a table without a time charge)."""


class Command(BaseCommand):
    help = ("Play a home-game record FILE.json through the services (its deck stands in for the shoe) and print what "
            "replay_game prints; an action the services refuse stops it with exit code 1.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="game record JSON (DESIGN 9); '-' reads standard input")
        parser.add_argument("--table", help="an open home-game table of the record's variant announcing its rules "
                                            "(default: a new table for this record)")
        parser.add_argument("--user", help="the floor supervisor or dealer to act as (default: the first floor user)")
        parser.add_argument("--json", action="store_true", help="print machine-readable JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        as_json: bool = options["json"]
        # replay_game reads the file and reports a stop the same way: one behaviour for both commands.
        loader = ReplayGame()
        loader.stdout, loader.stderr = self.stdout, self.stderr
        data = loader._load(options["file"])
        try:
            record = GameRecord.from_dict(data)
        except EngineError as exc:
            loader._fail(as_json, {"error": {"code": exc.code, "message": exc.message, "token": exc.token}},
                         f"bad game record ({exc.code}): {exc.message}")
        actor = self._actor(options["user"])
        try:
            with acting_as(user=actor, kind="user", name=f"play_game:{actor.username}"), transaction.atomic():
                game = self._play(record, actor, options["table"])
                result = outcome(game)
        except Refused as exc:
            loader._fail(as_json, {"error": exc.to_dict()},
                         f"illegal action {where(exc.hand, exc.index, exc.action)} = {exc.action!r}\n  {exc.reason}\n"
                         f"  rule broken ({exc.error.code}): {exc.rule}")
        if options["table"] is None and game.status == HomeGame.Status.OPEN:
            # Said on stderr: stdout is replay_game's output, to the byte. The table stands on the floor's live view
            # with the game in play and the stacks unpaid until the floor closes it.
            self.stderr.write(f"Table {game.table.name!r} was made for this record; its game {game.number} is still "
                              "open (the record does not close it): the floor closes the game and the table when "
                              "done with them.")
        if as_json:
            self.stdout.write(json.dumps(result, indent=2))
            return
        self.stdout.write(describe(result))

    def _actor(self, username: str | None) -> User:
        users = User.objects.filter(is_active=True)
        if username:
            user = users.filter(username=username).first()
            if user is None:
                raise CommandError(f"no active user named {username!r}")
            return user
        user = users.filter(Q(groups__name="floor") | Q(is_superuser=True)).order_by("-groups__name", "pk").first()
        if user is None:
            raise CommandError("no floor supervisor to act as: pass --user")
        return user

    def _table(self, record: GameRecord, name: str | None, actor: User, manual: bool) -> Table:
        rules = record.rules.to_dict()
        if name:
            table = Table.objects.filter(name=name).first()
            if table is None:
                raise CommandError(f"no table named {name!r}")
            if table.table_type != record.variant:
                raise CommandError(f"table {name} plays {table.table_type}, the record {record.variant}")
            config = HomeTableConfig.objects.filter(table=table).first()
            if config is None:
                raise CommandError(f"table {name} has no house rules: set them in the admin first")
            if config.rules != rules:
                differ = sorted(key for key in {*config.rules, *rules} if config.rules.get(key) != rules.get(key))
                said = "; ".join(f"{key}: table {config.rules.get(key)!r}, record {rules.get(key)!r}" for key in differ)
                raise CommandError(f"table {name} does not announce the record's rules ({said})")
            playing = HomeGame.objects.filter(table=table, status=HomeGame.Status.OPEN).first()
            if playing is not None:
                # Not the record's fault: the services would refuse its "open", and the stop would blame the record.
                raise CommandError(f"table {name} has game {playing.number} open: the floor closes it first, or "
                                   "play the record on a new table (no --table)")
            if record.house and house_charge(config) != dict(record.house):
                raise CommandError(f"table {name} charges {house_charge(config)}, the record {dict(record.house)}")
            if manual and table.card_source != CardSource.MANUAL:
                raise CommandError(f"table {name} deals from {table.card_source}: the record has manual hands")
            return table
        # The range admits exactly what the record needs (the services check each buy-in and chips added against
        # it): its smallest buy-in, and its largest stack after a buy-in or chips added, a pot won before included.
        low, high = buy_in_range(record)
        ante = record.rules.ante_cents or 0
        if low < max(ante, 1):
            raise CommandError("a player's stack is below the ante: play this record on a table with --table")
        try:
            table = table_create(name=f"play_game {record.variant} {timezone.now():%Y%m%d-%H%M%S.%f}",
                                 table_type=record.variant, actor=actor,
                                 card_source=CardSource.MANUAL if manual else CardSource.RNG)
            table_open(table=table, actor=actor)
            # The record's charge (an older record without one plays on a table that charges nothing).
            home_config_set(table=table, actor=actor, rules=rules, buy_in_min_cents=low, buy_in_max_cents=high,
                            **dict(record.house))
        except DomainError as exc:
            # A dealer (or compliance) may not make a table: one line, as any other stop before the first action.
            raise CommandError(f"{actor.username} cannot make a table for the record ({exc.code}): {exc.message}; "
                               "act as a floor supervisor (--user) or play on an open table (--table)") from exc
        return table

    def _play(self, record: GameRecord, actor: User, table_name: str | None) -> HomeGame:
        manual = any(hand.manual for hand in record.hands)
        table = self._table(record, table_name, actor, manual)
        try:
            game = game_open(table=table, actor=actor, players=[
                {"seat": seat, "name": name, "buy_in_cents": stack} for seat, name, stack in record.players])
        except DomainError as exc:
            raise Refused(exc, 0, -1, "open") from exc
        timed = game.charge == HouseCharge.TIME
        if record.before_house and not timed:
            error = DomainError(f"the record's house takes a time charge before the first hand but the table charges "
                                f"{game.charge}", code="house_charge")
            raise Refused(error, 0, -1, "before")
        try:
            for seat in record.before_leave:  # players who left before the first hand, as the record says
                player_leave(game=game.pk, actor=actor, seat=seat)
            for join in record.before_joins:  # and the next players at their seats, in the order they sat down
                player_join(game=game.pk, actor=actor, seat=join.seat, name=join.name, buy_in_cents=join.stack)
                if join.leave:  # one who got up again before the first hand
                    player_leave(game=game.pk, actor=actor, seat=join.seat)
        except DomainError as exc:
            raise Refused(exc, 0, -1, "before") from exc
        said = [house_said(record, hand) for hand in record.hands]
        for number, hand in enumerate(record.hands):
            # The record, not the clock, says whose time charge fell due before each hand: the charges written
            # after the hand before it, and before the first its `before.house` (none in an older record: its
            # starting stacks are after them).
            due = set(said[number - 1]) if number else {seat for seat, _ in record.before_house}
            self._hand(game, hand, number, actor, due if timed else None, said[number],
                       partial(self._verify_time, game, record, number) if timed else _nothing)
        if timed and record.hands and said[-1]:
            # A time charge is taken as a hand begins: none after the last hand (the engine's replay says the same).
            last = record.hands[-1]
            self._verify_house(game, said[-1], {}, len(last.actions), len(record.hands) - 1, "after",
                               "time charge after the last hand")
        if record.close is not None:
            self._close(game, record.close, len(record.hands), actor)
        return HomeGame.objects.get(pk=game.pk)

    def _verify_time(self, game: HomeGame, record: GameRecord, number: int, row: HandRow) -> None:
        """The time charges the services took as hand `number` began (its row just made), against those the record
        says: before the first hand its `before.house`, else the hand before's `after.house`."""
        if number == 0:
            if record.before_house:
                self._verify_house(game, dict(record.before_house), charged_before(row), -1, 0, "before",
                                   "time charge")
            return
        before = record.hands[number - 1]
        previous = HandRow.objects.get(game=game, number=row.number - 1)
        taken = previous.record.get("after", {}).get("house", {})
        self._verify_house(game, house_said(record, before), {int(s): c for s, c in taken.items()}, len(before.actions),
                           number - 1, "after", "time charge")

    def _verify_house(self, game: HomeGame, recorded: dict[int, int], taken: dict[int, int], index: int,
                      number: int, action: str, what: str) -> None:
        """The record's house charges against what the services took under the table's announced charge: a record
        that says otherwise is refused, worded as the engine's replay words it."""
        try:
            verify_house(house_charge(game), recorded, taken, what=what)
        except IllegalAction as exc:
            error = DomainError(exc.message, code=exc.code)
            error.rule, error.reason = exc.rule, exc.message  # type: ignore[attr-defined]
            raise Refused(error, number, index, action) from exc

    def _close(self, game: HomeGame, text: str, number: int, actor: User) -> None:
        """The record's `close`: the floor closes the game through the same service as the supervisor acting here
        (a dealer's --user is refused: floor_only), named as hand `number` (the count of hands), index 0."""
        try:
            with refusals():
                award_seat, reason = parse_close(text)
            game_close(game=game.pk, actor=actor, reason=reason, award_seat=award_seat)
        except DomainError as exc:
            if not getattr(exc, "rule", ""):
                exc.rule = _CLOSE_RULES.get(exc.code, exc.message)  # type: ignore[attr-defined]
            raise Refused(exc, number, 0, text) from exc

    def _hand(self, game: HomeGame, hand: HandRecord, number: int, actor: User, time_due: set[int] | None,
              said: dict[int, int], started: Callable[[HandRow], None]) -> None:
        try:
            deck = None if hand.manual else [str(card) for card in hand.deck]
            reshuffles = [[str(card) for card in stock] for stock in hand.reshuffles]
            row = hand_start(game=game.pk, actor=actor, button=hand.button, deck=deck, reshuffles=reshuffles,
                             time_due=time_due)
        except DomainError as exc:
            raise Refused(exc, number, -1, "start") from exc
        started(row)
        # A seat its player left after the hand and a newcomer took: the record's chips of that seat are the one
        # who left's (a newcomer's are in their join's stack), added before they leave.
        joined = {seat for seat, _, _ in hand.joins}
        early_chips: set[int] = set()
        # A leave of a seat nobody sits at is a newcomer's who joined after the hand and left before the next: it
        # follows their join and chips, as the engine's replay applies it.
        late: list[tuple[int, str, int]] = []
        for index, text in enumerate(hand.actions):
            try:
                if row.status != HandRow.Status.IN_PLAY:
                    leaver, _, verb = text.strip().partition(" ")
                    if verb.strip() != "leave" or not leaver.isdigit():
                        raise DomainError("the hand is already settled", code="hand_over")  # rule: _RULES
                    if not HomeGamePlayer.objects.filter(game=game, seat=int(leaver), left_at__isnull=True).exists():
                        late.append((index, text, int(leaver)))
                        continue
                    # Chips the leaver added after the hand come before their leave, as the engine's replay applies
                    # them (a player who left after hands later voided has the leave in the hand before those).
                    added = [cents for seat, cents in hand.chips if seat == int(leaver) and cents > 0]
                    for cents in added:
                        player_add_chips(game=game.pk, actor=actor, seat=int(leaver), amount_cents=cents)
                    if added or int(leaver) in joined:
                        early_chips.add(int(leaver))
                    player_leave(game=game.pk, actor=actor, seat=int(leaver))
                elif is_ruling(text):
                    # The floor's ruling goes through the ruling service, as the supervisor acting here.
                    with refusals():
                        amounts, reason = parse_award(text)
                    try:
                        row = hand_award(hand=row.pk, actor=actor, seats=list(amounts), amounts=amounts,
                                         reason=reason)
                    except DomainError as exc:
                        if not getattr(exc, "rule", "") and exc.code in _RULING_RULES:
                            exc.rule = _RULING_RULES[exc.code]  # type: ignore[attr-defined]
                        raise
                else:
                    row = hand_act_text(hand=row.pk, actor=actor, text=text)
            except DomainError as exc:
                raise Refused(exc, number, index, text) from exc
        if row.status == HandRow.Status.IN_PLAY:
            engine = rebuild(row, game_rules(HomeGame.objects.get(pk=game.pk)))
            awaiting = engine.awaiting
            waits = "show" if awaiting.kind is AwaitKind.SHOW else "act"
            error = DomainError(f"hand {number} ends unfinished: seat {awaiting.seat} is still to {waits} "
                                f"({engine.phase.value})", code="hand_unfinished")
            raise Refused(error, number, len(hand.actions), "")
        if row.status == HandRow.Status.SETTLED and HomeGame.objects.get(pk=game.pk).charge == HouseCharge.RAKE:
            # The rake the services took as the pots were awarded, against the record's.
            row.refresh_from_db(fields=["record"])
            taken = row.record.get("after", {}).get("house", {})
            self._verify_house(game, said, {int(s): c for s, c in taken.items()}, len(hand.actions),
                               number, "after", "rake")
        try:
            topped: set[int] = set()
            for seat, name, stack in hand.joins:
                if HomeGamePlayer.objects.filter(game=game, seat=seat, left_at__isnull=True).exists():
                    # The newcomer before them at this seat got up first (the seat's next late leave).
                    late_leave = next((item for item in late if item[2] == seat), None)
                    if late_leave is not None:
                        late.remove(late_leave)
                        self._leave(game, actor, number, late_leave)
                player_join(game=game.pk, actor=actor, seat=seat, name=name, buy_in_cents=stack)
                if seat not in topped and seat not in early_chips:
                    # The seat's chips are its first newcomer's (the next ones' are in their joins' stacks).
                    topped.add(seat)
                    for chipped, cents in hand.chips:
                        if chipped == seat and cents > 0:
                            player_add_chips(game=game.pk, actor=actor, seat=seat, amount_cents=cents)
            charges = HomeGame.objects.get(pk=game.pk).charge != HouseCharge.NONE
            for seat, cents in hand.chips:
                if seat in early_chips or (seat in topped and cents > 0):
                    continue
                if cents > 0:
                    player_add_chips(game=game.pk, actor=actor, seat=seat, amount_cents=cents)
                elif not charges:
                    # A record written before `house` existed: the charge is not said, so no table can be made for it.
                    raise DomainError(f"the record takes {-cents} cents from seat {seat} (a house charge) but the "
                                      "table charges nothing: play it on a table with its charge (--table)",
                                      code="house_charge")
            # The house's own charges are taken by the table's services (the rake as the pot is awarded, the time
            # charge before the next hand) and checked against the record's as they are taken.
            for seat, cents in hand.house:
                if not charges:
                    raise DomainError(f"the record's house takes {cents} cents from seat {seat} but the table charges "
                                      "nothing", code="house_charge")
        except DomainError as exc:
            raise Refused(exc, number, len(hand.actions), "after") from exc
        for late_leave in late:
            self._leave(game, actor, number, late_leave)

    def _leave(self, game: HomeGame, actor: User, number: int, late_leave: tuple[int, str, int]) -> None:
        """A leave after hand `number` of a newcomer who joined after it (index, text, seat), named as its action."""
        index, text, seat = late_leave
        try:
            if not HomeGamePlayer.objects.filter(game=game, seat=seat, left_at__isnull=True).exists():
                # Refused in the engine's words, as replay_game refuses it (the service's are the tablet's).
                with refusals():
                    raise not_seated(seat)
            player_leave(game=game.pk, actor=actor, seat=seat)
        except DomainError as exc:
            raise Refused(exc, number, index, text) from exc


def house_said(record: GameRecord, hand: HandRecord) -> dict[int, int]:
    """What the record says the house took after the hand (seat: cents): its `after.house`, and in a record written
    before `house` was recorded (no top-level `house`) the chips it takes away (negative `chips`), which were the
    house's charges."""
    said = dict(hand.house)
    if not record.house:
        for seat, cents in hand.chips:
            if cents < 0:
                said[seat] = said.get(seat, 0) - cents
    return said


def outcome(game: HomeGame) -> dict[str, Any]:
    """The stored game as DESIGN 9's output (what replay_game prints for its record)."""
    rows = HandRow.objects.filter(game=game, status=HandRow.Status.SETTLED).order_by("number")
    players = list(HomeGamePlayer.objects.filter(game=game).order_by("seat", "id"))
    last = {p.seat: p for p in players}  # each seat's last player; the earlier ones of a seat taken again apart
    result: dict[str, Any] = {
        "hands": [row.result for row in rows],
        "stacks": {str(p.seat): p.stack_cents if p.active else p.cashed_out_cents for p in last.values()},
        "carried_pot_cents": game.pot_cents,
        "game_winner": game.winners[0] if game.winners else None,
        "game_winners": list(game.winners),
    }
    if earlier := earlier_players(players):
        result["earlier"] = earlier
    if (close := game_close_summary(game)) is not None:
        result["close"] = {key: value for key, value in close.items() if key != "line"}
    return result
