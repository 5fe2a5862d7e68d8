"""Fixtures the compliance tests share with the tables tests (imported from there, not copied)."""

from tests.tables.conftest import house_to_1, jacks_for_1, manual_table  # noqa: F401 (pytest fixtures)
