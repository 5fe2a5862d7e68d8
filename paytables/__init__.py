"""Versioned, configurable paytables and their exact theoretical analysis."""
