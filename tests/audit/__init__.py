"""Tests of the audit trail: append-only storage, the hash chain, context capture, compliance screens and API."""
