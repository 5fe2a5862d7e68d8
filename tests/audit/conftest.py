"""Fixtures the compliance tests share with the tables tests (imported from there, not copied), and a clean cache."""

import pytest
from django.core.cache import cache

from tests.tables.conftest import house_to_1, jacks_for_1, manual_table  # noqa: F401 (pytest fixtures)
from tests.tablet.conftest import browser_type_launch_args  # noqa: F401 (Debian's Chromium for Playwright)


@pytest.fixture(autouse=True)
def _fresh_filter_lists() -> None:
    """The filter lists are cached for a minute; each test starts from its own rows."""
    cache.delete_many(["audit:choices:tables", "audit:choices:actors"])
