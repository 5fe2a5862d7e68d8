"""Admin screens of the paytables app for floor staff; every write goes through a service."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from audit.admin_actions import ObjectAction, ServiceActionsAdmin
from audit.roles import FLOOR, has_role
from casino.engine.hand_words import hand_label, line_label
from casino.users import request_user
from paytables import services
from paytables.forms import PaytableForm, PaytableLineForm, PaytableLineFormSet
from paytables.models import AnalysisStatus, Paytable, PaytableLine, PaytableStatus
from paytables.selectors import paytable_analysis_or_none, paytable_line_changes, paytable_previous


def _is_floor(request: HttpRequest) -> bool:
    return has_role(request.user, FLOOR)


def _percent(value: float | None, places: int = 4) -> str:
    return "—" if value is None else f"{value * 100:.{places}f}%"


class PaytableLineInline(admin.TabularInline):  # type: ignore[type-arg]
    model = PaytableLine
    form = PaytableLineForm
    formset = PaytableLineFormSet
    extra = 1
    ordering = ["position"]

    def _editable(self, request: HttpRequest, obj: Paytable | None) -> bool:
        return _is_floor(request) and (obj is None or obj.status == PaytableStatus.DRAFT)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._editable(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._editable(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._editable(request, obj)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:  # django-stubs: a union of field groups
        if self._editable(request, obj):
            return ["position", "hand", "min_rank", "ranks", "pays"]
        return ["position", "hand_name", "min_rank", "ranks_text", "pays"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if self._editable(request, obj):
            return []
        return ["position", "hand_name", "min_rank", "ranks_text", "pays"]

    @admin.display(description="hand")
    def hand_name(self, line: PaytableLine) -> str:
        return hand_label(line.hand)

    @admin.display(description="ranks")
    def ranks_text(self, line: PaytableLine) -> str:
        return " ".join(line.ranks or [])


@admin.register(Paytable)
class PaytableAdmin(ServiceActionsAdmin):
    form = PaytableForm
    inlines = [PaytableLineInline]
    list_display = ["name", "version_number", "basis", "status", "return_display", "analysis_state", "reference"]
    list_filter = ["status", "basis"]
    search_fields = ["name", "approval_reference"]
    change_form_template = "admin/paytables/paytable/change_form.html"
    readonly_fields = [
        "version",
        "status",
        "approval_reference",
        "approved_by",
        "approved_at",
        "created_by",
        "created_at",
        "cloned_from",
        "retired_at",
        "analysis_table",
    ]

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("analysis")

    # --- permissions: floor staff (or superusers) write, and only drafts; the rest may look -------------

    def has_add_permission(self, request: HttpRequest) -> bool:
        return _is_floor(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_floor(request) and (obj is None or obj.status == PaytableStatus.DRAFT)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # versions are history; a draft that is not wanted is simply never approved

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:  # django-stubs: a union of field groups
        if obj is None:
            return ["name", "basis", "wild_ranks"]
        return ["name", "basis", "wild_ranks", *self.readonly_fields]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is None:
            return []
        if not self.has_change_permission(request, obj):
            return ["name", "basis", "wild_ranks", *self.readonly_fields]
        return ["name", *self.readonly_fields]  # a draft keeps its name; a new name is a clone

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    # --- list columns -------------------------------------------------------------------------------

    # Short headings (the version, the regulator's approval reference): the list's columns fit 800 px beside the menu.
    @admin.display(description="ver.", ordering="version")
    def version_number(self, paytable: Paytable) -> int:
        return paytable.version

    @admin.display(description="approval ref.", ordering="approval_reference")
    def reference(self, paytable: Paytable) -> str:
        return paytable.approval_reference or "—"

    @admin.display(description="return")
    def return_display(self, paytable: Paytable) -> str:
        analysis = paytable_analysis_or_none(paytable)
        if analysis is None or analysis.status != AnalysisStatus.DONE:
            return "—"
        return _percent(analysis.return_ratio)

    @admin.display(description="analysis")
    def analysis_state(self, paytable: Paytable) -> str:
        analysis = paytable_analysis_or_none(paytable)
        if analysis is None:
            return "not queued"
        if analysis.status == AnalysisStatus.RUNNING:
            return f"running {analysis.progress}%"
        return str(analysis.get_status_display()).lower()

    # --- the analysis on the detail page ------------------------------------------------------------

    @admin.display(description="analysis")
    def analysis_table(self, paytable: Paytable) -> SafeString | str:
        analysis = paytable_analysis_or_none(paytable)
        if analysis is None:
            return "Not queued yet."
        if analysis.status != AnalysisStatus.DONE:
            state = format_html(
                "{} — {}% <progress max='100' value='{}'></progress>",
                analysis.get_status_display(),
                analysis.progress,
                analysis.progress,
            )
            if analysis.status == AnalysisStatus.FAILED:
                return format_html("{}<br><strong>Failed:</strong> {}", state, analysis.error)
            return state
        figures = format_html(
            "<table><tbody>"
            "<tr><th>Return</th><td>{}</td><td>{}</td></tr>"
            "<tr><th>House edge</th><td>{}</td><td></td></tr>"
            "<tr><th>Hit frequency</th><td>{}</td><td></td></tr>"
            "<tr><th>Standard deviation</th><td>{}</td><td>variance {}</td></tr>"
            "</tbody></table>",
            _percent(analysis.return_ratio),
            analysis.return_exact,
            _percent(analysis.house_edge),
            _percent(analysis.hit_frequency),
            f"{analysis.std_dev:.4f}" if analysis.std_dev is not None else "—",
            f"{analysis.variance:.4f}" if analysis.variance is not None else "—",
        )
        results = analysis.results or {}
        rows = [
            (
                _line_name(row),
                row.get("pays", ""),
                f"{float(row.get('probability', 0)):.10f}",
                row.get("combinations", ""),
                f"{float(row['contribution']):.6f}" if row.get("contribution") is not None else "",
            )
            for row in results.get("lines", [])
        ]
        nothing = results.get("nothing")
        if nothing:
            rows.append(
                ("no paying line", "", f"{float(nothing['probability']):.10f}", nothing["combinations"], "0.000000")
            )
        lines = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", rows)
        finished = timezone.localtime(analysis.finished_at) if analysis.finished_at else None
        return format_html(
            "{}<table><thead><tr><th>Hand</th><th>Pays ({})</th><th>Probability</th><th>Combinations</th>"
            "<th>Return contribution</th></tr></thead><tbody>{}</tbody></table>"
            "<p>Exact, under optimal holds over all 2,598,960 deals; finished {}; schedule {}.</p>",
            figures,
            paytable.get_basis_display(),
            lines,
            f"{finished:%Y-%m-%d %H:%M %Z}" if finished else "—",
            analysis.spec_hash[:12],
        )

    # --- writes go through the services -------------------------------------------------------------

    def save_model(self, request: HttpRequest, obj: Paytable, form: Any, change: bool) -> None:
        """Nothing yet: the paytable and its lines are written together by a service in save_related."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        lines_formset = next(fs for fs in formsets if isinstance(fs, PaytableLineFormSet))
        for formset in formsets:  # the admin's change message reads these; the service wrote the rows
            formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        data = form.cleaned_data
        if change:
            paytable = services.paytable_line_set(
                paytable=form.instance,
                lines=lines_formset.schedule(),
                basis=data["basis"],
                wild_ranks=data["wild_ranks"],
                actor=request_user(request),
            )
        else:
            paytable = services.paytable_create_draft(
                name=data["name"],
                basis=data["basis"],
                wild_ranks=data["wild_ranks"],
                lines=lines_formset.schedule(),
                actor=request_user(request),
            )
        form.instance.pk = paytable.pk

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return None  # the service wrote the audit event; the admin's own log would be a second, weaker record

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return None

    # --- approve, retire, clone, re-run analysis: buttons on the detail page, each one service call --------

    object_action_refusal = "Only floor staff may change paytables."
    object_actions = (
        ObjectAction(
            "approve",
            lambda request, paytable: services.paytable_approve(
                paytable=paytable,
                approval_reference=request.POST.get("approval_reference", ""),
                override_reason=request.POST.get("override_reason", ""),
                actor=request_user(request),
            ),
            "{} approved.",
            confirm_template="admin/paytables/paytable/approve.html",
            title="Approve {}",
        ),
        ObjectAction(
            "retire",
            lambda request, paytable: services.paytable_retire(
                paytable=paytable, reason=request.POST.get("reason", ""), actor=request_user(request)
            ),
            "{} retired.",
        ),
        ObjectAction(
            "clone",
            lambda request, paytable: services.paytable_clone(
                paytable=paytable, name=request.POST.get("name") or None, actor=request_user(request)
            ),
            "Draft {} created; edit its lines, then approve it.",
        ),
        ObjectAction(
            "analyze",
            lambda request, paytable: services.paytable_analysis_queue(
                paytable=paytable, actor=request_user(request), force=True
            ).paytable,
            "Analysis of {} queued.",
        ),
    )

    def object_action_allowed(self, request: HttpRequest) -> bool:
        return _is_floor(request)

    def object_action_context(self, request: HttpRequest, action: ObjectAction, obj: Any) -> dict[str, Any]:
        """The approval page shows what is approved: the analysis, the change from the previous version, the
        band the return must be in, and who may approve."""
        if action.name != "approve":
            return {}
        analysis = paytable_analysis_or_none(obj)
        done = analysis is not None and analysis.status == AnalysisStatus.DONE
        previous = paytable_previous(obj)
        actor_id = request.user.pk
        return {
            "analysis": self.analysis_table(obj),
            "analysis_done": done,
            "outside_band": services.return_outside_band(analysis.return_ratio if done else None),
            "return_floor": f"{float(settings.PAYTABLE_RETURN_FLOOR) * 100:.2f} %",
            "previous": previous,
            "changes": paytable_line_changes(obj, previous),
            "own_work": actor_id in (obj.created_by_id, obj.last_edited_by_id),
        }

    def render_change_form(self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        obj = kwargs.get("obj")
        analysis = paytable_analysis_or_none(obj) if obj is not None else None
        context.update(
            {
                "is_floor": _is_floor(request),
                "analysis_pending": analysis is not None
                and analysis.status in (AnalysisStatus.QUEUED, AnalysisStatus.RUNNING),
            }
        )
        return super().render_change_form(request, context, *args, **kwargs)


def _line_name(row: dict[str, Any]) -> str:
    return line_label(str(row.get("hand", "")), row.get("min_rank"), row.get("ranks"))
