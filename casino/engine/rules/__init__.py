"""The announced rules of a game (DESIGN 7 table): the options, the one rules model, and the rules in words."""
