"""Stage package: passes."""
