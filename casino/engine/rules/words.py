"""The announced rules in words for players and dealers: "Ante $1.00", "Fixed limit $2/$4", "Race to 2 legs"."""

from __future__ import annotations

from collections.abc import Iterable

from casino.engine.cards import Rank, card_symbols
from casino.engine.hands import rank_name
from casino.engine.money import money, stake
from casino.engine.rules.model import Rules
from casino.engine.rules.options import Betting, TieRule, sorted_cards
from casino.engine.variants import PREGNANT_THREES, THREE_LEGGED_RACE

_COUNTS = {1: "One", 2: "Two", 3: "Three"}


def describe_rules(rules: Rules) -> tuple[str, ...]:
    """One line per announced rule, in the order a dealer announces them (none for Triple Draw: the house's
    paytable is its rules)."""
    if not rules.variant.home:
        return ()
    lines: list[str] = []
    if rules.ante_cents is not None:
        lines.append(f"Ante {money(rules.ante_cents)}")
    lines.extend(_betting(rules))
    lines.extend(_draws(rules))
    lines.extend(_wild(rules))
    if rules.kill_cards:
        lines.append("Kill cards: " + " ".join(card_symbols(card) for card in sorted_cards(rules.kill_cards)))
    if rules.has_wild_cards:
        lines.append(
            "Five of a kind ranks below a straight flush"
            if rules.five_of_a_kind == "below_straight_flush"
            else "Five of a kind is the highest hand"
        )
        lines.append(
            "A wild card may duplicate a card of its flush"
            if rules.wild_duplicates_in_flush
            else "A wild card may not duplicate a card of its flush"
        )
    if rules.plays_for_legs:
        lines.extend(_legs(rules))
    return tuple(lines)


def describe_charge(charge: str, *, rake_basis_points: int = 0, rake_cap_cents: int = 0,
                    time_charge_cents: int = 0) -> str:
    """The house's charge as the announcement says it (a game's `charge`: `rake`, `time` or `none`): "Rake: 10% of
    each pot won, at most $1.50 a pot, taken from the winner; none on a hand nobody bet in (antes only)", "Time
    charge: $5.00 from each seat every half hour, taken as the first hand of the half hour starts"."""
    if charge == "rake":
        cap = f", at most {money(rake_cap_cents)} a pot" if rake_cap_cents else ""
        return (f"Rake: {percent(rake_basis_points)} of each pot won{cap}, taken from the winner; "
                "none on a hand nobody bet in (antes only)")
    if charge == "time":
        return (f"Time charge: {money(time_charge_cents)} from each seat every half hour, taken as the first hand of "
                "the half hour starts")
    return "No house charge: no rake, no time charge"


def percent(basis_points: int) -> str:
    """500 basis points -> "5%", 250 -> "2.5%"."""
    whole, rest = divmod(int(basis_points), 100)
    return f"{whole}%" if rest == 0 else f"{whole}.{rest:02d}".rstrip("0") + "%"


def _betting(rules: Rules) -> list[str]:
    if rules.betting is Betting.FIXED_LIMIT:
        if rules.small_bet_cents is None or rules.big_bet_cents is None:
            return ["Fixed limit"]
        return [f"Fixed limit {stake(rules.small_bet_cents)}/{stake(rules.big_bet_cents)}"]
    structure = "Pot limit" if rules.betting is Betting.POT_LIMIT else "No limit"
    if rules.min_bet_cents is None:
        return [structure]
    return [f"{structure}, minimum bet {stake(rules.min_bet_cents)}"]


def _draws(rules: Rules) -> list[str]:
    if rules.variant.code == THREE_LEGGED_RACE:
        return ["One draw: every player exchanges exactly 3 cards, no standing pat"]
    if rules.variant.code == PREGNANT_THREES:
        count = _COUNTS[rules.draws]
        draws = "draw" if rules.draws == 1 else "draws"
        if rules.draw_is_mandatory:
            return [f"{count} {draws} of exactly {rules.cards_per_draw} cards (mandatory)"]
        return [f"{count} {draws} of up to {rules.cards_per_draw} cards (optional)"]
    if rules.max_discard_with_ace > rules.max_discard:
        return [f"One draw: up to {rules.max_discard} cards, {rules.max_discard_with_ace} keeping an ace"]
    return [f"One draw: up to {rules.max_discard} cards"]


def _wild(rules: Rules) -> list[str]:
    lines: list[str] = []
    if rules.sliding_wild:
        lines.append(
            "6s are wild; if no hand at the showdown holds a 6, the next rank down that one holds (5, 4, 3, 2)"
        )
        lines.append(
            "If no showdown hand holds a 6 down to a 2, aces are wild"
            if rules.freak_bottom == "aces"
            else "If no showdown hand holds a 6 down to a 2, nothing is wild"
        )
    named = [_rank_plural(rank) for rank in sorted(rules.wild.ranks)]
    named += [card_symbols(card) for card in sorted_cards(rules.wild.cards)]
    if named:
        verb = "is" if len(named) == 1 and not rules.wild.ranks else "are"
        lines.append(f"{_joined(named)} {verb} wild")
    return lines


def _legs(rules: Rules) -> list[str]:
    lines = [f"Race to {rules.legs_to_win} {'leg' if rules.legs_to_win == 1 else 'legs'}"]
    lines.append(
        "A player left alone after the others fold scores a leg"
        if rules.uncontested_scores_leg
        else "A player left alone after the others fold scores no leg"
    )
    lines.append(
        "A tie at the showdown: each winner scores a leg"
        if rules.tie is TieRule.EACH_SCORES
        else "A tie at the showdown: nobody scores a leg"
    )
    if rules.forced_play:
        lines.append("Forced play: no folding")
    return lines


def _rank_plural(rank: Rank) -> str:
    # Digits as dealers write them ("3s, 6s and 9s"); faces in words ("jacks").
    return f"{int(rank)}s" if rank <= Rank.TEN else rank_name(rank, plural=True)


def listed(items: Iterable[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy": several things as a sentence names them ("" for none)."""
    words = list(items)
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _joined(items: Iterable[str]) -> str:
    text = listed(items)
    return text[0].upper() + text[1:]
