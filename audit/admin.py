"""Admin screens of the audit app; every write goes through a service."""
