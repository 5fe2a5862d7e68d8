"""What each game's tablet screen shows, shaped for its templates from the one read model in selectors."""
