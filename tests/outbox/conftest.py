"""The outbox tests settle rounds and queue analyses on the tables tests' own tables and paytables."""

from tests.tables.conftest import jacks_for_1, manual_table

__all__ = ["jacks_for_1", "manual_table"]  # fixtures, found by pytest here
