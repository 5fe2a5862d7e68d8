"""The API docs (Swagger UI and ReDoc) come from the app's own static files: no CDN, so they work offline."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client, override_settings

from tests.tablet.conftest import browser_type_launch_args  # noqa: F401 (Debian's Chromium for Playwright)

DOCS = ["/api/docs/", "/api/redoc/"]
REFERENCE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")
API_TITLE = "Triple Draw casino table-game API"


def references(page: str) -> list[str]:
    return REFERENCE.findall(page)


@pytest.mark.parametrize("path", DOCS)
def test_the_docs_page_references_only_our_own_static_files(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    page = response.content.decode()
    refs = references(page)
    assert any(ref.endswith(".js") for ref in refs), refs
    assert all(ref.startswith("/static/drf_spectacular_sidecar/") for ref in refs), refs
    assert "://" not in page, "no address outside the app: no CDN, no web fonts, no online validator"


@pytest.mark.parametrize("path", DOCS)
def test_every_file_the_docs_page_needs_is_served_by_the_app(path: str) -> None:
    # WhiteNoise serves static files in production; reading them through the finders spares a collectstatic.
    with override_settings(WHITENOISE_USE_FINDERS=True, WHITENOISE_AUTOREFRESH=True):
        client = Client()
        for ref in references(client.get(path).content.decode()):
            response = client.get(ref)
            assert response.status_code == 200, ref
            on_disk = finders.find(ref.removeprefix(settings.STATIC_URL))
            assert b"".join(response.streaming_content) == Path(on_disk).read_bytes(), ref


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("path", "shows_title"),
    [("/api/docs/", ".swagger-ui .info .title"), ("/api/redoc/", "h1")],
)
def test_the_docs_render_in_a_browser_that_cannot_leave_the_app(
    browser: Any, live_server: Any, path: str, shows_title: str
) -> None:
    """Every request to another host is refused, as on a casino network without internet; the docs still render."""
    ours = urlsplit(live_server.url).netloc
    refused: list[str] = []

    def only_ours(route: Any) -> None:
        if urlsplit(route.request.url).netloc == ours:
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    context = browser.new_context(base_url=live_server.url)
    try:
        page = context.new_page()
        page.route("**/*", only_ours)
        page.goto(path)
        page.locator(shows_title).filter(has_text=API_TITLE).first.wait_for(timeout=20_000)
        assert page.get_by_text("/api/v1/tables/", exact=False).first.is_visible()
        assert refused == []
    finally:
        context.close()


@pytest.mark.django_db
def test_every_operation_is_filed_under_the_area_a_reader_looks_for_it_in(client: Client) -> None:
    """The docs group operations by area, in the order a table's day runs (not all under one "v1" heading)."""
    schema = client.get("/api/schema/", {"format": "json"}).json()
    filed = {
        f"{method.upper()} {path}": operation["tags"]
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict) and "operationId" in operation
    }
    listed = [tag["name"] for tag in schema["tags"]]
    assert listed == ["Sign-in", "Tables", "Triple Draw rounds", "Home games", "Card-reading shoe", "Paytables",
                      "Floor", "Reports", "Compliance"]
    assert all(tag["description"] for tag in schema["tags"])
    assert {op: tags for op, tags in filed.items() if len(tags) != 1 or tags[0] not in listed} == {}
    # Starting a round or opening a game is done on the table, but read with the rest of its play.
    assert filed["POST /api/v1/tables/{table_id}/rounds/"] == ["Triple Draw rounds"]
    assert filed["POST /api/v1/tables/{table_id}/games/"] == ["Home games"]
    assert filed["POST /api/v1/tables/{table_id}/home-config/"] == ["Tables"]
    assert filed["POST /api/v1/hands/{hand_id}/actions/"] == ["Home games"]
    assert filed["GET /api/v1/audit/hands/{hand_id}/"] == ["Compliance"]
    assert filed["POST /api/v1/auth/token/"] == ["Sign-in"]
