"""Card-reading shoe devices: their credentials (issued only to shoe tables, revoked), the device a report comes
from, its last accepted report (a late retry of it is not dealt again), and each refused report audited as the
device's and kept on it as its last refusal."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone

from audit.context import acting_as
from audit.services import audit_record
from casino.engine.cards import Card
from casino.engine.shoe_order import may_be_late_retry
from casino.errors import DomainError, NotAllowed, WrongPhase
from tables import actions
from tables.access import require_floor
from tables.models import CardSource, Round, Table, TableDevice

Report = TypeVar("Report")


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def device_name(device: TableDevice) -> str:
    """The name a device's events are audited under: "device:<table>/<device>"."""
    return f"device:{device.table.name}/{device.name}"


def check_device_table(table: Table) -> None:
    """Only a table dealt from a shoe takes a shoe's credential: at any other table its reports could only be
    refused, and a token that deals nothing is one more secret to keep."""
    if table.card_source != CardSource.SHOE:
        raise DomainError(
            f"table {table.name}'s card source is {CardSource(table.card_source).label!r}: a device credential is "
            f"only for a table dealt from a shoe; set its card source to {CardSource.SHOE.label!r} (admin, Tables, "
            "between rounds) first",
            code="not_a_shoe_table",
            field="table",
        )


@transaction.atomic
def device_create(*, table: Table, name: str, actor: User) -> tuple[TableDevice, str]:
    """Issue a shoe credential for one shoe table; the token is shown once and only its hash is kept."""
    require_floor(actor, "issue a device credential")
    check_device_table(table)
    if not name.strip():
        raise DomainError("a device needs a name", code="name_required", field="name")
    if TableDevice.objects.filter(table=table, name=name.strip()).exists():
        raise DomainError(f"{table.name} already has a device named {name!r}", code="duplicate_name", field="name")
    token = secrets.token_urlsafe(32)
    device = TableDevice.objects.create(table=table, name=name.strip(), token_hash=token_digest(token))
    audit_record(action=actions.DEVICE_CREATE, obj=device, table=table, after={"name": device.name}, actor=actor)
    return device, token


@transaction.atomic
def device_revoke(*, device: TableDevice, actor: User) -> TableDevice:
    require_floor(actor, "revoke a device credential")
    device = TableDevice.objects.select_for_update().select_related("table").get(pk=device.pk)
    if not device.active:
        raise WrongPhase(f"device {device.name} of table {device.table.name} is already revoked",
                         code="already_revoked")
    device.active = False
    device.save(update_fields=["active"])
    audit_record(
        action=actions.DEVICE_REVOKE, obj=device, table=device.table, before={"active": True}, after={"active": False},
        actor=actor,
    )
    return device


def device_authenticate(token: str) -> TableDevice:
    device = TableDevice.objects.select_related("table").filter(token_hash=token_digest(token or "")).first()
    if device is None or not device.active:
        raise NotAllowed("unknown or revoked device token", code="bad_device_token")
    return device


def device_for_table(device: TableDevice, table_id: int | None) -> TableDevice:
    """The device, if the table its report names (optional) is its own: a shoe configured with another table's token
    would otherwise deal into that table's hand (403 `wrong_table`, nothing changed)."""
    if table_id is not None and table_id != device.table_id:
        raise NotAllowed(f"this device's token is for table {device.table.name} (id {device.table_id}), not table id "
                         f"{table_id}: configure the shoe with its own table's token", code="wrong_table")
    return device


def device_refusal_record(*, device: TableDevice, cards: Sequence[str], refused: DomainError, obj: models.Model,
                          where: dict[str, Any], round: Round | None = None) -> dict[str, Any]:
    """Audit a refused report as the device's `shoe_cards_refuse` on `obj`'s timeline (the round or hand in play,
    else the game or the device), naming the cards as sent and why, with `where` the table stood (so the tablet
    shows it until the table moves on); keep it on the device as its last refusal. The caller's transaction is its
    own, the refused report's having rolled back."""
    after: dict[str, Any] = {"cards": [str(card)[:8] for card in cards[:52]], "code": refused.code,
                             "message": refused.message, "device": device.name, **where}
    with acting_as(user=None, kind="device", name=device_name(device)):
        audit_record(action=actions.SHOE_CARDS_REFUSE, obj=obj, table=device.table, round=round, after=after)
    TableDevice.objects.filter(pk=device.pk).update(last_refused_at=timezone.now(), last_refusal=after)
    return after


def device_report(*, device: TableDevice, cards: Sequence[str], table_id: int | None, record: Callable[[], Report],
                  refusal_record: Callable[..., None]) -> Report:
    """A shoe's report, all or nothing: `record()` deals it if `table_id` (optional) is the device's table; a refusal
    is then recorded in its own transaction by `refusal_record(device=, cards=, refused=)` (the round or hand is
    unchanged, the refused report's transaction having rolled back) and raised again for the shoe's answer."""
    try:
        device_for_table(device, table_id)
        return record()
    except DomainError as refused:
        refusal_record(device=device, cards=cards, refused=refused)
        raise


def device_report_keep(device: TableDevice, cards: Sequence[Card], **went_to: int) -> None:
    """Keep an accepted report on its device: where it `went_to` (`round_id=` or `hand_id=`) and its cards, at
    `last_used_at`, so a late retry of it is recognised once the table has moved on (`device_late_retry_check`)."""
    device.last_used_at = timezone.now()
    device.last_report = {**went_to, "cards": [str(card) for card in cards]}
    device.save(update_fields=["last_used_at", "last_report"])


def device_late_retry_check(device: TableDevice, sent: Sequence[Card], *, kind: str, in_play_id: int,
                            in_play: str) -> None:
    """Refuse (409 `<kind>_unclear`, nothing dealt) a report naming no round (or hand) that repeats the last cards of
    this device's last accepted report, within RETRY_WINDOW_SECONDS of it, when that report went to an earlier round
    and the round in play (`kind` "round" or "hand", `in_play_id`, `in_play` its words) has none from this device.

    Why a refusal: the report is either a late network retry of the old report (its answer lost; dealing it would put
    a card in the new round that is not on the felt) or the same card coming first after the new round's fresh
    shuffle (answering it `repeated` would drop a card that is on the felt, silently). Either silent guess can pay a
    hand on the wrong cards; a refusal is loud, changes nothing, is audited and shown on the dealer's tablet, and the
    shoe resolves it by naming the round: the round in play's id for a new card (dealt), the old round's for its
    retry (409 `round_moved_on`, nothing dealt). Past the window a retry is no longer expected and the card is
    dealt; a shoe that names its round is never asked."""
    earlier = device.last_report.get(f"{kind}_id")
    if earlier is None or earlier == in_play_id or device.last_used_at is None:
        return
    last = [Card.parse(str(code)) for code in device.last_report.get("cards", [])]
    seconds = (timezone.now() - device.last_used_at).total_seconds()
    if not may_be_late_retry(sent, last, seconds):
        return
    codes = " ".join(str(card) for card in sent)
    raise WrongPhase(
        f"{codes}: the last cards this shoe reported, {seconds:.0f} s ago, for {kind} id {earlier}, and {in_play} has "
        f"none from it yet: a late retry, or the same cards first again after the shuffle? Nothing was dealt; if they "
        f"are new, the shoe sends them again with \"{kind}\": {in_play_id}",
        code=f"{kind}_unclear",
    )
