"""The Table admin form saves (create, limits typed in dollars, paytable, dealers) through the services, offers
only approved paytables and only dealers, and shows a refusal beside its field with nothing changed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.utils import timezone

from audit.models import AuditEvent
from paytables.models import Paytable, PaytableAnalysis, PaytableStatus
from tables.models import HomeTableConfig, Table
from tables.services.home_games import game_close, game_open
from tables.services.rounds import round_start, round_void
from tables.services.tables import table_create
from tests.tables.conftest import open_home_table
from tests.tables.test_settlement import to_drawing

pytestmark = pytest.mark.django_db

ADMIN = "/admin/tables/table/"


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def form(**values: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Admin TD",
        "table_type": "triple-draw",
        "card_source": "manual",
        "min_bet_cents": "25",
        "max_bet_cents": "1,000",
        "max_payout_per_seat_cents": "100000",
        "supervisor_approval_threshold_cents": "10000.50",
        "paytable": "",
        "seats-TOTAL_FORMS": "0",
        "seats-INITIAL_FORMS": "0",
        "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "1000",
    }
    data.update(values)
    return data


def test_creating_a_table_reads_limits_as_dollars(floor_user: User, dealer_user: User, jacks_for_1: Paytable) -> None:
    response = logged_in(floor_user).post(
        ADMIN + "add/", form(paytable=str(jacks_for_1.pk), dealers=[str(dealer_user.pk)])
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get(name="Admin TD")
    assert (table.min_bet_cents, table.max_bet_cents) == (2500, 100_000)
    assert table.supervisor_approval_threshold_cents == 1_000_050
    assert table.max_payout_per_seat_cents == 10_000_000
    assert table.paytable_id == jacks_for_1.pk
    assert list(table.dealers.all()) == [dealer_user]
    assert AuditEvent.objects.filter(action="table_create", object_id=str(table.pk)).exists()


def test_the_edit_page_shows_dollars_and_saves_a_change_of_limits(floor_user: User) -> None:
    table = table_create(name="Edit", actor=floor_user, min_bet_cents=2500, max_bet_cents=50_000)
    client = logged_in(floor_user)
    page = client.get(f"{ADMIN}{table.pk}/change/").content.decode()
    assert 'name="min_bet_cents" value="25.00"' in page
    assert 'name="max_bet_cents" value="500.00"' in page
    response = client.post(
        f"{ADMIN}{table.pk}/change/",
        form(name="Edit", min_bet_cents="10", max_bet_cents="$2,500.00", supervisor_approval_threshold_cents="10000"),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    table.refresh_from_db()
    assert (table.min_bet_cents, table.max_bet_cents) == (1000, 250_000)
    assert AuditEvent.objects.filter(action="table_update_limits").count() == 1


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"min_bet_cents": "abc"}, "is not an amount of money"),
        ({"min_bet_cents": "2,5"}, "a comma only groups thousands (1,000)"),  # a decimal comma: not $25
        ({"min_bet_cents": "1,00"}, "a comma only groups thousands (1,000)"),
        ({"min_bet_cents": "2.555"}, "amounts go to the cent at most"),
        ({"min_bet_cents": "-5"}, "cannot be negative"),
        ({"min_bet_cents": "50", "max_bet_cents": "25"}, "is below the minimum bet"),
        ({"min_bet_cents": "0"}, "the minimum bet must be more than $0.00"),
    ],
)
def test_bad_amounts_are_shown_beside_the_field_and_save_nothing(
    floor_user: User, values: dict[str, str], message: str
) -> None:
    response = logged_in(floor_user).post(ADMIN + "add/", form(**values))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Table.objects.exists()


def test_only_approved_paytables_are_offered_with_their_status(floor_user: User, jacks_for_1: Paytable) -> None:
    retired = Paytable.objects.create(name="Old", version=1, basis="for_1", status=PaytableStatus.DRAFT)
    Paytable.objects.filter(pk=retired.pk).update(status=PaytableStatus.RETIRED, approval_reference="GC-0")
    page = logged_in(floor_user).get(ADMIN + "add/").content.decode()
    assert "Jacks or Better 9/6 v1 · approved" in page
    assert "Old v1" not in page
    response = logged_in(floor_user).post(ADMIN + "add/", form(paytable=str(retired.pk)))
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Table.objects.exists()


def test_a_home_game_table_is_saved_without_a_paytable_and_refuses_one(floor_user: User, jacks_for_1: Paytable) -> None:
    client = logged_in(floor_user)
    refused = client.post(ADMIN + "add/", form(name="Home", table_type="freak-of-nature", paytable=str(jacks_for_1.pk)))
    assert refused.status_code == 200
    assert "only Triple Draw tables pay from one" in refused.content.decode()
    saved = client.post(ADMIN + "add/", form(name="Home", table_type="freak-of-nature"))
    assert saved.status_code == 302
    home = Table.objects.get(name="Home")
    assert home.seats.count() == 10
    page = client.get(f"{ADMIN}{home.pk}/change/").content.decode()
    assert 'name="paytable"' not in page


def test_a_home_game_tables_page_shows_only_what_applies_to_it(floor_user: User, jacks_for_1: Paytable) -> None:
    """Bets per betting circle, a payout cap, supervisor approval and a paytable are Triple Draw's: a home game's
    stakes and charges are its house rules, which its page links to instead."""
    home = table_create(name="Home", table_type="pregnant-threes", actor=floor_user)
    client = logged_in(floor_user)
    page = client.get(f"{ADMIN}{home.pk}/change/").content.decode()
    for field in ("min_bet_cents", "max_bet_cents", "max_payout_per_seat_cents",
                  "supervisor_approval_threshold_cents", "paytable"):
        assert f'name="{field}"' not in page, field
    assert "Per betting circle" not in page
    assert f"/admin/tables/hometableconfig/add/?table={home.pk}" in page  # no house rules yet: set them
    edited = client.post(
        f"{ADMIN}{home.pk}/change/",
        form(name="Home renamed", card_source="rng", max_bet_cents="40", paytable=str(jacks_for_1.pk)),
    )
    assert edited.status_code == 302
    home.refresh_from_db()
    assert (home.name, home.card_source, home.max_bet_cents, home.paytable_id) == ("Home renamed", "rng", 50_000, None)
    assert not AuditEvent.objects.filter(action="table_update_limits").exists()


def test_a_triple_draw_tables_page_keeps_its_limits_and_paytable(floor_user: User, jacks_for_1: Paytable) -> None:
    table = table_create(name="TD", actor=floor_user, paytable=jacks_for_1)
    page = logged_in(floor_user).get(f"{ADMIN}{table.pk}/change/").content.decode()
    for field in ("min_bet_cents", "max_bet_cents", "max_payout_per_seat_cents",
                  "supervisor_approval_threshold_cents", "paytable"):
        assert f'name="{field}"' in page, field
    assert "house rules" not in page


def test_a_new_home_game_table_ignores_the_hidden_triple_draw_limits(floor_user: User) -> None:
    """The add page hides the Triple Draw limits once a home game is chosen: what was left in them is not read."""
    client = logged_in(floor_user)
    response = client.post(
        ADMIN + "add/", form(name="Home", table_type="three-legged-race", min_bet_cents="abc", max_bet_cents="-5")
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    home = Table.objects.get(name="Home")
    assert (home.min_bet_cents, home.max_bet_cents, home.seats.count()) == (500, 50_000, 6)
    refused = client.post(ADMIN + "add/", form(name="TD", min_bet_cents="abc"))
    assert refused.status_code == 200
    assert "is not an amount of money" in refused.content.decode()
    assert not Table.objects.filter(name="TD").exists()


def test_the_list_shows_bets_for_triple_draw_and_house_rules_for_home_games(
    floor_user: User, jacks_for_1: Paytable
) -> None:
    table_create(name="TD", actor=floor_user, paytable=jacks_for_1, min_bet_cents=2500, max_bet_cents=100_000)
    home = table_create(name="Home", table_type="freak-of-nature", actor=floor_user)
    page = logged_in(floor_user).get(ADMIN).content.decode()
    rows = {
        name: row for row in re.findall(r"<tr>.*?</tr>", page, re.S) for name in ("TD", "Home") if f">{name}<" in row
    }
    assert "$25.00 to $1,000.00" in rows["TD"]
    assert "Jacks or Better 9/6 v1 · active" in rows["TD"]
    assert "$5.00" not in rows["Home"]
    assert f"/admin/tables/hometableconfig/add/?table={home.pk}" in rows["Home"]


def test_only_dealers_are_offered_and_a_non_dealer_is_refused_by_name(
    floor_user: User, dealer_user: User, compliance_user: User
) -> None:
    client = logged_in(floor_user)
    page = client.get(ADMIN + "add/").content.decode()
    picker = re.search(r'<select name="dealers".*?</select>', page, re.S)
    assert picker is not None
    assert re.findall(r"<option [^>]*>([^<]*)</option>", picker.group(0)) == ["dave"]
    dealer_user.groups.remove(Group.objects.get(name="dealer"))  # lost the role after the page was shown
    response = client.post(ADMIN + "add/", form(dealers=[str(dealer_user.pk)]))
    assert response.status_code == 200
    assert "dave is not a dealer" in response.content.decode()
    assert not Table.objects.exists()


def test_compliance_and_dealers_cannot_change_tables(floor_user: User, compliance_user: User) -> None:
    table = table_create(name="Look", actor=floor_user)
    client = logged_in(compliance_user)
    page = client.get(f"{ADMIN}{table.pk}/change/")
    assert page.status_code == 200  # a read-only page, in dollars
    assert "$5.00" in page.content.decode()
    assert "$500.00" in page.content.decode()
    assert 'name="min_bet_cents"' not in page.content.decode()
    assert client.post(f"{ADMIN}{table.pk}/change/", form(name="Look", min_bet_cents="1")).status_code == 403
    assert client.post(ADMIN + "add/", form()).status_code == 403
    assert Table.objects.get(pk=table.pk).min_bet_cents == 500


def test_a_paytable_returning_outside_the_band_says_so_in_the_list(floor_user: User, jacks_for_1: Paytable) -> None:
    PaytableAnalysis.objects.create(
        paytable=jacks_for_1, spec_hash="x", status="done", progress=100, queued_at=timezone.now(), return_ratio=3.51
    )
    page = logged_in(floor_user).get(ADMIN + "add/").content.decode()
    assert "Jacks or Better 9/6 v1 · approved · return 351.00 % (outside the band)" in page


def test_a_service_refusal_while_saving_comes_back_as_a_message_and_changes_nothing(
    manual_table: Table, floor_user: User
) -> None:
    to_drawing(manual_table, floor_user)
    client = logged_in(floor_user)
    data = form(name="Manual 1 renamed", card_source="rng", min_bet_cents="5", max_bet_cents="100",
                paytable=str(manual_table.paytable_id))
    response = client.post(f"{ADMIN}{manual_table.pk}/change/", data, follow=True)
    assert "change the card source between rounds" in response.content.decode()
    manual_table.refresh_from_db()
    assert (manual_table.name, manual_table.card_source) == ("Manual 1", "manual")
    assert not AuditEvent.objects.filter(action="table_update").exists()


def test_a_refused_void_stays_on_the_void_page_with_the_reason_typed(manual_table: Table, floor_user: User) -> None:
    rnd = to_drawing(manual_table, floor_user)
    client = logged_in(floor_user)
    refused = client.post(f"/admin/tables/round/{rnd.pk}/void/", {"reason": "   "})
    assert refused.status_code == 200
    page = refused.content.decode()
    assert "Void the round" in page
    assert 'class="error"' in page
    rnd.refresh_from_db()
    assert rnd.phase != "voided"
    voided = client.post(f"/admin/tables/round/{rnd.pk}/void/", {"reason": "the shoe jammed"})
    assert voided.status_code == 302
    rnd.refresh_from_db()
    assert (rnd.phase, rnd.void_reason) == ("voided", "the shoe jammed")


def test_a_duplicate_name_in_another_case_is_refused_beside_the_name(floor_user: User) -> None:
    table_create(name="Pit 1", actor=floor_user)
    response = logged_in(floor_user).post(ADMIN + "add/", form(name="PIT 1"))
    assert response.status_code == 200
    assert "a table named 'Pit 1' exists" in " ".join(response.context["adminform"].form.errors["name"])
    assert Table.objects.count() == 1


def test_emptying_the_paytable_of_a_triple_draw_table_is_refused_not_ignored(
    floor_user: User, jacks_for_1: Paytable
) -> None:
    """Choosing "---------" said "changed successfully" and left the paytable on the table."""
    table = table_create(name="TD", actor=floor_user, paytable=jacks_for_1)
    response = logged_in(floor_user).post(f"{ADMIN}{table.pk}/change/", form(name="TD renamed", paytable=""))
    assert response.status_code == 200
    errors = " ".join(response.context["adminform"].form.errors["paytable"])
    assert "can be replaced, not removed" in errors
    assert "Jacks or Better 9/6 v1" in errors
    table.refresh_from_db()
    assert (table.name, table.paytable_id) == ("TD", jacks_for_1.pk)


def test_opening_and_closing_from_the_list_counts_tables_in_words(floor_user: User, jacks_for_1: Paytable) -> None:
    one = table_create(name="TD 1", actor=floor_user, paytable=jacks_for_1)
    two = table_create(name="TD 2", actor=floor_user, paytable=jacks_for_1)
    client = logged_in(floor_user)
    opened = client.post(ADMIN, {"action": "open_tables", "_selected_action": [str(one.pk)]}, follow=True)
    assert "1 table opened" in opened.content.decode()
    closed = client.post(ADMIN, {"action": "close_tables", "_selected_action": [str(one.pk)]}, follow=True)
    assert "1 table closed" in closed.content.decode()
    both = client.post(ADMIN, {"action": "open_tables", "_selected_action": [str(one.pk), str(two.pk)]}, follow=True)
    assert "2 tables opened" in both.content.decode()


def test_a_new_tables_page_has_no_empty_seats_list_and_an_existing_one_lists_its_seats(floor_user: User) -> None:
    client = logged_in(floor_user)
    assert "seats-TOTAL_FORMS" not in client.get(ADMIN + "add/").content.decode()
    table = table_create(name="Home", table_type="three-legged-race", actor=floor_user)
    page = client.get(f"{ADMIN}{table.pk}/change/").content.decode()
    assert "Home seat 6" in page
    assert "Home seat 7" not in page


def test_changing_a_home_tables_source_or_rules_mid_game_says_the_open_game_keeps_its_own(
    floor_user: User, dealer_user: User
) -> None:
    """A game keeps the card source and rules it was opened with: "changed successfully" alone let the floor think
    the game in play now dealt by hand (or with the new ante)."""
    table = open_home_table("Draw 1", "five-card-draw", floor_user, dealer_user)
    client = logged_in(floor_user)
    quiet = client.post(f"{ADMIN}{table.pk}/change/", form(name="Draw 1", card_source="manual"), follow=True)
    assert "keeps its card source" not in quiet.content.decode()  # no game open: nothing to say
    game_open(table=table, actor=floor_user, players=[{"seat": 1, "name": "Ann", "buy_in_cents": 5_000}])
    changed = client.post(f"{ADMIN}{table.pk}/change/", form(name="Draw 1", card_source="rng"), follow=True)
    assert ("Game 1 at Draw 1 keeps its card source (Dealer-entered cards); the next game opened there uses "
            "System shuffle.") in changed.content.decode()
    renamed = client.post(f"{ADMIN}{table.pk}/change/", form(name="Draw 1b", card_source="rng"), follow=True)
    assert "keeps its card source" not in renamed.content.decode()  # the source did not change
    config = HomeTableConfig.objects.get(table=table)
    rules = client.post(
        f"/admin/tables/hometableconfig/{config.pk}/change/",
        {"options_for": "five-card-draw", "rule_ante_cents": "2", "rule_small_bet_cents": "2",
         "rule_big_bet_cents": "4", "buy_in_min_cents": "10", "buy_in_max_cents": "1,000", "charge": "none"},
        follow=True,
    )
    assert "Game 1 at Draw 1b goes on under the rules it was opened with" in rules.content.decode()
    assert HomeTableConfig.objects.get(table=table).rules["ante_cents"] == 200


def test_changing_the_paytable_mid_round_says_which_paytable_pays_the_round_in_play(
    manual_table: Table, floor_user: User, dealer_user: User, house_to_1: Paytable, jacks_for_1: Paytable
) -> None:
    """The round in play pays from the version locked when its bets close: bets already placed while it takes bets
    are paid from the new paytable, and a round past its bets keeps the one it locked."""
    rnd = round_start(table=manual_table, actor=dealer_user)
    client = logged_in(floor_user)
    dealers = [str(user.pk) for user in manual_table.dealers.all()]
    kept = {"min_bet_cents": "5", "max_bet_cents": "100", "dealers": dealers}  # the table's, unchanged
    changed = client.post(
        f"{ADMIN}{manual_table.pk}/change/", form(name="Manual 1", paytable=str(house_to_1.pk), **kept), follow=True
    )
    assert (f"Round {rnd.number} at Manual 1 is taking bets: when they close, they are paid from House Triple Draw "
            "v1, including the bets placed before this change.") in changed.content.decode()
    round_void(round=rnd, reason="test", actor=floor_user)
    locked = to_drawing(manual_table, floor_user)
    again = client.post(
        f"{ADMIN}{manual_table.pk}/change/", form(name="Manual 1", paytable=str(jacks_for_1.pk), **kept), follow=True
    )
    assert (f"Round {locked.number} at Manual 1 keeps House Triple Draw v1; the next round pays from Jacks or Better "
            "9/6 v1.") in again.content.decode()


def test_closing_a_home_table_with_a_game_open_is_refused_until_the_floor_closes_the_game(
    floor_user: User, dealer_user: User
) -> None:
    """A closed table refuses every hand (table_closed): closed under an open game, its players' chips and a hand in
    play were stranded at a table nobody could deal, while the list said "1 table closed"."""
    table = open_home_table("Draw 1", "five-card-draw", floor_user, dealer_user)
    game = game_open(table=table, actor=floor_user, players=[{"seat": 1, "name": "Ann", "buy_in_cents": 5_000}])
    client = logged_in(floor_user)
    refused = client.post(ADMIN, {"action": "close_tables", "_selected_action": [str(table.pk)]}, follow=True)
    page = refused.content.decode()
    assert f"Draw 1: game 1 (id {game.pk}) is open with 1 player seated: close the game first" in page
    assert "table closed" not in page
    table.refresh_from_db()
    assert table.is_open
    assert not AuditEvent.objects.filter(action="table_close", table_id=table.pk).exists()
    game_close(game=game, actor=floor_user, reason="end of the session")
    closed = client.post(ADMIN, {"action": "close_tables", "_selected_action": [str(table.pk)]}, follow=True)
    assert "1 table closed" in closed.content.decode()
