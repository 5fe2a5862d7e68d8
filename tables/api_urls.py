"""REST API routes of the tables app (mounted under /api/v1/)."""

from django.urls import URLPattern, URLResolver, path

from tables.apis import rounds, shoe, tables

urlpatterns: list[URLPattern | URLResolver] = [
    path("me/", tables.MeApi.as_view(), name="me"),
    path("tables/", tables.TableListApi.as_view(), name="table-list"),
    path("tables/<int:table_id>/", tables.TableDetailApi.as_view(), name="table-detail"),
    path("tables/<int:table_id>/open/", tables.TableOpenApi.as_view(), name="table-open"),
    path("tables/<int:table_id>/close/", tables.TableCloseApi.as_view(), name="table-close"),
    path("tables/<int:table_id>/paytable/", tables.TablePaytableApi.as_view(), name="table-paytable"),
    path("tables/<int:table_id>/dealers/", tables.TableDealersApi.as_view(), name="table-dealers"),
    path("tables/<int:table_id>/seats/", tables.SeatJoinApi.as_view(), name="seat-join"),
    path("tables/<int:table_id>/seats/<int:seat>/leave/", tables.SeatLeaveApi.as_view(), name="seat-leave"),
    path("tables/<int:table_id>/rounds/", rounds.RoundStartApi.as_view(), name="round-start"),
    path("rounds/<int:round_id>/", rounds.RoundDetailApi.as_view(), name="round-detail"),
    path("rounds/<int:round_id>/bets/", rounds.RoundBetsApi.as_view(), name="round-bets"),
    path("rounds/<int:round_id>/bets/batch/", rounds.RoundBetsBatchApi.as_view(), name="round-bets-batch"),
    path("rounds/<int:round_id>/holds/batch/", rounds.RoundHoldsBatchApi.as_view(), name="round-holds-batch"),
    path("rounds/<int:round_id>/bets/<int:seat>/", rounds.RoundBetClearApi.as_view(), name="round-bet-clear"),
    path("rounds/<int:round_id>/close-bets/", rounds.RoundCloseBetsApi.as_view(), name="round-close-bets"),
    path("rounds/<int:round_id>/deal/", rounds.RoundDealApi.as_view(), name="round-deal"),
    path("rounds/<int:round_id>/holds/", rounds.RoundHoldsApi.as_view(), name="round-holds"),
    path("rounds/<int:round_id>/rows/", rounds.RoundRowsApi.as_view(), name="round-rows"),
    path("rounds/<int:round_id>/settle/", rounds.RoundSettleApi.as_view(), name="round-settle"),
    path("rounds/<int:round_id>/void/", rounds.RoundVoidApi.as_view(), name="round-void"),
    path("rounds/<int:round_id>/floor-call/", rounds.RoundFloorCallApi.as_view(), name="round-floor-call"),
    path("rounds/<int:round_id>/approve/", rounds.RoundApproveApi.as_view(), name="round-approve"),
    path("rounds/<int:round_id>/export/", rounds.RoundExportApi.as_view(), name="round-export"),
    path("rounds/<int:round_id>/replay/", rounds.RoundReplayApi.as_view(), name="round-replay"),
    path("shoe/cards/", shoe.ShoeCardsApi.as_view(), name="shoe-cards"),
]
