"""Home-game five-card-draw engines (DESIGN 7): betting, pots, draws, legs and the game record replay."""
