"""The typed shapes of the tables API's answers (OpenAPI): tables, round states, round records and replays.

The read model builds each answer (selectors: `RoundView.to_dict`, `table_state`, `round_export`, `round_replay`);
these serializers describe it so a generated client gets typed fields. The contract tests check that every answer
matches its schema (schemathesis) and a generated client plays a round reading these types.
"""

from __future__ import annotations

from rest_framework import serializers

from paytables.apis import PaysField
from tables.apis.inputs import WholeCentsField, WholeNumberField
from tables.models import CardSource, TableType


class TableRefSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    name = serializers.CharField()
    card_source = serializers.CharField()


class TablePaytableSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField()
    basis = serializers.CharField()
    status = serializers.CharField()


class TableSeatSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    occupied = serializers.BooleanField()
    player_name = serializers.CharField(allow_blank=True)
    player_card = serializers.CharField(allow_blank=True)


class RoundRefSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    phase = serializers.CharField()


class TableUpdateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """What a floor supervisor may change on a table (PATCH); money in cents, every field optional."""

    name = serializers.CharField(max_length=60, required=False)
    table_type = serializers.ChoiceField(choices=TableType.choices, required=False, help_text="fixed once created")
    card_source = serializers.ChoiceField(choices=CardSource.choices, required=False)
    min_bet_cents = WholeCentsField(min_value=1, max_value=2**31 - 1, required=False)
    max_bet_cents = WholeCentsField(min_value=1, max_value=2**31 - 1, required=False)
    max_payout_per_seat_cents = WholeCentsField(min_value=0, max_value=2**63 - 1, required=False)
    supervisor_approval_threshold_cents = WholeCentsField(min_value=0, max_value=2**63 - 1, required=False)
    paytable_id = WholeNumberField(
        min_value=1, max_value=2**31 - 1, required=False, help_text="an approved version (Triple Draw tables only)"
    )
    dealers = serializers.ListField(
        child=serializers.CharField(max_length=150),
        max_length=50,
        required=False,
        help_text="usernames of users with the dealer role: the table's dealers become exactly these",
    )


class TableCreateSerializer(TableUpdateSerializer):
    """A new table (POST); limits the service's defaults when not given."""

    name = serializers.CharField(max_length=60)
    table_type = serializers.ChoiceField(choices=TableType.choices, default=TableType.TRIPLE_DRAW)
    card_source = serializers.ChoiceField(choices=CardSource.choices, default=CardSource.MANUAL)


class TableStateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    name = serializers.CharField()
    table_type = serializers.CharField()
    is_open = serializers.BooleanField()
    card_source = serializers.CharField()
    min_bet_cents = serializers.IntegerField()
    max_bet_cents = serializers.IntegerField()
    max_payout_per_seat_cents = serializers.IntegerField()
    supervisor_approval_threshold_cents = serializers.IntegerField()
    paytable = TablePaytableSerializer(allow_null=True)
    dealers = serializers.ListField(child=serializers.CharField())
    seats = TableSeatSerializer(many=True)
    current_round = RoundRefSerializer(allow_null=True)


class PaytableLineSerializer(serializers.Serializer):  # type: ignore[type-arg]
    hand = serializers.CharField()
    min_rank = serializers.CharField(required=False)
    ranks = serializers.ListField(child=serializers.CharField(), required=False)
    pays = PaysField()


class LockedPaytableSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """The paytable version locked on a round when bets closed, exactly as it pays."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    basis = serializers.CharField()
    wild_ranks = serializers.ListField(child=serializers.CharField(), required=False)
    lines = PaytableLineSerializer(many=True)


class OutcomeSerializer(serializers.Serializer):  # type: ignore[type-arg]
    circle = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField())
    hand = serializers.CharField()
    description = serializers.CharField()
    line = serializers.CharField(allow_null=True)
    paytable_line_id = serializers.IntegerField(allow_null=True)
    return_cents = serializers.IntegerField()
    paid_cents = serializers.IntegerField()


class RoundSeatSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    player_name = serializers.CharField(allow_blank=True)
    occupied = serializers.BooleanField()
    bets = serializers.DictField(child=serializers.IntegerField(), help_text="circle number -> cents")
    circles = serializers.ListField(child=serializers.IntegerField())
    bet_cents = serializers.IntegerField()
    stake_cents = serializers.IntegerField()
    dealt = serializers.ListField(child=serializers.CharField())
    held = serializers.ListField(child=serializers.CharField(), allow_null=True)
    outcomes = OutcomeSerializer(many=True)
    return_cents = serializers.IntegerField()
    net_cents = serializers.IntegerField(allow_null=True)


class RoundTotalsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    stakes_cents = serializers.IntegerField()
    returns_cents = serializers.IntegerField(allow_null=True)
    table_net_cents = serializers.IntegerField(allow_null=True)


class RoundStateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    table = TableRefSerializer()
    number = serializers.IntegerField()
    phase = serializers.CharField()
    paytable = LockedPaytableSerializer(allow_null=True)
    dealer = serializers.CharField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    bets_closed_at = serializers.DateTimeField(allow_null=True)
    rows_recorded_at = serializers.DateTimeField(allow_null=True)
    settled_at = serializers.DateTimeField(allow_null=True)
    approved_by = serializers.CharField(allow_null=True)
    voided_at = serializers.DateTimeField(allow_null=True)
    void_reason = serializers.CharField(allow_blank=True)
    seats = RoundSeatSerializer(many=True)
    rows = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    missing_holds = serializers.ListField(child=serializers.IntegerField())
    used_cards = serializers.ListField(child=serializers.CharField())
    totals = RoundTotalsSerializer()


class ReplayHandSerializer(serializers.Serializer):  # type: ignore[type-arg]
    circle = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField())
    hand = serializers.CharField()
    description = serializers.CharField(required=False)
    line = serializers.CharField(allow_null=True)
    return_cents = serializers.IntegerField()


class ReplaySeatSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    hands = ReplayHandSerializer(many=True)
    total_return_cents = serializers.IntegerField()
    net_cents = serializers.IntegerField()
    capped = serializers.BooleanField(required=False)


class RoundOutcomeSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """The DESIGN 9 round output: what each seat's hands returned and the table's net."""

    seats = ReplaySeatSerializer(many=True)
    table_net_cents = serializers.IntegerField()


class RecordSeatSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    bet_cents = serializers.IntegerField()
    circles = serializers.ListField(child=serializers.IntegerField())
    held = serializers.ListField(child=serializers.CharField())
    dealt = serializers.ListField(child=serializers.CharField(), required=False)


class RecordPaytableSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """The locked paytable; empty ({}) for a round whose bets have not closed."""

    name = serializers.CharField(required=False)
    basis = serializers.CharField(required=False)
    wild_ranks = serializers.ListField(child=serializers.CharField(), required=False)
    lines = PaytableLineSerializer(many=True, required=False)


class RoundRecordSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """The DESIGN 9 round record that `replay_round` reads (with the stored outcome once settled)."""

    table = serializers.CharField()
    round = serializers.IntegerField()
    phase = serializers.CharField()
    paytable = RecordPaytableSerializer()
    max_payout_per_seat_cents = serializers.IntegerField()
    rows = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    seats = RecordSeatSerializer(many=True)
    outcome = RoundOutcomeSerializer(required=False)


class RoundReplaySerializer(serializers.Serializer):  # type: ignore[type-arg]
    ok = serializers.BooleanField()
    checked = serializers.BooleanField()
    phase = serializers.CharField()
    differences = serializers.ListField(child=serializers.CharField())
    recomputed = RoundOutcomeSerializer(allow_null=True)


class MeSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = serializers.CharField()
    role = serializers.CharField()


class ShoeAcceptedSerializer(serializers.Serializer):  # type: ignore[type-arg]
    round = serializers.IntegerField(help_text="the round (Triple Draw) or hand (home game) the cards went to")
    hand = serializers.IntegerField(required=False, help_text="a home-game table: the hand")
    phase = serializers.CharField()
    repeated = serializers.BooleanField(
        required=False, help_text="the report repeated the last cards recorded for the round or hand (a retry): "
        "nothing new was recorded")
    awaiting = serializers.DictField(
        required=False, help_text="what the hand (home game) or the round (Triple Draw: kind deal, rows or nothing, "
        "with the next card's seat or row) awaits next")
    cards_due = serializers.IntegerField(
        required=False, help_text="cards the shoe is still to report for the deal, the draw or the rows")
