"""Lean settings for `manage.py analyze_paytable FILE` (manage.py selects them): the analysis of a paytable file.

It needs no admin discovery, no URL configuration, no DRF or Celery apps, no models and no system checks, which
together were most of its start-up. Everything else (logging, cache directory) is the full settings' own, read
from the same environment. `analyze_paytable --paytable ID` reads the database and runs with the full settings.
"""

from casino.settings import *  # noqa: F403 (these settings are the full ones, minus apps)

INSTALLED_APPS = ["casino.cli_apps.PaytableCommandsConfig"]
MIDDLEWARE = []
