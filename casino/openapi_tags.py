"""OpenAPI post-processing: each operation is filed under the area a reader looks for it in (Triple Draw rounds,
home games, the floor, compliance...), in the order a table's day runs, instead of all under the version prefix."""

from __future__ import annotations

import re
from typing import Any

# (tag, description, path pattern after /api/v1/): the first pattern that matches files the operation; the tags are
# listed in this order. A round or a home game is started on its table but read with the rest of its play, so the
# table's `rounds/` and `games/` go with the play, not with the table's setup.
AREAS: tuple[tuple[str, str, str], ...] = (
    ("Sign-in", "Tokens for the dealer tablet and scripts, and who the token belongs to.", r"(auth|me)/"),
    ("Tables", "Tables, their seats, dealers, paytable and home-game rules.",
     r"tables/(?!\{table_id\}/(rounds|games|devices)/)"),
    ("Triple Draw rounds", "A round from its start to its settlement, voids and the floor's approval.",
     r"(rounds/|tables/\{table_id\}/rounds/)"),
    ("Home games", "Games, players and hands at home-game tables: actions, draws, showdown cards and rulings.",
     r"(games/|hands/|tables/\{table_id\}/games/)"),
    ("Card-reading shoe", "Cards reported by a table's shoe, with its device token; the floor issues and revokes "
     "the tokens.", r"(shoe/|devices/|tables/\{table_id\}/devices/)"),
    ("Paytables", "Paytables, their lines, analysis, approval and retirement.", r"paytables/"),
    ("Floor", "Shift sheets (inventories, drops, slips), dealer sign-in, the pit view and dealers' floor calls.",
     r"(floor/|floor-calls/)"),
    ("Reports", "Hold, drop and win by table, group and hour, and home-game figures.", r"reports/"),
    ("Compliance", "The audit trail: events, the hash chain and each round's, game's and hand's timeline.", r"audit/"),
)
PREFIX = re.compile(r"^/api/v\d+/")


def area_of(path: str) -> str | None:
    """The tag for an API path, or None for a path outside the areas (left as drf-spectacular tagged it)."""
    rest = PREFIX.sub("", path)
    return next((tag for tag, _, pattern in AREAS if re.match(pattern, rest)), None)


def tag_by_area(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: file every operation under its area and list the areas in order."""
    used: set[str] = set()
    for path, path_item in result.get("paths", {}).items():
        tag = area_of(path)
        if tag is None:
            continue
        for operation in path_item.values():
            if isinstance(operation, dict) and "operationId" in operation:
                operation["tags"] = [tag]
                used.add(tag)
    result["tags"] = [{"name": tag, "description": text} for tag, text, _ in AREAS if tag in used]
    return result
