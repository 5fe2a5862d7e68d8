"""The home game's DESIGN 9 record (what the export gives and replay_game reads) and the replay verdict: the stored
hands recomputed from their records and compared with what was stored."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from audit.models import AuditEvent
from casino.engine.errors import EngineError
from casino.engine.home.game import close_text
from casino.engine.home.record import BeforeJoin, GameRecord
from casino.engine.home.replay import ReplayError, hand_summary, replay
from tables import actions
from tables.models import HomeAccount, HomeGame, HomeGamePlayer, HomeLedgerEntry, HomeTableConfig, HouseCharge
from tables.models import HomeHand as HandRow
from tables.selectors.home import seat_names
from tables.services.home_chips import occupant_numbers
from tables.services.home_engine import game_rules, rebuild


def game_record(game: HomeGame) -> dict[str, Any]:
    """The game as the DESIGN 9 record it was played from: announced rules, players, each hand's record (voided
    hands left out: every chip went back to where it was). A hand in play is left out too: its record holds the
    whole deck, top first, so it would tell anyone who may read the table the cards still to come (the draws)."""
    every = list(HandRow.objects.filter(game=game).order_by("number"))
    rows = [row for row in every if row.status != HandRow.Status.VOIDED]
    before: dict[int, int] = {}
    if rows:
        names = seat_names(game, rows[0].started_at)  # who sat at each seat as the first hand began
        # The players are those dealt into the first hand, with their stacks as seated: the stacks then and what the
        # house took just before it (a time charge, the record's `before.house`; a seat it left with no chips is a
        # player too). Later joins and chips are in the `after` of the hand they followed.
        # A seat its player left before the first hand and the next took (`before.joins`): the charges the newcomer
        # paid, not those the one who left paid during hands later voided (their cash-out is after them).
        gone = list(HomeGamePlayer.objects.filter(game=game, left_at__lt=rows[0].started_at).order_by("seat", "id"))
        seated = {seat: player for seat, player in _seated_at(game, rows[0].started_at).items()
                  if any(p.seat == seat for p in gone)}
        before = charged_before(rows[0], since={seat: player.joined_at for seat, player in seated.items()})
        starting = {int(seat): cents for seat, cents in rows[0].stacks_before.items()}
        starting = {seat: starting.get(seat, 0) + before.get(seat, 0) for seat in sorted({*starting, *before})}
        # Players who left before it (during hands later voided, or before any hand): players who leave at once
        # (`before.leave`) with what they were paid, so the record keeps their buy-in and cash-out; at a seat taken
        # again before the first hand, its first player is the seat's player and the others join in the order they
        # sat down (`before.joins`), those who got up again before it with what they were paid.
        leavers: dict[int, int] = {}
        joins: list[BeforeJoin] = []
        for seat, people in _by_seat(gone).items():
            leavers[seat], names[seat] = people[0].cashed_out_cents, people[0].name
            joins += [BeforeJoin(seat, player.name, player.cashed_out_cents, leave=True) for player in people[1:]]
            if seat in seated and seat in starting:
                joins.append(BeforeJoin(seat, seated[seat].name, starting[seat]))
        starting.update(leavers)
    else:
        starting, leavers, names, joins = _players_without_hands(game)
    record: dict[str, Any] = {
        "variant": game.variant,
        "rules": game.rules,
        "players": [{"seat": seat, "name": names.get(seat, ""), "stack_cents": cents}
                    for seat, cents in sorted(starting.items())],
        "hands": _hand_records([row for row in every if row.status != HandRow.Status.IN_PLAY]),
    }
    if record["hands"] and any(row.status == HandRow.Status.IN_PLAY for row in every) \
            and game.charge == HouseCharge.TIME:
        # The time charges taken as the hand in play began belong with that hand, which is not in the record.
        kept = record["hands"][-1] = dict(record["hands"][-1])
        kept["after"] = {key: value for key, value in kept.get("after", {}).items() if key != "house"}
        if not kept["after"]:
            del kept["after"]
    if before:
        record["before"] = {"house": {str(seat): cents for seat, cents in sorted(before.items())}}
    if leavers:
        record.setdefault("before", {})["leave"] = sorted(leavers)
    if joins:
        record["before"]["joins"] = [join.to_dict() for join in joins]
    if house := house_charge(game):
        record["house"] = house
    if (close := game_close_summary(game)) is not None:
        record["close"] = close["line"]
    return record


def _players_without_hands(game: HomeGame) -> tuple[dict[int, int], dict[int, int], dict[int, str], list[BeforeJoin]]:
    """A record with no hand in it (none yet, or every one voided): the players are everyone seated, with their
    stacks; one who has left, with what they were paid, leaving at once (`before.leave`), except those the floor's
    close cashed out, whose stacks the close line pays. A seat taken again: its first player, who left, is the
    seat's player, and the others join after them in the order they sat down (`before.joins`), each who got up again
    with what they were paid (`"leave": true`), the last still seated with their stack. Returns the starting
    stacks, the leavers' cash-outs, the names and the joins."""
    closed_out = _cashed_out_by_close(game)
    starting: dict[int, int] = {}
    leavers: dict[int, int] = {}
    names: dict[int, str] = {}
    joins: list[BeforeJoin] = []
    for seat, at_seat in _by_seat(HomeGamePlayer.objects.filter(game=game).order_by("seat", "id")).items():
        first, last = at_seat[0], at_seat[-1]
        holding = last.stack_cents if last.left_at is None else closed_out.get(seat)
        names[seat] = first.name
        if holding is not None and len(at_seat) == 1:
            starting[seat] = holding
            continue
        leavers[seat] = starting[seat] = first.cashed_out_cents
        for player in at_seat[1:]:
            if player is last and holding is not None:
                joins.append(BeforeJoin(seat, player.name, holding))
            else:
                joins.append(BeforeJoin(seat, player.name, player.cashed_out_cents, leave=True))
    return dict(sorted(starting.items())), leavers, names, joins


def _by_seat(players: Iterable[HomeGamePlayer]) -> dict[int, list[HomeGamePlayer]]:
    """The players grouped by seat, each seat's in the order given (by id: the order they sat down)."""
    grouped: dict[int, list[HomeGamePlayer]] = {}
    for player in players:
        grouped.setdefault(player.seat, []).append(player)
    return grouped


def _cashed_out_by_close(game: HomeGame) -> dict[int, int]:
    """The stacks the floor's close cashed out (its audit event), by seat; empty unless the floor closed the game."""
    if game.status != HomeGame.Status.CLOSED:
        return {}
    event = AuditEvent.objects.filter(action=actions.HOME_GAME_CLOSE.code, object_type=game._meta.label_lower,
                                      object_id=str(game.pk)).order_by("-id").first()
    cashed = (event.after or {}).get("cashed_out", {}) if event is not None else {}
    return {int(seat): int(cents) for seat, cents in cashed.items()}


def _seated_at(game: HomeGame, moment: Any) -> dict[int, HomeGamePlayer]:
    """Each seat's player at `moment` (the last to sit down there by then, who had not left before it)."""
    seated: dict[int, HomeGamePlayer] = {}
    for player in HomeGamePlayer.objects.filter(game=game, joined_at__lte=moment).order_by("seat", "id"):
        if player.left_at is None or player.left_at >= moment:
            seated[player.seat] = player
    return seated


def charged_before(first: HandRow, since: dict[int, Any] | None = None) -> dict[int, int]:
    """What the house took from each seat before the game's first recorded hand (time charges; a later hand's are in
    the `after.house` of the hand before it): the ledger's charges posted before that hand's first posting; at the
    seats of `since` (seat -> when its player sat down), only those posted since."""
    since = since or {}
    start = HomeLedgerEntry.objects.filter(hand=first).order_by("id").values_list("id", flat=True).first()
    charges = HomeLedgerEntry.objects.filter(game_id=first.game_id, kind="time_charge", account=HomeAccount.STACK)
    # Without a posting of its own (no ante), the hand began after every charge taken for it.
    charges = charges.filter(id__lt=start) if start is not None else charges.filter(posted_at__lte=first.started_at)
    charged: dict[int, int] = {}
    for seat, cents, posted in charges.values_list("seat", "amount_cents", "posted_at"):
        if seat is not None and (seat not in since or posted >= since[seat]):
            charged[seat] = charged.get(seat, 0) - cents
    return {seat: cents for seat, cents in charged.items() if cents > 0}


def game_close_summary(game: HomeGame) -> dict[str, Any] | None:
    """How the floor closed the game (None unless it did): the record's `close` line and what replay_game prints for
    it, `{"reason", "award_seat", "carried_pot_cents", "paid": {seat: cents}}`, from the close's audit events (a
    game closed before the line was recorded: from the carried pot's return or ruling event)."""
    if game.status != HomeGame.Status.CLOSED:
        return None
    codes = (actions.HOME_GAME_CLOSE.code, actions.HOME_CARRIED_RETURN.code, actions.HOME_POT_RULING.code)
    events = {event.action: event.after or {} for event in AuditEvent.objects.filter(
        action__in=codes, object_type=game._meta.label_lower, object_id=str(game.pk)).order_by("id")}
    closed = events.get(actions.HOME_GAME_CLOSE.code, {})
    earlier: list[dict[str, int]] = []
    if "line" in closed:
        award_seat, carried, paid = closed["award_seat"], closed["carried_pot_cents"], dict(closed["paid"])
        earlier = list(closed.get("paid_earlier", []))
    else:
        moved = events.get(actions.HOME_POT_RULING.code) or events.get(actions.HOME_CARRIED_RETURN.code) or {}
        paid = {seat: cents for seat, cents in sorted(moved.get("to", {}).items(), key=lambda i: int(i[0]))
                if cents > 0}
        award_seat = int(next(iter(paid))) if actions.HOME_POT_RULING.code in events and paid else None
        carried = int(moved.get("carried_pot_cents", 0))
    reason = " ".join((game.end_reason or "closed by the floor").split())
    summary = {"line": close_text(award_seat, reason), "reason": reason, "award_seat": award_seat,
               "carried_pot_cents": carried, "paid": paid}
    if earlier:  # players who left a seat someone else then took, given back their own chips (seat, occupant)
        summary["paid_earlier"] = earlier
    return summary


def house_charge(charged: HomeGame | HomeTableConfig) -> dict[str, Any]:
    """A game's or a table's charge as a game record's `house` says it (empty: the house charges nothing)."""
    if charged.charge == HouseCharge.RAKE:
        return {"charge": "rake", "rake_basis_points": charged.rake_basis_points,
                "rake_cap_cents": charged.rake_cap_cents}
    if charged.charge == HouseCharge.TIME:
        return {"charge": "time", "time_charge_cents": charged.time_charge_cents}
    return {}


def _hand_records(rows: list[HandRow]) -> list[dict[str, Any]]:
    """Each hand's record but the voided ones. A player who left during a voided hand still left (their chips in it
    went to the cashier with the void): with every chip back, that is a leave after the hand before, as DESIGN 9
    records a leave between hands."""
    records: list[dict[str, Any]] = []
    for row in rows:
        if row.status != HandRow.Status.VOIDED:
            records.append(_hand_record(row))
            continue
        leaves = [text for text in row.record.get("actions", []) if text.rstrip().endswith(" leave")]
        if leaves and records:
            records[-1]["actions"] = [*records[-1]["actions"], *leaves]
    return records


def hands_in_record(game: HomeGame) -> list[tuple[HandRow, int | None]]:
    """Each hand of the game with its place in the game record (1 for the record's first hand), None for one the
    record leaves out (voided, or in play): replay_game numbers the record's hands, not the table's."""
    placed: list[tuple[HandRow, int | None]] = []
    count = 0
    for row in HandRow.objects.filter(game=game).order_by("number"):
        if row.status == HandRow.Status.SETTLED:
            count += 1
            placed.append((row, count))
        else:
            placed.append((row, None))
    return placed


def _hand_record(row: HandRow) -> dict[str, Any]:
    record = dict(row.record)
    if row.manual:
        record.pop("dealt", None)
    return record


def game_replay(game: HomeGame) -> dict[str, Any]:
    """The replay verdict: the exported record recomputed through the engine, compared hand by hand with what was
    stored; differences listed. A pot awarded by the floor's ruling is a line of its hand's record, so the replay
    goes on past it; it stops before a hand in play (the note says so)."""
    record = game_record(game)  # the hand in play is not in it
    rows = list(HandRow.objects.filter(game=game).exclude(status=HandRow.Status.VOIDED).order_by("number"))
    note = ""
    for position, row in enumerate(rows):
        if row.status == HandRow.Status.IN_PLAY:
            note = f"hand {row.number} is in play: the replay checks the {position} hands before it"
            rows = rows[:position]
            break
    try:
        outcome = replay(GameRecord.from_dict(record))
    except (ReplayError, EngineError) as exc:
        return {"ok": False, "differences": [exc.message], "replay": None, "note": note}
    differences = [
        f"hand {row.number}: stored {row.result} but the replay gives {theirs}"
        for row, theirs in zip(rows, outcome["hands"], strict=False) if row.result != theirs
    ]
    if len(rows) != len(outcome["hands"]):
        differences.append(f"{len(rows)} hands stored, {len(outcome['hands'])} replayed")
    if (close := game_close_summary(game)) is not None:
        stored_close = {key: value for key, value in close.items() if key != "line"}
        if outcome.get("close") != stored_close:
            differences.append(f"close: stored {stored_close} but the replay gives {outcome.get('close')}")
        # Each seat's last player's cash-out, and each earlier player's (who left a seat someone then took) apart.
        players = list(game.players.order_by("seat", "id"))
        cashed = {str(player.seat): player.cashed_out_cents for player in players}
        stacks = {seat: cashed.get(seat) for seat in outcome["stacks"]}
        if stacks != outcome["stacks"]:
            differences.append(f"cash-outs: stored {stacks} but the replay gives {outcome['stacks']}")
        earlier = earlier_players(players)
        if earlier != outcome.get("earlier", []):
            differences.append(f"cash-outs of players who left a seat taken again: stored {earlier} but the replay "
                               f"gives {outcome.get('earlier', [])}")
    rulings = [row.number for row in rows if row.ruling]
    answer: dict[str, Any] = {"ok": not differences, "differences": differences, "replay": outcome}
    if rulings:
        note = (note + "; " if note else "") + "the replay applies the floor's ruling recorded in hand " + \
            ", ".join(map(str, rulings))
    if note:
        answer["note"] = note
    return answer


def earlier_players(players: list[HomeGamePlayer]) -> list[dict[str, int]]:
    """The players (by seat, then in the order they sat) who left a seat someone else then took, as replay_game
    prints them: `{"seat", "occupant" (1 = the seat's first player), "stack_cents" (what they went home with)}`."""
    numbers = occupant_numbers(players)
    last = {seat: occupant for seat, occupant in sorted(numbers.values())}
    return [{"seat": seat, "occupant": occupant, "stack_cents": player.cashed_out_cents}
            for player in sorted(players, key=lambda player: (player.seat, player.pk))
            for seat, occupant in [numbers[player.pk]] if occupant < last[seat]]


def hand_verdict(row: HandRow) -> dict[str, Any]:
    """One hand recomputed through the engine from its record and compared with what was stored."""
    if row.status == HandRow.Status.VOIDED:
        return {"ok": True, "differences": [], "note": f"voided: {row.void_reason}"}
    hand = rebuild(row, game_rules(row.game))
    if row.status == HandRow.Status.IN_PLAY:
        return {"ok": True, "differences": [], "note": f"in play ({hand.phase.value})"}
    if not hand.settled:
        return {"ok": False, "differences": ["the record does not reach the end of the hand"]}
    recomputed = hand_summary(hand)
    differences = [f"{key}: stored {row.result.get(key) if row.result else None}, recomputed {value}"
                   for key, value in recomputed.items() if not row.result or row.result.get(key) != value]
    answer: dict[str, Any] = {"ok": not differences, "differences": differences}
    if row.ruling:
        answer["note"] = f"the pot was awarded by the floor's ruling: {row.ruling.get('reason', '')}"
    return answer
