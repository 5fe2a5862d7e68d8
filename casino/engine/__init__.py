"""Pure rules core: cards, hands, paytables, games. Standard library (and numpy for bulk work) only."""
