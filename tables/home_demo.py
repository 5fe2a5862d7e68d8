"""Demo home-game tables for seed_demo: one table of each home-game type (Pregnant Threes manual, the others rng),
each with its house rules and a game open with four players (idempotent)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from tables.models import CardSource, HomeGame, Table, TableType
from tables.services.home_config import home_config_set
from tables.services.home_games import game_open
from tables.services.tables import table_assign_dealer, table_create, table_open

FIXED = {"ante_cents": 100, "betting": "fixed_limit", "small_bet_cents": 200, "big_bet_cents": 400}
DEMO_HOME_TABLES: tuple[tuple[str, str, str, dict[str, Any], dict[str, Any]], ...] = (
    ("Five Card Draw 1", TableType.FIVE_CARD_DRAW, CardSource.RNG, FIXED, {}),
    ("Pregnant Threes 1", TableType.PREGNANT_THREES, CardSource.MANUAL,
     {**FIXED, "draws": 2, "cards_per_draw": 3, "draw": "optional", "kill_cards": ["Kd"]},
     {"charge": "time", "time_charge_cents": 500}),
    ("Three Legged Race 1", TableType.THREE_LEGGED_RACE, CardSource.RNG, {**FIXED, "legs_to_win": 2}, {}),
    ("Freak of Nature 1", TableType.FREAK_OF_NATURE, CardSource.RNG,
     {"ante_cents": 100, "betting": "pot_limit", "min_bet_cents": 200},
     {"charge": "rake", "rake_basis_points": 500, "rake_cap_cents": 300}),
)
PLAYERS = [{"seat": seat, "name": name, "buy_in_cents": 20_000}
           for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Dee"))]


def seed_home_tables(users: dict[str, User]) -> list[Table]:
    floor, dealer = users["floor"], users["dealer"]
    tables = []
    for name, variant, source, rules, charge in DEMO_HOME_TABLES:
        table = Table.objects.filter(name=name).first()
        if table is None:
            table = table_create(name=name, table_type=variant, card_source=source, actor=floor)
            table = table_open(table=table, actor=floor)
            home_config_set(table=table, actor=floor, rules=rules, buy_in_min_cents=2_000,
                            buy_in_max_cents=50_000, **charge)
        if not table.dealers.filter(pk=dealer.pk).exists():
            table_assign_dealer(table=table, dealer=dealer, actor=floor)
        if table.is_open and not HomeGame.objects.filter(table=table, status=HomeGame.Status.OPEN).exists():
            game_open(table=table, actor=dealer, players=PLAYERS)
        tables.append(table)
    return tables
