"""Casino tables: Triple Draw rounds, seats, bets, draw rows, settlement, and home-game table types."""
