"""``transpile.scipy.optimize``: JAX 0.10.2's ``jax.scipy.optimize`` (``minimize`` by
BFGS, jit-able: its iterations are a ``lax.while_loop``)."""
from .minimize import OptimizeResults, minimize  # noqa: F401

__all__ = ["minimize", "OptimizeResults"]
