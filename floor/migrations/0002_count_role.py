"""Data migration: the count team's group, and every staff group's permissions on the floor app's models."""

from typing import Any

from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.db import migrations

from floor.roles import sync_floor_permissions


def create_count_role(apps: Any, schema_editor: Any) -> None:
    # Permissions are normally created after migrate; create the floor app's now so the groups get them.
    config = global_apps.get_app_config("floor")
    previous = config.models_module
    config.models_module = True  # restored below: None would make later post_migrate runs skip the app
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = previous
    sync_floor_permissions(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


def remove_count_role(apps: Any, schema_editor: Any) -> None:
    apps.get_model("auth", "Group").objects.filter(name="count").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("floor", "0001_initial"),
        ("tables", "0001_roles"),
    ]

    operations = [migrations.RunPython(create_count_role, remove_count_role)]
