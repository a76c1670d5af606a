"""``jax.scipy``: SciPy's API on transpile arrays (``special``)."""
from . import special  # noqa: F401

__all__ = ["special"]
