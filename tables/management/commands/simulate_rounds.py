"""simulate_rounds: play N Triple Draw rounds on an rng table through the services (demos and load)."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Q

from audit.context import acting_as
from casino.engine.analysis import optimal_hold
from casino.engine.cards import parse_cards
from casino.engine.paytable import PaytableError, PaytableSpec
from paytables.selectors import paytable_spec
from tables.models import CardSource, HandOutcome, Round, Seat, Table
from tables.services.approvals import round_approve_payout
from tables.services.bets import bet_place
from tables.services.cards import cards_deal, holds_record, rows_record
from tables.services.rounds import round_close_bets, round_start
from tables.services.seats import seat_join
from tables.services.settlement import round_settlement_apply
from tables.services.tables import table_open


def random_hold(dealt: list[str], rng: random.Random) -> list[str]:
    """Keep each dealt card with probability one half (0 to 5 cards)."""
    return [card for card in dealt if rng.random() < 0.5]


def best_hold(dealt: list[str], spec: PaytableSpec) -> list[str]:
    """The hold of highest exact expected return under the round's paytable (the analysis' hold and tie rule)."""
    advice = optimal_hold(parse_cards(dealt, count=5), spec)
    return [str(card) for card in advice.held]


class Command(BaseCommand):
    help = (
        "Play N rounds on an rng Triple Draw table with every seat betting; prints the totals. Each seat holds "
        "optimally by default (--holds optimal: the hold of highest exact expected return under the round's "
        "locked paytable, the one its analysis assumes, so the long-run return approaches the analysed return) "
        "or keeps each dealt card with probability one half (--holds random, seeded by --seed)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", required=True, help="table name (card source rng)")
        parser.add_argument("--rounds", type=int, required=True, help="how many rounds (1-100000)")
        parser.add_argument("--seats", type=int, default=7, help="seats that play (1-7)")
        parser.add_argument("--circles", type=int, default=3, help="circles each seat bets (1-3)")
        parser.add_argument("--bet", type=int, default=None, help="bet per circle in cents (default: table minimum)")
        parser.add_argument("--user", default=None, help="acting floor user (default: the first floor supervisor)")
        parser.add_argument(
            "--holds",
            choices=("optimal", "random"),
            default="optimal",
            help="optimal (default): the analysis' best hold for each seat's cards under the round's paytable; "
            "random: keep each dealt card with probability one half",
        )
        parser.add_argument("--seed", type=int, default=None, help="seed for the random holds (cards are SystemRandom)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        table = Table.objects.filter(name=options["table"]).first()
        if table is None:
            raise CommandError(f"no table named {options['table']!r}")
        if table.card_source != CardSource.RNG:
            raise CommandError(f"table {table.name} deals from {table.card_source}: simulation needs an rng table")
        if not 1 <= options["rounds"] <= 100_000 or not 1 <= options["seats"] <= 7 or not 1 <= options["circles"] <= 3:
            raise CommandError("--rounds 1-100000, --seats 1-7, --circles 1-3")
        actor = self._actor(options["user"])
        self._specs: dict[int, PaytableSpec] = {}
        self._approved = 0
        rng = random.Random(options["seed"])
        bet = options["bet"] or table.min_bet_cents
        if options["holds"] == "optimal" and table.paytable is not None:
            self._check_advice(table)
        started = time.perf_counter()
        round_ids: list[int] = []
        with acting_as(user=actor, kind="user", name=f"simulate_rounds:{actor.username}"):
            if not table.is_open:
                table = table_open(table=table, actor=actor)
            for number in range(1, options["seats"] + 1):
                if not Seat.objects.filter(table=table, number=number, occupied=True).exists():
                    seat_join(table=table, seat_number=number, player_name=f"Sim {number}", actor=actor)
            for _ in range(options["rounds"]):
                round_ids.append(
                    self._play(table, actor, rng, bet, options["seats"], options["circles"], options["holds"])
                )
        elapsed = time.perf_counter() - started
        outcomes = HandOutcome.objects.filter(round_id__in=round_ids).select_related("bet")
        stakes = sum(o.bet.amount_cents for o in outcomes)
        returns = sum(o.paid_cents for o in outcomes)
        summary = {
            "table": table.name,
            "holds": options["holds"],
            "rounds": len(round_ids),
            "hands": len(outcomes),
            "stakes_cents": stakes,
            "returns_cents": returns,
            "table_net_cents": stakes - returns,
            "approved_by_floor": self._approved,
            "seconds": round(elapsed, 3),
            "rounds_per_second": round(len(round_ids) / elapsed, 1) if elapsed else None,
        }
        if options["json"]:
            self.stdout.write(json.dumps(summary))
        else:
            for key, value in summary.items():
                self.stdout.write(f"{key:>18}: {value}")

    def _actor(self, username: str | None) -> User:
        users = User.objects.filter(is_active=True)
        user = (
            users.filter(username=username).first()
            if username
            else users.filter(Q(groups__name="floor") | Q(is_superuser=True)).order_by("-groups__name", "pk").first()
        )
        if user is None:
            raise CommandError("no floor supervisor to act as: pass --user")
        return user

    def _play(
        self, table: Table, actor: User, rng: random.Random, bet: int, seats: int, circles: int, holds: str
    ) -> int:
        rnd = round_start(table=table, actor=actor)
        for number in range(1, seats + 1):
            bet_place(round=rnd, seat_number=number, amount_cents=bet, circles=circles, actor=actor)
        round_close_bets(round=rnd, actor=actor)
        rnd = cards_deal(round=rnd, actor=actor)
        spec = self._spec(rnd) if holds == "optimal" else None
        for hand in rnd.seat_hands.order_by("seat_number"):
            held = random_hold(hand.dealt, rng) if spec is None else best_hold(hand.dealt, spec)
            holds_record(round=rnd, seat_number=hand.seat_number, held=held, actor=actor)
        rows_record(round=rnd, actor=actor)
        # Settle in-line; the queued job (a real worker, if any) then finds the round settled and does nothing.
        if round_settlement_apply(round_id=rnd.pk) == Round.Phase.AWAITING_APPROVAL:
            # A big win waits for the floor; the simulation's floor supervisor approves it (audited) so play goes on.
            round_approve_payout(round=rnd, actor=actor)
            self._approved += 1
        return rnd.pk

    def _check_advice(self, table: Table) -> None:
        """Refuse before any round starts a paytable the advice cannot handle (a round must not stop half held);
        this also loads the analysis tables up front, outside the timed rounds."""
        assert table.paytable is not None
        try:
            spec = paytable_spec(table.paytable)
            optimal_hold(parse_cards("2c 3d 4h 5s 7c"), spec)
        except PaytableError as exc:
            raise CommandError(f"no optimal holds for {table.paytable}: {exc.message}; use --holds random") from None
        self._specs[table.paytable.pk] = spec

    def _spec(self, rnd: Round) -> PaytableSpec:
        """The paytable version locked on the round when betting closed (read once per version)."""
        if rnd.paytable is None:
            raise CommandError(f"round {rnd.pk} has no locked paytable")
        spec = self._specs.get(rnd.paytable.pk)
        if spec is None:
            spec = self._specs[rnd.paytable.pk] = paytable_spec(rnd.paytable)
        return spec
