"""The card-reading shoe as the dealer's tablet shows it: how far the deal or a draw has come while the hand waits
for the shoe, and the shoe's last refused report (a misread, a card while none is due) until it reports again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tables.models import HomeGame, Table, TableDevice
from tables.models import HomeHand as HandRow
from tables.screens.shoe_refusal import ShoeRefusal, latest_refusal
from tables.templatetags.tablet import card_face


@dataclass(frozen=True)
class ShoeWait:
    """The turn panel while the hand waits for the shoe: a title and what the dealer is to do or expect."""

    title: str
    lines: list[str]


def last_refusal(table: Table, game: HomeGame, hand: HandRow | None) -> ShoeRefusal | None:
    """The latest refused report of the table's shoes while the table stands as it did then: the same version of the
    hand in play, or between hands the same version of the game. The shoe's next card or the dealer's next tap moves
    the hand on, and the refusal is then history (the audit trail keeps it)."""
    in_play = hand is not None and hand.status == HandRow.Status.IN_PLAY

    def current(refusal: dict[str, Any]) -> bool:
        if in_play and hand is not None:
            return refusal.get("hand_id") == hand.pk and refusal.get("hand_version") == hand.version
        return refusal.get("hand_id") is None and refusal.get("game_version") == game.version

    return latest_refusal(table, current)


NO_SHOE = ("No card-reading shoe is registered for this table, or its token was revoked: the cards cannot arrive "
           "until a floor supervisor issues one (admin, Table devices).")


def shoe_wait_at(table: Table, hand: dict[str, Any], labels: dict[int, str]) -> ShoeWait | None:
    """`shoe_wait`, and a warning when the table has no active shoe to send the cards (never issued, or revoked)."""
    wait = shoe_wait(hand, labels)
    if wait is not None and not TableDevice.objects.filter(table=table, active=True).exists():
        return ShoeWait(wait.title, [*wait.lines, NO_SHOE])
    return wait


def shoe_wait(hand: dict[str, Any], labels: dict[int, str]) -> ShoeWait | None:
    """What the dealer sees while the hand waits for the shoe's cards: "3 of 15 cards read" and who gets the next;
    a draw's replacements; a stock run out (DESIGN 7: the discards so far, except the drawing player's, are
    shuffled into a new stock). None when the hand awaits no card."""
    awaiting, progress = hand["awaiting"], hand.get("card_progress")
    if awaiting["kind"] not in ("card", "reshuffle") or progress is None:
        return None
    seat = awaiting["seat"]
    who = labels.get(seat, f"Seat {seat}")
    read = f"{progress['received']} of {progress['of']} cards read"
    if hand["phase"] == "dealing":
        return ShoeWait("Waiting for the card-reading shoe: the deal", [f"{read}. Next card: {who}."])
    if awaiting["kind"] == "reshuffle":
        return ShoeWait(f"The stock has run out: {who}'s draw", [
            f"Shuffle the discards, except {who}'s own, into a new stock and deal the rest of the draw from it.",
            f"Waiting for the card-reading shoe: {read} ({who} gets {progress['of']}).",
        ])
    thrown = _discards(hand["actions"], seat)
    return ShoeWait(f"Waiting for the card-reading shoe: {who}'s draw",
                    [f"{who} gets {progress['of']} replacement {'card' if progress['of'] == 1 else 'cards'}: {read}"
                     + (f" (discarded {thrown})." if thrown else ".")])


def _discards(actions: list[str], seat: int) -> str:
    """The cards the seat threw in its latest draw, as the dealer sees them ("6♥ 6♦ J♥")."""
    for text in reversed(actions):
        words = text.split()
        if len(words) > 2 and words[0] == str(seat) and words[1] == "draw":
            return " ".join(card_face(code) for code in words[2:])
    return ""
