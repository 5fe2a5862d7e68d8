"""simulate_rounds --holds: optimal holds from the paytable analysis (the default) or random holds."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from casino.engine.analysis import optimal_hold
from casino.engine.cards import parse_cards
from paytables.selectors import paytable_spec
from tables.models import CardSource, Round, SeatHand, Table
from tests.tables.conftest import make_paytable, open_table

pytestmark = pytest.mark.django_db


def simulate(table: Table, *extra: str) -> dict[str, object]:
    out = StringIO()
    call_command("simulate_rounds", "--table", table.name, "--rounds", "2", "--json", *extra, stdout=out)
    summary: dict[str, object] = json.loads(out.getvalue())
    return summary


def test_optimal_holds_are_the_best_hold_for_each_seats_dealt_cards_under_the_locked_paytable(
    rng_table: Table,
) -> None:
    summary = simulate(rng_table, "--holds", "optimal")
    assert (summary["holds"], summary["rounds"], summary["hands"]) == ("optimal", 2, 2 * 7 * 3)
    hands = SeatHand.objects.filter(round__table=rng_table).select_related("round__paytable")
    assert hands.count() == 2 * 7
    for hand in hands:
        spec = paytable_spec(hand.round.paytable)
        advice = optimal_hold(parse_cards(hand.dealt, count=5), spec)
        assert hand.held == [str(card) for card in advice.held], hand.dealt
    assert Round.objects.filter(table=rng_table, phase__in=["settled", "awaiting_approval"]).count() == 2


def test_simulation_holds_optimally_unless_told_otherwise(rng_table: Table) -> None:
    assert simulate(rng_table)["holds"] == "optimal"
    for hand in SeatHand.objects.filter(round__table=rng_table).select_related("round__paytable"):
        advice = optimal_hold(parse_cards(hand.dealt, count=5), paytable_spec(hand.round.paytable))
        assert hand.held == [str(card) for card in advice.held]


def test_random_holds_keep_a_subset_of_the_dealt_cards_in_dealt_order(rng_table: Table) -> None:
    assert simulate(rng_table, "--holds", "random", "--seed", "3")["holds"] == "random"
    hands = list(SeatHand.objects.filter(round__table=rng_table))
    assert len(hands) == 2 * 7
    for hand in hands:
        assert hand.held == [card for card in hand.dealt if card in hand.held]
    # A coin per card matches the optimal hold with probability 1/32 per seat: all 14 seats at once, never.
    assert any(
        hand.held != [str(c) for c in optimal_hold(parse_cards(hand.dealt), paytable_spec(hand.round.paytable)).held]
        for hand in SeatHand.objects.filter(round__table=rng_table).select_related("round__paytable")
    )


def test_an_unknown_hold_strategy_is_refused(rng_table: Table) -> None:
    with pytest.raises(CommandError, match="holds"):
        simulate(rng_table, "--holds", "greedy")
    assert not Round.objects.filter(table=rng_table).exists()


def test_a_paytable_too_fine_for_exact_advice_is_refused_before_any_round(floor_user: User, dealer_user: User) -> None:
    fine = make_paytable(
        {
            "name": "Fine",
            "basis": "for_1",
            "lines": [
                {"hand": "royal_flush", "pays": "800/999983"},
                {"hand": "flush", "pays": "1/999979"},
                {"hand": "straight", "pays": "1/999961"},
            ],
        },
        floor_user,
    )
    table = open_table("RNG fine", CardSource.RNG, fine, floor_user, dealer_user)
    with pytest.raises(CommandError, match="--holds random"):
        simulate(table)
    assert not Round.objects.filter(table=table).exists()
    assert simulate(table, "--holds", "random")["rounds"] == 2
