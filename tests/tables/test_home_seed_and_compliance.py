"""seed_demo's home-game tables, and compliance's timeline of a home hand and game with the replay verdict."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from pathlib import Path

from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils.text import slugify

from tables.models import HomeGame, HomeHand, Table
from tables.services.home_games import game_open
from tables.services.home_hands import hand_start
from tables.services.home_rulings import hand_void
from tests.tables.test_home_services import deck, play, seat_players


def test_seed_demo_adds_one_table_of_each_home_game_type_with_a_game_open_once(db: None) -> None:
    call_command("seed_demo", "--force", stdout=StringIO())
    assert HomeGame.objects.filter(status="open").count() == 5
    call_command("seed_demo", "--force", stdout=StringIO())
    games = HomeGame.objects.filter(status="open").select_related("table").order_by("variant", "card_source")
    assert [(g.variant, g.card_source) for g in games] == [
        ("five-card-draw", "rng"),
        ("five-card-draw", "shoe"),
        ("freak-of-nature", "rng"),
        ("pregnant-threes", "manual"),
        ("three-legged-race", "rng"),
    ]
    for game in games:
        assert game.players.count() == 4
        assert list(game.table.dealers.values_list("username", flat=True)) == ["dealer"]
    # Two tables have hands played, the same ones every time (a seeded shuffle), so the reports and compliance
    # have home-game play to show; one of them takes a rake.
    played = {g.table.name: list(g.hands.values_list("status", flat=True)) for g in games}
    assert played == {"Five Card Draw 1": ["settled"] * 3, "Freak of Nature 1": ["settled"] * 3,
                      "Pregnant Threes 1": [], "Three Legged Race 1": [], "Five Card Draw Shoe 1": []}
    assert games.get(table__name="Freak of Nature 1").house_cents > 0
    first = HomeHand.objects.get(game__table__name="Five Card Draw 1", number=1).record["actions"]
    assert first[:2] == ["2 bet 200", "3 call"]
    dealer = User.objects.get(username="dealer")
    hand = hand_start(game=games[0], actor=dealer)
    assert hand.phase == "betting"


def test_compliance_sees_a_hands_and_a_games_timeline_with_the_replay_verdict(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, compliance_user: User
) -> None:
    game = game_open(table=home_table("freak-of-nature"), actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2,
                      deck=deck(2, {1: "5h 5d 9c 9s Kh", 2: "Qs Qd Qc 4h 7d"}))
    play(hand, dealer_user, "1 check", "2 check", "1 draw", "2 draw", "1 check", "2 check")
    voided = hand_start(game=game, actor=dealer_user)
    hand_void(hand=voided.pk, actor=floor_user, reason="misdeal at the table")
    client = Client()
    client.force_login(compliance_user)
    page = client.get(f"/compliance/home/hands/{hand.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Consistent" in text
    assert "Home-game action" in text
    # It opens with what happened: the rules, the seats' cards, the actions and the result in words.
    assert "What happened" in text
    assert "Freak of Nature · cards: System shuffle" in text  # names, not the stored codes
    assert "freak-of-nature ·" not in text
    assert "verifies every  seconds" not in text  # the chain banner reads the same status as every compliance page
    assert "The schedule verifies every 900 seconds" in text
    assert "Fives wild: four nines beat three queens" in text
    assert "9♣" in text or "9\u2663" in text
    assert "1 check" in text
    page = client.get(f"/compliance/home/games/{game.pk}/")
    text = page.content.decode()
    assert "Consistent" in text
    assert "misdeal at the table" in text
    assert "Home game opened (rules announced)" in text
    assert "Bought in" in text
    # A stored result that no longer matches its record is a finding.
    stored = HomeHand.objects.get(pk=hand.pk).result
    HomeHand.objects.filter(pk=hand.pk).update(result={**stored, "pots": []})
    text = client.get(f"/compliance/home/hands/{hand.pk}/").content.decode()
    assert "differs" in text
    dealer = Client()
    dealer.force_login(dealer_user)
    assert dealer.get(f"/compliance/home/games/{game.pk}/").status_code == 403


def test_compliance_reads_the_house_charge_once_in_the_rules_as_announced(
    home_table: Callable[..., Table], dealer_user: User, compliance_user: User
) -> None:
    """The announcement already ends with the house's charge in words; the timeline said it a second time
    ("...; Rake: 10% of each pot won, ... House charge: rake.")."""
    table = home_table("five-card-draw", charge="rake", rake_basis_points=1_000, rake_cap_cents=150)
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2, deck=deck(2, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
    play(hand, dealer_user, "1 bet 200", "2 call", "1 draw", "2 draw", "1 check", "2 check")
    client = Client()
    client.force_login(compliance_user)
    for url in (f"/compliance/home/hands/{hand.pk}/", f"/compliance/home/games/{game.pk}/"):
        text = " ".join(client.get(url).content.decode().split())
        rules = text[text.index("Rules as announced:"):]
        rules = rules[:rules.index("</p>")]
        assert rules.count("Rake: 10% of each pot won, at most $1.50 a pot") == 1, rules
        assert "House charge" not in rules


def test_the_trail_an_event_and_an_exception_link_a_home_hand_to_its_timeline(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, compliance_user: User
) -> None:
    """The home timelines (with the replay verdict) were reachable only by typing their address: no compliance
    screen linked a home hand's or game's events, a voided hand's exception showed "Round —"."""
    from audit.exception_scan import exceptions_scan
    from audit.models import AuditEvent, ExceptionCase
    from audit.services import audit_chain_seal

    table = home_table("five-card-draw")
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    voided = hand_start(game=game, actor=dealer_user)
    hand_void(hand=voided.pk, actor=floor_user, reason="misdeal at the table")
    client = Client()
    client.force_login(compliance_user)
    hand_link = f'href="/compliance/home/hands/{voided.pk}/"'
    game_link = f'href="/compliance/home/games/{game.pk}/"'
    trail = client.get(f"/compliance/?table={table.pk}").content.decode()
    assert hand_link in trail
    assert game_link in trail
    void_event = AuditEvent.objects.get(action="home_hand_void", object_id=str(voided.pk))
    assert hand_link in client.get(f"/compliance/events/{void_event.pk}/").content.decode()
    audit_chain_seal()
    exceptions_scan()
    case = ExceptionCase.objects.get(event_id=void_event.pk)
    # The case names the hand (the daily report lists it without a round); it said only "Home-game hand voided".
    assert case.summary.startswith(f"Home-game hand voided — {voided}: misdeal at the table (")
    detail = client.get(f"/compliance/exceptions/{case.pk}/").content.decode()
    assert f'<dt>Home game</dt><dd><a {hand_link}>{voided}</a>' in detail


def test_compliance_downloads_a_games_record_that_replays_to_the_stored_stacks(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, compliance_user: User, tmp_path: Path
) -> None:
    """The record replay_game reads was the API's alone (a token needed); the game's page now offers it as a file."""
    import json

    from tables.selectors.home import game_view
    from tables.selectors.home_records import game_record

    table = home_table("five-card-draw", charge="rake", rake_basis_points=1_000, rake_cap_cents=150)
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2, deck=deck(2, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
    play(hand, dealer_user, "1 bet 200", "2 call", "1 draw", "2 draw", "1 check", "2 check")
    voided = hand_start(game=game, actor=dealer_user)
    hand_void(hand=voided.pk, actor=floor_user, reason="misdeal at the table")
    client = Client()
    client.force_login(compliance_user)
    url = f"/compliance/home/games/{game.pk}/record.json"
    assert f'href="{url}"' in client.get(f"/compliance/home/games/{game.pk}/").content.decode()
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{slugify(table.name)}-game-1-record.json"'
    record = json.loads(response.content)
    assert record == json.loads(json.dumps(game_record(game)))
    path = tmp_path / "record.json"
    path.write_bytes(response.content)
    out = StringIO()
    call_command("replay_game", str(path), "--json", stdout=out)
    stored = {str(p["seat"]): p["stack_cents"] for p in game_view(game)["players"]}
    assert json.loads(out.getvalue())["stacks"] == stored
    dealer = Client()
    dealer.force_login(dealer_user)
    assert dealer.get(url).status_code == 403


def test_the_floor_reads_hands_pots_and_house_charges_from_the_home_game_ledger(
    home_table: Callable[..., Table], dealer_user: User
) -> None:
    from django.utils import timezone

    from floor.models import TableHour
    from floor.summaries import table_hour_refresh

    table = home_table("five-card-draw", charge="rake", rake_basis_points=1_000, rake_cap_cents=150)
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2, deck=deck(2, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
    play(hand, dealer_user, "1 bet 200", "2 call", "1 draw", "2 draw", "1 bet 400", "2 call")
    table_hour_refresh(table_id=table.pk, at=timezone.now())
    row = TableHour.objects.get(table=table)
    assert (row.hands, row.pots_cents, row.rake_cents, row.time_charge_cents) == (1, 1_400, 140, 0)


def test_compliance_sees_that_a_hand_was_corrected_and_its_actions_as_first_recorded(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, compliance_user: User
) -> None:
    """DESIGN 7: the floor may correct a recorded action before the pot is awarded; "the original record is kept",
    and compliance reads it beside the corrected one."""
    from tables.services.home_rulings import hand_correct

    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2, deck=deck(2, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
    play(hand, dealer_user, "1 check")
    hand_correct(hand=hand.pk, actor=floor_user, index=0, action="1 bet 200", reason="the player bet; check recorded")
    client = Client()
    client.force_login(compliance_user)
    text = client.get(f"/compliance/home/hands/{hand.pk}/").content.decode()
    corrected = " ".join(text[text.index('id="corrected"'):].split())
    assert "Actions as first recorded: Seat 1 · P1 checks (<code>1 check</code>)</p>" in corrected
    # The record as it stands, in words with names and dollars, and in its notation for whoever needs it.
    assert "<li>Seat 1 · P1 bets $2.00</li>" in text
    assert "<code>1 bet 200</code>" in text
    assert "Action: Seat 1 bets $2.00; Replacing: Seat 1 checks" in text  # the correction's event, in words
    assert "the player bet; check recorded" in text  # the correction's reason, among the events
    # The game's list of hands says which were corrected, as it says which were voided or awarded by ruling.
    game_page = client.get(f"/compliance/home/games/{game.pk}/").content.decode()
    assert "Hand 1</a>: in play (corrected by the floor) · not in the game record until it ends</li>" in game_page


def test_the_audit_trail_shows_the_chips_a_bet_or_call_put_in_not_the_pot(
    home_table: Callable[..., Table], dealer_user: User, compliance_user: User
) -> None:
    from audit.models import AuditEvent

    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2,
                      deck=deck(2, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}, stock="2c"))
    play(hand, dealer_user, "1 bet 200", "2 raise 400", "1 call", "1 draw", "2 draw 8c", "1 check")
    start = AuditEvent.objects.get(action="home_hand_start", object_id=str(hand.pk))
    assert start.after["antes_cents"] == 2 * start.after["ante_cents"] > 0  # the start's Amount: the antes it took
    events = AuditEvent.objects.filter(action="home_hand_action", object_id=str(hand.pk)).order_by("id")
    # Every action names what it put in; a draw or a check put in nothing.
    assert [(e.after["action"], e.after.get("amount_cents")) for e in events] == [
        ("1 bet 200", 200), ("2 raise 400", 400), ("1 call", 200), ("1 draw", 0), ("2 draw 8c", 0), ("1 check", 0)]
    client = Client()
    client.force_login(compliance_user)
    text = client.get(f"/compliance/home/hands/{hand.pk}/").content.decode()
    assert '<td class="amount">$4.00</td>' in text  # the raise's own chips, where the pot after it was $10.00
    # The check and the draws show a blank Amount, not the $10.00 pot they left behind nor $0.00.
    assert '<td class="amount">$10.00</td>' not in text
    assert '<td class="amount">$0.00</td>' not in text
    assert text.count('<td class="amount"></td>') >= 3
    # Each action in words and dollars, a raise as its total, with what it put in beside it; the hand's summary
    # names the players and shows the cards; the notation stays on the page for compliance.
    raise_row = text[text.index("Action: Seat 2 raises to $4.00"):]  # (PostgreSQL's JSON orders the fields itself)
    assert "Chips put in: $4.00" in raise_row[:raise_row.index("</td>")]
    assert "<li>Seat 2 · P2 raises to $4.00</li>" in text
    assert "<li>Seat 2 · P2 discards 8♣ and draws 1</li>" in text
    assert "<code>1 bet 200 · 2 raise 400 · 1 call · 1 draw · 2 draw 8c · 1 check</code>" in text
