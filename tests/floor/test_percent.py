"""Holds on the floor's pages read as percentages that never break between the number and its % sign."""

from __future__ import annotations

from floor.templatetags.floor import percent


def test_a_hold_keeps_its_percent_sign_on_its_line() -> None:
    """At 800px the report's hold columns are narrow: "-5.56" on one line and "%" on the next read as two figures."""
    assert percent(-0.0556) == "-5.56\u00a0%"
    assert percent(0.0032, 1) == "0.3\u00a0%"
    assert " " not in percent(0.1234)


def test_no_hold_is_a_dash() -> None:
    assert percent(None) == "—"
