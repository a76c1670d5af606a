"""Stage package: backend."""
