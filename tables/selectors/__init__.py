"""Reads of tables and rounds: the tables visible to a user, the one round read model, records and replays."""
