"""``transpile.scipy``: JAX's ``jax.scipy`` subpackages on transpile arrays."""
from . import integrate, linalg, optimize, special, stats  # noqa: F401

__all__ = ["integrate", "linalg", "optimize", "special", "stats"]
