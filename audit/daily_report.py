"""The daily compliance summary of one gaming day: exceptions by kind, voids, large payouts, the chain's state.

A job produces it each morning for the gaming day that just ended and keeps it (DailyReport): the figures as JSON
for the page, a CSV and a PDF. The PDF is drawn with ReportLab (pure Python, no system libraries).
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from audit import actions, providers
from audit.actions import ExceptionKind
from audit.case_summaries import shown_summaries
from audit.chain_status import chain_status
from audit.csv_export import SafeWriter
from audit.models import AuditEvent, DailyReport, ExceptionCase
from audit.services import audit_record
from casino.engine.money import money

LISTED = 200  # at most this many voids and payouts are listed one by one (all are counted)
PAYOUT_KINDS = (ExceptionKind.LARGE_PAYOUT, ExceptionKind.CASH_REPORTING)


def previous_gaming_day(now: dt.datetime | None = None) -> dt.date:
    """The gaming day that ended most recently (the morning job reports on it)."""
    return providers.gaming_day(now or timezone.now()) - dt.timedelta(days=1)


REPORT_DELAY = dt.timedelta(hours=1)  # the day's late settlements and counts land before its report is made


def report_due(now: dt.datetime | None = None) -> bool:
    """Is the ended gaming day's report due: an hour into the new day, and not made yet?"""
    now = now or timezone.now()
    started, _ = providers.day_window(providers.gaming_day(now))
    if now - started < REPORT_DELAY:
        return False
    return not DailyReport.objects.filter(gaming_day=previous_gaming_day(now)).exists()


def _local(moment: dt.datetime | None) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S") if moment else ""


def report_data(day: dt.date) -> dict[str, Any]:
    """The figures of one gaming day, as plain JSON values (what the page, the CSV and the PDF show)."""
    start, end = providers.day_window(day)
    cases = ExceptionCase.objects.filter(occurred_at__gte=start, occurred_at__lt=end)
    by_kind = dict(cases.values_list("kind").annotate(n=Count("id")).values_list("kind", "n"))
    by_status = dict(cases.values_list("status").annotate(n=Count("id")).values_list("status", "n"))
    voids = cases.filter(kind=ExceptionKind.VOID).order_by("occurred_at", "id")
    payouts = cases.filter(kind__in=PAYOUT_KINDS).order_by("occurred_at", "id")
    chain = chain_status()
    check = chain.last_check

    def rows(queryset: Any) -> list[dict[str, Any]]:
        listed = list(queryset[:LISTED])
        summaries = shown_summaries(listed)
        return [
            {
                "time": _local(c.occurred_at),
                "kind": c.get_kind_display(),
                "table": c.table_repr,
                "round": c.round_repr,
                "seat": c.seat_number,
                "amount": money(c.amount_cents) if c.amount_cents is not None else "",
                "summary": summaries[c.id],
                "status": c.get_status_display(),
            }
            for c in listed
        ]

    return {
        "gaming_day": day.isoformat(),
        "time_zone": timezone.get_current_timezone_name(),
        "window": [_local(start), _local(end)],
        "events": AuditEvent.objects.filter(occurred_at__gte=start, occurred_at__lt=end).count(),
        "exceptions_by_kind": [
            {"kind": label, "count": by_kind.get(code, 0)} for code, label in ExceptionKind.choices if code
        ],
        "exceptions_by_status": {str(k): v for k, v in by_status.items()},
        "exceptions_total": sum(by_kind.values()),
        "voids": rows(voids),
        "voids_total": voids.count(),
        "payouts": rows(payouts),
        "payouts_total": payouts.count(),
        "chain": {
            "state": chain.headline,
            "level": chain.level,
            "last_checked_at": _local(check.checked_at) if check else "",
            "checked_by": check.checked_by if check else "",
            "events_checked": check.checked_count if check else 0,
            "message": check.message if check else "",
        },
    }


def report_csv(data: dict[str, Any]) -> str:
    out = io.StringIO()
    writer = SafeWriter(out)
    writer.writerow(["Compliance summary", f"gaming day {data['gaming_day']}", f"times in {data['time_zone']}"])
    writer.writerow(["Window", *data["window"]])
    writer.writerow(["Events recorded", data["events"]])
    writer.writerow(
        ["Hash chain", data["chain"]["state"], data["chain"]["last_checked_at"], data["chain"]["checked_by"]]
    )
    writer.writerow([])
    writer.writerow(["Exception kind", "Count"])
    for row in data["exceptions_by_kind"]:
        writer.writerow([row["kind"], row["count"]])
    for title, key in (("Voids", "voids"), ("Large payouts and cash-reporting totals", "payouts")):
        writer.writerow([])
        writer.writerow([title, f"{data[key + '_total']} in all"])
        writer.writerow(["Time", "Kind", "Table", "Round", "Seat", "Amount", "Summary", "Review"])
        for row in data[key]:
            writer.writerow(
                [row["time"], row["kind"], row["table"], row["round"], row["seat"] or "", row["amount"],
                 row["summary"], row["status"]]
            )  # fmt: skip
    return out.getvalue()


def _font() -> str:
    """DejaVu Sans when the system has it (card suit symbols); ReportLab's bundled Vera otherwise."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for path in (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),):
        if path.exists():
            if "DejaVuSans" not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(TTFont("DejaVuSans", str(path)))
            return "DejaVuSans"
    return "Helvetica"


def report_pdf(data: dict[str, Any]) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    font = _font()
    styles = getSampleStyleSheet()
    for style in styles.byName.values():
        style.fontName = font
    body, small = styles["BodyText"], styles["BodyText"].clone("small", fontSize=7.5, leading=9)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=landscape(A4),
        leftMargin=12 * mm,
        rightMargin=12 * mm,
        topMargin=12 * mm,
        bottomMargin=12 * mm,
        title=f"Compliance summary {data['gaming_day']}",
    )
    grid = TableStyle(
        [
            ("FONTNAME", (0, 0), (-1, -1), font),
            ("FONTSIZE", (0, 0), (-1, -1), 8),
            ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8eee9")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]
    )
    chain = data["chain"]
    story: list[Any] = [
        Paragraph(f"Compliance summary — gaming day {data['gaming_day']}", styles["Title"]),
        Paragraph(
            f"Window {data['window'][0]} to {data['window'][1]} ({data['time_zone']}). "
            f"{data['events']} events recorded; {data['exceptions_total']} exceptions.",
            body,
        ),
        Paragraph(
            f"Hash chain: {chain['state']}; last verified {chain['last_checked_at'] or 'never'}"
            f"{' by ' + chain['checked_by'] if chain['checked_by'] else ''}, {chain['events_checked']} events. "
            f"{chain['message']}",
            body,
        ),
        Spacer(1, 4 * mm),
        Table(
            [["Exception kind", "Count"], *[[r["kind"], r["count"]] for r in data["exceptions_by_kind"]]],
            style=grid,
            hAlign="LEFT",
        ),
    ]
    for title, key in (("Voids", "voids"), ("Large payouts and cash-reporting totals", "payouts")):
        story += [Spacer(1, 4 * mm), Paragraph(f"{title}: {data[key + '_total']}", styles["Heading2"])]
        if data[key]:
            header = ["Time", "Table", "Round", "Seat", "Amount", "Summary", "Review"]
            lines = [
                [r["time"], r["table"], r["round"], r["seat"] or "", r["amount"], Paragraph(r["summary"], small),
                 r["status"]]
                for r in data[key]
            ]  # fmt: skip
            widths = [30 * mm, 28 * mm, 38 * mm, 10 * mm, 22 * mm, 120 * mm, 20 * mm]
            story.append(Table([header, *lines], colWidths=widths, style=grid, repeatRows=1, hAlign="LEFT"))
    doc.build(story)
    return buffer.getvalue()


@transaction.atomic
def daily_report_create(*, day: dt.date, created_by: str) -> DailyReport:
    """Produce and keep the report of a gaming day; one that already exists is kept as it was produced."""
    existing = DailyReport.objects.filter(gaming_day=day).first()
    if existing is not None:
        return existing
    data = report_data(day)
    report = DailyReport.objects.create(
        gaming_day=day,
        created_at=timezone.now(),
        created_by=created_by,
        data=data,
        csv_text=report_csv(data),
        pdf=report_pdf(data),
    )
    audit_record(
        action=actions.DAILY_REPORT_CREATE,
        obj=report,
        object_repr=f"Compliance summary {day.isoformat()}",
        after={"gaming_day": day.isoformat(), "exceptions": data["exceptions_total"], "events": data["events"]},
    )
    return report
