"""The rehearsal's visitor: HTTPS through nginx as a dealer's tablet and a compliance officer would use the product.

Connections go to 127.0.0.1 but speak TLS to the server name, verified against the run's own certificate, and
carry the session and CSRF cookies the way a browser does (Origin and Referer included).
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import ssl
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode

from rehearsal_files import SERVER_NAME, RehearsalError

SECURITY_HEADERS = {
    "Strict-Transport-Security": "max-age=31536000; includeSubDomains; preload",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.body)


class _Connection(http.client.HTTPSConnection):
    """TLS to SERVER_NAME (SNI and certificate check) over a socket to 127.0.0.1."""

    def connect(self) -> None:
        raw = socket.create_connection(("127.0.0.1", self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # type: ignore[attr-defined]


@dataclass
class Browser:
    """One visitor with a cookie jar."""

    port: int
    context: ssl.SSLContext
    cookies: dict[str, str] = field(default_factory=dict)
    set_cookie_lines: list[str] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"https://{SERVER_NAME}:{self.port}"

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> Reply:
        conn = _Connection(SERVER_NAME, self.port, context=self.context, timeout=30)
        sent = {"Host": f"{SERVER_NAME}:{self.port}", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            reply = Reply(response.status, response.headers, response.read())
        except (OSError, http.client.HTTPException) as exc:
            raise RehearsalError(f"{method} {path}: {exc}") from None
        finally:
            conn.close()
        for line in reply.headers.get_all("Set-Cookie") or []:
            self.set_cookie_lines.append(line)
            for name, morsel in SimpleCookie(line).items():
                self.cookies[name] = morsel.value
        return reply

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post_form(self, path: str, fields: dict[str, str]) -> Reply:
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": self.origin,
            "Referer": self.origin + path,
        }
        return self.request("POST", path, urlencode(fields).encode(), headers)

    def api(self, method: str, path: str, payload: Any = None, expect: int = 200) -> Any:
        """A JSON API call on the signed-in session: the CSRF token in X-CSRFToken, as the tablet's script sends it."""
        headers = {"Accept": "application/json", "Origin": self.origin, "Referer": self.origin + "/tablet/"}
        body = None
        if method != "GET":
            headers |= {"Content-Type": "application/json", "X-CSRFToken": self.cookies.get("csrftoken", "")}
            body = json.dumps(payload if payload is not None else {}).encode()
        reply = self.request(method, path, body, headers)
        if reply.status != expect:
            raise RehearsalError(f"{method} {path}: HTTP {reply.status} (expected {expect}): {reply.text()[:500]}")
        return reply.json()

    def sign_in(self, login_path: str, username: str, password: str, landing: str) -> Reply:
        """The login form as a person fills it in: GET for the CSRF token, POST, land on `landing`; the form page."""
        form = self.get(login_path)
        if form.status != 200:
            raise RehearsalError(f"GET {login_path}: HTTP {form.status}")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text())
        if token is None:
            raise RehearsalError(f"{login_path}: no CSRF token in the form")
        done = self.post_form(login_path, {"username": username, "password": password, "csrfmiddlewaretoken": token[1]})
        if done.status != 302 or "sessionid" not in self.cookies:
            detail = done.text()[:300]
            raise RehearsalError(f"POST {login_path} as {username}: HTTP {done.status}, no session: {detail}")
        location = done.headers["Location"]
        if not location.startswith(landing):
            raise RehearsalError(f"signed in as {username} but sent to {location}, not {landing}")
        page = self.get(location)
        for _ in range(3):  # a landing page may send a role on to its own screen
            if page.status not in (301, 302):
                break
            location = page.headers["Location"]
            page = self.get(location)
        if page.status != 200 or not page.headers.get("Content-Type", "").startswith("text/html"):
            raise RehearsalError(f"after signing in as {username}, {location}: HTTP {page.status}")
        return form


def check_security_headers(reply: Reply, where: str) -> None:
    for name, value in SECURITY_HEADERS.items():
        if reply.headers.get(name) != value:
            raise RehearsalError(f"{where}: header {name} is {reply.headers.get(name)!r}, expected {value!r}")
    if re.search(r"\d", reply.headers.get("Server", "")):
        raise RehearsalError(f"{where}: the Server header names a version: {reply.headers.get('Server')!r}")


def check_cookies(browser: Browser) -> None:
    for line in browser.set_cookie_lines:
        flags = {part.strip().lower() for part in line.split(";")[1:]}
        if "secure" not in flags:
            raise RehearsalError(f"cookie sent without Secure: {line.split(';')[0].split('=')[0]}")
        if line.startswith("sessionid=") and "httponly" not in flags:
            raise RehearsalError("session cookie sent without HttpOnly")


def check_health(browser: Browser) -> None:
    reply = browser.get("/healthz")
    body = reply.json() if reply.status == 200 else reply.text()
    healthy = {"status": "ok", "database": "ok", "broker": "ok"}
    if reply.status != 200 or not isinstance(body, dict) or {k: body.get(k) for k in healthy} != healthy:
        raise RehearsalError(f"/healthz: HTTP {reply.status} {body}")


def check_static(browser: Browser, page: Reply) -> str:
    """A hashed static file named in a page: served by nginx (cached for good, nosniff), with the right type."""
    found = re.search(r'href="(/static/[^"]+\.[0-9a-f]{12}\.css)"', page.text())
    if found is None:
        raise RehearsalError("the tablet page names no hashed stylesheet (collectstatic at build did not run?)")
    reply = browser.get(found[1])
    if reply.status != 200 or not reply.headers.get("Content-Type", "").startswith("text/css"):
        raise RehearsalError(f"{found[1]}: HTTP {reply.status} {reply.headers.get('Content-Type')}")
    if "immutable" not in reply.headers.get("Cache-Control", ""):
        raise RehearsalError(f"{found[1]}: not served by nginx's static location (Cache-Control {reply.headers})")
    if reply.headers.get("X-Content-Type-Options") != "nosniff":
        raise RehearsalError(f"{found[1]}: no X-Content-Type-Options: nosniff")
    return found[1]


def check_plain_http_redirects(http_port: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)
    try:
        conn.request("GET", "/tablet/", headers={"Host": SERVER_NAME})
        response = conn.getresponse()
        location = response.getheader("Location") or ""
    finally:
        conn.close()
    if response.status != 301 or not location.startswith(f"https://{SERVER_NAME}/"):
        raise RehearsalError(f"plain http: HTTP {response.status} to {location!r}, expected a 301 to https")


def play_round(dealer: Browser, seats: int = 3, settle_seconds: float = 90) -> int:
    """A Triple Draw round on the rng demo table, start to settled; the settlement worker must settle it."""
    tables = dealer.api("GET", "/api/v1/tables/")
    table = next(
        (t for t in tables if t["table_type"] == "triple-draw" and t["card_source"] == "rng" and t["is_open"]), None
    )
    if table is None:
        raise RehearsalError(f"no open rng Triple Draw table for the dealer: {[t['name'] for t in tables]}")
    table_id = table["id"]
    # The demo data may already seat players (its simulated history); seat newcomers only in free seats.
    detail = dealer.api("GET", f"/api/v1/tables/{table_id}/")
    seated = [s["seat"] for s in detail["seats"] if s["occupied"]]
    for seat in [s["seat"] for s in detail["seats"] if not s["occupied"]][: max(0, seats - len(seated))]:
        dealer.api("POST", f"/api/v1/tables/{table_id}/seats/", {"seat": seat, "player_name": f"Player {seat}"})
        seated.append(seat)
    state = dealer.api("POST", f"/api/v1/tables/{table_id}/rounds/", expect=201)
    round_id = state["id"]
    bet = table["min_bet_cents"]
    bets = [{"seat": seat, "amount_cents": bet, "circles": 3} for seat in sorted(seated)]
    dealer.api("POST", f"/api/v1/rounds/{round_id}/bets/batch/", {"bets": bets})
    dealer.api("POST", f"/api/v1/rounds/{round_id}/close-bets/")
    state = dealer.api("POST", f"/api/v1/rounds/{round_id}/deal/", {})
    holds = [{"seat": s["seat"], "held": s["dealt"][:2]} for s in state["seats"] if s.get("dealt")]
    dealer.api("POST", f"/api/v1/rounds/{round_id}/holds/batch/", {"holds": holds})
    state = dealer.api("POST", f"/api/v1/rounds/{round_id}/rows/", {})
    deadline = time.monotonic() + settle_seconds
    while state["phase"] != "settled":
        if state["phase"] not in {"settling", "settled"} or time.monotonic() > deadline:
            raise RehearsalError(f"round {round_id} is {state['phase']!r}, not settled by the worker")
        time.sleep(0.3)
        state = dealer.api("GET", f"/api/v1/rounds/{round_id}/")
    return int(round_id)


def check_compliance(officer: Browser, round_id: int) -> None:
    """The compliance list shows the round's settlement, written by the worker."""
    reply = officer.get(f"/compliance/?round={round_id}")
    if reply.status != 200:
        raise RehearsalError(f"/compliance/: HTTP {reply.status}")
    text = reply.text()
    for expected in ("round_settlement", "round_start", f"/compliance/rounds/{round_id}/"):
        if expected not in text:
            raise RehearsalError(f"/compliance/?round={round_id} does not show {expected!r}")
    check_security_headers(reply, "/compliance/")
