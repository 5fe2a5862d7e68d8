"""Home-game tables (DESIGN 7, 9): a table's house rules and charge, games, players and stacks, hands and the ledger.

A hand's state is its DESIGN 9 record (`record`, with `dealt` while it is in progress) and the game state it began
from (`stacks_before`, `carried_before_cents`, `legs_before`); the services rebuild the engine hand from them for
every action. The chips are in the players' stacks, the middle (`HomeGame.pot_cents`: the carried pot and the
hand's contributions) and the house; each movement is a balanced posting of `HomeLedgerEntry` rows, and on
PostgreSQL a deferred trigger checks at commit that Σ stacks + pot + house = Σ buy-ins − Σ cash-outs, and that
each account's postings add up to the game's figures (migration 0007).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from casino.engine.home.house import BASIS_POINTS  # a rake in basis points: 5% is 500, this is 100%
from tables.models.tables import MAX_SEATS, CardSource, Table, TableType


class HouseCharge(models.TextChoices):
    NONE = "none", "No charge"
    RAKE = "rake", "Rake: a percent of each pot as it is awarded, capped"
    TIME = "time", "Time charge per seat per half hour"


class HomeTableConfig(models.Model):
    """What the floor fixes for a home-game table: the announced options (DESIGN 7), the buy-in range, the charge."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="home_config")
    rules = models.JSONField(default=dict)  # the DESIGN 9 `rules` object, defaults filled in
    buy_in_min_cents = models.PositiveBigIntegerField()
    buy_in_max_cents = models.PositiveBigIntegerField()
    charge = models.CharField(max_length=8, choices=HouseCharge.choices, default=HouseCharge.NONE)
    rake_basis_points = models.PositiveIntegerField(default=0)
    rake_cap_cents = models.PositiveBigIntegerField(default=0)
    time_charge_cents = models.PositiveBigIntegerField(default=0)  # per seat per half hour
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        # As the floor says it, on the admin's pages, its breadcrumbs and its index ("Add house rules").
        verbose_name = verbose_name_plural = "house rules"
        constraints = [
            models.CheckConstraint(condition=Q(buy_in_min_cents__gt=0), name="home_buy_in_min_positive"),
            models.CheckConstraint(
                condition=Q(buy_in_max_cents__gte=F("buy_in_min_cents")), name="home_buy_in_max_ge_min"
            ),
            models.CheckConstraint(condition=Q(rake_basis_points__lte=BASIS_POINTS), name="home_rake_at_most_100"),
            models.CheckConstraint(
                condition=Q(charge__in=[c.value for c in HouseCharge]), name="home_charge_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} house rules"


class HomeGame(models.Model):
    """A game on a home-game table: the rules announced when it opened, the chips in the middle, its end."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        FINISHED = "finished", "Finished (a player reached the legs)"
        CLOSED = "closed", "Closed by the floor"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="home_games")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    variant = models.CharField(max_length=32)
    card_source = models.CharField(max_length=8)
    rules = models.JSONField()  # announced before the first card (DESIGN 7)
    buy_in_min_cents = models.PositiveBigIntegerField()
    buy_in_max_cents = models.PositiveBigIntegerField()
    charge = models.CharField(max_length=8, choices=HouseCharge.choices, default=HouseCharge.NONE)
    rake_basis_points = models.PositiveIntegerField(default=0)
    rake_cap_cents = models.PositiveBigIntegerField(default=0)
    time_charge_cents = models.PositiveBigIntegerField(default=0)
    # The money: chips in the middle (the carried pot and the hand in progress), the house's charges, the cashier.
    pot_cents = models.BigIntegerField(default=0)
    house_cents = models.BigIntegerField(default=0)
    buy_ins_cents = models.BigIntegerField(default=0)
    cash_outs_cents = models.BigIntegerField(default=0)
    next_button = models.PositiveSmallIntegerField(null=True, blank=True)
    winners = models.JSONField(default=list, blank=True)  # Three Legged Race: the seats that took the pot
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.TextField(blank=True)
    version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["table", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="homegame_table_number_unique"),
            models.UniqueConstraint(fields=["table"], condition=Q(status="open"), name="homegame_one_open_per_table"),
            models.CheckConstraint(condition=Q(pot_cents__gte=0), name="homegame_pot_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.table} game {self.number}"

    @property
    def variant_name(self) -> str:
        """The game's name as people say it ("Freak of Nature"), for screens; `variant` is the stored code."""
        return TableType(self.variant).label

    @property
    def card_source_name(self) -> str:
        return CardSource(self.card_source).label

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class HomeGamePlayer(models.Model):
    """A player seated in a game: their stack (chips behind), buy-ins, legs, and when they left."""

    game = models.ForeignKey(HomeGame, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=100, blank=True)
    player_card = models.CharField(max_length=40, blank=True)
    stack_cents = models.BigIntegerField(default=0)
    bought_in_cents = models.BigIntegerField(default=0)
    cashed_out_cents = models.BigIntegerField(default=0)
    legs = models.PositiveSmallIntegerField(default=0)
    carried_contribution_cents = models.BigIntegerField(default=0)  # their chips in a carried (Three Legged Race) pot
    time_paid_until = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField()
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seat", "id"]
        constraints = [
            # One seated player to a seat; a seat its player left may be taken by the next (the record has the leave,
            # then the join), so the rows of one seat are its players in turn, in the order they sat down (id).
            models.UniqueConstraint(fields=["game", "seat"], condition=Q(left_at__isnull=True),
                                    name="homeplayer_one_active_per_seat"),
            models.CheckConstraint(condition=Q(seat__gte=1, seat__lte=MAX_SEATS), name="homeplayer_seat_1_to_10"),
            models.CheckConstraint(condition=Q(stack_cents__gte=0), name="homeplayer_stack_not_negative"),
        ]

    def __str__(self) -> str:
        # The name too: a seat taken again has had several players, and the trail's object names tell them apart.
        return f"{self.game} seat {self.seat} ({self.name})" if self.name else f"{self.game} seat {self.seat}"

    @property
    def active(self) -> bool:
        return self.left_at is None


class HomeHand(models.Model):
    """One hand: where it began (stacks, carried pot, legs), its DESIGN 9 record, and how it ended."""

    class Status(models.TextChoices):
        IN_PLAY = "in_play", "In play"
        SETTLED = "settled", "Settled"
        VOIDED = "voided", "Voided"

    game = models.ForeignKey(HomeGame, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.IN_PLAY)
    phase = models.CharField(max_length=16, default="dealing")  # the engine's phase, for lists and filters
    button = models.PositiveSmallIntegerField()
    manual = models.BooleanField(default=False)
    dealt_by_system = models.BooleanField(default=False)  # rng (or a given deck): the system deals every card
    stacks_before = models.JSONField()  # {seat: cents} of the players dealt in, before the antes
    carried_before_cents = models.BigIntegerField(default=0)
    legs_before = models.JSONField(default=dict, blank=True)
    record = models.JSONField()  # the DESIGN 9 hand record: button, deck, reshuffles, actions (dealt in progress)
    # Stocks given in advance for the reshuffles a hand dealt from a known deck will need (play_game: the record's
    # deck and reshuffles stand in for the shoe); empty when the system shuffles.
    stock_plan = models.JSONField(default=list, blank=True)
    # The given stocks are all there are (a record standing in for the shoe): no reshuffle of the system's own.
    stock_closed = models.BooleanField(default=False)
    original_record = models.JSONField(null=True, blank=True)  # the record before the first floor correction
    result = models.JSONField(null=True, blank=True)  # replay_game's summary of the hand, once settled
    ruling = models.JSONField(null=True, blank=True)  # a pot awarded by the floor's ruling
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField()
    settled_at = models.DateTimeField(null=True, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.TextField(blank=True)
    version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["game", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="homehand_game_number_unique"),
            models.UniqueConstraint(
                fields=["game"], condition=Q(status="in_play"), name="homehand_one_in_play_per_game"
            ),
            models.CheckConstraint(condition=~Q(status="voided") | ~Q(void_reason=""), name="homehand_void_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.game} hand {self.number}"


class HomeAccount(models.TextChoices):
    CASHIER = "cashier", "Cashier (buy-ins and cash-outs)"
    STACK = "stack", "A player's stack"
    POT = "pot", "The pot (the middle)"
    HOUSE = "house", "The house's charges"


class HomeLedgerEntry(models.Model):
    """One leg of a posting; a posting's legs share `posting` and sum to zero (a deferred trigger on PostgreSQL)."""

    game = models.ForeignKey(HomeGame, on_delete=models.PROTECT, related_name="ledger_entries")
    hand = models.ForeignKey(HomeHand, null=True, blank=True, on_delete=models.PROTECT, related_name="ledger_entries")
    posting = models.CharField(max_length=32)  # one id per posting (uuid hex)
    kind = models.CharField(max_length=24)  # buy_in, add_chips, ante, bet, award, rake, time_charge, cash_out, ...
    account = models.CharField(max_length=8, choices=HomeAccount.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    amount_cents = models.BigIntegerField()  # signed: positive credits the account
    posted_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "id"]
        verbose_name_plural = "home ledger entries"  # the admin's index read "Home ledger entrys"
        indexes = [
            models.Index(fields=["posting"], name="homeledger_posting_idx"),
            models.Index(fields=["game", "account"], name="homeledger_game_account_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.account} {self.amount_cents:+d}c"
