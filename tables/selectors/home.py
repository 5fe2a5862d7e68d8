"""The read model of home games: a hand's state (with the legal actions and their amounts), a game's state, its
hands, and the change tokens of both (the record export and the replay verdict are in home_records)."""

from __future__ import annotations

from typing import Any

from casino.engine.home.hand import HomeHand
from casino.engine.money import money
from casino.engine.rules.words import listed
from tables.models import HomeAccount, HomeGame, HomeGamePlayer, HomeLedgerEntry, HouseCharge
from tables.models import HomeHand as HandRow
from tables.services.home_config import announcement
from tables.services.home_engine import game_rules, rebuild, remembered


def hand_view(row: HandRow, game: HomeGame | None = None) -> dict[str, Any]:
    """Everything a dealer screen or API client needs about one hand, rebuilt from its record."""
    game = game or row.game
    built = remembered(row)
    if built is not None:  # the answer to a write: the hand it just stored
        hand, names = built
    else:
        hand = rebuild(row, game_rules(game))
        names = seat_names(game, row.started_at)
    in_play = row.status == HandRow.Status.IN_PLAY
    legal = hand.legal_actions() if in_play else None
    draw = hand.draw_choice() if in_play else None
    result = hand.result(names)
    settled = row.status == HandRow.Status.SETTLED
    house = house_taken(row, game)
    raked = house["rake"]["by_seat"] if house["rake"] else {}
    voided = row.status == HandRow.Status.VOIDED
    time_returned = _time_returned(row) if voided and game.charge == HouseCharge.TIME else {}
    answer_result: dict[str, Any] | None = result.to_dict() if result is not None and settled else None
    if answer_result is not None and house["rake"]:  # the result's last line: the rake the house took
        answer_result["lines"] = [*answer_result["lines"], house["rake"]["line"]]
    return {
        "id": row.pk,
        "game_id": game.pk,
        "table_id": game.table_id,
        "number": row.number,
        "status": row.status,
        "phase": hand.phase.value,
        "button": row.button,
        "manual": row.manual,
        "version": row.version,
        "pot_cents": _middle(hand),
        "carried_in_cents": row.carried_before_cents,
        "pots": [pot.to_dict() for pot in hand.pots] if in_play else [],
        "players": [_player(hand, seat, names.get(seat, ""), raked.get(str(seat), 0), voided=voided,
                            time_returned=time_returned.get(seat, 0)) for seat in hand.seats],
        "awaiting": hand.awaiting.to_dict() if in_play else {"kind": "nothing", "seat": None, "count": 0,
                                                              "seats": [], "text": f"the hand is {row.status}"},
        # The deal or a draw's replacements as far as they came (a shoe's, or the system's): "3 of 25 cards".
        "card_progress": _progress(hand) if in_play else None,
        "legal": legal.to_dict() if legal is not None else None,
        "draw": draw.to_dict() if draw is not None else None,
        "actions": list(row.record.get("actions", [])),
        "result": answer_result,
        "house": house,
        "summary": row.result,
        "ruling": row.ruling,
        "void_reason": row.void_reason,
        "corrected": row.original_record is not None,
    }


def _progress(hand: HomeHand) -> dict[str, int] | None:
    progress = hand.card_progress
    return {"received": progress[0], "of": progress[1]} if progress is not None else None


def shoe_progress(row: HandRow) -> dict[str, Any]:
    """What a shoe's report is told after it: what the hand awaits next and how many cards it is still to report."""
    built = remembered(row)
    hand = built[0] if built is not None else rebuild(row, game_rules(row.game))
    in_play = row.status == HandRow.Status.IN_PLAY
    awaiting = hand.awaiting.to_dict() if in_play else {"kind": "nothing", "text": f"the hand is {row.status}"}
    return {"awaiting": awaiting, "cards_due": hand.cards_due if in_play else 0}


def seat_names(game: HomeGame, at: Any = None) -> dict[int, str]:
    """Each seat's player's name: the last to sit down there (by `at`, a hand's start: who played it). A seat taken
    again after its player left names the newcomer from then on, the one who left before."""
    players = HomeGamePlayer.objects.filter(game=game)
    if at is not None:
        players = players.filter(joined_at__lte=at)
    return dict(players.order_by("seat", "id").values_list("seat", "name"))


def _middle(hand: HomeHand) -> int:
    return hand.settlement.carried_pot_cents if hand.settlement is not None else hand.pot_cents


def house_taken(row: HandRow, game: HomeGame) -> dict[str, Any]:
    """What the house took for this hand, read from the ledger (the one record of the house's charges):
    `time_charge`, taken from each seat as the hand started, and `rake`, taken from the winners when it settled;
    each `{"total_cents", "by_seat": {seat: cents}, "line"}` or None. Tables without that charge read nothing."""
    time_charge = rake = None
    if game.charge == HouseCharge.TIME:
        time_charge = _charge(time_charged(row), "Time charge")
    if game.charge == HouseCharge.RAKE and row.status == HandRow.Status.SETTLED:
        taken = HomeLedgerEntry.objects.filter(hand=row, kind="rake", account=HomeAccount.STACK).order_by("id")
        rake = _charge(_by_seat(taken.values_list("seat", "amount_cents")), "Rake")
        if rake is not None:  # the winner is named in the lines above it; winners of a split, here with each share
            total = money(rake["total_cents"])
            if len(rake["by_seat"]) > 1:
                names = seat_names(game, row.started_at)
                paid = [f"{money(cents)} from {names.get(int(seat)) or f'seat {seat}'}"
                        for seat, cents in rake["by_seat"].items()]
                rake["line"] = f"Rake {total} to the house: {listed(paid)}"
            else:
                rake["line"] = f"Rake {total} to the house, from the winner"
    return {"time_charge": time_charge, "rake": rake}


def _time_returned(row: HandRow) -> dict[int, int]:
    """The time charge a void gave back with the hand (seat -> cents)."""
    returned: dict[int, int] = {}
    for seat, cents in HomeLedgerEntry.objects.filter(hand=row, kind="time_charge",
                                                      account=HomeAccount.STACK).values_list("seat", "amount_cents"):
        if seat is not None:
            returned[seat] = returned.get(seat, 0) + cents
    return returned


def time_charged(row: HandRow) -> dict[int, int]:
    """The time charges taken as this hand started: posted (with no hand) after the hands before it had posted
    everything, and before this hand's own first posting (its antes; without one, by the clock); less what a void of
    the hand gave back (posted with the hand)."""
    earlier = HomeLedgerEntry.objects.filter(game_id=row.game_id, hand__game_id=row.game_id,
                                             hand__number__lt=row.number)
    after = earlier.order_by("-id").values_list("id", flat=True).first()
    start = HomeLedgerEntry.objects.filter(hand=row).order_by("id").values_list("id", flat=True).first()
    charges = HomeLedgerEntry.objects.filter(game_id=row.game_id, kind="time_charge", account=HomeAccount.STACK,
                                             hand__isnull=True)
    if after is not None:
        charges = charges.filter(id__gt=after)
    charges = charges.filter(id__lt=start) if start is not None else charges.filter(posted_at__lte=row.started_at)
    taken = _by_seat(charges.values_list("seat", "amount_cents"))
    for seat, cents in _time_returned(row).items():
        taken[seat] = taken.get(seat, 0) - cents
    return {seat: cents for seat, cents in taken.items() if cents > 0}


def _by_seat(legs: Any) -> dict[int, int]:
    """A charge's stack legs (negative cents) as the cents taken from each seat."""
    taken: dict[int, int] = {}
    for seat, cents in legs:
        if seat is not None:
            taken[seat] = taken.get(seat, 0) - cents
    return {seat: cents for seat, cents in sorted(taken.items()) if cents > 0}


def _charge(taken: dict[int, int], name: str) -> dict[str, Any] | None:
    """`taken` (seat -> cents) as the hand view gives it, with its line: "Time charge $5.00 from each of seats 1, 2
    and 3", or each seat's amount when they differ (a short stack pays what it has)."""
    if not taken:
        return None
    seats = list(taken)
    amounts = set(taken.values())
    if len(seats) == 1:
        line = f"{name} {money(taken[seats[0]])} from seat {seats[0]}"
    elif len(amounts) == 1:
        line = f"{name} {money(amounts.pop())} from each of seats {listed(str(seat) for seat in seats)}"
    else:
        line = f"{name}: " + ", ".join(f"{money(cents)} from seat {seat}" for seat, cents in taken.items())
    return {"total_cents": sum(taken.values()), "by_seat": {str(seat): cents for seat, cents in taken.items()},
            "line": line}



def _player(hand: HomeHand, seat: int, name: str, raked: int = 0, *, voided: bool = False,
            time_returned: int = 0) -> dict[str, Any]:
    """One player as the hand left them: a settled hand's stack is after the rake the house took from it; a voided
    hand's is after the void gave back every chip it had put in (the audit trail's void event lists them) and the
    time charge taken as it started."""
    player = hand.players[seat]
    # A player who left during the voided hand was paid theirs at the cashier, not into a stack.
    returned = player.contributed + time_returned if voided and not player.left else 0
    return {
        "seat": seat,
        "name": name,
        "stack_cents": player.stack - raked + returned,
        "in_pot_cents": 0 if voided else player.contributed,
        "folded": player.folded,
        "mucked": player.mucked,
        "dead": player.dead,
        "left": player.left,
        "live": player.live,
        "cards": [str(card) for card in player.cards],
    }


def game_view(game: HomeGame) -> dict[str, Any]:
    """A game: its announced rules (in words too), charge, money, players, legs and the hand in play."""
    rules = game_rules(game)
    # Every player, a seat taken again after its player left listing them in the order they sat (`active`: seated).
    players = list(HomeGamePlayer.objects.filter(game=game).order_by("seat", "id"))
    current = HandRow.objects.filter(game=game, status=HandRow.Status.IN_PLAY).first()
    last = HandRow.objects.filter(game=game).order_by("-number").values("id", "number", "status", "phase").first()
    return {
        "id": game.pk,
        "table_id": game.table_id,
        "table_name": game.table.name,
        "number": game.number,
        "status": game.status,
        "variant": game.variant,
        "card_source": game.card_source,
        "rules": game.rules,
        "announcement": announcement(rules, game),
        "buy_in_min_cents": game.buy_in_min_cents,
        "buy_in_max_cents": game.buy_in_max_cents,
        "charge": game.charge,
        "rake_basis_points": game.rake_basis_points,
        "rake_cap_cents": game.rake_cap_cents,
        "time_charge_cents": game.time_charge_cents,
        "pot_cents": game.pot_cents,
        "house_cents": game.house_cents,
        "buy_ins_cents": game.buy_ins_cents,
        "cash_outs_cents": game.cash_outs_cents,
        "legs_to_win": rules.legs_to_win if rules.plays_for_legs else None,
        "winners": list(game.winners),
        "players": [
            {"id": p.pk, "seat": p.seat, "name": p.name, "player_card": p.player_card, "stack_cents": p.stack_cents,
             "bought_in_cents": p.bought_in_cents, "cashed_out_cents": p.cashed_out_cents, "legs": p.legs,
             "active": p.active, "joined_at": p.joined_at, "left_at": p.left_at}
            for p in players
        ],
        "current_hand": {"id": current.pk, "number": current.number, "phase": current.phase} if current else None,
        "last_hand": last,
        "version": game.version,
        "opened_at": game.opened_at,
        "ended_at": game.ended_at,
        "end_reason": game.end_reason,
    }


def game_hands(game: HomeGame) -> list[dict[str, Any]]:
    """Every hand of a game in order, in brief: its id (what /hands/{id}/ takes), number, how it stands or ended."""
    rows = HandRow.objects.filter(game=game).order_by("number").values(
        "id", "number", "status", "phase", "button", "started_at", "settled_at", "voided_at", "void_reason",
        "ruling", "original_record")
    return [{
        "id": row["id"], "number": row["number"], "status": row["status"], "phase": row["phase"],
        "button": row["button"], "started_at": row["started_at"], "ended_at": row["settled_at"] or row["voided_at"],
        "void_reason": row["void_reason"], "ruled": row["ruling"] is not None,
        "corrected": row["original_record"] is not None,
    } for row in rows]


def game_token(game: HomeGame) -> str:
    """The change token of a game's state (the API's ETag): every write to a game bumps its version under the game's
    lock (its hands', players' and rulings' included), and the table's version covers the table's name it shows."""
    return f"g{game.pk}.{game.version}.t{game.table_id}.{game.table.version}"


def hand_token(row: HandRow) -> str:
    """The change token of a hand's state (the API's ETag): the hand's version and its game's (the seats' names and
    charges it shows are the game's; every write to the hand bumps both)."""
    return f"h{row.pk}.{row.version}.g{row.game_id}.{row.game.version}"
