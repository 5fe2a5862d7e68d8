"""Card-reading shoe services: device credentials, and cards posted in dealing order (audited as a device)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.context import acting_as
from audit.services import audit_record
from casino.engine.triple_draw import CARDS_PER_HAND, ROW_COUNT
from casino.errors import DomainError, NotAllowed, WrongPhase
from tables import actions
from tables.access import require_floor
from tables.models import CardSource, DrawRow, Round, RoundCard, SeatHand, Table, TableDevice
from tables.selectors.rounds import round_in_play
from tables.services import card_input
from tables.services.cards import advance_after_cards, finish_rows, save_cards
from tables.services.guards import round_ref
from tables.services.locks import version_bump

Phase = Round.Phase


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def device_create(*, table: Table, name: str, actor: User) -> tuple[TableDevice, str]:
    """Issue a shoe credential for one table; the token is shown once and only its hash is kept."""
    require_floor(actor, "issue a device credential")
    if not name.strip():
        raise DomainError("a device needs a name", code="name_required", field="name")
    if TableDevice.objects.filter(table=table, name=name.strip()).exists():
        raise DomainError(f"{table.name} already has a device named {name!r}", code="duplicate_name", field="name")
    token = secrets.token_urlsafe(32)
    device = TableDevice.objects.create(table=table, name=name.strip(), token_hash=token_digest(token))
    audit_record(action=actions.DEVICE_CREATE, obj=device, table=table, after={"name": device.name})
    return device, token


@transaction.atomic
def device_revoke(*, device: TableDevice, actor: User) -> TableDevice:
    require_floor(actor, "revoke a device credential")
    device = TableDevice.objects.select_for_update().get(pk=device.pk)
    device.active = False
    device.save(update_fields=["active"])
    audit_record(
        action=actions.DEVICE_REVOKE, obj=device, table=device.table, before={"active": True}, after={"active": False}
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


@transaction.atomic
def shoe_cards_record(*, device: TableDevice, cards: Sequence[str]) -> Round:
    """Cards from the shoe in dealing order: one at a time to each betting seat in turn, then row 1, 2, 3."""
    table = device.table
    with acting_as(user=None, kind="device", name=f"device:{table.name}/{device.name}"):
        rnd = round_in_play(table, for_update=True)
        if rnd is None:
            raise WrongPhase(f"table {table.name} has no round in play", code="no_round")
        version_bump(rnd)
        if table.card_source != CardSource.SHOE:
            raise DomainError(f"table {table.name} does not deal from a shoe", code="not_a_shoe_table")
        parsed = card_input.parse(cards, field="cards")
        if not parsed:
            raise DomainError("no cards sent", code="no_cards", field="cards")
        dealt, held, _rows = card_input.round_picture(rnd)
        if rnd.phase == Phase.DEALING:
            hands = list(SeatHand.objects.select_for_update().filter(round=rnd).order_by("seat_number"))
            already = sum(len(h.dealt) for h in hands)
            if already + len(parsed) > CARDS_PER_HAND * len(hands):
                raise DomainError(
                    f"{len(parsed)} cards would deal past five to each of {len(hands)} seats",
                    code="too_many_cards",
                    field="cards",
                )
            placements = []
            for offset, card in enumerate(parsed):
                index = already + offset
                hand = hands[index % len(hands)]
                hand.dealt = [*hand.dealt, str(card)]
                placements.append(
                    RoundCard(round=rnd, card=str(card), seat_number=hand.seat_number, position=len(hand.dealt))
                )
            card_input.check_cards_once(
                [card for h in hands for card in card_input.parse(h.dealt, field="cards")], field="cards"
            )
            SeatHand.objects.bulk_update(hands, ["dealt"])
            save_cards(placements)
            advance_after_cards(rnd)
        elif rnd.phase == Phase.DRAWING:
            row_objs = {r.row: r for r in DrawRow.objects.select_for_update().filter(round=rnd)}
            laid = sum(len(r.cards) for r in row_objs.values())
            if laid + len(parsed) > CARDS_PER_HAND * ROW_COUNT:
                raise DomainError("more than fifteen row cards", code="too_many_cards", field="cards")
            placements = []
            for offset, card in enumerate(parsed):
                index = laid + offset
                number, position = index // CARDS_PER_HAND + 1, index % CARDS_PER_HAND + 1
                row = row_objs.get(number) or DrawRow(round=rnd, row=number, cards=[])
                row.cards = [*row.cards, str(card)]
                row_objs[number] = row
                placements.append(RoundCard(round=rnd, card=str(card), row=number, position=position))
            new_rows = [card_input.parse(r.cards, field="cards") for _, r in sorted(row_objs.items())]
            card_input.check_round_cards(dealt, held, new_rows, field="cards")
            for row in row_objs.values():
                row.save()
            save_cards(placements)
            if laid + len(parsed) == CARDS_PER_HAND * ROW_COUNT:
                finish_rows(rnd)
        else:
            raise WrongPhase(
                f"the shoe cannot deal while {round_ref(rnd)} is {rnd.phase}"
                + (": no row card may be known before every hold is locked" if rnd.phase == Phase.HOLDING else ""),
            )
        device.last_used_at = timezone.now()
        device.save(update_fields=["last_used_at"])
        audit_record(
            action=actions.SHOE_CARDS_RECORD,
            obj=rnd,
            table=table,
            round=rnd,
            after={"cards": card_input.codes(parsed), "phase": rnd.phase, "device": device.name},
        )
    return rnd
