"""Signed chain anchors: each good check's head, HMAC-SHA256-signed, kept where the database owner cannot edit it.

A line reads `audit-anchor sequence=N hash=H checked_at=T mac=M`, where M is HMAC-SHA256 under
AUDIT_ANCHOR_KEY (from the environment, never stored in the database) over `sequence=N hash=H checked_at=T`.
Each good verification logs one and appends it to AUDIT_ANCHOR_FILE when that is set. `verify_audit --anchors
FILE` reads the lines back (from that file or from a log; other text is skipped), refuses any line whose MAC does
not match, and the chain must still have hash H at sequence N for every anchor: someone who edits an event,
recomputes the chain and rewrites the stored checks cannot sign the new head without the key.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

logger = logging.getLogger(__name__)

MARKER = "audit-anchor"
_LINE = re.compile(
    MARKER + r" (?P<body>sequence=(?P<sequence>[0-9]+) hash=(?P<hash>[0-9a-f]{64}) "
    r"checked_at=(?P<checked_at>[0-9T:.\-]+Z)) mac=(?P<mac>[0-9a-f]{64})"
)


class AnchorError(Exception):
    """The anchors cannot be read or trusted (no key, unreadable file, a line with a wrong signature)."""


@dataclass(frozen=True)
class Anchor:
    sequence: int
    hash: str
    checked_at: str


def anchor_key() -> bytes:
    key = getattr(settings, "AUDIT_ANCHOR_KEY", "")
    if not key:
        raise AnchorError("AUDIT_ANCHOR_KEY is not set: anchors can be neither signed nor checked")
    return str(key).encode("utf-8")


def _mac(key: bytes, body: str) -> str:
    return hmac.new(key, body.encode("ascii"), hashlib.sha256).hexdigest()


def anchor_line(anchor: Anchor, key: bytes) -> str:
    body = f"sequence={anchor.sequence} hash={anchor.hash} checked_at={anchor.checked_at}"
    return f"{MARKER} {body} mac={_mac(key, body)}"


def read_anchors(path: Path, key: bytes) -> list[Anchor]:
    """Every anchor line in the file, signatures checked; lines without the marker are skipped."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise AnchorError(f"cannot read anchors from {path}: {exc.strerror or exc}") from exc
    anchors = []
    for number, line in enumerate(text.splitlines(), start=1):
        if MARKER not in line:
            continue
        match = _LINE.search(line)
        if match is None:
            raise AnchorError(f"{path} line {number}: not a well-formed anchor")
        if not hmac.compare_digest(_mac(key, match["body"]), match["mac"]):
            raise AnchorError(f"{path} line {number}: signature does not match (forged, or signed with another key)")
        anchors.append(Anchor(int(match["sequence"]), match["hash"], match["checked_at"]))
    if not anchors:
        raise AnchorError(f"no signed anchors in {path}")
    return anchors


def configured_anchors() -> list[Anchor]:
    """The anchors in AUDIT_ANCHOR_FILE for the periodic check; none when no file is set or written yet."""
    path = getattr(settings, "AUDIT_ANCHOR_FILE", "")
    if not path or not Path(path).exists():
        return []
    return read_anchors(Path(path), anchor_key())


def publish(*, sequence: int, hash: str, checked_at: dt.datetime) -> None:
    """Log the verified head and append it to AUDIT_ANCHOR_FILE, signed when a key is configured."""
    stamp = checked_at.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if not getattr(settings, "AUDIT_ANCHOR_KEY", ""):
        logger.info("audit chain head: sequence %s hash %s (unsigned: AUDIT_ANCHOR_KEY is not set)", sequence, hash)
        return
    line = anchor_line(Anchor(sequence, hash, stamp), anchor_key())
    logger.info("audit chain head: %s", line)
    path = getattr(settings, "AUDIT_ANCHOR_FILE", "")
    if not path:
        return
    try:
        # O_APPEND: each line lands whole at the end even when two checks write at once.
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
        try:
            os.write(descriptor, (line + "\n").encode("ascii"))
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
    except OSError as exc:
        # The check itself stands; a missing anchor only weakens the next comparison, so shout but go on.
        logger.error("audit chain head not written to %s: %s", path, exc)
