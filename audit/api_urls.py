"""REST API routes of the audit app (mounted under /api/v1/): read-only, for compliance tooling."""

from django.urls import URLPattern, URLResolver, path

from audit import apis

urlpatterns: list[URLPattern | URLResolver] = [
    path("audit/events/", apis.AuditEventListApi.as_view(), name="audit-event-list"),
    path("audit/events/<int:event_id>/", apis.AuditEventDetailApi.as_view(), name="audit-event-detail"),
    path("audit/rounds/<int:round_id>/", apis.RoundTimelineApi.as_view(), name="audit-round-timeline"),
    path("audit/games/<int:game_id>/", apis.HomeGameTimelineApi.as_view(), name="audit-home-game-timeline"),
    path("audit/hands/<int:hand_id>/", apis.HomeHandTimelineApi.as_view(), name="audit-home-hand-timeline"),
    path("audit/chain/", apis.ChainStateApi.as_view(), name="audit-chain"),
]
