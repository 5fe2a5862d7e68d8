"""Dealer tablet tap latency: the time from a tap to the updated screen, at 10 tablets playing at once.

Sets up a scratch PostgreSQL database with 10 seven-seat rng tables (one dealer each), starts gunicorn on
127.0.0.1 (2 workers × 4 threads, the embedded eager settlement so a draw's answer already carries the results),
and drives 10 Chromium tablets (one browser, 10 contexts, Playwright's async API) through whole rounds at once:
three seats bet, close bets, deal, three holds (the last one confirmed), draw the rows. Each tablet measures in the
page itself: from the tap's click event to the moment htmx has swapped the server's answer into the screen
(`htmx:afterSettle` of that request, so htmx's 20 ms settle delay is included), and the request's own time (sent to
last byte, from the browser's resource timing). Prints p50 / p95 / max per action. Each tablet pauses 0.5-1.5 ×
BENCH_TAP_THINK_MS (default 1000) before each tap, as a dealer does between taps; 0 drives them flat out.

Bounded: BENCH_TAP_TABLETS (default 10) tablets × BENCH_TAP_ROUNDS (default 4) rounds, and at most
BENCH_TAP_SECONDS (default 240) in all; the server listens on 127.0.0.1 only (BENCH_TAP_PORT, default 8105).
BENCH_DATABASE_URL names the PostgreSQL server (a scratch database is created and dropped). Chromium: CHROMIUM_PATH
(default /usr/bin/chromium). The browser runs on the same machine as the server, so its CPU is in the figures.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
SERVER_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
TABLETS = int(os.environ.get("BENCH_TAP_TABLETS", "10"))
ROUNDS = int(os.environ.get("BENCH_TAP_ROUNDS", "4"))
SECONDS = float(os.environ.get("BENCH_TAP_SECONDS", "240"))
PORT = int(os.environ.get("BENCH_TAP_PORT", "8105"))
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
SCRATCH = f"bench_taps_{os.getpid()}"
PASSWORD = "bench-tap-pw"
SEATS = (1, 2, 3)
# A dealer looks at the table between taps: the pause before each tap (0 drives the tablets flat out).
THINK_MS = int(os.environ.get("BENCH_TAP_THINK_MS", "1000"))

# Runs in every page before its scripts: times each tap from its click to the swap of that request's answer.
TAP_TIMER_JS = """
window.__taps = [];
(function () {
  let pending = null;
  document.addEventListener('click', () => { pending = { t0: performance.now() }; }, true);
  document.addEventListener('htmx:beforeSend', (e) => {
    if (e.target.hasAttribute && e.target.hasAttribute('data-poll')) { return; }
    if (pending && !pending.xhr) {
      pending.xhr = e.detail.xhr;
      pending.path = e.detail.requestConfig.path || '';
      pending.action = pending.path.split('/do/')[1].replace('/', '');
    }
  });
  document.addEventListener('htmx:afterSettle', (e) => {
    if (pending && pending.xhr && e.detail.xhr === pending.xhr) {
      const done = performance.now();
      // The request's own timing: from sending it to the last byte of the answer (server time and queueing).
      const entries = performance.getEntriesByName(new URL(pending.path, location.href).href);
      const last = entries[entries.length - 1];
      const server = last ? last.responseEnd - last.requestStart : null;
      window.__taps.push({ action: pending.action, ms: done - pending.t0, server: server });
      pending = null;
    }
  });
})();
"""


def admin_sql(statement: str) -> None:
    import psycopg

    with psycopg.connect(SERVER_URL, autocommit=True) as conn:
        conn.execute(statement)  # type: ignore[arg-type]


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = urlsplit(SERVER_URL)._replace(path=f"/{SCRATCH}").geturl()
    env.pop("REDIS_URL", None)  # settlement runs eagerly inside the draw request
    env.update(DJANGO_SETTINGS_MODULE="casino.settings", LOG_LEVEL="ERROR", ALLOWED_HOSTS="127.0.0.1")
    return env


def seed(env: dict[str, str]) -> list[int]:
    """Migrate the scratch database and create the tables and dealers (in this process, then let it go)."""
    os.environ.update(env)
    os.environ.pop("REDIS_URL", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from django.db import connections

    from tables.services.seats import seat_join
    from tables.services.tables import table_assign_dealer, table_create, table_open
    from tests.paytables.factories import make_paytable

    call_command("migrate", verbosity=0)
    floor = User.objects.create_user("bench-floor", password=PASSWORD)
    floor.groups.add(Group.objects.get(name="floor"))
    paytable = make_paytable("jacks_or_better_9_6", floor, approval_reference="BENCH")
    table_ids = []
    for number in range(1, TABLETS + 1):
        dealer = User.objects.create_user(f"bench-dealer-{number}", password=PASSWORD)
        dealer.groups.add(Group.objects.get(name="dealer"))
        table = table_create(
            name=f"Bench {number}",
            actor=floor,
            card_source="rng",
            paytable=paytable,
            # No round may stop for a supervisor: every tablet plays straight on.
            supervisor_approval_threshold_cents=100_000_000,
        )
        table_assign_dealer(table=table, dealer=dealer, actor=floor)
        table_open(table=table, actor=floor)
        for seat in range(1, 8):
            seat_join(table=table, seat_number=seat, actor=floor, player_name=f"P{seat}")
        table_ids.append(table.pk)
    connections.close_all()
    return table_ids


def start_server(env: dict[str, str]) -> subprocess.Popen[bytes]:
    server_env = {**env, "GUNICORN_BIND": f"127.0.0.1:{PORT}", "GUNICORN_WORKERS": "2", "GUNICORN_THREADS": "4"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "deploy/gunicorn.conf.py",
            "--access-logfile",
            "/dev/null",
            "casino.wsgi:application",
        ],
        cwd=ROOT,
        env=server_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=2)
            return server
        except OSError:
            time.sleep(0.3)
    stop_server(server)
    raise SystemExit(f"gunicorn did not answer on 127.0.0.1:{PORT}")


def group_cpu_seconds(pgid: int) -> float:
    """CPU time (user + system) of every live process in a process group, from /proc (gunicorn's workers)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # field 5 of stat: the process group
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / os.sysconf("SC_CLK_TCK")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(server.pid, signal.SIGKILL)


async def play(browser: Any, number: int, table_id: int, deadline: float) -> list[dict[str, Any]]:
    """One tablet: sign in, then whole rounds by tapping; returns the page's tap timings."""
    from playwright.async_api import expect

    context = await browser.new_context(
        viewport={"width": 1280, "height": 800}, has_touch=True, base_url=f"http://127.0.0.1:{PORT}"
    )
    context.set_default_timeout(30_000)
    await context.add_init_script(script=TAP_TIMER_JS)
    page = await context.new_page()
    await page.goto("/tablet/login/")
    await page.get_by_label("Username").fill(f"bench-dealer-{number}")
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_role("button", name="Sign in").click()
    await page.wait_for_url("**/tablet/")
    await page.goto(f"/tablet/tables/{table_id}/")
    phase = page.locator("#phase")
    taps: list[dict[str, Any]] = []
    rng = random.Random(number)

    async def think() -> None:
        if THINK_MS:
            await page.wait_for_timeout(rng.uniform(0.5, 1.5) * THINK_MS)

    for _ in range(ROUNDS):
        if time.monotonic() > deadline:
            break
        await think()
        await page.locator("#main-action button.primary").click()
        await expect(phase).to_have_text("Betting")
        for seat in SEATS:
            box = page.locator(f"#seat-{seat}")
            await box.get_by_label(f"Seat {seat} Bet per circle ($)").fill("10")
            await box.locator('label[data-circles="3"]').click()
            await think()
            await box.get_by_role("button", name=f"Place bet for seat {seat}").click()
            await expect(page.locator(f"#seat-{seat}-bet")).to_have_text("3 × $10.00")
        await think()
        await page.get_by_role("button", name="Close bets").click()
        await expect(phase).to_have_text("Dealing (bets closed)")
        await think()
        await page.get_by_role("button", name="Deal").click()
        await expect(phase).to_have_text("Holding")
        for seat in SEATS:
            await think()
            await page.locator(f"#seat-{seat}").get_by_role("button", name="Record hold").click()
            if seat == SEATS[-1]:
                await page.get_by_role("button", name="Yes, record the last hold").click()
                await expect(phase).to_have_text("Drawing")
            else:
                await expect(page.locator(f"#seat-{seat}-held")).to_contain_text("Recorded")
        await think()
        await page.get_by_role("button", name="Draw the three rows").click()
        await expect(page.locator("#table-result")).to_be_visible()
        await page.wait_for_timeout(50)
        taps = list(await page.evaluate("window.__taps"))
    await context.close()
    return taps


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def drive(table_ids: list[int]) -> dict[str, list[float]]:
    from playwright.async_api import async_playwright

    deadline = time.monotonic() + SECONDS
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            results = await asyncio.wait_for(
                asyncio.gather(*(play(browser, n, t, deadline) for n, t in enumerate(table_ids, start=1))),
                timeout=SECONDS + 60,
            )
        finally:
            await browser.close()
    by_action: dict[str, list[float]] = {}
    for taps in results:
        for tap in taps:
            by_action.setdefault(tap["action"], []).append(float(tap["ms"]))
            if tap.get("server") is not None:
                by_action.setdefault("server:" + tap["action"], []).append(float(tap["server"]))
    return by_action


def main() -> int:
    load_before = os.getloadavg()
    admin_sql(f'CREATE DATABASE "{SCRATCH}"')
    server = None
    try:
        env = environment()
        table_ids = seed(env)
        server = start_server(env)
        started = time.monotonic()
        cpu_before = group_cpu_seconds(server.pid)
        by_action = asyncio.run(drive(table_ids))
        server_cpu = group_cpu_seconds(server.pid) - cpu_before
        elapsed = time.monotonic() - started
    finally:
        if server is not None:
            stop_server(server)
        admin_sql(f'DROP DATABASE IF EXISTS "{SCRATCH}" WITH (FORCE)')
    load_after = os.getloadavg()
    print(
        f"{TABLETS} tablets × up to {ROUNDS} rounds, {THINK_MS} ms think time, in {elapsed:.0f} s; load average "
        f"{load_before[0]:.1f} before, {load_after[0]:.1f} after"
    )
    print(f"{'tap':<12} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}   request p50 / p95 ms")
    names = {"bet": "bet", "close-bets": "close bets", "deal": "deal", "hold": "hold", "rows": "draw", "start": "start"}
    everything: list[float] = []
    for action in ("bet", "deal", "hold", "rows", "close-bets", "start"):
        values = by_action.get(action, [])
        if not values:
            continue
        everything += values if action in ("bet", "deal", "hold", "rows") else []
        server = by_action.get("server:" + action, [])
        request = f"{statistics.median(server):.0f} / {percentile(server, 0.95):.0f}" if server else "-"
        print(
            f"{names[action]:<12} {len(values):>5} {statistics.median(values):>8.0f} "
            f"{percentile(values, 0.95):>8.0f} {max(values):>8.0f}   {request}"
        )
    requests = sum(len(values) for action, values in by_action.items() if not action.startswith("server:"))
    if requests:
        print(
            f"web server CPU (gunicorn workers, polls included): {server_cpu:.1f} s = "
            f"{1000 * server_cpu / requests:.0f} ms per tap; {server_cpu / elapsed:.2f} cores on average"
        )
    if everything:
        print(
            f"{'bet+deal+hold+draw':<12} {len(everything):>5} {statistics.median(everything):>8.0f} "
            f"{percentile(everything, 0.95):>8.0f} {max(everything):>8.0f}"
        )
    return 0 if everything else 1


if __name__ == "__main__":
    sys.exit(main())
