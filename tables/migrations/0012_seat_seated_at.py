"""Seat.seated_at: when the seat's player sat down; for seats already taken, the time of their join in the audit trail."""

from typing import Any

from django.db import migrations, models


def seated_at_from_the_trail(apps: Any, schema_editor: Any) -> None:
    """A seat taken before this migration: its player sat down at the seat's latest recorded join."""
    Seat = apps.get_model("tables", "Seat")
    AuditEvent = apps.get_model("audit", "AuditEvent")
    for seat in Seat.objects.filter(occupied=True).order_by():
        joined = (AuditEvent.objects.filter(action="seat_join", table_id=seat.table_id, seat_number=seat.number)
                  .order_by("-id").values_list("occurred_at", flat=True).first())
        if joined is not None:
            Seat.objects.filter(pk=seat.pk).update(seated_at=joined)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0011_home_player_seat_taken_again"),
        ("audit", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="seated_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(seated_at_from_the_trail, migrations.RunPython.noop),
    ]
