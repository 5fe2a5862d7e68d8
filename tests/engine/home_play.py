"""Random legal play for the home-game property tests: hands to play, and a dealer giving a live hand random cards."""

from __future__ import annotations

from hypothesis import strategies as st

from casino.engine.cards import Card
from casino.engine.home.awaiting import Awaiting, AwaitKind
from casino.engine.home.betting import MoveKind
from casino.engine.home.hand import HomeHand
from casino.engine.home.legal import LegalActions
from casino.engine.home.record import HandRecord, hand_record
from casino.engine.rules.model import Rules

VARIANT_OPTIONS: dict[str, list[dict[str, object]]] = {
    "five-card-draw": [{}, {"max_discard": 5, "kill_cards": ["Kd"]}],
    "pregnant-threes": [
        {"draws": 2, "cards_per_draw": 3, "draw": "mandatory"},
        {"draws": 3, "cards_per_draw": 5, "draw": "optional", "kill_cards": ["Kd", "Js", "Jh"]},
    ],
    "three-legged-race": [{"legs_to_win": 2}, {"legs_to_win": 1, "forced_play": True, "tie": "nobody_scores"}],
    "freak-of-nature": [{}, {"freak_bottom": "aces"}],
}


@st.composite
def announced_rules(draw: st.DrawFn) -> Rules:
    """A variant with some of its options and random stakes under a random betting structure."""
    variant = draw(st.sampled_from(sorted(VARIANT_OPTIONS)))
    options = dict(draw(st.sampled_from(VARIANT_OPTIONS[variant])))
    betting = draw(st.sampled_from(["fixed_limit", "pot_limit", "no_limit"]))
    options |= {"ante_cents": draw(st.integers(0, 50)), "betting": betting}
    if betting == "fixed_limit":
        options |= {"small_bet_cents": 20, "big_bet_cents": 40}
    else:
        options["min_bet_cents"] = draw(st.integers(1, 40))
    return Rules.announce(variant, options)


@st.composite
def hands_to_play(draw: st.DrawFn) -> tuple[Rules, dict[int, int], int]:
    rules = draw(announced_rules())
    # A mandatory draw needs the stock to serve the first player to draw (the hand refuses to start otherwise).
    count = draw(st.integers(2, min(rules.seat_limit, (52 - rules.discards.minimum) // 5)))
    stacks = draw(st.lists(st.integers(1, 600), min_size=count, max_size=count))
    seats = draw(st.lists(st.integers(1, 10), min_size=count, max_size=count, unique=True))
    button = draw(st.sampled_from(seats))
    return rules, dict(zip(seats, stacks, strict=True)), button


def _by_index(card: Card) -> int:
    return card.index


def check_offer(hand: HomeHand, legal: LegalActions) -> None:
    """Every action offered is accepted at the bounds of its amounts; one beyond them, or an action not offered,
    is refused."""
    seat = legal.seat
    assert hand.can_fold(seat) is legal.fold
    assert hand.can_check(seat) is legal.check
    assert hand.can_call(seat) is (legal.call is not None)
    assert hand.can_all_in(seat) is (legal.all_in is not None)
    for kind, offered in ((MoveKind.BET, legal.bet), (MoveKind.RAISE, legal.raise_to)):
        if offered is None:
            assert not any(hand.can_bet_action(seat, kind, amount) for amount in (1, hand.pot_cents, 10_000))
            continue
        assert hand.can_bet_action(seat, kind, offered.minimum)
        assert hand.can_bet_action(seat, kind, offered.maximum)
        assert not hand.can_bet_action(seat, kind, offered.maximum + 1)
        assert not hand.can_bet_action(seat, kind, offered.minimum - 1) or offered.minimum - 1 == legal.all_in


def play_live(hand: HomeHand, data: st.DataObject) -> list[tuple[HandRecord, int, Awaiting]]:
    """Give the hand random cards and reshuffles and random legal actions; return after every step its record, how
    many events it had and what it awaited."""
    records = [(hand_record(hand), len(hand.events), hand.awaiting)]
    for _ in range(800):
        awaiting = hand.awaiting
        if awaiting.kind is AwaitKind.NOTHING:
            break
        if awaiting.kind is AwaitKind.CARD:
            hand.deal_card(data.draw(st.sampled_from(sorted(hand.stock.candidates, key=_by_index)), label="card"))
        elif awaiting.kind is AwaitKind.RESHUFFLE:
            hand.reshuffle(data.draw(st.permutations(hand.muck), label="new stock"))
        elif data.draw(st.integers(0, 29), label="someone leaves") == 0:
            hand.leave(data.draw(st.sampled_from([seat for seat in hand.seats if hand.can_leave(seat)])))
        elif awaiting.kind is AwaitKind.ACTION:
            legal = hand.legal_actions()
            assert legal is not None
            assert legal.seat == awaiting.seat
            check_offer(hand, legal)
            kind = MoveKind(data.draw(st.sampled_from(legal.kinds), label="action"))
            amount = 0
            offered = legal.bet if kind is MoveKind.BET else legal.raise_to if kind is MoveKind.RAISE else None
            if offered is not None:
                amount = data.draw(st.integers(offered.minimum, offered.maximum), label="amount")
            hand.act(legal.seat, kind, amount)
        else:
            choice = hand.draw_choice()
            assert choice is not None
            held = data.draw(st.permutations(hand.players[choice.seat].cards), label="discard order")
            options = [tuple(held[:count]) for count in range(choice.minimum, choice.maximum_keeping_ace + 1)]
            legal_draws = [discards for discards in options if hand.can_draw(choice.seat, discards)]
            assert legal_draws, f"seat {choice.seat} has no legal draw ({choice})"
            hand.draw(choice.seat, data.draw(st.sampled_from(legal_draws), label="discards"))
        records.append((hand_record(hand), len(hand.events), hand.awaiting))
    assert hand.settled, "the hand did not end"
    return records
