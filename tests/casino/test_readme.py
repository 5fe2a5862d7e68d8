"""The README's first screen stays two commands: `make run` and `make test`."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_first_code_block_is_make_run_and_make_test() -> None:
    first_block = re.search(r"```\n(.*?)```", README.read_text(), re.DOTALL)
    assert first_block is not None
    commands = [line.split("#")[0].strip() for line in first_block.group(1).splitlines() if line.strip()]
    assert commands == ["make run", "make test"]


def test_the_first_screen_lists_every_address_and_login_make_run_prints() -> None:
    """A new user reads the first screen: every screen `make run` prints and every demo login is in its table."""
    from django.urls import reverse

    from tables.management.commands.seed_demo import BANNER_SCREENS, DEMO_USERS

    first_screen = README.read_text().split("\n## ", 1)[0]
    missing = [reverse(name) for _, name in BANNER_SCREENS if f"`{reverse(name)}`" not in first_screen]
    assert missing == []
    logins = [f"`{u['username']}` / `{u['password']}`" for u in DEMO_USERS]
    assert [login for login in logins if login not in first_screen] == []
