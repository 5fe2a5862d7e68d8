"""Admin screens of the paytables app; every write goes through a service."""
