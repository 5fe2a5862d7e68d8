"""The typed shapes of the floor API's answers (OpenAPI): reports and the shift books.

The selectors build each answer (`Figures.to_dict`, `HomeRow.to_dict`, floor.apis.books); these serializers describe
them so a generated client gets typed fields, and the contract tests check every answer against its schema.
"""

from __future__ import annotations

from rest_framework import serializers


class FiguresSerializer(serializers.Serializer):  # type: ignore[type-arg]
    rounds = serializers.IntegerField()
    handle_cents = serializers.IntegerField(help_text="sum of stakes")
    paid_cents = serializers.IntegerField(help_text="sum of returns, stakes included")
    win_cents = serializers.IntegerField(help_text="handle - paid")
    theo_win_cents = serializers.IntegerField(
        allow_null=True,
        help_text="sum of stake x house edge of each round's locked paytable version; null when a "
        "version has no finished analysis",
    )
    hold = serializers.FloatField(allow_null=True, help_text="win / handle")
    theo_hold = serializers.FloatField(allow_null=True, help_text="theoretical win / handle")
    hold_low = serializers.FloatField(allow_null=True, help_text="95 % band of the hold for this handle, low end")
    hold_high = serializers.FloatField(allow_null=True, help_text="95 % band of the hold for this handle, high end")
    outside_band = serializers.BooleanField(help_text="the hold lies outside its 95 % band")


class TableFiguresSerializer(FiguresSerializer):
    table_id = serializers.IntegerField()
    table = serializers.CharField()


class TablesReportSerializer(serializers.Serializer):  # type: ignore[type-arg]
    rows = TableFiguresSerializer(many=True)
    totals = FiguresSerializer()


class GroupFiguresSerializer(FiguresSerializer):
    key = serializers.CharField(help_text="table id, table type code, pit, dealer username, shift code or gaming day")
    label = serializers.CharField()  # type: ignore[assignment]  # a field named label, not Field.label


class GroupReportSerializer(serializers.Serializer):  # type: ignore[type-arg]
    by = serializers.CharField()
    rows = GroupFiguresSerializer(many=True)
    totals = FiguresSerializer()


class SeriesPointSerializer(FiguresSerializer):
    period = serializers.CharField(help_text="gaming day, or gaming day and shift")


class HoldSeriesSerializer(serializers.Serializer):  # type: ignore[type-arg]
    by = serializers.CharField()
    points = SeriesPointSerializer(many=True)


class HourSerializer(serializers.Serializer):  # type: ignore[type-arg]
    hour = serializers.IntegerField(help_text="local hour of day, 0-23")
    rounds = serializers.IntegerField()
    handle_cents = serializers.IntegerField()
    win_cents = serializers.IntegerField()


class HoursReportSerializer(serializers.Serializer):  # type: ignore[type-arg]
    hours = HourSerializer(many=True)


class HomeRowSerializer(serializers.Serializer):  # type: ignore[type-arg]
    table_id = serializers.IntegerField(allow_null=True)
    table = serializers.CharField()
    table_type = serializers.CharField(allow_blank=True)
    hands = serializers.IntegerField()
    games = serializers.IntegerField()
    pots_cents = serializers.IntegerField()
    rake_cents = serializers.IntegerField()
    time_charge_cents = serializers.IntegerField()
    house_cents = serializers.IntegerField(help_text="rake + time charges: the house's win")
    hours = serializers.IntegerField(help_text="hours with at least one hand")
    hands_per_hour = serializers.FloatField(allow_null=True)
    open_game = serializers.IntegerField(
        allow_null=True, help_text="now, whatever days the report covers: the number of the game open at the table "
        "(null when none is open, and always on the totals)")
    middle_cents = serializers.IntegerField(
        help_text="now: the chips in the open game's middle (a carried Three Legged Race pot included, or the hand in "
        "play); not in pots_cents, which counts only pots awarded. The totals add every table's")


class HomeReportSerializer(serializers.Serializer):  # type: ignore[type-arg]
    rows = HomeRowSerializer(many=True)
    totals = HomeRowSerializer()


class ChipCountSerializer(serializers.Serializer):  # type: ignore[type-arg]
    chips = serializers.DictField(child=serializers.IntegerField(), help_text="denomination in cents -> chips")
    total_cents = serializers.IntegerField()
    recorded_by = serializers.CharField()


class SlipSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    kind = serializers.CharField()
    chips = serializers.DictField(child=serializers.IntegerField())
    total_cents = serializers.IntegerField()
    dealer = serializers.CharField()
    floor = serializers.CharField()
    signed_at = serializers.DateTimeField()
    void = serializers.BooleanField()


class DropSerializer(serializers.Serializer):  # type: ignore[type-arg]
    cash_cents = serializers.IntegerField()
    markers_cents = serializers.IntegerField()
    total_cents = serializers.IntegerField()
    counted_by = serializers.CharField()


class TableBooksSerializer(serializers.Serializer):  # type: ignore[type-arg]
    table_id = serializers.IntegerField()
    table = serializers.CharField()
    opening = ChipCountSerializer(allow_null=True)
    closing = ChipCountSerializer(allow_null=True)
    slips = SlipSerializer(many=True)
    fills_cents = serializers.IntegerField()
    credits_cents = serializers.IntegerField()
    drop = DropSerializer(allow_null=True)
    count_win_cents = serializers.IntegerField(allow_null=True, help_text="drop + credits - fills + closing - opening")
    system_win_cents = serializers.IntegerField(help_text="ledger: stakes - returns; home games: house charges")
    system_source = serializers.CharField()
    difference_cents = serializers.IntegerField(allow_null=True)
    flagged = serializers.BooleanField()
    missing = serializers.ListField(child=serializers.CharField())


class ShiftBooksSerializer(serializers.Serializer):  # type: ignore[type-arg]
    gaming_day = serializers.DateField()
    shift = serializers.CharField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    status = serializers.CharField(help_text="not_started (nothing recorded yet), open or closed")
    tables = TableBooksSerializer(many=True)
