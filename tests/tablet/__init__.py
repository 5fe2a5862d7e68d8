"""Tests of the dealer tablet: views through Django's client, and whole rounds by touch in Debian's Chromium."""
