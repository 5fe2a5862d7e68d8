"""Test suite, mirroring the source tree."""
