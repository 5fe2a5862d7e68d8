"""Table.demo_key: seed_demo's stable mark on its own demo tables, so a re-seed finds a demo table the floor renamed
instead of creating a second one. Databases seeded before this mark existed get it on the tables seed_demo would
have taken for its own then: the one of each demo name, type and card source."""

from typing import Any

from django.db import migrations, models

# Frozen here (a migration must not follow later code): (key, name seed_demo gave it, table type, card source).
SEEDED_BEFORE = (
    ("triple-draw-1", "Triple Draw 1", "triple-draw", "rng"),
    ("triple-draw-2", "Triple Draw 2", "triple-draw", "manual"),
    ("high-limit-1", "High Limit 1", "triple-draw", "rng"),
    ("triple-draw-shoe-1", "Triple Draw Shoe 1", "triple-draw", "shoe"),
    ("five-card-draw-1", "Five Card Draw 1", "five-card-draw", "rng"),
    ("pregnant-threes-1", "Pregnant Threes 1", "pregnant-threes", "manual"),
    ("three-legged-race-1", "Three Legged Race 1", "three-legged-race", "rng"),
    ("freak-of-nature-1", "Freak of Nature 1", "freak-of-nature", "rng"),
    ("five-card-draw-shoe-1", "Five Card Draw Shoe 1", "five-card-draw", "shoe"),
)


def mark_tables_seeded_before(apps: Any, schema_editor: Any) -> None:
    table_model = apps.get_model("tables", "Table")
    for key, name, table_type, card_source in SEEDED_BEFORE:
        table_model.objects.filter(name=name, table_type=table_type, card_source=card_source,
                                   demo_key__isnull=True).update(demo_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0016_house_rules_named_as_the_floor_says"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="demo_key",
            field=models.CharField(blank=True, default=None, editable=False, max_length=40, null=True),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.UniqueConstraint(
                condition=models.Q(("demo_key__isnull", False)), fields=("demo_key",), name="table_demo_key_unique"
            ),
        ),
        migrations.RunPython(mark_tables_seeded_before, migrations.RunPython.noop),
    ]
