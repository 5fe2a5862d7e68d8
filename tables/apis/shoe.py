"""Card-reading shoe API (Triple Draw rounds and home-game hands): cards posted in dealing order, authenticated by
the table's device token, not a user."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.engine.shoe_order import RETRY_WINDOW_SECONDS
from casino.engine.variants import HOME_VARIANTS
from casino.errors import NotAllowed
from tables.apis.inputs import WholeNumberField
from tables.apis.schemas import ShoeAcceptedSerializer
from tables.selectors.home import shoe_progress
from tables.selectors.round_shoe import round_shoe_progress
from tables.services.devices import device_authenticate
from tables.services.home_shoe import home_shoe_report
from tables.services.shoe import shoe_round_report


class ShoeCardsApi(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    class ShoeCardsInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        cards = serializers.ListField(child=serializers.CharField(max_length=8), allow_empty=False, max_length=52)
        table = WholeNumberField(required=False, min_value=1,
                                 help_text="the table the shoe deals at (optional): refused unless the token's")
        hand = WholeNumberField(required=False, min_value=1,
                                help_text="a home-game table: the hand the cards are for (send it): refused "
                                          "(409 hand_moved_on) unless it is the hand in play; without it, a "
                                          "report repeating the shoe's last one for an earlier hand within "
                                          f"{RETRY_WINDOW_SECONDS} s is refused (409 hand_unclear)")
        round = WholeNumberField(required=False, min_value=1,
                                 help_text="a Triple Draw table: the round the cards are for (send it): "
                                           "refused (409 round_moved_on) unless it is the round in play; "
                                           "without it, a report repeating the shoe's last one for an earlier "
                                           f"round within {RETRY_WINDOW_SECONDS} s is refused (409 "
                                           "round_unclear)")

    @extend_schema(
        request=ShoeCardsInputSerializer,
        responses={200: ShoeAcceptedSerializer},
        parameters=[OpenApiParameter("Authorization", str, OpenApiParameter.HEADER, description="Device <token>")],
        summary="Cards from the shoe in dealing order",
        description=(
            "A card-reading shoe's report, in dealing order, for the round (Triple Draw) or hand (home game) in play; "
            "authenticated by the table's device token. A report repeating the last cards recorded is answered 200 "
            "`repeated` and changes nothing (a network retry, a double read). Name the round (`round`) or hand "
            "(`hand`) in every report: one naming none that repeats the last cards the shoe reported for an earlier "
            f"round or hand, within {RETRY_WINDOW_SECONDS} s, while the one in play has no card from it yet, may be a "
            "late retry or the same card first after a fresh shuffle, and is refused (409 `round_unclear` / "
            "`hand_unclear`, nothing dealt): sent again naming the round or hand in play, it is dealt. Every refusal "
            "is audited as the device's `shoe_cards_refuse` and shown on the dealer's tablet."
        ),
        auth=[],
    )
    def post(self, request: Request) -> Response:
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "device" or not token.strip():
            raise NotAllowed("send 'Authorization: Device <token>'", code="bad_device_token")
        # The credential is checked before the body is parsed (request.data), so a stranger's body is never read.
        device = device_authenticate(token.strip())
        data = self.ShoeCardsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if device.table.table_type in HOME_VARIANTS:
            report = home_shoe_report(device=device, cards=data.validated_data["cards"],
                                      table_id=data.validated_data.get("table"),
                                      hand_id=data.validated_data.get("hand"))
            hand = report.hand
            return Response({"round": hand.pk, "hand": hand.pk, "phase": hand.phase, "repeated": report.repeated,
                             **shoe_progress(hand)})
        dealt = shoe_round_report(device=device, cards=data.validated_data["cards"],
                                  table_id=data.validated_data.get("table"), round_id=data.validated_data.get("round"))
        return Response({"round": dealt.round.pk, "phase": dealt.round.phase, "repeated": dealt.repeated,
                         **round_shoe_progress(dealt.round)})
