"""Signals of the audit services, so what follows them is connected in audit.apps instead of imported."""

from __future__ import annotations

from django.dispatch import Signal

# Sent once after each transaction that recorded audit events has committed; the sealing job is connected to it.
events_committed = Signal()
# Sent after a compliance user's verification request commits (token=...); the verification job is connected to it.
verification_requested = Signal()
