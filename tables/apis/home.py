"""Home-game API (issue 12): a table's house rules, games, players, hands and their actions, cards shown at a manual
showdown, the floor's rulings, states, the game record export and its replay."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.errors import NotFound
from casino.users import request_user
from tables.access import require_table_reader
from tables.apis.common import NOT_MODIFIED, answer, if_none_match, not_modified_or, table_for
from tables.apis.home_schemas import (
    GameRecordSerializer,
    GameReplaySerializer,
    HomeConfigInputSerializer,
    HomeConfigSerializer,
    HomeGameStateSerializer,
    HomeHandListItemSerializer,
    HomeHandStateSerializer,
)
from tables.apis.inputs import StrictInputSerializer, WholeCentsField, WholeNumberField
from tables.models import HomeGame, HomeHand, HomeTableConfig, Table
from tables.selectors.home import game_hands, game_token, game_view, hand_token, hand_view
from tables.selectors.home_records import game_record, game_replay
from tables.services.home_chips import game_missing, hand_missing
from tables.services.home_config import announce_rules, announcement, home_config_set
from tables.services.home_engine import keep_built
from tables.services.home_games import game_close, game_open, player_add_chips, player_join, player_leave
from tables.services.home_hands import hand_act, hand_start
from tables.services.home_rulings import hand_award, hand_correct, hand_correct_card, hand_void

GAME = HomeGameStateSerializer
HAND = HomeHandStateSerializer
GAMES_PAGE = 20


def game_for(request: Request, pk: int) -> HomeGame:
    """The game (404 game_not_found naming the id, as the services answer, if there is none); 403 for a reader who
    may not see its table."""
    game = HomeGame.objects.select_related("table").filter(pk=pk).first()
    if game is None:
        raise game_missing(pk)
    require_table_reader(request.user, game.table)
    return game


def hand_for(request: Request, pk: int) -> HomeHand:
    hand = HomeHand.objects.select_related("game__table").filter(pk=pk).first()
    if hand is None:
        raise hand_missing(pk)
    require_table_reader(request.user, hand.game.table)
    return hand


def _config_answer(table: Table) -> Response:
    config = HomeTableConfig.objects.filter(table=table).first()
    if config is None:
        raise NotFound(f"table {table.name} has no house rules yet", code="no_house_rules")
    rules = announce_rules(table.table_type, config.rules)
    return Response({
        "table_id": table.pk, "table_type": table.table_type, "card_source": table.card_source,
        "rules": config.rules, "announcement": announcement(rules, config),
        "buy_in_min_cents": config.buy_in_min_cents, "buy_in_max_cents": config.buy_in_max_cents,
        "charge": config.charge, "rake_basis_points": config.rake_basis_points,
        "rake_cap_cents": config.rake_cap_cents, "time_charge_cents": config.time_charge_cents,
    })


class HomeConfigApi(APIView):
    @extend_schema(responses={200: HomeConfigSerializer}, summary="A home-game table's house rules")
    def get(self, request: Request, table_id: int) -> Response:
        return _config_answer(table_for(request, table_id))

    @extend_schema(request=HomeConfigInputSerializer, responses={200: HomeConfigSerializer},
                   summary="Set a home-game table's house rules (floor): announced options, buy-ins, charge")
    def post(self, request: Request, table_id: int) -> Response:
        return self._set(request, table_id, partial=False)

    @extend_schema(request=HomeConfigInputSerializer, responses={200: HomeConfigSerializer},
                   summary="Change some of a home-game table's house rules (floor)")
    def patch(self, request: Request, table_id: int) -> Response:
        return self._set(request, table_id, partial=True)

    def _set(self, request: Request, table_id: int, *, partial: bool) -> Response:
        data = HomeConfigInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = table_for(request, table_id)
        home_config_set(table=table, actor=request_user(request), partial=partial, **data.validated_data)
        return _config_answer(Table.objects.get(pk=table.pk))


class GameOpenApi(APIView):
    class PlayerInputSerializer(StrictInputSerializer):
        seat = WholeNumberField()
        name = serializers.CharField(required=False, allow_blank=True, default="", max_length=100)
        player_card = serializers.CharField(required=False, allow_blank=True, default="", max_length=40)
        buy_in_cents = WholeCentsField()

    class GameOpenInputSerializer(StrictInputSerializer):
        players = serializers.ListField(child=serializers.DictField(), required=False, default=list, max_length=10)

    class GamesPageInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        before = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1,
                                          help_text="a game's id: the games opened before it (the next page)")

    @extend_schema(
        parameters=[OpenApiParameter(
            "before", {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
            description="a game's id: list the games opened before it; the Link header's rel=\"next\" gives it when "
            f"there are more than {GAMES_PAGE}")],
        responses={200: OpenApiResponse(GAME(many=True), description=f"at most {GAMES_PAGE} games, newest first; "
                                        'a Link header <...?before=ID>; rel="next" when older games remain')},
        summary="A table's home games, newest first, a page at a time", operation_id="home_games_list")
    def get(self, request: Request, table_id: int) -> Response:
        page = self.GamesPageInputSerializer(data=request.query_params)
        page.is_valid(raise_exception=True)
        table = table_for(request, table_id)
        games = HomeGame.objects.filter(table=table).order_by("-number")
        if (before := page.validated_data.get("before")) is not None:
            # A table numbers its games as it opens them, under its lock: ids rise with the numbers.
            games = games.filter(pk__lt=before)
        listed = list(games[: GAMES_PAGE + 1])
        response = Response([game_view(game) for game in listed[:GAMES_PAGE]])
        if len(listed) > GAMES_PAGE:
            # Only the first 20 were ever listed, with no sign that older games existed.
            older = request.build_absolute_uri(f"{request.path}?before={listed[GAMES_PAGE - 1].pk}")
            response["Link"] = f'<{older}>; rel="next"'
        return response

    @extend_schema(request=GameOpenInputSerializer, responses={201: GAME},
                   summary="Open a game with the table's house rules (announced) and seat its first players")
    def post(self, request: Request, table_id: int) -> Response:
        data = self.GameOpenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        players: list[dict[str, Any]] = []
        for index, entry in enumerate(data.validated_data["players"]):
            player = self.PlayerInputSerializer(data=entry)
            if not player.is_valid():  # named by its place, as the service names a buy-in out of range
                raise serializers.ValidationError({f"players.{index}": player.errors})
            players.append(dict(player.validated_data))
        game = game_open(table=table_for(request, table_id), actor=request_user(request), players=players)
        return Response(game_view(game), status=status.HTTP_201_CREATED)


class GameDetailApi(APIView):
    @extend_schema(parameters=[if_none_match("game")],
                   responses={200: answer(GAME, "the game's state and ETag"), 304: NOT_MODIFIED},
                   summary="A game's state: rules, players, stacks, legs, the hand in play")
    def get(self, request: Request, game_id: int) -> Response:
        game = game_for(request, game_id)
        # The token comes from the row just read, before the state is built, so it is never newer than the body.
        return not_modified_or(request, game_token(game), lambda: Response(game_view(game)))


class GameCloseApi(APIView):
    class GameCloseInputSerializer(StrictInputSerializer):
        # Left to the service, which refuses a blank one naming it (reason_required), as every way in does.
        reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500,
                                       help_text="why the floor closes the game (required)")
        award_seat = WholeNumberField(required=False, allow_null=True, default=None,
                                      help_text="a ruling: the carried pot goes to this seat (needs a reason)")

    @extend_schema(request=GameCloseInputSerializer, responses={200: GAME},
                   summary="Close a game (floor): a carried pot returns to its contributors, players cash out",
                   description="The floor ends the game between hands, with a reason (400 reason_required without "
                               "one): a pot carried from the last hand goes back to each player's own contributions, "
                               "or by ruling (award_seat) all to one seat, then every seated player is cashed out. "
                               "Refused while a hand is in play (409 hand_in_play: finish or void it first) and for "
                               "a game already over (409 game_over); dealers may not (403).")
    def post(self, request: Request, game_id: int) -> Response:
        data = self.GameCloseInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = game_close(game=game_for(request, game_id).pk, actor=request_user(request), **data.validated_data)
        return Response(game_view(game))


class PlayerJoinApi(APIView):
    @extend_schema(request=GameOpenApi.PlayerInputSerializer, responses={200: GAME},
                   summary="Seat a player between hands with a buy-in within the range",
                   description="At a free seat or one whose player left (the newcomer starts afresh there: their "
                               "buy-in, no legs, no share of a carried pot); a seat still played is refused with "
                               "seat_taken naming the seat.")
    def post(self, request: Request, game_id: int) -> Response:
        data = GameOpenApi.PlayerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = game_for(request, game_id)
        player_join(game=game.pk, actor=request_user(request), **data.validated_data)
        return Response(game_view(HomeGame.objects.select_related("table").get(pk=game.pk)))


class PlayerChipsApi(APIView):
    class ChipsInputSerializer(StrictInputSerializer):
        amount_cents = WholeCentsField()

    @extend_schema(request=ChipsInputSerializer, responses={200: GAME}, summary="A player adds chips between hands")
    def post(self, request: Request, game_id: int, seat: int) -> Response:
        data = self.ChipsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = game_for(request, game_id)
        player_add_chips(game=game.pk, actor=request_user(request), seat=seat, **data.validated_data)
        return Response(game_view(HomeGame.objects.select_related("table").get(pk=game.pk)))


class PlayerLeaveApi(APIView):
    @extend_schema(request=None, responses={200: GAME}, summary="A player leaves: their stack is cashed out")
    def post(self, request: Request, game_id: int, seat: int) -> Response:
        game = game_for(request, game_id)
        player_leave(game=game.pk, actor=request_user(request), seat=seat)
        return Response(game_view(HomeGame.objects.select_related("table").get(pk=game.pk)))


class HandStartApi(APIView):
    class HandStartInputSerializer(StrictInputSerializer):
        button = WholeNumberField(required=False, allow_null=True, default=None,
                                  help_text="default: one seat to the left of the last button")

    @extend_schema(responses={200: HomeHandListItemSerializer(many=True)}, operation_id="home_hands_list",
                   summary="A game's hands in order, in brief: each hand's id, number, status and how it ended",
                   description="Every hand of the game, first to last: its id (for /hands/{id}/), number, status "
                               "(in_play, settled, voided), phase, button and times, and whether the floor ruled on "
                               "it (awarded the pot) or corrected it. The full state of one hand is GET "
                               "/hands/{id}/.")
    def get(self, request: Request, game_id: int) -> Response:
        return Response(HomeHandListItemSerializer(game_hands(game_for(request, game_id)), many=True).data)

    @extend_schema(request=HandStartInputSerializer, responses={201: HAND},
                   summary="Start the next hand: antes, and on an rng table the deal",
                   description="Takes a time charge due, the antes (a short stack posts what it has) and, on an rng "
                               "table, deals; a shoe or manual table then awaits its cards (the hand's awaiting). "
                               "The button moves one seat to the left of the last unless given. Refused while a hand "
                               "is in play or the game is over (409), with fewer than two players who have chips "
                               "(409 not_enough_players), and for a dealer not assigned to the table (403).")
    def post(self, request: Request, game_id: int) -> Response:
        data = self.HandStartInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # The service finds the game (404), locks it and checks the actor may deal at its table (403).
        hand = hand_start(game=game_id, actor=request_user(request), button=data.validated_data["button"])
        answer = hand_view(hand, hand.game)
        keep_built(hand)
        return Response(answer, status=status.HTTP_201_CREATED)


class HandDetailApi(APIView):
    @extend_schema(parameters=[if_none_match("hand")],
                   responses={200: answer(HAND, "the hand's state and ETag"), 304: NOT_MODIFIED},
                   summary="A hand's state: whose turn, the legal actions with their amounts, pots, the result")
    def get(self, request: Request, hand_id: int) -> Response:
        hand = hand_for(request, hand_id)
        return not_modified_or(request, hand_token(hand), lambda: Response(hand_view(hand, hand.game)))


# The fields each action reads besides `seat`: any other one sent (not null) is refused by name, not ignored while
# the action counts (a call's amount is the rules', so a client sending one is confused about what it recorded).
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "check": (), "call": (), "fold": (), "allin": (), "muck": (), "leave": (),
    "bet": ("amount_cents",), "raise": ("amount_cents",),
    "draw": ("cards", "count", "keeps_ace"), "killed": ("card",), "show": ("cards",),
}


class HandActionApi(APIView):
    class ActionInputSerializer(StrictInputSerializer):
        """One action. Each action takes `seat` and only these fields (another one, not null, is refused 400
        `not_applicable` naming it): check, call, fold, allin, muck, leave: none (a call's and an all-in's amounts
        are the rules'); bet: `amount_cents`, the bet; raise: `amount_cents`, the seat's total for the round; draw:
        `cards`, the discards (rng or shoe table; `[]` stands pat), or on a manual table `count`, how many cards
        (`0` stands pat) with `keeps_ace` above the limit; one with neither is refused 400 `bad_draw`; killed:
        `card`, the kill card (manual); show: `cards`, the five shown (manual); dealt (a manual deal is over): no
        seat and no other field."""

        seat = WholeNumberField(required=False, allow_null=True, default=None,
                                help_text="the seat acting; every action but dealt")
        action = serializers.ChoiceField(choices=["check", "call", "fold", "bet", "raise", "allin", "draw",
                                                  "killed", "show", "muck", "dealt", "leave"])
        amount_cents = WholeCentsField(required=False, allow_null=True,
                                       help_text="bet: the bet; raise: the seat's total for the round")
        cards = serializers.ListField(child=serializers.CharField(max_length=4), required=False, allow_null=True,
                                      max_length=5, help_text="draw on an rng or shoe table: the discards ([] "
                                                              "stands pat); show: the five cards shown")
        count = WholeNumberField(required=False, allow_null=True,
                                 help_text="draw on a manual table: how many cards were exchanged (0 "
                                           "stands pat)")
        keeps_ace = serializers.BooleanField(required=False, allow_null=True,
                                             help_text="draw by count above the limit: the dealer saw an ace kept")
        card = serializers.CharField(required=False, allow_null=True, max_length=4,
                                     help_text="killed: the kill card the seat was dealt (manual)")

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            action = attrs["action"]
            allowed = ACTION_FIELDS.get(action, ())
            given = {name: value for name, value in attrs.items() if value is not None}
            takes = ["action"] if action == "dealt" else ["action", "seat", *allowed]
            for name in given:
                if name not in takes:
                    raise serializers.ValidationError(
                        {name: f"{name} does not apply to the action {action!r} (it takes {', '.join(takes)})"},
                        code="not_applicable")
            if "cards" in given and "count" in given:
                raise serializers.ValidationError(
                    {"cards": "a draw takes cards (rng or shoe table) or count (manual table), not both"},
                    code="not_applicable")
            if "keeps_ace" in given and "count" not in given:
                raise serializers.ValidationError(
                    {"keeps_ace": "keeps_ace does not apply to a draw by cards (only to a manual draw by count)"},
                    code="not_applicable")
            # Null is not sent: the service's own defaults (a draw with neither cards nor count is refused there,
            # where the hand says which of the two it needs).
            return {"seat": attrs.get("seat"), **{k: v for k, v in given.items() if k != "seat"}}

    @extend_schema(request=ActionInputSerializer, responses={200: HAND},
                   summary="Record one action (bet, draw, kill card, hand shown or mucked, end of a manual deal, "
                           "leave)",
                   description="One action of the seat whose turn it is (the hand's awaiting and legal say which "
                               "and with what amounts); the request's description lists the fields each action "
                               "takes, and a field another action takes is refused (400 not_applicable) rather than "
                               "ignored. The answer is the hand's state after it. Refused out of turn or in the wrong "
                               "phase (409), with an amount the rules do not allow now (400 naming amount_cents), on "
                               "a hand that is over (409 hand_over) and for a dealer not assigned to the table (403); "
                               "a refusal records nothing.")
    def post(self, request: Request, hand_id: int) -> Response:
        data = self.ActionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # The service finds the hand (404), locks it and checks the actor may act on its table (403).
        row = hand_act(hand=hand_id, actor=request_user(request), **data.validated_data)
        answer = hand_view(row, row.game)
        keep_built(row)  # only now: the engine hand is not changed while the answer is built from it
        return Response(answer)


class HandCardsApi(APIView):
    class ShowInputSerializer(StrictInputSerializer):
        seat = WholeNumberField()
        cards = serializers.ListField(child=serializers.CharField(max_length=4), min_length=5, max_length=5)

    @extend_schema(request=ShowInputSerializer, responses={200: HAND},
                   summary="A manual table's showdown: the five cards a seat shows",
                   description="At a manual hand's showdown the dealer records each live seat's five cards as the "
                               "player shows them; once every live seat has shown (or mucked) the hand settles and "
                               "the answer carries its result. Refused outside a manual hand's showdown (409) and "
                               "for cards the rules refuse (400: not five cards, a card shown twice).")
    def post(self, request: Request, hand_id: int) -> Response:
        data = self.ShowInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = hand_act(hand=hand_id, actor=request_user(request), action="show", **data.validated_data)
        return Response(hand_view(row, row.game))


class HandMuckApi(APIView):
    class MuckInputSerializer(StrictInputSerializer):
        seat = WholeNumberField()

    @extend_schema(request=MuckInputSerializer, responses={200: HAND},
                   summary="A manual table's showdown: a seat mucks (concedes, hand not shown)",
                   description="Out of the hand like a fold: it loses every pot it was in and its hand is no showdown "
                               "hand. Refused outside a manual hand's showdown (409 wrong_phase), and for a seat that "
                               "has shown (400 already_shown) or under forced play (400 muck_not_allowed); once one "
                               "live seat is left it wins without showing.")
    def post(self, request: Request, hand_id: int) -> Response:
        data = self.MuckInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = hand_act(hand=hand_id, actor=request_user(request), action="muck", **data.validated_data)
        return Response(hand_view(row, row.game))


class HandVoidApi(APIView):
    class VoidInputSerializer(StrictInputSerializer):
        reason = serializers.CharField(max_length=500)

    @extend_schema(request=VoidInputSerializer, responses={200: HAND},
                   summary="Void a hand (floor, with a reason): every chip back to where it was before the hand",
                   description="The floor cancels a hand in play: every chip each seat put in goes back (a time "
                               "charge taken as it started too), the pot carried into it stays in the middle, and "
                               "the button stays for the next hand. The record is kept as it was, marked voided with "
                               "the reason. Refused for a hand already settled or voided (409) and for dealers (403).")
    def post(self, request: Request, hand_id: int) -> Response:
        data = self.VoidInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = hand_void(hand=hand_for(request, hand_id).pk, actor=request_user(request), **data.validated_data)
        return Response(hand_view(row, row.game))


class HandCorrectApi(APIView):
    class CorrectInputSerializer(StrictInputSerializer):
        index = WholeNumberField(min_value=0, help_text="the recorded action to correct (0-based)")
        action = serializers.CharField(max_length=80, allow_blank=True,
                                       help_text='the corrected DESIGN 9 action ("3 call"); blank removes it')
        reason = serializers.CharField(max_length=500)

    @extend_schema(request=CorrectInputSerializer, responses={200: HAND},
                   summary="Correct a recorded action before the pot is awarded (floor, with a reason)",
                   description="Replaces recorded action `index` (0-based, as the hand's actions list it) with the "
                               "corrected DESIGN 9 action, or removes it (blank); the hand is played again from its "
                               "start and the chips follow. The original record is kept and the hand is marked "
                               "corrected. Refused once the hand is over (409), for an index outside the actions or "
                               "one a player's leave follows (400 naming index), and when the corrected actions do "
                               "not replay (400).")
    def post(self, request: Request, hand_id: int) -> Response:
        data = self.CorrectInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = hand_correct(hand=hand_for(request, hand_id).pk, actor=request_user(request), **data.validated_data)
        return Response(hand_view(row, row.game))


class HandCorrectCardApi(APIView):
    class CorrectCardInputSerializer(StrictInputSerializer):
        card = serializers.CharField(max_length=8, help_text="the card as the shoe recorded it (misread)")
        replacement = serializers.CharField(max_length=8, help_text="the card it really is")
        reason = serializers.CharField(max_length=500)

    @extend_schema(request=CorrectCardInputSerializer, responses={200: HAND},
                   summary="Correct a card the shoe misread, before the pot is awarded (floor, with a reason)")
    def post(self, request: Request, hand_id: int) -> Response:
        data = self.CorrectCardInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = hand_correct_card(hand=hand_for(request, hand_id).pk, actor=request_user(request),
                                **data.validated_data)
        return Response(hand_view(row, row.game))


class HandAwardApi(APIView):
    class AwardInputSerializer(StrictInputSerializer):
        seats = serializers.ListField(child=WholeNumberField(), min_length=1, max_length=10, required=False,
                                      help_text="the seats the pot goes to (split evenly, odd chip from the left)")
        amounts = serializers.DictField(child=WholeCentsField(min_value=0), required=False,
                                        help_text="instead of seats, the ruling's exact shares: seat -> cents, "
                                                  "together everything in the middle")
        reason = serializers.CharField(max_length=500)

        def validate_amounts(self, value: dict[str, int]) -> dict[int, int]:
            if not value or not all(str(seat).isdigit() for seat in value):
                raise serializers.ValidationError("give each seat's share: {seat number: cents}")
            return {int(seat): cents for seat, cents in value.items()}

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if not attrs.get("seats") and not attrs.get("amounts"):
                raise serializers.ValidationError({"seats": "give the seats the pot goes to, or amounts"})
            return attrs

    @extend_schema(request=AwardInputSerializer, responses={200: HAND},
                   summary="Award the pot of a hand in play by the floor's ruling, with a reason",
                   description="Ends a hand in play by the floor's ruling: everything in the middle goes to `seats`, "
                               "split evenly with the odd chips to the first from the dealer's left, or as `amounts` "
                               "(seat -> cents, together everything in the middle). No leg is scored; the ruling is "
                               "the last line of the hand's record, so the exported game replays it. Refused for a "
                               "hand that is over (409), for seats without a seated player (400 no_player) and for "
                               "dealers (403).")
    def post(self, request: Request, hand_id: int) -> Response:
        data = self.AwardInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = hand_award(hand=hand_for(request, hand_id).pk, actor=request_user(request), **data.validated_data)
        return Response(hand_view(row, row.game))


class GameExportApi(APIView):
    @extend_schema(responses={200: GameRecordSerializer}, summary="The game record (DESIGN 9) replay_game reads")
    def get(self, request: Request, game_id: int) -> Response:
        return Response(game_record(game_for(request, game_id)))


class GameReplayApi(APIView):
    @extend_schema(responses={200: GameReplaySerializer},
                   summary="The replay verdict: the stored hands recomputed from the record, differences listed")
    def get(self, request: Request, game_id: int) -> Response:
        return Response(game_replay(game_for(request, game_id)))
