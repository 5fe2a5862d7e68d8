"""The audit actions the tables app records (declared once: code, label, exception kind; see audit/actions.py)."""

from __future__ import annotations

from audit.actions import ExceptionKind, declare

# Tables and seats
TABLE_CREATE = declare("table_create", "Table created")
TABLE_UPDATE = declare("table_update", "Table name or card source changed")
TABLE_OPEN = declare("table_open", "Table opened")
TABLE_CLOSE = declare("table_close", "Table closed")
TABLE_UPDATE_LIMITS = declare(
    "table_update_limits", "Table limits changed", exception_kind=ExceptionKind.LIMIT_CHANGE
)
TABLE_SET_PAYTABLE = declare("table_set_paytable", "Table paytable changed")
TABLE_ASSIGN_DEALER = declare("table_assign_dealer", "Dealer assigned")
TABLE_UNASSIGN_DEALER = declare("table_unassign_dealer", "Dealer unassigned")
SEAT_JOIN = declare("seat_join", "Player seated")
SEAT_LEAVE = declare("seat_leave", "Player left the seat")

# Triple Draw rounds
ROUND_START = declare("round_start", "Round started")
BET_PLACE = declare("bet_place", "Bets placed")
BET_CLEAR = declare("bet_clear", "Bets cleared")
ROUND_CLOSE_BETS = declare("round_close_bets", "Bets closed")
CARDS_DEAL = declare("cards_deal", "Cards dealt")
HOLDS_RECORD = declare("holds_record", "Holds recorded")
ROWS_RECORD = declare("rows_record", "Draw rows recorded")
ROUND_SETTLE = declare("round_settle", "Settlement queued")
ROUND_SETTLEMENT = declare("round_settlement", "Round settled")
ROUND_APPROVE_PAYOUT = declare("round_approve_payout", "Payout approved", exception_kind=ExceptionKind.APPROVAL)
ROUND_REFUSE_PAYOUT = declare(
    "round_refuse_payout", "Payout refused (round voided)", exception_kind=ExceptionKind.APPROVAL
)
ROUND_VOID = declare("round_void", "Round voided", exception_kind=ExceptionKind.VOID)
ROUND_VOID_REQUEST = declare("round_void_request", "Void requested", exception_kind=ExceptionKind.VOID)
ROUND_FLOOR_CALL = declare("round_floor_call", "Floor called to the table")
# Either table kind: recorded on the round or home game the call names, beside the call in their timelines
FLOOR_CALL_ANSWER = declare("floor_call_answer", "Floor call answered")

# Card-reading shoes
DEVICE_CREATE = declare("device_create", "Shoe device issued")
DEVICE_REVOKE = declare("device_revoke", "Shoe device revoked")
SHOE_CARDS_RECORD = declare("shoe_cards_record", "Cards read by the shoe")
SHOE_CARDS_REFUSE = declare("shoe_cards_refuse", "Shoe report refused")

# Home-game tables (issue 12): house rules, games, players, hands, the floor's rulings
HOME_CONFIG_SET = declare("home_config_set", "Home-game house rules set")
HOME_GAME_OPEN = declare("home_game_open", "Home game opened (rules announced)")
HOME_GAME_CLOSE = declare("home_game_close", "Home game closed")
HOME_GAME_FINISH = declare("home_game_finish", "Home game won (legs reached)")
HOME_PLAYER_JOIN = declare("home_player_join", "Home-game player bought in")
HOME_PLAYER_ADD_CHIPS = declare("home_player_add_chips", "Home-game player added chips")
HOME_PLAYER_LEAVE = declare("home_player_leave", "Home-game player cashed out")
HOME_HAND_START = declare("home_hand_start", "Home-game hand started (antes)")
HOME_HAND_ACTION = declare("home_hand_action", "Home-game action")
HOME_HAND_CARDS = declare("home_hand_cards", "Home-game cards dealt")
HOME_HAND_SETTLE = declare("home_hand_settle", "Home-game pots awarded")
HOME_HOUSE_CHARGE = declare("home_house_charge", "House charge taken")
HOME_CARRIED_RETURN = declare("home_carried_return", "Carried pot returned")
HOME_HAND_VOID = declare("home_hand_void", "Home-game hand voided", exception_kind=ExceptionKind.VOID)
HOME_HAND_CORRECT = declare("home_hand_correct", "Home-game record corrected", exception_kind=ExceptionKind.CORRECTION)
HOME_POT_RULING = declare("home_pot_ruling", "Pot awarded by ruling", exception_kind=ExceptionKind.OVERRIDE)
HOME_FLOOR_CALL = declare("home_floor_call", "Floor called to a home-game table")
