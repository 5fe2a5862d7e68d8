"""REST API routes of the tables app (mounted under /api/v1/)."""

from django.urls import URLPattern, URLResolver, path

from tables import apis

urlpatterns: list[URLPattern | URLResolver] = [
    path("me/", apis.MeApi.as_view(), name="me"),
    path("tables/", apis.TableListApi.as_view(), name="table-list"),
    path("tables/<int:table_id>/", apis.TableDetailApi.as_view(), name="table-detail"),
    path("tables/<int:table_id>/open/", apis.TableOpenApi.as_view(), name="table-open"),
    path("tables/<int:table_id>/close/", apis.TableCloseApi.as_view(), name="table-close"),
    path("tables/<int:table_id>/paytable/", apis.TablePaytableApi.as_view(), name="table-paytable"),
    path("tables/<int:table_id>/dealers/", apis.TableDealersApi.as_view(), name="table-dealers"),
    path("tables/<int:table_id>/seats/", apis.SeatJoinApi.as_view(), name="seat-join"),
    path("tables/<int:table_id>/seats/<int:seat>/leave/", apis.SeatLeaveApi.as_view(), name="seat-leave"),
    path("tables/<int:table_id>/rounds/", apis.RoundStartApi.as_view(), name="round-start"),
    path("rounds/<int:round_id>/", apis.RoundDetailApi.as_view(), name="round-detail"),
    path("rounds/<int:round_id>/bets/", apis.RoundBetsApi.as_view(), name="round-bets"),
    path("rounds/<int:round_id>/bets/batch/", apis.RoundBetsBatchApi.as_view(), name="round-bets-batch"),
    path("rounds/<int:round_id>/holds/batch/", apis.RoundHoldsBatchApi.as_view(), name="round-holds-batch"),
    path("rounds/<int:round_id>/bets/<int:seat>/", apis.RoundBetClearApi.as_view(), name="round-bet-clear"),
    path("rounds/<int:round_id>/close-bets/", apis.RoundCloseBetsApi.as_view(), name="round-close-bets"),
    path("rounds/<int:round_id>/deal/", apis.RoundDealApi.as_view(), name="round-deal"),
    path("rounds/<int:round_id>/holds/", apis.RoundHoldsApi.as_view(), name="round-holds"),
    path("rounds/<int:round_id>/rows/", apis.RoundRowsApi.as_view(), name="round-rows"),
    path("rounds/<int:round_id>/settle/", apis.RoundSettleApi.as_view(), name="round-settle"),
    path("rounds/<int:round_id>/void/", apis.RoundVoidApi.as_view(), name="round-void"),
    path("rounds/<int:round_id>/approve/", apis.RoundApproveApi.as_view(), name="round-approve"),
    path("rounds/<int:round_id>/export/", apis.RoundExportApi.as_view(), name="round-export"),
    path("rounds/<int:round_id>/replay/", apis.RoundReplayApi.as_view(), name="round-replay"),
    path("shoe/cards/", apis.ShoeCardsApi.as_view(), name="shoe-cards"),
]
