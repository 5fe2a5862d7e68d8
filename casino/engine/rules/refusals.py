"""Every wrong option of a home game's announcement at once, for a form that shows each beside its own field."""

from __future__ import annotations

from collections.abc import Mapping

from casino.engine.errors import AnnouncementError, RulesError
from casino.engine.rules.model import Rules, missing_refusals, other_structure_refusals
from casino.engine.rules.options import option_specs
from casino.engine.variants import HOME_VARIANTS


def announcement_refusals(variant_code: str, data: Mapping[str, object]) -> list[AnnouncementError]:
    """What `Rules.announce` would refuse, one refusal per wrong option instead of the first only.

    Each option is judged on its own first (its value; whether it belongs to the betting structure announced;
    whether a required one is missing). The options that pass alone are then judged together (the big bet below the
    small bet, a kill card that is wild), each such refusal in the same answer, by `Rules.announce` itself, so that
    stays the authority: empty here exactly when it accepts `data`.
    """
    specs = option_specs(variant_code)
    if variant_code not in HOME_VARIANTS or any(code not in specs for code in data):
        return _as_a_whole(variant_code, data)[:1]  # not this game's options: one refusal says so
    refusals: dict[str, RulesError] = {}
    for code, value in data.items():
        try:
            specs[code].read(value)
        except RulesError as exc:
            refusals[code] = exc
    if "betting" not in refusals:
        betting = str(data.get("betting", specs["betting"].default))
        alone = (*other_structure_refusals(specs, data, betting), *missing_refusals(variant_code, data, betting))
        for refusal in alone:
            refusals.setdefault(refusal.option or "rules", refusal)
        # The combinations of the options that passed alone are judged in the same answer (a kill card that is wild
        # beside a wrong ante), not only once the wrong ones are put right.
        left = {code: value for code, value in data.items() if code not in refusals}
        for whole in _as_a_whole(variant_code, left, judged=set(refusals)):
            refusals.setdefault(whole.option or "rules", whole)
    return [AnnouncementError(refusal.message, option=code) for code, refusal in refusals.items()]


def _as_a_whole(variant_code: str, data: Mapping[str, object], judged: frozenset[str] | set[str] = frozenset(),
                ) -> list[AnnouncementError]:
    """What `Rules.announce` refuses in `data`, every combination and not only the first: the option it names is left
    out and the rest judged again (the big bet below the small bet, then a kill card that is wild). It stops at a
    refusal of an option already judged or left out (now only "must be announced", the first refusal repeated)."""
    refusals: list[AnnouncementError] = []
    left = dict(data)
    named = set(judged)
    for _ in range(len(data) + 1):  # each round leaves one more option out
        try:
            Rules.announce(variant_code, left)
        except AnnouncementError as exc:
            option = exc.option or "rules"
            if option in named:
                break
            refusals.append(exc)
            named.add(option)
            if option not in left:
                break
            del left[option]
            continue
        break
    return refusals
