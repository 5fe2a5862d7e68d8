"""Admin screens of the tables app; every write goes through a service."""
