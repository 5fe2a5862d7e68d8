"""The engine keeps the modules other code and the design name (DESIGN 2, 9); its purity is tested once, in
tests/casino/test_architecture.py."""

from __future__ import annotations

import pkgutil

import casino.engine


def test_engine_has_the_contract_modules() -> None:
    found = {info.name for info in pkgutil.walk_packages(casino.engine.__path__, prefix="casino.engine.")}
    for name in ("cards", "errors", "hands", "variants", "showdown", "triple_draw", "rules.model", "home.hand"):
        assert f"casino.engine.{name}" in found
