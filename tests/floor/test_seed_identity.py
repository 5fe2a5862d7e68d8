"""seed_demo finds its own demo tables by their demo key, not by name: a demo table the floor renamed (or moved to
another pit) is found again and left as the floor set it, a re-seed adds no table, and a table of the floor's own
that bears a demo table's name is never touched."""

from __future__ import annotations

import importlib
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import override_settings

from floor.services.pits import table_set_pit
from tables.models import CardSource, Table
from tables.services.tables import table_create, table_update

pytestmark = pytest.mark.django_db


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def names() -> list[str]:
    return sorted(Table.objects.values_list("name", flat=True))


@override_settings(DEBUG=True)
def test_a_renamed_demo_table_is_found_again_and_left_as_the_floor_set_it() -> None:
    seed()
    before = names()
    floor = User.objects.get(username="floor")
    shoe = Table.objects.get(name="Triple Draw Shoe 1")
    table_update(table=shoe, actor=floor, name="Main 4 (shoe)")
    table_set_pit(table=Table.objects.get(pk=shoe.pk), pit="Salon", actor=floor)
    banner = seed()
    assert len(names()) == len(before)  # no second "Triple Draw Shoe 1"
    assert "Triple Draw Shoe 1" not in names()
    renamed = Table.objects.get(pk=shoe.pk)
    assert (renamed.name, renamed.pit, renamed.demo_key) == ("Main 4 (shoe)", "Salon", "triple-draw-shoe-1")
    assert f"Main 4 (shoe) (table {shoe.pk}, shoe " in banner  # its new shoe token is printed under its new name


@override_settings(DEBUG=True)
def test_a_floor_table_with_a_demo_tables_name_is_never_touched(floor_user: User) -> None:
    own = table_create(name="Triple Draw 2", card_source=CardSource.MANUAL, actor=floor_user)
    seed()
    seed()
    untouched = Table.objects.get(pk=own.pk)
    assert (untouched.name, untouched.is_open, untouched.demo_key, untouched.pit) == ("Triple Draw 2", False, None, "")
    assert not untouched.dealers.exists()
    demo = Table.objects.get(demo_key="triple-draw-2")
    assert (demo.name, demo.is_open, demo.card_source) == ("Triple Draw 2 (demo)", True, CardSource.MANUAL)
    assert list(demo.dealers.values_list("username", flat=True)) == ["dealer"]
    assert Table.objects.filter(name__startswith="Triple Draw 2").count() == 2


def test_tables_seeded_before_the_key_existed_get_it_by_name_type_and_source(floor_user: User) -> None:
    migration = importlib.import_module("tables.migrations.0017_table_demo_key")
    seeded = table_create(name="Triple Draw 1", card_source=CardSource.RNG, actor=floor_user)
    other_source = table_create(name="High Limit 1", card_source=CardSource.MANUAL, actor=floor_user)
    migration.mark_tables_seeded_before(apps, None)
    assert Table.objects.get(pk=seeded.pk).demo_key == "triple-draw-1"
    assert Table.objects.get(pk=other_source.pk).demo_key is None  # the demo's is an rng table: not this one
