"""A home-game table's house rules (the floor's): announced options, buy-in range and the house's charge."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from audit.services import audit_record
from casino.engine.errors import RulesError
from casino.engine.home.house import BASIS_POINTS
from casino.engine.money import money
from casino.engine.rules.model import Rules
from casino.engine.rules.options import option_specs
from casino.engine.rules.refusals import announcement_refusals
from casino.engine.rules.words import describe_charge, describe_rules
from casino.engine.variants import HOME_VARIANTS
from casino.errors import DomainError
from tables import actions
from tables.access import require_floor
from tables.models import CardSource, HomeTableConfig, HouseCharge, Table
from tables.services.locks import lock_table

# What a table's house rules hold besides the announced options, and the values a new table starts from.
CONFIG_DEFAULTS: dict[str, Any] = {
    "buy_in_min_cents": 2_000,
    "buy_in_max_cents": 50_000,
    "charge": HouseCharge.NONE,
    "rake_basis_points": 0,
    "rake_cap_cents": 0,
    "time_charge_cents": 0,
}


def announce_rules(variant: str, rules: Any) -> Rules:
    """The announcement checked by the engine (DESIGN 7); the refusal names the option as `rules.<option>`."""
    if not isinstance(rules, dict):
        raise DomainError("rules must be an object of announced options", code="bad_rules", field="rules")
    try:
        return Rules.announce(variant, rules)
    except RulesError as exc:
        raise _option_refused(exc) from exc


def _option_refused(exc: RulesError) -> DomainError:
    """The engine's refusal of an option, naming it as `rules.<option>` (the field a form shows it beside)."""
    return DomainError(exc.message, code="bad_rules", field=f"rules.{exc.option or 'rules'}")


def announcement(rules: Rules, charged: Any) -> list[str]:
    """What the dealer announces before the first card, and the audit trail records: the rules in words, then the
    house's charge (`charged`: a game or a table's house rules) as a player will pay it."""
    return [*describe_rules(rules), describe_charge(
        str(charged.charge), rake_basis_points=charged.rake_basis_points, rake_cap_cents=charged.rake_cap_cents,
        time_charge_cents=charged.time_charge_cents)]


def _int(values: dict[str, Any], name: str) -> int:
    value = values[name]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DomainError(f"{name} must be whole cents, at least 0", code="bad_house_rules", field=name)
    return value


def _buy_in_refusals(values: dict[str, Any], ante_cents: int | None) -> list[DomainError]:
    """Each wrong buy-in, every one in the same answer (the range the wrong way round and an ante not covered)."""
    refusals: list[DomainError] = []
    low = high = None
    for name in ("buy_in_min_cents", "buy_in_max_cents"):
        try:
            if name == "buy_in_min_cents":
                low = _int(values, name)
            else:
                high = _int(values, name)
        except DomainError as exc:
            refusals.append(exc)
    if low is not None and low < 1:
        refusals.append(DomainError("buy_in_min_cents must be more than $0.00", code="bad_buy_in",
                                    field="buy_in_min_cents"))
    if low is not None and high is not None and high < low:
        refusals.append(DomainError("buy_in_max_cents must be at least buy_in_min_cents", code="bad_buy_in",
                                    field="buy_in_max_cents"))
    if low is not None and low >= 1 and ante_cents is not None and low < ante_cents:
        refusals.append(DomainError(f"buy_in_min_cents must cover the ante of {money(ante_cents)}", code="bad_buy_in",
                                    field="buy_in_min_cents"))
    return refusals


def _buy_ins(values: dict[str, Any], ante_cents: int | None) -> tuple[int, int]:
    refusals = _buy_in_refusals(values, ante_cents)
    if refusals:
        raise refusals[0]
    return values["buy_in_min_cents"], values["buy_in_max_cents"]


def _charge_refusals(values: dict[str, Any]) -> list[DomainError]:
    """Each wrong part of the house's charge, every one in the same answer (a rake over 100% and no cap)."""
    charge = values["charge"]
    if charge not in HouseCharge.values:
        return [DomainError(f"charge must be one of {', '.join(HouseCharge.values)}", code="bad_charge",
                            field="charge")]
    refusals: list[DomainError] = []
    amounts: dict[str, int] = {}
    for name in ("rake_basis_points", "rake_cap_cents", "time_charge_cents"):
        try:
            amounts[name] = _int(values, name)
        except DomainError as exc:
            refusals.append(exc)
    rake, cap, time = (amounts.get(name) for name in ("rake_basis_points", "rake_cap_cents", "time_charge_cents"))
    if charge == HouseCharge.RAKE:
        if rake is not None and not 1 <= rake <= BASIS_POINTS:
            refusals.append(DomainError("a rake is 1 to 10000 basis points (0.01% to 100%)", code="bad_charge",
                                        field="rake_basis_points"))
        if cap is not None and cap < 1:
            refusals.append(DomainError("a rake needs a cap of at least 1 cent", code="bad_charge",
                                        field="rake_cap_cents"))
    else:
        for name, amount in (("rake_basis_points", rake), ("rake_cap_cents", cap)):
            if amount:
                refusals.append(DomainError(f"{name} applies only to a rake (charge is {charge})", code="bad_charge",
                                            field=name))
    if charge == HouseCharge.TIME:
        if time is not None and time < 1:
            refusals.append(DomainError("a time charge needs an amount per seat per half hour", code="bad_charge",
                                        field="time_charge_cents"))
    elif time:
        refusals.append(DomainError(f"time_charge_cents applies only to a time charge (charge is {charge})",
                                    code="bad_charge", field="time_charge_cents"))
    return refusals


def _charge(values: dict[str, Any]) -> tuple[str, int, int, int]:
    refusals = _charge_refusals(values)
    if refusals:
        raise refusals[0]
    return values["charge"], values["rake_basis_points"], values["rake_cap_cents"], values["time_charge_cents"]


def checked_config(variant: str, values: dict[str, Any]) -> dict[str, Any]:
    """The house rules checked as a whole (the announcement, the buy-ins, the charge); the refusal names the field."""
    rules = announce_rules(variant, values["rules"])
    low, high = _buy_ins(values, rules.ante_cents)
    charge, rake, cap, time = _charge(values)
    return {"rules": rules.to_dict(), "buy_in_min_cents": low, "buy_in_max_cents": high, "charge": charge,
            "rake_basis_points": rake, "rake_cap_cents": cap, "time_charge_cents": time}


def config_refusals(variant: str, values: dict[str, Any]) -> list[DomainError]:
    """Every refusal of checked_config at once, for a form that shows each beside its own box: each wrong option of
    the announcement, then the buy-ins' and the charge's; empty when checked_config accepts the values."""
    refusals: list[DomainError] = []
    ante: int | None = None  # the ante the smallest buy-in must cover, once it stands
    rules = values["rules"]
    wrong = announcement_refusals(variant, rules) if isinstance(rules, dict) else []
    if wrong:  # every wrong option, each naming its own field
        refusals += [_option_refused(exc) for exc in wrong]
        if not any(exc.option == "ante_cents" for exc in wrong) and isinstance(rules, dict):
            # The ante passed on its own (a whole number of cents, or not announced): the buy-in is judged by it.
            announced = rules.get("ante_cents")
            ante = announced if isinstance(announced, int) and not isinstance(announced, bool) else None
    else:
        try:
            ante = announce_rules(variant, rules).ante_cents
        except DomainError as exc:
            refusals.append(exc)
    return [*refusals, *_buy_in_refusals(values, ante), *_charge_refusals(values)]


def _kept_rules(variant: str, stored: dict[str, Any], changed: dict[str, Any]) -> dict[str, Any]:
    """The stored options a partial change keeps: not those of the betting structure it leaves (fixed limit's
    small and big bets when it changes to no limit), which the engine would refuse as not applying."""
    betting = changed.get("betting", stored.get("betting"))
    specs = option_specs(variant)
    return {code: value for code, value in stored.items()
            if code not in changed and (code not in specs or specs[code].applies(str(betting)))}


def config_dict(config: HomeTableConfig) -> dict[str, Any]:
    return {"rules": config.rules, **{name: getattr(config, name) for name in CONFIG_DEFAULTS}}


@transaction.atomic
def home_config_set(*, table: Table, actor: User, partial: bool = False, **changes: Any) -> HomeTableConfig:
    """Set (or, `partial`, change) a home-game table's house rules and its card source; all checked or nothing."""
    require_floor(actor, "set a table's house rules")
    table = lock_table(table)
    if table.table_type not in HOME_VARIANTS:
        raise DomainError(f"table {table.name} is a {table.get_table_type_display()} table, not a home game",
                          code="wrong_table_type", field="table_type")
    unknown = set(changes) - {"rules", "card_source", *CONFIG_DEFAULTS}
    if unknown:
        name = sorted(unknown)[0]
        raise DomainError(f"unknown house-rules field {name!r}", code="bad_house_rules", field=name)
    existing = HomeTableConfig.objects.filter(table=table).first()
    before = config_dict(existing) if existing is not None else None
    if not partial and "rules" not in changes:
        raise DomainError("the announced rules are required", code="bad_rules", field="rules")
    base = before if partial and before is not None else {"rules": {}, **CONFIG_DEFAULTS}
    values = {**base, **{k: v for k, v in changes.items() if k != "card_source"}}
    if partial and isinstance(changes.get("rules"), dict) and before is not None:
        values["rules"] = {**_kept_rules(table.table_type, before["rules"], changes["rules"]), **changes["rules"]}
    checked = checked_config(table.table_type, values)
    source = changes.get("card_source")
    if source is not None:
        if source not in CardSource.values:
            raise DomainError(f"card_source must be one of {', '.join(CardSource.values)}", code="bad_card_source",
                              field="card_source")
        if source != table.card_source:
            table.card_source = source
            table.save(update_fields=["card_source"])
    config, _ = HomeTableConfig.objects.update_or_create(table=table, defaults=checked)
    audit_record(action=actions.HOME_CONFIG_SET, obj=config, table=table, before=before,
                 after={**checked, "card_source": table.card_source}, actor=actor)
    return config
