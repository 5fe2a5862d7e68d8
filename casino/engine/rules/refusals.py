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
    whether a required one is missing). Only when every option passes alone is the announcement judged as a whole
    (the big bet below the small bet, a kill card that is wild), by `Rules.announce` itself, so that stays the
    authority: empty here exactly when it accepts `data`.
    """
    specs = option_specs(variant_code)
    if variant_code not in HOME_VARIANTS or any(code not in specs for code in data):
        return _as_a_whole(variant_code, data)  # not this game's options: one refusal says so
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
    if not refusals:
        return _as_a_whole(variant_code, data)
    return [AnnouncementError(refusal.message, option=code) for code, refusal in refusals.items()]


def _as_a_whole(variant_code: str, data: Mapping[str, object]) -> list[AnnouncementError]:
    try:
        Rules.announce(variant_code, data)
    except AnnouncementError as exc:
        return [exc]
    return []
