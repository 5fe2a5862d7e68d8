"""The home-game chip ledger: every chip movement is a balanced posting; the game's sums are checked at commit.

Accounts: the cashier (buy-ins and cash-outs), each player's stack, the pot (the middle) and the house. A posting's
legs sum to zero, so Σ stacks + pot + house = −cashier = Σ buy-ins − Σ cash-outs at every commit. PostgreSQL checks
it with deferred constraint triggers (migration 0008); elsewhere `verify_balanced` checks it before commit.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from django.db import connection
from django.db.models import Q, Sum
from django.utils import timezone

from casino.errors import ConcurrentChange
from casino.sql import insert_rows
from tables.models import HomeAccount, HomeGame, HomeGamePlayer, HomeHand, HomeLedgerEntry

Leg = tuple[str, int | None, int]  # account, seat (stack legs), signed cents


def post(game: HomeGame, kind: str, legs: Iterable[Leg], *, hand: HomeHand | None = None) -> str:
    """Write one balanced posting (legs of zero cents are left out); returns its id ("" when nothing moved)."""
    rows = [leg for leg in legs if leg[2] != 0]
    if not rows:
        return ""
    if sum(amount for _, _, amount in rows) != 0:
        raise ValueError(f"posting {kind} does not sum to zero: {rows}")
    posting, now = uuid.uuid4().hex, timezone.now()
    # Written out (casino.sql): most actions of a hand post, and bulk_create's preparation cost more CPU than the
    # INSERT; the database's balance checks apply as to any insert.
    insert_rows(
        [HomeLedgerEntry(game_id=game.pk, hand_id=hand.pk if hand is not None else None, posting=posting, kind=kind,
                         account=account, seat=seat, amount_cents=amount, posted_at=now)
         for account, seat, amount in rows]
    )
    return posting


def stack_to_pot(seat: int, cents: int) -> list[Leg]:
    """Chips from a stack into the middle (negative cents: back out of the middle)."""
    return [(HomeAccount.STACK, seat, -cents), (HomeAccount.POT, None, cents)]


def verify_balanced(game: HomeGame) -> None:
    """Where the database cannot check it (SQLite), check the game's sums and its ledger against the rows."""
    if connection.vendor == "postgresql":
        return  # the deferred triggers check it at commit
    game = HomeGame.objects.get(pk=game.pk)
    stacks = HomeGamePlayer.objects.filter(game=game).aggregate(total=Sum("stack_cents"))["total"] or 0
    if stacks + game.pot_cents + game.house_cents != game.buy_ins_cents - game.cash_outs_cents:
        raise ConcurrentChange(f"{game}: the chips do not balance", code="ledger_unbalanced")
    sums = HomeLedgerEntry.objects.filter(game=game).aggregate(
        stack=Sum("amount_cents", filter=Q(account=HomeAccount.STACK)),
        pot=Sum("amount_cents", filter=Q(account=HomeAccount.POT)),
        house=Sum("amount_cents", filter=Q(account=HomeAccount.HOUSE)),
        cashier=Sum("amount_cents", filter=Q(account=HomeAccount.CASHIER)),
    )
    expected = {"stack": stacks, "pot": game.pot_cents, "house": game.house_cents,
                "cashier": game.cash_outs_cents - game.buy_ins_cents}
    if any((sums[key] or 0) != value for key, value in expected.items()):
        raise ConcurrentChange(f"{game}: the ledger disagrees with the game", code="ledger_unbalanced")
