"""The typed shapes of the home-game API's answers (OpenAPI): house rules, game and hand states, records, replays.

The read model (tables/selectors/home.py) builds each answer; these serializers describe it for the schema.
"""

from __future__ import annotations

from rest_framework import serializers

from tables.apis.inputs import StrictInputSerializer, WholeCentsField, WholeNumberField
from tables.models import CardSource

# ----- house rules -----


class HomeConfigSerializer(serializers.Serializer):  # type: ignore[type-arg]
    table_id = serializers.IntegerField()
    table_type = serializers.CharField()
    card_source = serializers.CharField()
    rules = serializers.DictField(help_text="the announced options of DESIGN 7, by code, defaults filled in")
    announcement = serializers.ListField(child=serializers.CharField(), help_text="the rules in words")
    buy_in_min_cents = serializers.IntegerField()
    buy_in_max_cents = serializers.IntegerField()
    charge = serializers.ChoiceField(choices=["none", "rake", "time"])
    rake_basis_points = serializers.IntegerField(help_text="the rake in 1/100 of a percent: 500 is 5%")
    rake_cap_cents = serializers.IntegerField()
    time_charge_cents = serializers.IntegerField(help_text="per seat per half hour")


class HomeConfigInputSerializer(StrictInputSerializer):
    """The house rules to set. A field they do not have (say min_bet_cents beside `rules` instead of in it) is
    refused, not dropped: the floor would think it set."""

    rules = serializers.DictField(required=False, help_text="announced options (DESIGN 7); POST replaces them")
    card_source = serializers.ChoiceField(choices=CardSource.choices, required=False)
    buy_in_min_cents = WholeCentsField(required=False, min_value=0)
    buy_in_max_cents = WholeCentsField(required=False, min_value=0)
    charge = serializers.ChoiceField(choices=["none", "rake", "time"], required=False)
    rake_basis_points = WholeNumberField(required=False, min_value=0)
    rake_cap_cents = WholeCentsField(required=False, min_value=0)
    time_charge_cents = WholeCentsField(required=False, min_value=0)


# ----- games -----


class HomePlayerSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField(help_text="this person's id in the game (a seat taken again has one per person)")
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    player_card = serializers.CharField(allow_blank=True)
    stack_cents = serializers.IntegerField()
    bought_in_cents = serializers.IntegerField()
    cashed_out_cents = serializers.IntegerField()
    legs = serializers.IntegerField()
    active = serializers.BooleanField(help_text="seated; false: left the game (cashed out)")
    joined_at = serializers.DateTimeField(help_text="when this player sat down (a seat taken again: each in turn)")
    left_at = serializers.DateTimeField(allow_null=True, help_text="when they left (cashed out); null while seated")


class HomeHandRefSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    phase = serializers.CharField()
    status = serializers.CharField(required=False)


class HomeGameStateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    table_name = serializers.CharField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["open", "finished", "closed"])
    variant = serializers.CharField()
    card_source = serializers.CharField()
    rules = serializers.DictField()
    announcement = serializers.ListField(child=serializers.CharField())
    buy_in_min_cents = serializers.IntegerField()
    buy_in_max_cents = serializers.IntegerField()
    charge = serializers.CharField()
    rake_basis_points = serializers.IntegerField()
    rake_cap_cents = serializers.IntegerField()
    time_charge_cents = serializers.IntegerField()
    pot_cents = serializers.IntegerField(help_text="chips in the middle: a carried pot and the hand in play")
    house_cents = serializers.IntegerField()
    buy_ins_cents = serializers.IntegerField()
    cash_outs_cents = serializers.IntegerField()
    legs_to_win = serializers.IntegerField(allow_null=True)
    winners = serializers.ListField(child=serializers.IntegerField())
    players = HomePlayerSerializer(
        many=True, help_text="every player of the game by seat; a seat taken again after its player left lists each "
                             "of its players in the order they sat down (the last is the seat's player)")
    current_hand = HomeHandRefSerializer(allow_null=True)
    last_hand = HomeHandRefSerializer(allow_null=True)
    version = serializers.IntegerField()
    opened_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    end_reason = serializers.CharField(allow_blank=True)


# ----- hands -----


class AmountRangeSerializer(serializers.Serializer):  # type: ignore[type-arg]
    minimum_cents = serializers.IntegerField()
    maximum_cents = serializers.IntegerField()


class LegalActionsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """What the seat to act may do now, with the amounts. Two kinds of amount: the chips an action puts in now
    (`call_cents`, a bet) and the seat's total for the betting round after it (a raise, `all_in_cents`); the
    chips going all in puts in now are `all_in_cents - in_round_cents`."""

    seat = serializers.IntegerField()
    actions = serializers.ListField(child=serializers.CharField(), help_text="fold, check, call, bet, raise, allin")
    call_cents = serializers.IntegerField(allow_null=True, help_text="the chips a call puts in now (null: no call)")
    bet = AmountRangeSerializer(allow_null=True, help_text="a bet's amount: the chips it puts in now")
    # "raise" is a Python keyword: the field is declared under another name and renamed below.
    raise_ = AmountRangeSerializer(allow_null=True, help_text="a raise is the seat's total for the round")
    all_in_cents = serializers.IntegerField(
        allow_null=True, help_text="the seat's total for the round after going all in (a round total, not the "
                                   "chips it puts in now: those are all_in_cents - in_round_cents)")
    pot_cents = serializers.IntegerField(
        allow_null=True, help_text="the pot-size bet or raise total (pot limit: the largest allowed; no limit: a "
                                   "suggestion); null when the pot size is not itself an amount the seat may choose")
    in_round_cents = serializers.IntegerField(help_text="what the seat has put in this betting round so far")


LegalActionsSerializer._declared_fields["raise"] = LegalActionsSerializer._declared_fields.pop("raise_")


class DrawChoiceSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    draw = serializers.IntegerField()
    draws = serializers.IntegerField()
    minimum = serializers.IntegerField()
    maximum = serializers.IntegerField()
    maximum_keeping_ace = serializers.IntegerField()
    mandatory = serializers.BooleanField()
    text = serializers.CharField()


class CardProgressSerializer(serializers.Serializer):  # type: ignore[type-arg]
    received = serializers.IntegerField(help_text="cards given so far")
    of = serializers.IntegerField(help_text="cards the deal, or the draw's replacements, give in all")


class AwaitingSerializer(serializers.Serializer):  # type: ignore[type-arg]
    kind = serializers.ChoiceField(choices=["deal", "card", "action", "draw", "reshuffle", "show", "nothing"])
    seat = serializers.IntegerField(allow_null=True)
    count = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.IntegerField())
    text = serializers.CharField()


class PotSerializer(serializers.Serializer):  # type: ignore[type-arg]
    amount_cents = serializers.IntegerField()
    eligible = serializers.ListField(child=serializers.IntegerField())


class HandPlayerSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    stack_cents = serializers.IntegerField(help_text="a settled hand: after the rake the house took")
    in_pot_cents = serializers.IntegerField()
    folded = serializers.BooleanField()
    mucked = serializers.BooleanField(help_text="a manual hand: conceded at the showdown without showing (folded too)")
    dead = serializers.BooleanField()
    left = serializers.BooleanField()
    live = serializers.BooleanField()
    cards = serializers.ListField(child=serializers.CharField(), help_text="a manual hand: the cards shown")


class PotWonSerializer(serializers.Serializer):  # type: ignore[type-arg]
    amount_cents = serializers.IntegerField()
    winners = serializers.ListField(child=serializers.IntegerField())


class HandSummarySerializer(serializers.Serializer):  # type: ignore[type-arg]
    """One hand as `replay_game` prints it (DESIGN 9)."""

    wild_rank = serializers.CharField(allow_null=True)
    dead = serializers.ListField(child=serializers.IntegerField())
    pots = PotWonSerializer(many=True)
    legs = serializers.DictField(child=serializers.IntegerField())


class PotResultSerializer(PotWonSerializer):
    text = serializers.CharField()


class HandResultSerializer(serializers.Serializer):  # type: ignore[type-arg]
    headline = serializers.CharField(help_text='e.g. "Fives wild: four nines beat three queens"')
    lines = serializers.ListField(child=serializers.CharField())
    wild_rank = serializers.CharField(allow_null=True)
    hands = serializers.DictField(child=serializers.DictField())
    dead = serializers.ListField(child=serializers.IntegerField())
    pots = PotResultSerializer(many=True)
    legs = serializers.DictField(child=serializers.IntegerField())
    leg_scorers = serializers.ListField(child=serializers.IntegerField())
    game_winners = serializers.ListField(child=serializers.IntegerField())
    carried_pot_cents = serializers.IntegerField()


class HouseTakenSerializer(serializers.Serializer):  # type: ignore[type-arg]
    total_cents = serializers.IntegerField()
    by_seat = serializers.DictField(child=serializers.IntegerField(), help_text="cents taken from each seat")
    line = serializers.CharField(help_text='e.g. "Time charge $5.00 from each of seats 1, 2 and 3"')


class HandHouseSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """What the house took for this hand, from the ledger."""

    time_charge = HouseTakenSerializer(allow_null=True, help_text="taken from each seat as the hand started")
    rake = HouseTakenSerializer(allow_null=True, help_text="a settled hand: taken from the winners")


class HomeHandStateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    game_id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["in_play", "settled", "voided"])
    phase = serializers.CharField()
    button = serializers.IntegerField()
    manual = serializers.BooleanField()
    version = serializers.IntegerField()
    pot_cents = serializers.IntegerField()
    carried_in_cents = serializers.IntegerField()
    pots = PotSerializer(many=True)
    players = HandPlayerSerializer(many=True)
    awaiting = AwaitingSerializer()
    card_progress = CardProgressSerializer(
        allow_null=True, help_text="the deal, or a draw's replacements, as far as they came (\"3 of 25 cards\"); "
                                   "null when no card is due or the hand is over")
    legal = LegalActionsSerializer(allow_null=True)
    draw = DrawChoiceSerializer(allow_null=True)
    actions = serializers.ListField(child=serializers.CharField())
    result = HandResultSerializer(allow_null=True, help_text="a settled hand: the lines end with the rake taken")
    house = HandHouseSerializer()
    summary = HandSummarySerializer(allow_null=True)
    ruling = serializers.DictField(allow_null=True)
    void_reason = serializers.CharField(allow_blank=True)
    corrected = serializers.BooleanField()


class HomeHandListItemSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField(help_text="the hand's id, for /hands/{id}/")
    number = serializers.IntegerField(help_text="the hand's number in its game")
    status = serializers.ChoiceField(choices=["in_play", "settled", "voided"])
    phase = serializers.CharField()
    button = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True, help_text="settled or voided; null while in play")
    void_reason = serializers.CharField(allow_blank=True)
    ruled = serializers.BooleanField(help_text="the pot was awarded by the floor's ruling")
    corrected = serializers.BooleanField(help_text="the floor corrected a recorded action")


# ----- records and replays -----


class GameRecordPlayerSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    stack_cents = serializers.IntegerField()


class GameRecordHandSerializer(serializers.Serializer):  # type: ignore[type-arg]
    button = serializers.IntegerField()
    manual = serializers.BooleanField(required=False)
    deck = serializers.ListField(child=serializers.CharField(), required=False)
    reshuffles = serializers.ListField(child=serializers.ListField(child=serializers.CharField()), required=False)
    dealt = serializers.IntegerField(required=False, help_text="a hand in play: cards dealt so far")
    actions = serializers.ListField(child=serializers.CharField())
    after = serializers.DictField(required=False, help_text="joins and chips between this hand and the next")


class GameRecordSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """The DESIGN 9 game record that `replay_game` reads."""

    variant = serializers.CharField()
    rules = serializers.DictField()
    players = GameRecordPlayerSerializer(many=True)
    hands = GameRecordHandSerializer(many=True)
    before = serializers.DictField(required=False, help_text=(
        "before the first hand: {\"house\": {seat: cents}} the house's charges (a time charge), \"leave\": [seat] "
        "players who left, \"joins\": [{seat, name, stack_cents, leave?}] who sat down at their seats, in order "
        "(\"leave\": true: got up again before it)"))
    house = serializers.DictField(required=False, help_text="the table's charge the game was played under")
    close = serializers.CharField(required=False, help_text="the floor's close: \"floor close -- <reason>\" or "
                                                            "\"floor close award <seat> -- <reason>\"")


class GameOutcomeSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """What `replay_game --json` prints."""

    hands = HandSummarySerializer(many=True)
    stacks = serializers.DictField(child=serializers.IntegerField())
    carried_pot_cents = serializers.IntegerField()
    game_winner = serializers.IntegerField(allow_null=True)
    game_winners = serializers.ListField(child=serializers.IntegerField())
    earlier = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text="players who left a seat someone else then took: [{seat, occupant (1 = the seat's first player), "
                  "stack_cents (what they went home with)}]; `stacks` is each seat's last player")
    close = serializers.DictField(required=False, help_text="the floor's close: reason, award_seat, "
                                                            "carried_pot_cents, paid {seat: cents}, and paid_earlier "
                                                            "[{seat, occupant, cents}] for players who left a seat "
                                                            "someone else then took")


class GameReplaySerializer(serializers.Serializer):  # type: ignore[type-arg]
    ok = serializers.BooleanField()
    differences = serializers.ListField(child=serializers.CharField())
    replay = GameOutcomeSerializer(allow_null=True)
    note = serializers.CharField(required=False)
