"""Tests of the pure rules engine (casino/engine)."""
