"""Data migration: create the floor, dealer and compliance groups with their explicit permissions."""

from typing import Any

from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.db import migrations

from tables.roles import sync_role_permissions


def create_roles(apps: Any, schema_editor: Any) -> None:
    # Permissions are normally created after migrate; create them now so the groups get them.
    for app_config in global_apps.get_app_configs():
        # Restore the real value afterwards: None would make every later post_migrate in this process skip
        # the app (no permissions, no role sync, e.g. after each flush between transactional tests).
        previous = app_config.models_module
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = previous
    sync_role_permissions(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


def remove_roles(apps: Any, schema_editor: Any) -> None:
    apps.get_model("auth", "Group").objects.filter(name__in=["floor", "dealer", "compliance"]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("audit", "0001_initial"),
        ("paytables", "0001_initial"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
