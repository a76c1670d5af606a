"""Test-suite settings: compiled libraries go to the repository's build_cache/."""
import os
import pathlib

# Set before transpile is imported by any test module, so every compile in the suite
# shares one cache that survives between runs and stays out of the user's home.
os.environ.setdefault("TRANSPILE_CACHE_DIR",
                      str(pathlib.Path(__file__).resolve().parent.parent / "build_cache"))
# The suite checks what the compiled code computes, so every first call waits for it;
# tests/test_first_call.py switches the NumPy first call (first_call.py) back on.
os.environ.setdefault("TRANSPILE_INTERPRET_FIRST_CALL", "0")
