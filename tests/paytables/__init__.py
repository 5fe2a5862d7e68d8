"""Tests of the paytables app: versions, immutability, services, analysis jobs, admin, API and seeding."""
