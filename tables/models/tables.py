"""What every table shares, whatever its game: the table, its seats and its device credentials."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from casino.engine.variants import seat_limit as variant_seat_limit
from paytables.models import Paytable


class TableType(models.TextChoices):
    TRIPLE_DRAW = "triple-draw", "Triple Draw Poker"
    FIVE_CARD_DRAW = "five-card-draw", "Five Card Draw"
    PREGNANT_THREES = "pregnant-threes", "Pregnant Threes"
    THREE_LEGGED_RACE = "three-legged-race", "Three Legged Race"
    FREAK_OF_NATURE = "freak-of-nature", "Freak of Nature"


# The most seats any table type has (five-card draw and its variants); each type's own limit is seat_limit().
MAX_SEATS = max(variant_seat_limit(kind.value) for kind in TableType)


def seat_limit(table_type: str) -> int:
    """How many seats a table of this type has (the engine's rule: Triple Draw 7, Three Legged Race 6, others 10)."""
    return variant_seat_limit(TableType(table_type).value)


class CardSource(models.TextChoices):
    """Where a table's cards come from. The labels are the one name of each source on every screen (admin, tablet,
    floor, compliance); the RNG is secrets.SystemRandom (DESIGN 5), said where it matters, not in the name."""

    MANUAL = "manual", "Dealer-entered cards"
    RNG = "rng", "System shuffle"
    SHOE = "shoe", "Card-reading shoe"


class Table(models.Model):
    """A gaming table: its limits, card source, the paytable in force and the dealers who may run it."""

    name = models.CharField(max_length=60, unique=True)
    table_type = models.CharField(max_length=32, choices=TableType.choices, default=TableType.TRIPLE_DRAW)
    is_open = models.BooleanField(default=False)
    # The pit (a group of tables one supervisor watches) the floor reports group by; "" until assigned.
    pit = models.CharField(max_length=40, blank=True, default="")
    card_source = models.CharField(max_length=8, choices=CardSource.choices, default=CardSource.MANUAL)
    min_bet_cents = models.PositiveIntegerField(default=500)
    max_bet_cents = models.PositiveIntegerField(default=50_000)
    max_payout_per_seat_cents = models.PositiveBigIntegerField(default=10_000_000)
    supervisor_approval_threshold_cents = models.PositiveBigIntegerField(default=1_000_000)
    paytable = models.ForeignKey(
        Paytable, null=True, blank=True, on_delete=models.PROTECT, related_name="tables", help_text="active version"
    )
    dealers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="dealt_tables")
    created_at = models.DateTimeField(auto_now_add=True)
    # Set only by seed_demo on the tables it creates ("triple-draw-1"): how a re-seed finds its own tables whatever
    # the floor has renamed them to, and tells them from the floor's own tables. None on every other table.
    demo_key = models.CharField(max_length=40, null=True, blank=True, default=None, editable=False)
    # Raised under the row lock by every write to the table (tables/versions.py), so it grows in commit order.
    version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(min_bet_cents__gt=0), name="table_min_bet_positive"),
            models.CheckConstraint(condition=Q(max_bet_cents__gte=F("min_bet_cents")), name="table_max_bet_ge_min"),
            models.CheckConstraint(
                condition=Q(card_source__in=[c.value for c in CardSource]), name="table_card_source_known"
            ),
            # A partial unique index, not unique=True: SQLite would rebuild the table for the latter, and the seat
            # triggers of migration 0005 that read tables_table refuse that rebuild.
            models.UniqueConstraint(
                fields=["demo_key"], condition=Q(demo_key__isnull=False), name="table_demo_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def seat_count(self) -> int:
        return seat_limit(self.table_type)

    @property
    def is_triple_draw(self) -> bool:
        return self.table_type == TableType.TRIPLE_DRAW


class Seat(models.Model):
    """One of the table's player positions (as many as its type allows: seat_limit)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    occupied = models.BooleanField(default=False)
    player_name = models.CharField(max_length=100, blank=True)
    player_card = models.CharField(max_length=40, blank=True)
    # When the seat's player sat down (null: empty, or seated before this was kept and no join was recorded): Rebet
    # offers a seat's last bet only to the player who placed it.
    seated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_table_number_unique"),
            # Within the table type's own limit is checked by a trigger (migration 0005): a check cannot read the table.
            models.CheckConstraint(condition=Q(number__gte=1, number__lte=MAX_SEATS), name="seat_number_1_to_10"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}"


class TableDevice(models.Model):
    """A per-table device credential (a card-reading shoe); only the token's SHA-256 is stored."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="devices")
    name = models.CharField(max_length=60)
    token_hash = models.CharField(max_length=64, unique=True)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    # The device's last accepted report, at `last_used_at`: the round or hand it went to ({"round_id": 7} or
    # {"hand_id": 7}) and its cards, so a late network retry of it is not dealt into the next (services/devices.py).
    last_report = models.JSONField(default=dict, blank=True)
    # The device's last refused report (code, message, cards, hand), so the dealer's tablet can say what the shoe did
    # wrong; the refusal itself changed nothing at the table (its audit event is the record).
    last_refused_at = models.DateTimeField(null=True, blank=True)
    last_refusal = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["table", "name"]
        constraints = [models.UniqueConstraint(fields=["table", "name"], name="device_name_unique_per_table")]

    def __str__(self) -> str:
        return f"{self.table} {self.name}"
