"""Tests of the tables app: Triple Draw rounds through services, the API, settlement, commands."""
