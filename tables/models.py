"""Tables, seats, rounds, bets, draw rows, outcomes and the ledger (DESIGN 5)."""
