"""Signals the tables app sends for the apps above it (which it may not import): money posted at a table, and
seed_demo seeding its demo data."""

from __future__ import annotations

from django.dispatch import Signal

# Sent after the transaction that posted a table's ledger commits (a settled or approved Triple Draw round; the
# home-game stream sends it after posting house charges), with table_id, posted_at and round_id (None for a hand).
# Sent robustly: a listener's error is logged and never undoes or fails the posting. The floor's summaries listen.
ledger_posted = Signal()

# Sent by seed_demo inside its transaction, after the tables' demo data, with users={username: User}: apps above
# tables add their own demo data (the floor: simulated play, pits, a closed shift).
demo_seeding = Signal()
