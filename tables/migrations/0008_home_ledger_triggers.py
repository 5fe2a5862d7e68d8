"""PostgreSQL: the home-game ledger checked by the database at commit (deferred constraint triggers).

- every posting's legs sum to zero;
- for the game a change touches, Σ stacks + pot + house = Σ buy-ins − Σ cash-outs, and each account's postings add
  up to the figures on the rows (the stack postings to the players' stacks, the pot's to the pot, the house's to the
  house, the cashier's to minus buy-ins net of cash-outs). It runs when the game's row or a player's row changes:
  every home-game write locks its game and raises its version (an UPDATE of the game row), so every transaction that
  posts to the ledger is checked once at commit without a check per ledger row;
- ledger entries are append-only.
On SQLite the services check the same sums before they commit (tables/services/home_ledger.py).
"""

from typing import Any

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION tables_home_posting_balanced() RETURNS trigger AS $$
DECLARE total bigint;
BEGIN
    SELECT COALESCE(SUM(amount_cents), 0) INTO total FROM tables_homeledgerentry WHERE posting = NEW.posting;
    IF total <> 0 THEN
        RAISE EXCEPTION 'home ledger posting % does not sum to zero (%)', NEW.posting, total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER tables_home_posting_balanced
    AFTER INSERT ON tables_homeledgerentry DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION tables_home_posting_balanced();

CREATE OR REPLACE FUNCTION tables_home_game_balanced(gid bigint) RETURNS void AS $$
DECLARE g record; stacks bigint; led_stack bigint; led_pot bigint; led_house bigint; led_cashier bigint;
BEGIN
    SELECT pot_cents, house_cents, buy_ins_cents, cash_outs_cents INTO g FROM tables_homegame WHERE id = gid;
    IF NOT FOUND THEN RETURN; END IF;
    SELECT COALESCE(SUM(stack_cents), 0) INTO stacks FROM tables_homegameplayer WHERE game_id = gid;
    IF stacks + g.pot_cents + g.house_cents <> g.buy_ins_cents - g.cash_outs_cents THEN
        RAISE EXCEPTION 'home game %: stacks % + pot % + house % <> buy-ins % - cash-outs %',
            gid, stacks, g.pot_cents, g.house_cents, g.buy_ins_cents, g.cash_outs_cents
            USING ERRCODE = 'check_violation';
    END IF;
    SELECT COALESCE(SUM(amount_cents) FILTER (WHERE account = 'stack'), 0),
           COALESCE(SUM(amount_cents) FILTER (WHERE account = 'pot'), 0),
           COALESCE(SUM(amount_cents) FILTER (WHERE account = 'house'), 0),
           COALESCE(SUM(amount_cents) FILTER (WHERE account = 'cashier'), 0)
      INTO led_stack, led_pot, led_house, led_cashier FROM tables_homeledgerentry WHERE game_id = gid;
    IF led_stack <> stacks OR led_pot <> g.pot_cents OR led_house <> g.house_cents
       OR -led_cashier <> g.buy_ins_cents - g.cash_outs_cents THEN
        RAISE EXCEPTION 'home game %: the ledger (stacks %, pot %, house %, cashier %) disagrees with the game',
            gid, led_stack, led_pot, led_house, led_cashier USING ERRCODE = 'check_violation';
    END IF;
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION tables_home_game_row_balanced() RETURNS trigger AS $$
BEGIN
    PERFORM tables_home_game_balanced(NEW.id);
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER tables_home_game_balanced
    AFTER INSERT OR UPDATE ON tables_homegame DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION tables_home_game_row_balanced();

CREATE OR REPLACE FUNCTION tables_home_child_balanced() RETURNS trigger AS $$
BEGIN
    PERFORM tables_home_game_balanced(NEW.game_id);
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER tables_home_player_balanced
    AFTER INSERT OR UPDATE ON tables_homegameplayer DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION tables_home_child_balanced();

CREATE OR REPLACE FUNCTION tables_home_ledger_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'home ledger entries are append-only' USING ERRCODE = 'insufficient_privilege';
END $$ LANGUAGE plpgsql;
CREATE TRIGGER tables_home_ledger_append_only BEFORE UPDATE OR DELETE ON tables_homeledgerentry
    FOR EACH ROW EXECUTE FUNCTION tables_home_ledger_append_only();
"""
DROP = """
DROP TRIGGER IF EXISTS tables_home_ledger_append_only ON tables_homeledgerentry;
DROP FUNCTION IF EXISTS tables_home_ledger_append_only();
DROP TRIGGER IF EXISTS tables_home_player_balanced ON tables_homegameplayer;
DROP FUNCTION IF EXISTS tables_home_child_balanced();
DROP TRIGGER IF EXISTS tables_home_game_balanced ON tables_homegame;
DROP FUNCTION IF EXISTS tables_home_game_row_balanced();
DROP FUNCTION IF EXISTS tables_home_game_balanced(bigint);
DROP TRIGGER IF EXISTS tables_home_posting_balanced ON tables_homeledgerentry;
DROP FUNCTION IF EXISTS tables_home_posting_balanced();
"""


def forwards(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def backwards(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("tables", "0007_home_games")]

    operations = [migrations.RunPython(forwards, backwards)]
