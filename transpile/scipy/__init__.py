"""``jax.scipy``: SciPy's API on transpile arrays (``special``)."""
from . import special, stats  # noqa: F401

__all__ = ["special", "stats"]
