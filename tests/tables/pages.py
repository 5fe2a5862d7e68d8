"""Reading the server-rendered pages in tests: a browser client signed in as a user, a page's table rows as text."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.test import Client


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def table_rows(page: str) -> list[str]:
    """The text of each row of the page's tables, tags stripped, spaces collapsed."""
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in re.findall(r"<tr[^>]*>.*?</tr>", page, re.S)]
