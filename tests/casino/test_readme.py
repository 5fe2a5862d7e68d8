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
