"""Tests of the pure rules engine (casino/engine): cards, hands, showdowns, variants, paytables, Triple Draw."""
