"""Triple Draw rounds (DESIGN 5): rounds, bets, seat hands, draw rows, card placements, outcomes and the ledger."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from casino.engine.hand_words import hand_label
from casino.engine.money import money
from casino.engine.triple_draw import CARDS_PER_HAND, MAX_CIRCLES, MAX_SEATS, ROW_COUNT
from paytables.models import Paytable
from tables.models.tables import Table


class Round(models.Model):
    """One Triple Draw round at a table, from betting to settlement (or void)."""

    class Phase(models.TextChoices):
        BETTING = "betting", "Betting"
        DEALING = "dealing", "Dealing (bets closed)"
        HOLDING = "holding", "Holding"
        DRAWING = "drawing", "Drawing"
        SETTLING = "settling", "Settling"
        AWAITING_APPROVAL = "awaiting_approval", "Awaiting supervisor approval"
        SETTLED = "settled", "Settled"
        VOIDED = "voided", "Voided"

    FINISHED = (Phase.SETTLED, Phase.VOIDED)

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    # Raised under the row lock by every write to the round (tables/versions.py), so it grows in commit order.
    version = models.PositiveBigIntegerField(default=0, editable=False)
    phase = models.CharField(max_length=20, choices=Phase.choices, default=Phase.BETTING)
    # Locked when bets close; approved versions never change, and the snapshot keeps the exact lines paid.
    paytable = models.ForeignKey(Paytable, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    paytable_snapshot = models.JSONField(null=True, blank=True)
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    started_at = models.DateTimeField()
    bets_closed_at = models.DateTimeField(null=True, blank=True)
    rows_recorded_at = models.DateTimeField(null=True, blank=True)
    settle_queued_at = models.DateTimeField(null=True, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["table", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="round_table_number_unique"),
            # At most one round in play per table.
            models.UniqueConstraint(
                fields=["table"], condition=~Q(phase__in=["settled", "voided"]), name="round_one_open_per_table"
            ),
            models.CheckConstraint(condition=~Q(phase="voided") | ~Q(void_reason=""), name="round_void_has_reason"),
            models.CheckConstraint(
                condition=Q(phase__in=["betting", "voided"]) | Q(paytable__isnull=False),
                name="round_paytable_locked_after_bets",
            ),
        ]
        indexes = [models.Index(fields=["phase"], name="round_phase_idx")]

    def __str__(self) -> str:
        return f"{self.table} round {self.number}"

    @property
    def is_finished(self) -> bool:
        return self.phase in self.FINISHED


class Bet(models.Model):
    """One seat's bet in one betting circle (circle r is paid with draw row r)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="bets")
    seat_number = models.PositiveSmallIntegerField()
    circle = models.PositiveSmallIntegerField()
    amount_cents = models.PositiveIntegerField()
    placed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "seat_number", "circle"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat_number", "circle"], name="bet_one_per_circle"),
            models.CheckConstraint(condition=Q(circle__gte=1, circle__lte=MAX_CIRCLES), name="bet_circle_1_to_3"),
            models.CheckConstraint(condition=Q(seat_number__gte=1, seat_number__lte=MAX_SEATS), name="bet_seat_1_to_7"),
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="bet_amount_positive"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat_number} circle {self.circle}: {money(self.amount_cents)}"


class SeatHand(models.Model):
    """A seat's five dealt cards (when recorded) and the cards it holds for every circle."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seat_hands")
    seat_number = models.PositiveSmallIntegerField()
    dealt = models.JSONField(default=list, blank=True)  # card codes in dealing order, [] when not recorded
    held = models.JSONField(null=True, blank=True)  # card codes; null until the hold is recorded
    held_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "seat_number"]
        constraints = [models.UniqueConstraint(fields=["round", "seat_number"], name="seathand_one_per_seat")]

    def __str__(self) -> str:
        return f"{self.round} seat {self.seat_number}"


class DrawRow(models.Model):
    """One of the three shared rows of five draw cards."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="draw_rows")
    row = models.PositiveSmallIntegerField()
    cards = models.JSONField()

    class Meta:
        ordering = ["round", "row"]
        constraints = [
            models.UniqueConstraint(fields=["round", "row"], name="drawrow_one_per_row"),
            models.CheckConstraint(condition=Q(row__gte=1, row__lte=ROW_COUNT), name="drawrow_row_1_to_3"),
        ]

    def __str__(self) -> str:
        return f"{self.round} row {self.row}"


class RoundCard(models.Model):
    """Where each known card of a round lies; the unique index makes a card twice in a round impossible."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="cards")
    card = models.CharField(max_length=2)  # canonical code, e.g. "Qs"
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    row = models.PositiveSmallIntegerField(null=True, blank=True)
    position = models.PositiveSmallIntegerField(null=True, blank=True)  # 1-5; null for a held card never dealt

    class Meta:
        ordering = ["round", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "card"], name="roundcard_card_once_per_round"),
            models.CheckConstraint(
                condition=(Q(seat_number__isnull=False) & Q(row__isnull=True))
                | (Q(seat_number__isnull=True) & Q(row__isnull=False)),
                name="roundcard_seat_xor_row",
            ),
            models.CheckConstraint(
                condition=Q(position__isnull=True) | Q(position__gte=1, position__lte=CARDS_PER_HAND),
                name="roundcard_position_1_to_5",
            ),
        ]

    def __str__(self) -> str:
        return self.card


class HandOutcome(models.Model):
    """How one bet's hand came out: its five cards, category, the paytable line it made and what it returned."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="outcomes")
    bet = models.OneToOneField(Bet, on_delete=models.PROTECT, related_name="outcome")
    seat_number = models.PositiveSmallIntegerField()
    circle = models.PositiveSmallIntegerField()
    cards = models.JSONField()
    category = models.CharField(max_length=32)
    description = models.CharField(max_length=80)
    paytable_line = models.ForeignKey(
        "paytables.PaytableLine", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    line_hand = models.CharField(max_length=32, blank=True)  # the paytable line's hand code, "" for a loss
    return_cents = models.PositiveBigIntegerField()  # what the paytable returns, stake included
    paid_cents = models.PositiveBigIntegerField()  # after the per-seat cap

    class Meta:
        ordering = ["round", "seat_number", "circle"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat_number", "circle"], name="outcome_one_per_circle"),
            models.CheckConstraint(condition=Q(paid_cents__lte=F("return_cents")), name="outcome_paid_le_return"),
        ]

    def __str__(self) -> str:
        return f"{self.round} seat {self.seat_number} circle {self.circle}: {hand_label(self.category)}"


class LedgerAccount(models.TextChoices):
    SEAT = "seat", "Seat (player)"
    TABLE_BANKROLL = "table_bankroll", "Table bankroll"


class LedgerEntry(models.Model):
    """One leg of a double-entry posting; the posting of a bet is its two legs and they sum to zero."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="ledger_entries")
    bet = models.ForeignKey(Bet, on_delete=models.PROTECT, related_name="ledger_entries")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="ledger_entries")
    account = models.CharField(max_length=16, choices=LedgerAccount.choices)
    seat_number = models.PositiveSmallIntegerField()
    amount_cents = models.BigIntegerField()  # signed: positive credits the account
    posted_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "ledger entries"
        ordering = ["round", "bet", "account"]
        constraints = [
            models.UniqueConstraint(fields=["bet", "account"], name="ledger_one_leg_per_account_per_bet"),
        ]
        # A table's postings over a period (an hour's summary, a shift's system win) read one index range.
        indexes = [models.Index(fields=["table", "posted_at"], name="ledger_table_posted_idx")]

    def __str__(self) -> str:
        sign = "+" if self.amount_cents >= 0 else ""
        return f"{self.get_account_display()} {sign}{money(self.amount_cents)} (bet {self.bet_id})"
