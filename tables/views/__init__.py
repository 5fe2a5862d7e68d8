"""Dealer tablet pages: sign-in and the tables list (common.py), each game's table screen in its own module."""
