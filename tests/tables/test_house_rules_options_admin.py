"""The announced options in the house-rules admin, one field each: every kind round-trips (dollars, choices, yes/no
with an explicit no, cards, ranks), an empty field takes the variant's default, a refusal lands beside its own field,
and each game's table shows exactly its own options."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from audit.models import AuditEvent
from tables.models import HomeTableConfig, Table
from tables.services.home_config import home_config_set
from tables.services.tables import table_create

pytestmark = pytest.mark.django_db
ADD = "/admin/tables/hometableconfig/add/"
STAKES = {"rule_ante_cents": "1", "rule_small_bet_cents": "2", "rule_big_bet_cents": "4"}
THREES_DRAWS = {"rule_draws": "1", "rule_cards_per_draw": "3", "rule_draw": "optional"}
# Each game's options, as DESIGN 7 lists them for it.
OPTIONS = {
    "five-card-draw": {"ante_cents", "betting", "small_bet_cents", "big_bet_cents", "min_bet_cents", "max_discard",
                       "max_discard_with_ace", "kill_cards", "wild_ranks", "wild_cards", "five_of_a_kind",
                       "wild_duplicates_in_flush"},
    "pregnant-threes": {"ante_cents", "betting", "small_bet_cents", "big_bet_cents", "min_bet_cents", "draws",
                        "cards_per_draw", "draw", "kill_cards", "five_of_a_kind", "wild_duplicates_in_flush"},
    "three-legged-race": {"ante_cents", "betting", "small_bet_cents", "big_bet_cents", "min_bet_cents", "kill_cards",
                          "wild_ranks", "wild_cards", "five_of_a_kind", "wild_duplicates_in_flush", "legs_to_win",
                          "uncontested_scores_leg", "tie", "forced_play"},
    "freak-of-nature": {"ante_cents", "betting", "small_bet_cents", "big_bet_cents", "min_bet_cents", "max_discard",
                        "max_discard_with_ace", "kill_cards", "five_of_a_kind", "wild_duplicates_in_flush",
                        "freak_bottom"},
}


@pytest.fixture
def floor(floor_user: User) -> Client:
    client = Client()
    client.force_login(floor_user)
    return client


def _table(variant: str, floor_user: User, name: str = "") -> Table:
    return table_create(name=name or f"Options {variant}", table_type=variant, card_source="rng", actor=floor_user)


def _form(table: Table, **options: str) -> dict[str, Any]:
    return {"table": table.pk, "options_for": table.table_type, "buy_in_min_cents": "20", "buy_in_max_cents": "500",
            "charge": "none", "rake_basis_points": "", "rake_cap_cents": "", "time_charge_cents": "", **options}


def _saved(floor: Client, table: Table, **options: str) -> dict[str, Any]:
    response = floor.post(ADD, _form(table, **options))
    assert response.status_code == 302, response.context["adminform"].form.errors
    return dict(HomeTableConfig.objects.get(table=table).rules)


def _change_page(floor: Client, table: Table) -> str:
    config = HomeTableConfig.objects.get(table=table)
    return floor.get(f"/admin/tables/hometableconfig/{config.pk}/change/").content.decode()


def _selected(page: str, name: str) -> str:
    """The value of the option selected in the select named `name`."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None, f"no select {name}"
    chosen = re.search(r'<option value="([^"]*)" selected>', select[1])
    return chosen[1] if chosen else ""


@pytest.mark.parametrize("variant", sorted(OPTIONS))
def test_each_games_table_shows_exactly_its_own_options(floor: Client, floor_user: User, variant: str) -> None:
    table = _table(variant, floor_user)
    page = floor.get(f"{ADD}?table={table.pk}").content.decode()
    shown = set(re.findall(r'name="rule_([a-z_]+)"', page))
    assert shown == OPTIONS[variant]
    rules = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}
    if variant == "pregnant-threes":
        rules |= {"draws": 1, "cards_per_draw": 3, "draw": "optional"}
    home_config_set(table=table, actor=floor_user, rules=rules)
    shown = set(re.findall(r'name="rule_([a-z_]+)"', _change_page(floor, table)))
    assert shown == OPTIONS[variant]


def test_money_is_typed_in_dollars_and_stored_in_cents(floor: Client, floor_user: User) -> None:
    table = _table("five-card-draw", floor_user)
    rules = _saved(floor, table, rule_ante_cents="1.50", rule_small_bet_cents="$2", rule_big_bet_cents="4.25")
    assert (rules["ante_cents"], rules["small_bet_cents"], rules["big_bet_cents"]) == (150, 200, 425)
    page = _change_page(floor, table)
    assert 'name="rule_ante_cents" value="1.50"' in page
    assert 'name="rule_big_bet_cents" value="4.25"' in page


def test_a_choice_is_chosen_by_its_label_and_stored_as_its_code(floor: Client, floor_user: User) -> None:
    table = _table("three-legged-race", floor_user)
    page = floor.get(f"{ADD}?table={table.pk}").content.decode()
    assert '<option value="nobody_scores">Nobody scores a leg</option>' in page
    assert '<option value="" selected>Default (Each winner scores a leg)</option>' in page  # not set
    rules = _saved(floor, table, rule_ante_cents="1", rule_betting="no_limit", rule_min_bet_cents="3",
                   rule_tie="nobody_scores")
    assert (rules["betting"], rules["min_bet_cents"], rules["tie"]) == ("no_limit", 300, "nobody_scores")
    page = _change_page(floor, table)
    assert (_selected(page, "rule_betting"), _selected(page, "rule_tie")) == ("no_limit", "nobody_scores")
    assert 'value="no_limit" selected>No limit</option>' in page


def test_a_flag_keeps_an_explicit_no_apart_from_the_default(floor: Client, floor_user: User) -> None:
    table = _table("three-legged-race", floor_user)
    rules = _saved(floor, table, **STAKES, rule_uncontested_scores_leg="no", rule_forced_play="yes")
    assert (rules["uncontested_scores_leg"], rules["forced_play"]) == (False, True)
    assert rules["wild_duplicates_in_flush"] is True  # left empty: its default, yes
    page = _change_page(floor, table)
    assert (_selected(page, "rule_uncontested_scores_leg"), _selected(page, "rule_forced_play")) == ("no", "yes")
    assert _selected(page, "rule_wild_duplicates_in_flush") == "yes"


def test_cards_and_ranks_are_typed_as_the_product_writes_them(floor: Client, floor_user: User) -> None:
    table = _table("five-card-draw", floor_user)
    rules = _saved(floor, table, **STAKES, rule_kill_cards="9h, ks", rule_wild_ranks="8 5", rule_wild_cards="Qd")
    assert (rules["kill_cards"], rules["wild_ranks"], rules["wild_cards"]) == (["Ks", "9h"], ["5", "8"], ["Qd"])
    page = _change_page(floor, table)
    assert 'name="rule_kill_cards" value="Ks 9h"' in page
    assert 'name="rule_wild_ranks" value="5 8"' in page


def test_kill_cards_take_a_preset_by_name(floor: Client, floor_user: User) -> None:
    table = _table("pregnant-threes", floor_user)
    rules = _saved(floor, table, **STAKES, **THREES_DRAWS, rule_kill_cards="one_eyed_jacks")
    assert rules["kill_cards"] == ["Js", "Jh"]


def test_an_option_left_empty_takes_the_games_default(floor: Client, floor_user: User) -> None:
    table = _table("five-card-draw", floor_user)
    rules = _saved(floor, table, **STAKES, rule_max_discard="", rule_betting="", rule_five_of_a_kind="",
                   rule_kill_cards="")
    assert (rules["max_discard"], rules["max_discard_with_ace"], rules["betting"]) == (3, 4, "fixed_limit")
    assert (rules["five_of_a_kind"], rules["kill_cards"]) == ("highest", [])
    assert "leave empty for the default: 3." in floor.get(f"{ADD}?table={table.pk}").content.decode().lower()


def test_a_bet_of_one_structure_says_which_in_its_help(floor: Client, floor_user: User) -> None:
    table = _table("freak-of-nature", floor_user)
    page = " ".join(floor.get(f"{ADD}?table={table.pk}").content.decode().split())
    assert "Fixed limit only; required there." in page
    assert "Pot limit or no limit only; required there." in page


def test_a_refusal_lands_beside_its_option_and_changes_nothing(floor: Client, floor_user: User) -> None:
    table = _table("five-card-draw", floor_user)
    _saved(floor, table, **STAKES)
    config = HomeTableConfig.objects.get(table=table)
    before, events = dict(config.rules), AuditEvent.objects.filter(action="home_config_set").count()
    response = floor.post(f"/admin/tables/hometableconfig/{config.pk}/change/",
                          _form(table, **STAKES, rule_wild_ranks="J", rule_kill_cards="Js"))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert list(errors) == ["rule_kill_cards"]
    assert errors["rule_kill_cards"] == [
        "Card Js cannot be both wild and a kill card (jacks are announced wild in the wild ranks)"]
    assert HomeTableConfig.objects.get(table=table).rules == before
    assert AuditEvent.objects.filter(action="home_config_set").count() == events


def test_a_table_saved_before_its_options_were_shown_is_asked_for_them(floor: Client, floor_user: User) -> None:
    """Scripts off: the table chosen and saved from the page without options. Nothing is saved; the page asks for
    the options of that table's game and now shows them (its usual draws filled in), and the next save stands."""
    table = _table("pregnant-threes", floor_user)
    response = floor.post(ADD, {**_form(table), "options_for": ""})
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["table"] == ["Set the options of this Pregnant Threes table below, then save."]
    assert not HomeTableConfig.objects.filter(table=table).exists()
    page = response.content.decode()
    assert 'name="rule_draws"' in page
    assert 'name="options_for" value="pregnant-threes"' in page
    assert _selected(floor.get(f"{ADD}?table={table.pk}").content.decode(), "rule_draw") == "optional"
    rules = _saved(floor, table, **STAKES, **THREES_DRAWS)
    assert (rules["draws"], rules["draw"]) == (1, "optional")


def test_the_pages_say_house_rules_as_the_floor_does(floor: Client, floor_user: User) -> None:
    table = _table("freak-of-nature", floor_user, name="Freak 9")
    add = floor.get(f"{ADD}?table={table.pk}").content.decode()
    assert "<title>Add house rules |" in add
    assert re.search(r'<a href="/admin/tables/hometableconfig/">House rules</a>\s*&rsaquo; Add house rules', add)
    response = floor.post(ADD, _form(table, **STAKES), follow=True)
    page = response.content.decode()
    assert "<title>Select house rules to change |" in page
    assert re.search(r"The house rules of <a href=\"[^\"]+\">Freak 9</a> were added successfully\.", page)
    config = HomeTableConfig.objects.get(table=table)
    change = floor.get(f"/admin/tables/hometableconfig/{config.pk}/change/").content.decode()
    assert "<title>Freak 9 house rules | Change house rules |" in change
    assert re.search(r'<a href="/admin/tables/hometableconfig/">House rules</a>', change)
    index = floor.get("/admin/").content.decode()
    assert re.search(r'<a href="/admin/tables/hometableconfig/">House rules</a>', index)
    assert "home table config" not in (add + page + change + index).lower()


def test_every_wrong_option_is_refused_beside_its_own_field_in_one_save(floor: Client, floor_user: User) -> None:
    """No limit with fixed limit's small and big bets still filled in (sent without the page's script), and a kill
    card that is no card: each refused by name beside its box, and nothing saved."""
    table = _table("five-card-draw", floor_user)
    response = floor.post(ADD, _form(table, rule_ante_cents="1", rule_betting="no_limit", rule_min_bet_cents="2",
                                     rule_small_bet_cents="2", rule_big_bet_cents="4", rule_kill_cards="Zz"))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert set(errors) == {"rule_small_bet_cents", "rule_big_bet_cents", "rule_kill_cards"}
    assert errors["rule_small_bet_cents"] == ["Applies only to fixed limit betting, not no limit"]
    assert errors["rule_big_bet_cents"] == ["Applies only to fixed limit betting, not no limit (it stands in only "
                                            "for the minimum bet when that is not announced)"]
    assert "Zz" in errors["rule_kill_cards"][0]
    assert not HomeTableConfig.objects.filter(table=table).exists()


def test_a_bet_of_one_structure_tells_the_pages_script_which(floor: Client, floor_user: User) -> None:
    table = _table("three-legged-race", floor_user)
    page = floor.get(f"{ADD}?table={table.pk}").content.decode()
    assert re.search(r'<input[^>]*name="rule_small_bet_cents"[^>]*data-betting="fixed_limit"', page)
    assert re.search(r'<input[^>]*name="rule_min_bet_cents"[^>]*data-betting="pot_limit no_limit"', page)
    assert re.search(r'<select name="rule_betting" data-default="fixed_limit"', page)
    ante = re.search(r'<input[^>]*name="rule_ante_cents"[^>]*>', page)
    assert ante is not None
    assert "data-betting" not in ante[0]  # the ante is announced under every structure


def test_boxes_refused_on_their_own_and_by_the_service_show_in_the_same_save(floor: Client, floor_user: User) -> None:
    """A user tester's save: a negative ante and too many cards to exchange (refused by their own boxes) hid the
    service's refusals (an unknown wild rank, the buy-ins the wrong way round, a rake over 100 %) until a second
    save. All five now come back from one save, each beside its box, and nothing is saved."""
    table = _table("five-card-draw", floor_user)
    response = floor.post(ADD, {**_form(table, **{**STAKES, "rule_ante_cents": "-1"}, rule_max_discard="9",
                                         rule_wild_ranks="Z"),
                                "buy_in_min_cents": "600", "buy_in_max_cents": "500", "charge": "rake",
                                "rake_basis_points": "150", "rake_cap_cents": "3"})
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert {"rule_ante_cents", "rule_max_discard", "rule_wild_ranks", "buy_in_max_cents",
            "rake_basis_points"} <= set(errors)
    assert "Z" in errors["rule_wild_ranks"][0]
    assert errors["rake_basis_points"] == ["a rake is 0.01 % to 100 % of each pot, got 150 %"]
    assert not HomeTableConfig.objects.filter(table=table).exists()


def test_a_stake_missing_after_switching_structures_says_which_structure_needs_it(
        floor: Client, floor_user: User) -> None:
    table = _table("freak-of-nature", floor_user)
    response = floor.post(ADD, _form(table, rule_ante_cents="1", rule_betting="fixed_limit"))
    errors = response.context["adminform"].form.errors
    assert errors["rule_small_bet_cents"] == ["Must be announced for fixed limit betting"]
    assert errors["rule_big_bet_cents"] == ["Must be announced for fixed limit betting"]


def test_the_add_page_says_when_every_home_table_already_has_rules(floor: Client, floor_user: User) -> None:
    table = _table("five-card-draw", floor_user)
    assert "Choose a table above" in floor.get(ADD).content.decode()
    _saved(floor, table, **STAKES)
    page = floor.get(ADD).content.decode()
    assert "Every home-game table already has its house rules" in page
    assert "Choose a table above" not in page


def _refused(floor: Client, table: Table, settings: dict[str, str] | None = None, **options: str) -> dict[str, Any]:
    """A save refused: the form's errors by box (each shown beside it), and nothing saved."""
    response = floor.post(ADD, {**_form(table, **options), **(settings or {})})
    assert response.status_code == 200
    assert not HomeTableConfig.objects.filter(table=table).exists()
    return dict(response.context["adminform"].form.errors)


def test_a_wild_kill_card_is_refused_in_the_same_save_as_a_big_bet_below_the_small_bet(
        floor: Client, floor_user: User) -> None:
    """probe8's save of Pregnant Threes: the big bet under the small bet, kill cards 3h (threes are wild) and Kd,
    the buy-ins the wrong way round and a rake with no cap. The kill-card refusal came only on the next save; all four
    now come back from the first, each beside its own box, and nothing is saved."""
    errors = _refused(floor, _table("pregnant-threes", floor_user),
                      {"buy_in_min_cents": "500", "buy_in_max_cents": "100", "charge": "rake",
                       "rake_basis_points": "5", "rake_cap_cents": ""},
                      **THREES_DRAWS, rule_ante_cents="1", rule_small_bet_cents="4", rule_big_bet_cents="2",
                      rule_kill_cards="3h Kd")
    assert set(errors) == {"rule_big_bet_cents", "rule_kill_cards", "buy_in_max_cents", "rake_cap_cents"}
    assert errors["rule_kill_cards"] == [
        "Card 3h cannot be both wild and a kill card (threes are wild in Pregnant Threes)"]
    assert errors["rule_big_bet_cents"] == ["Must be at least the small bet (before the draw) of $4.00, got $2.00"]


def test_a_kill_ace_when_aces_are_wild_is_refused_beside_a_wrong_discard_with_an_ace(
        floor: Client, floor_user: User) -> None:
    """probe8's Freak of Nature: kill card As with aces wild at the bottom came only once the discard with an ace was
    put right; both now come back from one save, each beside its box."""
    errors = _refused(floor, _table("freak-of-nature", floor_user), **STAKES, rule_freak_bottom="aces",
                      rule_kill_cards="As", rule_max_discard="3", rule_max_discard_with_ace="2")
    assert set(errors) == {"rule_max_discard_with_ace", "rule_kill_cards"}
    assert errors["rule_kill_cards"][0].startswith("Card As cannot be both wild and a kill card (aces are wild")


def test_a_wild_kill_card_is_refused_beside_an_option_refused_on_its_own(floor: Client, floor_user: User) -> None:
    """A check of the options together runs in the same save as an option the service refuses on its own (a fixed
    limit's small bet under no limit)."""
    errors = _refused(floor, _table("three-legged-race", floor_user), rule_ante_cents="1", rule_betting="no_limit",
                      rule_min_bet_cents="2", rule_small_bet_cents="2", rule_wild_ranks="J", rule_kill_cards="Js")
    assert set(errors) == {"rule_small_bet_cents", "rule_kill_cards"}


def test_the_buy_ins_and_the_charge_are_each_judged_in_the_same_save(floor: Client, floor_user: User) -> None:
    """The checks across boxes that waited for an earlier one: the smallest buy-in under the ante beside the range
    the wrong way round, a rake over 100 % beside no cap, the buy-in against the ante beside a wild kill card."""
    errors = _refused(floor, _table("five-card-draw", floor_user),
                      {"buy_in_min_cents": "2", "buy_in_max_cents": "1", "charge": "rake",
                       "rake_basis_points": "150", "rake_cap_cents": ""},
                      **{**STAKES, "rule_ante_cents": "5"}, rule_wild_ranks="J", rule_kill_cards="Js")
    assert set(errors) == {"rule_kill_cards", "buy_in_min_cents", "buy_in_max_cents", "rake_basis_points",
                           "rake_cap_cents"}
    assert "$5.00" in errors["buy_in_min_cents"][0]
