"""Home-game play reaches the floor: hands, games, pots, rake and time charges in the summaries and the home report
equal what the home-game ledger holds, refreshed by the job each posting queues."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Sum
from django.test import Client
from django.utils import timezone

from floor.gaming_day import gaming_day, hour_bucket
from floor.home_ledger import home_figures
from floor.params import ReportQuery
from floor.selectors.reports import home_report
from tables.models import HomeAccount, HomeGame, HomeHand, HomeLedgerEntry, Table
from tables.services.home_games import game_close, game_open
from tables.services.home_hands import hand_act, hand_start
from tables.services.home_rulings import hand_award
from tests.engine.home_support import stacked_deck
from tests.floor.conftest import api_for, summary_jobs_in_process
from tests.tables.conftest import open_home_table

pytestmark = pytest.mark.django_db


def _deck(button: int, hands: dict[int, str]) -> list[str]:
    return [str(card) for card in stacked_deck(button, hands, "")]


def _act(hand: HomeHand, dealer: User, *steps: str) -> None:
    for step in steps:
        seat, verb, *rest = step.split()
        request: dict[str, Any] = {"seat": int(seat), "action": verb}
        if verb in ("bet", "raise"):
            request["amount_cents"] = int(rest[0])
        elif verb == "draw":
            request["cards"] = rest
        hand = hand_act(hand=hand.pk, actor=dealer, **request)


def _play(table: Table, floor_user: User, dealer_user: User, capture: Any) -> None:
    """Two hands (antes only, then a raked pot) and the game closed, each step's summary job run."""
    django_capture_on_commit_callbacks = capture
    players = [{"seat": seat, "name": f"P{seat}", "buy_in_cents": 10_000} for seat in (1, 2)]
    with summary_jobs_in_process(), django_capture_on_commit_callbacks(execute=True):
        game = game_open(table=table, actor=dealer_user, players=players)
    for button, steps in (
        (2, ("1 check", "2 check", "1 draw", "2 draw", "1 check", "2 check")),  # antes only: no rake
        (1, ("2 bet 200", "1 raise 400", "2 call", "2 draw", "1 draw", "2 bet 400", "1 call")),  # raked, capped
    ):
        with summary_jobs_in_process(), django_capture_on_commit_callbacks(execute=True):
            hand = hand_start(
                game=game, actor=dealer_user, button=button,
                deck=_deck(button, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}),
            )  # fmt: skip
        with summary_jobs_in_process(), django_capture_on_commit_callbacks(execute=True):
            _act(hand, dealer_user, *steps)
    with summary_jobs_in_process(), django_capture_on_commit_callbacks(execute=True):
        game_close(game=game.pk, actor=floor_user, reason="end of the session")


def test_the_home_report_shows_the_hands_pots_and_rake_the_ledger_holds(
    floor_user: User, dealer_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    table = open_home_table(
        "Draw 7", "five-card-draw", floor_user, dealer_user, charge="rake", rake_basis_points=1_000, rake_cap_cents=150
    )
    _play(table, floor_user, dealer_user, django_capture_on_commit_callbacks)
    today = gaming_day(timezone.now())
    rows, totals = home_report(ReportQuery(first=today, last=today))
    [row] = [r for r in rows if r.table_id == table.pk]
    entries = HomeLedgerEntry.objects.filter(game__table=table)
    pots = -(entries.filter(account=HomeAccount.POT, amount_cents__lt=0).aggregate(t=Sum("amount_cents"))["t"] or 0)
    assert row.hands == HomeHand.objects.filter(game__table=table, status="settled").count() == 2
    assert row.games == HomeGame.objects.filter(table=table).exclude(ended_at=None).count() == 1
    assert row.pots_cents == pots > 0
    assert row.rake_cents == 150  # 10% of 1,800 capped at $1.50; none on the antes-only pot
    assert row.house_cents == entries.filter(account=HomeAccount.HOUSE).aggregate(t=Sum("amount_cents"))["t"]
    assert totals.hands >= row.hands


@pytest.mark.parametrize(
    "charge",
    [
        {"charge": "rake", "rake_basis_points": 1_000, "rake_cap_cents": 150},
        {"charge": "time", "time_charge_cents": 75},
    ],
)
def test_an_hours_figures_are_the_same_whichever_range_asks_for_them(
    charge: dict[str, Any], floor_user: User, dealer_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    """The job asks for one table's hour, the rebuild and the books for longer ranges: the hour's figures agree, and
    the house's charges over the hours add up to the ledger's house account."""
    table = open_home_table("Draw 8", "five-card-draw", floor_user, dealer_user, **charge)
    _play(table, floor_user, dealer_user, django_capture_on_commit_callbacks)
    hours = {
        hour_bucket(at) for at in HomeLedgerEntry.objects.filter(game__table=table).values_list("posted_at", flat=True)
    }
    for hour in hours:
        alone = home_figures(table_ids=[table.pk], start=hour, end=hour + timedelta(hours=1))
        wider = home_figures(table_ids=[table.pk], start=hour - timedelta(hours=1), end=hour + timedelta(hours=2))
        assert alone == [figure for figure in wider if figure.hour_start == hour]
        assert alone
        assert all(figure.dealer_id == dealer_user.pk for figure in alone if figure.hands)
    house = sum(
        f.house_cents
        for hour in hours
        for f in home_figures(table_ids=[table.pk], start=hour, end=hour + timedelta(hours=1))
    )
    assert (
        house
        == HomeLedgerEntry.objects.filter(game__table=table, account=HomeAccount.HOUSE).aggregate(
            t=Sum("amount_cents")
        )["t"]
        > 0
    )


def _bet_and_called(table: Table, dealer: User, on_commit: Any) -> tuple[HomeGame, HomeHand]:
    """A two-player game whose first hand is in play with a bet called: chips in the middle, nothing settled."""
    players = [{"seat": seat, "name": f"P{seat}", "buy_in_cents": 10_000} for seat in (1, 2)]
    with summary_jobs_in_process(), on_commit(execute=True):
        game = game_open(table=table, actor=dealer, players=players)
        hand = hand_start(game=game, actor=dealer, button=1, deck=_deck(1, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
        _act(hand, dealer, "2 bet 200", "1 call")
    return game, hand


def test_a_pot_awarded_by_the_floors_ruling_reaches_the_report_at_once(
    floor_user: User, dealer_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    """The ruling is the last thing that happens at the table: its hand and pot are in the report without waiting
    for a later posting to refresh the hour (DESIGN 7: the floor may award a pot by ruling)."""
    table = open_home_table("Draw 9", "five-card-draw", floor_user, dealer_user)
    game, hand = _bet_and_called(table, dealer_user, django_capture_on_commit_callbacks)
    middle = HomeGame.objects.get(pk=game.pk).pot_cents
    assert middle > 0
    with summary_jobs_in_process(), django_capture_on_commit_callbacks(execute=True):
        hand_award(hand=hand.pk, actor=floor_user, seats=[2], reason="seat 1 exposed a card to seat 3")
    today = gaming_day(timezone.now())
    rows, _ = home_report(ReportQuery(first=today, last=today))
    [row] = [r for r in rows if r.table_id == table.pk]
    assert (row.hands, row.pots_cents) == (1, middle)
    # The game is still open: no game ended, and the report says which game is open and what is in its middle.
    assert (row.games, row.open_game, row.middle_cents) == (0, game.number, 0)


def test_chips_left_in_the_middle_of_an_open_game_show_under_open_now(
    floor_user: User, dealer_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    """"Pots awarded" counts chips that left the middle; chips still in it (a carried pot, a hand in play) are shown
    beside the open game's number, where the floor looks for them, and in the totals."""
    table = open_home_table("Draw 11", "five-card-draw", floor_user, dealer_user)
    game, _ = _bet_and_called(table, dealer_user, django_capture_on_commit_callbacks)
    middle = HomeGame.objects.get(pk=game.pk).pot_cents
    assert middle > 0
    today = gaming_day(timezone.now())
    rows, totals = home_report(ReportQuery(first=today, last=today))
    [row] = [r for r in rows if r.table_id == table.pk]
    assert (row.games, row.pots_cents, row.open_game, row.middle_cents) == (0, 0, game.number, middle)
    assert totals.middle_cents == middle
    client = Client()
    client.force_login(floor_user)
    report = client.get(f"/floor/reports/?from={today}&to={today}").content.decode()
    report = report[report.index('id="home-report"'):]
    assert '<th scope="col">Games ended</th><th scope="col">Pots awarded</th>' in report
    assert f'<td class="num now">game {game.number} · ${middle // 100}.{middle % 100:02d}</td>' in report


def test_the_csv_and_the_api_give_the_open_game_and_its_middle_as_the_page_does(
    floor_user: User, dealer_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    """The page's "Open now · in the middle" column is in the CSV and the API too, with the same meaning, and the
    OpenAPI schema types it."""
    table = open_home_table("Draw 12", "five-card-draw", floor_user, dealer_user)
    game, _ = _bet_and_called(table, dealer_user, django_capture_on_commit_callbacks)
    middle = HomeGame.objects.get(pk=game.pk).pot_cents
    assert middle > 0
    today = gaming_day(timezone.now())
    answer = api_for(floor_user).get(f"/api/v1/reports/home/?from={today}&to={today}").json()
    [row] = [r for r in answer["rows"] if r["table_id"] == table.pk]
    assert (row["games"], row["pots_cents"], row["open_game"], row["middle_cents"]) == (0, 0, game.number, middle)
    assert (answer["totals"]["open_game"], answer["totals"]["middle_cents"]) == (None, middle)
    client = Client()
    client.force_login(floor_user)
    response = client.get(f"/floor/reports/export.csv?from={today}&to={today}&report=home")
    lines = b"".join(response.streaming_content).decode().splitlines()  # type: ignore[attr-defined]
    header = lines[0].split(",")
    assert header[-2:] == ["open_game", "middle_cents"]
    [line] = [dict(zip(header, text.split(","), strict=True)) for text in lines[1:-1]
              if text.startswith(f"{table.pk},")]
    assert (line["open_game"], line["middle_cents"]) == (str(game.number), str(middle))
    totals = dict(zip(header, lines[-1].split(","), strict=True))
    assert (totals["open_game"], totals["middle_cents"]) == ("", str(middle))
    schema = api_for(floor_user).get("/api/schema/?format=json").json()["components"]["schemas"]["HomeRow"]
    assert schema["properties"]["open_game"]["type"] == "integer"
    assert schema["properties"]["open_game"]["nullable"] is True
    assert schema["properties"]["middle_cents"]["type"] == "integer"
    assert {"open_game", "middle_cents"} <= set(schema["required"])


def test_the_reports_page_names_each_home_game_and_totals_the_tables(
    floor_user: User, dealer_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    """The page's home-game table reads as the floor speaks ("Five Card Draw", not "five-card-draw") and ends with
    the totals the CSV has."""
    for name, kind in (("Draw 10", "five-card-draw"), ("Freak 1", "freak-of-nature")):
        table = open_home_table(name, kind, floor_user, dealer_user, charge="rake", rake_basis_points=1_000,
                                rake_cap_cents=150)
        _play(table, floor_user, dealer_user, django_capture_on_commit_callbacks)
    today = gaming_day(timezone.now())
    rows, totals = home_report(ReportQuery(first=today, last=today))
    client = Client()
    client.force_login(floor_user)
    page = client.get(f"/floor/reports/?from={today}&to={today}").content.decode()
    report = page[page.index('id="home-report"'):]
    assert "<td>Five Card Draw</td>" in report
    assert "<td>Freak of Nature</td>" in report
    assert "five-card-draw" not in report
    footer = report[report.index("<tfoot>"):report.index("</tfoot>")]
    assert "All home-game tables" in footer
    assert f'<td class="num">{totals.hands}</td>' in footer
    assert totals.hands == sum(r.hands for r in rows) == 4
    assert "$3.00" in footer  # two tables' rake of $1.50
