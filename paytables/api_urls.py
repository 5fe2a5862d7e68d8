"""REST API routes of the paytables app (mounted under /api/v1/)."""

from django.urls import URLPattern, URLResolver, path

from paytables import apis

urlpatterns: list[URLPattern | URLResolver] = [
    path("paytables/", apis.PaytableListApi.as_view(), name="paytable-list"),
    path("paytables/<int:paytable_id>/", apis.PaytableDetailApi.as_view(), name="paytable-detail"),
    path("paytables/<int:paytable_id>/lines/", apis.PaytableLinesApi.as_view(), name="paytable-lines"),
    path("paytables/<int:paytable_id>/approve/", apis.PaytableApproveApi.as_view(), name="paytable-approve"),
    path("paytables/<int:paytable_id>/retire/", apis.PaytableRetireApi.as_view(), name="paytable-retire"),
    path("paytables/<int:paytable_id>/clone/", apis.PaytableCloneApi.as_view(), name="paytable-clone"),
    path("paytables/<int:paytable_id>/analysis/", apis.PaytableAnalysisApi.as_view(), name="paytable-analysis"),
]
