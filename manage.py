#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

FULL_SETTINGS = "casino.settings"


def lean_settings(argv: list[str]) -> str | None:
    """The lean settings module for a command that needs only a file and the engine, else None.

    `analyze_paytable FILE` loads no models and no other app: its start-up is a fraction of the full one.
    """
    if len(argv) > 1 and argv[1] == "analyze_paytable" and not any(a.startswith("--paytable") for a in argv):
        return "casino.settings_cli"
    return None


def main() -> None:
    lean = lean_settings(sys.argv)
    if lean and os.environ.get("DJANGO_SETTINGS_MODULE", FULL_SETTINGS) == FULL_SETTINGS:
        os.environ["DJANGO_SETTINGS_MODULE"] = lean
        # The analysis multiplies small matrices (einsum, no BLAS): BLAS threads would only start and wait.
        for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ.setdefault(name, "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", FULL_SETTINGS)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
