"""Stage package: codegen."""
