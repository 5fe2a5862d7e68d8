"""The tester's report on house rules: rules that contradict themselves (a big bet below the small bet, a kill card
that is wild, an option of another betting structure) are refused with the field named and nothing changed, over
the API and in the admin."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from audit.models import AuditEvent
from tables.models import HomeTableConfig, Table
from tables.services.tables import table_create
from tests.tables.conftest import client_for

pytestmark = pytest.mark.django_db

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}
DRAWS = {"draws": 1, "cards_per_draw": 3, "draw": "optional"}  # Pregnant Threes announces its draws
# Each report, as the floor typed it: the rules and the option the refusal must name.
CONTRADICTIONS = [
    ("five-card-draw", {"ante_cents": 100, "small_bet_cents": 400, "big_bet_cents": 200}, "big_bet_cents"),
    ("five-card-draw", {**STAKES, "wild_ranks": ["J"], "kill_cards": ["Js"]}, "kill_cards"),
    ("pregnant-threes", {**STAKES, **DRAWS, "kill_cards": ["3s"]}, "kill_cards"),
    ("freak-of-nature", {**STAKES, "kill_cards": ["5d"]}, "kill_cards"),
    ("five-card-draw", {**STAKES, "min_bet_cents": 999}, "min_bet_cents"),
    ("three-legged-race", {"ante_cents": 100, "betting": "no_limit", "min_bet_cents": 200, "small_bet_cents": 100},
     "small_bet_cents"),
]


def _home_config_url(table: Table) -> str:
    return f"/api/v1/tables/{table.pk}/home-config/"


def _table(variant: str, floor_user: User) -> Table:
    return table_create(name=f"Setup {variant}", table_type=variant, card_source="rng", actor=floor_user)


def _config_events() -> int:
    return AuditEvent.objects.filter(action="home_config_set").count()


# ----- house rules over the API -----


@pytest.mark.parametrize(("variant", "rules", "option"), CONTRADICTIONS)
def test_contradictory_house_rules_are_400_naming_the_option_and_save_nothing(
    floor_user: User, variant: str, rules: dict[str, Any], option: str
) -> None:
    table = _table(variant, floor_user)
    answer = client_for(floor_user).post(_home_config_url(table), {"rules": rules}, format="json")
    assert answer.status_code == 400, answer.json()
    assert answer.json()["error"]["field"] == f"rules.{option}"
    assert not HomeTableConfig.objects.filter(table=table).exists()
    assert _config_events() == 0


@pytest.mark.parametrize(("variant", "rules", "option"), CONTRADICTIONS)
def test_a_contradictory_change_leaves_the_house_rules_as_they_were(
    home_table: Callable[..., Table], floor_api: Any, variant: str, rules: dict[str, Any], option: str
) -> None:
    table = home_table(variant, rules=DRAWS if variant == "pregnant-threes" else None)
    before, events = HomeTableConfig.objects.get(table=table).rules, _config_events()
    answer = floor_api.patch(_home_config_url(table), {"rules": rules}, format="json")
    assert answer.status_code == 400, answer.json()
    assert answer.json()["error"]["field"] == f"rules.{option}"
    assert HomeTableConfig.objects.get(table=table).rules == before
    assert _config_events() == events


def test_a_change_of_betting_structure_leaves_the_old_structures_stakes_behind(
    home_table: Callable[..., Table], floor_api: Any
) -> None:
    table = home_table("five-card-draw")  # fixed limit $2/$4
    url = _home_config_url(table)
    answer = floor_api.patch(url, {"rules": {"betting": "no_limit", "min_bet_cents": 300}}, format="json")
    assert answer.status_code == 200, answer.json()
    rules = answer.json()["rules"]
    assert (rules["betting"], rules["min_bet_cents"]) == ("no_limit", 300)
    assert "small_bet_cents" not in rules
    assert "big_bet_cents" not in rules
    answer = floor_api.patch(url, {"rules": {"betting": "fixed_limit", "small_bet_cents": 500, "big_bet_cents": 1000}},
                             format="json")
    assert answer.status_code == 200, answer.json()
    rules = answer.json()["rules"]
    assert (rules["small_bet_cents"], rules["big_bet_cents"]) == (500, 1000)
    assert "min_bet_cents" not in rules
    # Naming a stake of the other structure in the same change is still refused.
    answer = floor_api.patch(url, {"rules": {"min_bet_cents": 999}}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["field"] == "rules.min_bet_cents"


# ----- house rules in the admin -----


def _typed(rules: dict[str, Any]) -> dict[str, str]:
    """The rules as the floor types them into the admin's option fields: dollars, card and rank lists as text."""
    def shown(code: str, value: Any) -> str:
        if code.endswith("_cents"):
            return f"{value / 100:.2f}"
        return " ".join(value) if isinstance(value, list) else str(value)
    return {f"rule_{code}": shown(code, value) for code, value in rules.items()}


@pytest.mark.parametrize(("variant", "rules", "option"), CONTRADICTIONS)
def test_the_admin_shows_the_contradiction_beside_the_option_and_saves_nothing(
    floor_user: User, variant: str, rules: dict[str, Any], option: str
) -> None:
    table = _table(variant, floor_user)
    client = Client()
    client.force_login(floor_user)
    response = client.post("/admin/tables/hometableconfig/add/", {
        "table": table.pk, "options_for": variant, **_typed(rules), "buy_in_min_cents": "20",
        "buy_in_max_cents": "500", "charge": "none", "rake_basis_points": "", "rake_cap_cents": "",
        "time_charge_cents": "",
    })
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert list(errors) == [f"rule_{option}"], errors  # beside that option's own field
    assert option not in " ".join(errors[f"rule_{option}"])  # in words, not the API's code
    assert not HomeTableConfig.objects.filter(table=table).exists()
    assert _config_events() == 0


def test_a_house_rules_field_the_api_does_not_know_is_refused_not_dropped(
    home_table: Callable[..., Table], floor_api: Any
) -> None:
    table = home_table("five-card-draw")
    before, events = HomeTableConfig.objects.get(table=table).rules, _config_events()
    answer = floor_api.patch(_home_config_url(table), {"min_bet_cents": 999, "buy_in_min_cents": 1_500}, format="json")
    assert answer.status_code == 400, answer.json()
    assert answer.json()["error"]["field"] == "min_bet_cents"
    config = HomeTableConfig.objects.get(table=table)
    assert (config.rules, config.buy_in_min_cents) == (before, 1_000)
    assert _config_events() == events
