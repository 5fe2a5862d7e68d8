"""REST API of the tables app (DESIGN 9): thin views that parse, call one service or selector and answer JSON."""
