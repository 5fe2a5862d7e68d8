"""The tables app's models: what every table shares (tables.py), each game's own (triple_draw.py, home.py), and
the dealers' calls for the floor (floor_calls.py).

Django finds an app's models through this package, so the model classes are named here (Django's documented layout
for a models package); modules that need a game's constants import them from that game's module.
"""

from tables.models.floor_calls import FloorCall
from tables.models.home import (
    HomeAccount,
    HomeGame,
    HomeGamePlayer,
    HomeHand,
    HomeLedgerEntry,
    HomeTableConfig,
    HouseCharge,
)
from tables.models.tables import CardSource, Seat, Table, TableDevice, TableType, seat_limit
from tables.models.triple_draw import (
    Bet,
    DrawRow,
    HandOutcome,
    LedgerAccount,
    LedgerEntry,
    Round,
    RoundCard,
    SeatHand,
)

__all__ = [
    "Bet",
    "CardSource",
    "DrawRow",
    "FloorCall",
    "HandOutcome",
    "HomeAccount",
    "HomeGame",
    "HomeGamePlayer",
    "HomeHand",
    "HomeLedgerEntry",
    "HomeTableConfig",
    "HouseCharge",
    "LedgerAccount",
    "LedgerEntry",
    "Round",
    "RoundCard",
    "Seat",
    "SeatHand",
    "Table",
    "TableDevice",
    "TableType",
    "seat_limit",
]
