"""Signals the tables app sends for the apps above it (which it may not import): money posted at a table, and
seed_demo seeding its demo data."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.dispatch import Signal

logger = logging.getLogger(__name__)

# Sent inside the transaction that posts a table's ledger (a settled or approved Triple Draw round; a home-game hand
# settled, a house charge taken, a game closed), with table_id, posted_at and round_id (None for a hand), so what a
# listener records (the floor's summary job, in the outbox) commits with the posting. Sent robustly: a listener's
# error is logged and never fails the posting; a listener that writes does so in a savepoint.
ledger_posted = Signal()

# Sent by seed_demo inside its transaction, after the tables' demo data, with users={username: User}: apps above
# tables add their own demo data (the floor: simulated play, pits, a closed shift).
demo_seeding = Signal()


def announce_ledger_posted(*, sender: Any, table_id: int, posted_at: datetime, round_id: int | None) -> None:
    """Send `ledger_posted` in the posting's transaction; a listener's error is logged, never the caller's."""
    for receiver, result in ledger_posted.send_robust(
        sender=sender, table_id=table_id, posted_at=posted_at, round_id=round_id
    ):
        if isinstance(result, Exception):
            logger.error("ledger_posted listener %r failed for table %s: %r", receiver, table_id, result)
