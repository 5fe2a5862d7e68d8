"""Home-game ledger rows as compliance reads them: each stack leg with the person whose stack it moved, as of the
posting (a seat taken again has had several players over a game), and each row in words."""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery

from casino.engine.money import money
from tables.models import HomeAccount, HomeGame, HomeGamePlayer, HomeHand, HomeLedgerEntry


def _holder(field: str) -> Subquery:
    """`field` of the player at the entry's seat when it was posted: the last to sit down there by then (as
    `seat_names` names a hand's players). Exact: one player holds a seat at a time (a database constraint), a seat is
    taken again only between hands and after its player's leave cashed them out, and a player who left during a hand
    has the seat until that hand ends, so every posting at a seat falls between its player's sitting down and the
    next player's."""
    players = HomeGamePlayer.objects.filter(game_id=OuterRef("game_id"), seat=OuterRef("seat"),
                                            joined_at__lte=OuterRef("posted_at"))
    return Subquery(players.order_by("-joined_at", "-id").values(field)[:1])


def with_holders(entries: QuerySet[HomeLedgerEntry]) -> QuerySet[HomeLedgerEntry]:
    """The entries, each annotated `holder_id`, `holder_name` and `holder_card` (None where no seat)."""
    return entries.annotate(holder_id=_holder("id"), holder_name=_holder("name"), holder_card=_holder("player_card"))


# What a leg with no seat moved chips to or from, in the words the floor uses ("the cage" is the casino's cashier).
NO_SEAT_HOLDERS: dict[str, str] = {
    HomeAccount.POT: "Pot", HomeAccount.HOUSE: "House", HomeAccount.CASHIER: "Cage (cashier)",
}
HOUSE_CHARGES = {"rake": "House (rake)", "time_charge": "House (time charge)"}


def no_seat_holder(entry: HomeLedgerEntry) -> str:
    """ "Pot", "House (rake)", "House (time charge)" or "Cage (cashier)": who holds a leg that has no seat."""
    if entry.account == HomeAccount.HOUSE and entry.kind in HOUSE_CHARGES:
        return HOUSE_CHARGES[entry.kind]
    return NO_SEAT_HOLDERS.get(entry.account) or str(entry.get_account_display())


def seat_and_person(entry: HomeLedgerEntry) -> str:
    """ "Seat 2 · Ann (card 77)" for an entry of `with_holders`; for a leg with no seat, what it is ("Pot",
    "House (rake)", "Cage (cashier)")."""
    if entry.seat is None:
        return no_seat_holder(entry)
    name, card = getattr(entry, "holder_name", None), getattr(entry, "holder_card", None)
    # A player seated without a name is called after the seat ("Seat 5"): "Seat 5 · Seat 5" would say nothing.
    who = name if name and name != f"Seat {entry.seat}" else "unnamed player"
    if card:
        who = f"{who} (card {card})"
    return f"Seat {entry.seat} · {who}"


def ledger_rows(game: HomeGame, hand: HomeHand | None = None) -> list[dict[str, Any]]:
    """A game's ledger rows (or only its hand's) in the order they were posted, for the compliance timelines."""
    entries = HomeLedgerEntry.objects.filter(game=game)
    if hand is not None:
        entries = entries.filter(hand=hand)
    rows = []
    for entry in with_holders(entries.order_by("id")):
        # The kind in words ("buy in", "time charge"), as the trail shows stored codes; `kind` keeps the code.
        rows.append({"posted_at": entry.posted_at, "posting": entry.posting, "kind": entry.kind,
                     "kind_words": entry.kind.replace("_", " "),
                     "account": entry.get_account_display(), "seat": entry.seat,
                     "player_id": getattr(entry, "holder_id", None), "who": seat_and_person(entry),
                     "amount": money(entry.amount_cents), "amount_cents": entry.amount_cents})
    return rows
