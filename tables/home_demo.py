"""Demo home-game tables for seed_demo: one table of each home-game type (Pregnant Threes manual, the others rng) and
a Five Card Draw table dealt from a card-reading shoe, each with its house rules and a game open with four players,
two of them with a few hands played (idempotent: a game the floor closed is not opened again)."""

from __future__ import annotations

import random
from collections import Counter
from functools import partial
from typing import Any

from django.contrib.auth.models import User

from casino.engine.cards import ALL_CARDS
from tables.demo_tables import demo_table_get_or_create
from tables.models import CardSource, HomeGame, HomeHand, Table, TableType
from tables.selectors.home import hand_view
from tables.services.home_config import home_config_set
from tables.services.home_games import game_open
from tables.services.home_hands import hand_act, hand_start
from tables.services.tables import table_assign_dealer, table_create, table_open

FIXED = {"ante_cents": 100, "betting": "fixed_limit", "small_bet_cents": 200, "big_bet_cents": 400}
# (demo key, first name, type, card source, rules, house charge); the key (Table.demo_key) finds the table again.
DEMO_HOME_TABLES: tuple[tuple[str, str, str, str, dict[str, Any], dict[str, Any]], ...] = (
    ("five-card-draw-1", "Five Card Draw 1", TableType.FIVE_CARD_DRAW, CardSource.RNG, FIXED, {}),
    ("pregnant-threes-1", "Pregnant Threes 1", TableType.PREGNANT_THREES, CardSource.MANUAL,
     {**FIXED, "draws": 2, "cards_per_draw": 3, "draw": "optional", "kill_cards": ["Kd"]},
     {"charge": "time", "time_charge_cents": 500}),
    ("three-legged-race-1", "Three Legged Race 1", TableType.THREE_LEGGED_RACE, CardSource.RNG,
     {**FIXED, "legs_to_win": 2}, {}),
    ("freak-of-nature-1", "Freak of Nature 1", TableType.FREAK_OF_NATURE, CardSource.RNG,
     {"ante_cents": 100, "betting": "pot_limit", "min_bet_cents": 200},
     {"charge": "rake", "rake_basis_points": 500, "rake_cap_cents": 300}),
    # Its shoe's token is printed by seed_demo (tables/shoe_demo.py): the shoe deals every card, posted with curl.
    ("five-card-draw-shoe-1", "Five Card Draw Shoe 1", TableType.FIVE_CARD_DRAW, CardSource.SHOE, FIXED, {}),
)
# Hands played at seeding, so the floor's reports, the compliance timelines and the tablet's history have home-game
# play to show: a fixed-limit table without a house charge, and a pot-limit one with a rake.
DEMO_HANDS = {"five-card-draw-1": 3, "freak-of-nature-1": 3}
RANKS = "23456789TJQKA"
# Cards a player keeps whatever else they hold: Freak of Nature's wild sixes, and the fives that are wild when
# nobody shows a six (rule sheet, article 3).
KEEP = {"freak-of-nature": frozenset("65")}
PLAYERS = [{"seat": seat, "name": name, "buy_in_cents": 20_000}
           for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Dee"))]


def seed_home_tables(users: dict[str, User]) -> list[Table]:
    floor, dealer = users["floor"], users["dealer"]
    tables = []
    for key, name, variant, source, rules, charge in DEMO_HOME_TABLES:
        create = partial(_create, key=key, variant=variant, source=source, rules=rules, charge=charge, floor=floor)
        table = demo_table_get_or_create(key, name, create)
        if not table.dealers.filter(pk=dealer.pk).exists():
            table_assign_dealer(table=table, dealer=dealer, actor=floor)
        # Only a table that never had a game gets one: a demo game the floor closed (or one that was won) stays
        # closed, as the floor left it, rather than a new one opened behind its back on the next run.
        if table.is_open and not HomeGame.objects.filter(table=table).exists():
            game = game_open(table=table, actor=dealer, players=PLAYERS)
            for number in range(1, DEMO_HANDS.get(key, 0) + 1):
                # Seeded by the first name, as before the key existed, so the demo's hands stay the same.
                play_demo_hand(game, dealer, random.Random(f"{name} hand {number}"))
        tables.append(table)
    return tables


def _create(name: str, *, key: str, variant: str, source: str, rules: dict[str, Any], charge: dict[str, Any],
            floor: User) -> Table:
    table = table_create(name=name, table_type=variant, card_source=source, actor=floor, demo_key=key)
    table = table_open(table=table, actor=floor)
    home_config_set(table=table, actor=floor, rules=rules, buy_in_min_cents=2_000, buy_in_max_cents=50_000, **charge)
    return table


def play_demo_hand(game: HomeGame, dealer: User, shuffle: random.Random) -> HomeHand:
    """One hand through the services, as a dealer records it: the first to act in each betting round bets the
    least allowed, a player holding nothing (no pair, nothing above a ten) folds to a bet, the others call; at the
    draw each throws their unpaired cards, lowest first, as many as the rules allow. The deck is shuffled by
    `shuffle` so the demo is the same every time; the record holds it as it holds the system's."""
    deck = [str(card) for card in ALL_CARDS]
    shuffle.shuffle(deck)
    hand = hand_start(game=game, actor=dealer, deck=deck)
    while hand.status == HomeHand.Status.IN_PLAY:
        view = hand_view(hand, hand.game)
        seat = view["awaiting"]["seat"]
        cards = next(player["cards"] for player in view["players"] if player["seat"] == seat)
        if view["awaiting"]["kind"] == "draw":
            rule, keep = view["draw"], KEEP.get(game.variant, frozenset())
            lone = [card for card in _unpaired(cards) if card[0] not in keep]
            count = min(max(len(lone), rule["minimum"]), rule["maximum"])
            request: dict[str, Any] = {"action": "draw", "cards": _throw_order(cards, keep)[:count]}
        else:
            request = {"action": _betting(view["legal"], cards)}
            if request["action"] == "bet":
                request["amount_cents"] = view["legal"]["bet"]["minimum_cents"]
        hand = hand_act(hand=hand.pk, actor=dealer, seat=seat, **request)
    return hand


def _unpaired(cards: list[str]) -> list[str]:
    ranks = Counter(card[0] for card in cards)
    return [card for card in cards if ranks[card[0]] == 1]


def _throw_order(cards: list[str], keep: frozenset[str] = frozenset()) -> list[str]:
    """The cards in the order a player lets them go: unpaired before paired, lowest first, the ones to keep last."""
    ranks = Counter(card[0] for card in cards)
    return sorted(cards, key=lambda card: (card[0] in keep, ranks[card[0]] > 1, RANKS.index(card[0])))


def _betting(legal: dict[str, Any], cards: list[str]) -> str:
    actions = legal["actions"]
    if "bet" in actions:
        return "bet"
    holding = len(_unpaired(cards)) < len(cards) or any(RANKS.index(card[0]) > RANKS.index("T") for card in cards)
    if "call" in actions:
        return "call" if holding else "fold"
    return "check"
