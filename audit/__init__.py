"""Append-only, tamper-evident audit trail and the compliance views that read it."""
