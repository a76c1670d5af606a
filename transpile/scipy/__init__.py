"""``transpile.scipy``: JAX's ``jax.scipy`` subpackages."""
from . import integrate, linalg, optimize  # noqa: F401
