"""The floor sets a home-game table's house rules in the admin (issue 12, "Floor (admin and API)"): money in
dollars, one field per announced option, every value checked by the service the API uses, a refusal beside its field
that saves nothing, audited."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from audit.models import AuditEvent
from tables.models import HomeTableConfig, Table
from tables.services.tables import table_create

pytestmark = pytest.mark.django_db
ADD = "/admin/tables/hometableconfig/add/"
# The fixed-limit stakes as typed, in dollars: an ante of $1, bets of $2 and $4.
STAKES = {"rule_ante_cents": "1", "rule_small_bet_cents": "2", "rule_big_bet_cents": "4"}


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _form(table: Table, **values: Any) -> dict[str, Any]:
    """The add page as posted once the table's options are shown (options_for: the game they are of)."""
    return {
        "table": table.pk,
        "options_for": table.table_type,
        **STAKES,
        "buy_in_min_cents": "20",
        "buy_in_max_cents": "500",
        "charge": "none",
        "rake_basis_points": "",
        "rake_cap_cents": "",
        "time_charge_cents": "",
        **values,
    }


@pytest.fixture
def draw_table(floor_user: User) -> Table:
    return table_create(name="Draw 5", table_type="five-card-draw", card_source="rng", actor=floor_user)


def test_the_floor_sets_house_rules_in_dollars_through_the_service(floor_user: User, draw_table: Table) -> None:
    response = _client(floor_user).post(
        ADD, _form(draw_table, charge="rake", rake_basis_points="5", rake_cap_cents="3.50")
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    config = HomeTableConfig.objects.get(table=draw_table)
    assert (config.buy_in_min_cents, config.buy_in_max_cents) == (2_000, 50_000)  # "20" is $20.00
    assert (config.charge, config.rake_basis_points, config.rake_cap_cents) == ("rake", 500, 350)
    assert config.rules["ante_cents"] == 100
    assert AuditEvent.objects.filter(table_id=draw_table.pk, actor_username=floor_user.username).exists()

    page = _client(floor_user).get(f"/admin/tables/hometableconfig/{config.pk}/change/").content.decode()
    assert 'value="20.00"' in page  # shown in dollars


@pytest.mark.parametrize(
    ("values", "field", "words"),
    [
        ({"rule_big_bet_cents": "1.50"}, "rule_big_bet_cents",
         "Must be at least the small bet (before the draw) of $2.00, got $1.50"),
        ({"rule_ante_cents": ""}, "rule_ante_cents", "Must be announced before the deal (Five Card Draw)"),
        ({"rule_kill_cards": "Js Zz"}, "rule_kill_cards", "Bad card 'Zz'"),
        ({"rule_max_discard": "6"}, "rule_max_discard", "less than or equal to 5"),
        ({"rule_betting": "no_limit", "rule_min_bet_cents": "3"}, "rule_small_bet_cents",
         "Applies only to fixed limit betting, not no limit"),
        ({"buy_in_min_cents": "600"}, "buy_in_max_cents", "the largest buy-in must be at least the smallest buy-in"),
        ({"buy_in_min_cents": "0.50"}, "buy_in_min_cents", "must cover the ante of $1.00"),  # dollars, as typed
        ({"buy_in_min_cents": "0"}, "buy_in_min_cents", "the smallest buy-in must be more than $0.00"),  # not "1"
        ({"charge": "rake", "rake_basis_points": "5"}, "rake_cap_cents", "cap"),
        ({"charge": "rake", "rake_basis_points": "2,5", "rake_cap_cents": "3"}, "rake_basis_points", "not a comma"),
        ({"charge": "rake", "rake_basis_points": "0.005", "rake_cap_cents": "3"}, "rake_basis_points", "hundredth"),
        ({"charge": "rake", "rake_basis_points": "-5", "rake_cap_cents": "3"}, "rake_basis_points", "negative"),
        ({"time_charge_cents": "5"}, "time_charge_cents", "the time charge per seat per half hour applies only to a"),
        ({"buy_in_min_cents": "twenty"}, "buy_in_min_cents", ""),
        # The rake box is a percent: its refusal says percent, not the API's basis points.
        ({"charge": "rake", "rake_basis_points": "150", "rake_cap_cents": "3"}, "rake_basis_points",
         "a rake is 0.01 % to 100 % of each pot, got 150 %"),
    ],
)
def test_a_bad_value_is_refused_beside_its_field_and_nothing_is_saved(
    floor_user: User, draw_table: Table, values: dict[str, Any], field: str, words: str
) -> None:
    response = _client(floor_user).post(ADD, _form(draw_table, **values))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert field in errors, errors
    assert words in " ".join(errors[field])
    assert "_cents" not in " ".join(errors[field])  # the page's words, not the API's field names
    assert "option " not in " ".join(errors[field])  # the engine's "option big_bet_cents must be ..."
    assert "basis points" not in " ".join(errors[field])
    assert "This field is required" not in " ".join(errors[field])
    assert not HomeTableConfig.objects.filter(table=draw_table).exists()


def test_only_the_floor_sets_house_rules(dealer_user: User, compliance_user: User, draw_table: Table) -> None:
    for user in (dealer_user, compliance_user):
        _client(user).post(ADD, _form(draw_table))
    assert not HomeTableConfig.objects.filter(table=draw_table).exists()


def test_the_add_page_asks_for_the_table_before_its_options(floor_user: User, draw_table: Table) -> None:
    """The options depend on the table's game: without a table the page offers the table and says where they come."""
    page = " ".join(_client(floor_user).get(ADD).content.decode().split())
    assert 'name="table"' in page
    assert 'name="rule_' not in page
    assert "Choose a table above: the options of its game show here." in page
    assert "tables/admin-house-rules.js" in page  # choosing a table reloads the page with ?table=


@pytest.mark.parametrize(("typed", "basis_points"), [("5", 500), ("2.5", 250), ("10 %", 1_000), ("0.01", 1)])
def test_the_rake_is_typed_as_a_percent_and_stored_in_basis_points(
    floor_user: User, draw_table: Table, typed: str, basis_points: int
) -> None:
    """A supervisor who types 5 for a 5 % rake gets 5 %, not 0.05 % (the API's 5 basis points)."""
    response = _client(floor_user).post(
        ADD, _form(draw_table, charge="rake", rake_basis_points=typed, rake_cap_cents="3")
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    config = HomeTableConfig.objects.get(table=draw_table)
    assert config.rake_basis_points == basis_points
    page = _client(floor_user).get(f"/admin/tables/hometableconfig/{config.pk}/change/").content.decode()
    assert f'name="rake_basis_points" value="{typed.removesuffix(" %")}"' in page


def test_no_refusal_is_shown_by_its_database_constraint_name(floor_user: User, draw_table: Table) -> None:
    """With the ante refused, the buy-ins (largest below smallest) were also refused at the top of the page as
    "Constraint “home_buy_in_max_ge_min” is violated.": words of the database, not of the floor."""
    response = _client(floor_user).post(ADD, _form(draw_table, rule_ante_cents="", buy_in_min_cents="600"))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "rule_ante_cents" in errors
    assert "Constraint" not in response.content.decode()
    assert "__all__" not in errors
    assert not HomeTableConfig.objects.filter(table=draw_table).exists()


def test_the_change_page_says_before_saving_that_an_open_game_keeps_its_rules(
    floor_user: User, dealer_user: User
) -> None:
    """The floor learnt that the game in play keeps its announced rules only after saving ("goes on under the rules it
    was opened with"): the page says so while the change is being made."""
    from tables.services.home_games import game_open
    from tests.tables.conftest import open_home_table

    table = open_home_table("Draw 9", "five-card-draw", floor_user, dealer_user)
    config = HomeTableConfig.objects.get(table=table)
    url = f"/admin/tables/hometableconfig/{config.pk}/change/"
    assert "keeps the rules it was opened with" not in _client(floor_user).get(url).content.decode()
    game_open(table=table, actor=dealer_user, players=[{"seat": 1, "name": "Ann", "buy_in_cents": 5_000}])
    page = _client(floor_user).get(url).content.decode()
    assert ("Game 1 is open at Draw 9: it keeps the rules it was opened with (ante $1.00); what is saved here is "
            "announced to the next game.") in page


def test_the_history_button_shows_the_audited_changes_not_none(floor_user: User, draw_table: Table) -> None:
    """The services audit every admin edit, but the admin's History page read Django's own log, which they do not
    write: 'This object doesn't have a change history', as if nobody could trace the change."""
    client = _client(floor_user)
    client.post(ADD, _form(draw_table))
    config = HomeTableConfig.objects.get(table=draw_table)
    client.post(f"/admin/tables/hometableconfig/{config.pk}/change/",
                _form(draw_table, buy_in_max_cents="600"))
    history = " ".join(client.get(f"/admin/tables/hometableconfig/{config.pk}/history/").content.decode().split())
    assert "doesn’t have a change history" not in history
    assert history.count("Home-game house rules set") == 2
    assert "fiona" in history
    assert "$600.00" in history  # the largest buy-in as changed, in dollars
    table_history = client.get(f"/admin/tables/table/{draw_table.pk}/history/").content.decode()
    assert "Table created" in table_history


def test_every_wrong_box_is_named_at_once_not_one_save_at_a_time(floor_user: User, draw_table: Table) -> None:
    """The rules, the buy-ins and the charge are checked apart: a form wrong in three places said only the first,
    and the supervisor found the next one on the next save."""
    response = _client(floor_user).post(ADD, _form(
        draw_table, rule_big_bet_cents="1", buy_in_min_cents="600", charge="rake", rake_basis_points="5"))
    errors = response.context["adminform"].form.errors
    assert "Must be at least the small bet (before the draw) of $2.00, got $1.00" in " ".join(
        errors["rule_big_bet_cents"])
    assert "the largest buy-in must be at least the smallest buy-in" in " ".join(errors["buy_in_max_cents"])
    assert "a rake needs a cap" in " ".join(errors["rake_cap_cents"])
    assert not HomeTableConfig.objects.filter(table=draw_table).exists()
