"""Template tags of the tables app."""
