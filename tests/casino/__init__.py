"""Tests of the project wiring: settings, health, Celery, architecture."""
