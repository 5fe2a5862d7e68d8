"""After an upgrade: stored house rules and open games' announcements that today's rules would refuse."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.checks import CheckMessage, Tags, Warning, register
from django.db import DatabaseError, connections

from casino.engine.errors import RulesError
from casino.engine.rules.model import Rules
from casino.errors import DomainError


@register(Tags.database)
def stored_rules_check(app_configs: Sequence[Any] | None = None, databases: Sequence[str] | None = None,
                       **kwargs: Any) -> list[CheckMessage]:
    """A newer release may refuse a combination an older one stored (a wild rank that is also a kill card): such a
    table's house rules cannot be saved again unchanged, and an open game announced with them refuses every action.
    Run by `manage.py check --database default` and by `migrate`; warnings, so a start-up is never blocked by them."""
    from tables.models import HomeGame, HomeTableConfig
    from tables.services.home_config import checked_config, config_dict

    found: list[CheckMessage] = []
    for alias in databases or ():
        if "tables_hometableconfig" not in connections[alias].introspection.table_names():
            continue  # a database not migrated yet: nothing stored to check
        try:
            for config in HomeTableConfig.objects.using(alias).select_related("table"):
                try:
                    checked_config(config.table.table_type, config_dict(config))
                except DomainError as exc:
                    found.append(Warning(
                        f"table {config.table.name}: its stored house rules are refused now: {exc.message} "
                        f"(field {exc.field})", id="tables.W001",
                        hint="correct them in the admin (Home-game house rules) before the next game opens"))
            for game in HomeGame.objects.using(alias).filter(status=HomeGame.Status.OPEN).select_related("table"):
                try:
                    Rules.announce(game.variant, game.rules)
                except RulesError as exc:
                    found.append(Warning(
                        f"table {game.table.name}, game {game.number}: the rules it was announced with are refused "
                        f"now ({exc.message}), so every action on it would be refused",
                        id="tables.W002",
                        hint="the floor closes the game (its players are cashed out) and opens a new one"))
        except DatabaseError as exc:  # a half-migrated database: the column the check reads may not exist yet
            found.append(Warning(f"stored house rules not checked on {alias}: {exc}", id="tables.W003"))
    return found
