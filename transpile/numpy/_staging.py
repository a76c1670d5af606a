"""Staging library functions as named ``jit`` equations, as ``jax.numpy`` does.

JAX wraps most ``jnp`` functions in ``jax.jit`` (``jit[name=nansum]``, ...), so their
jaxprs nest one equation per call; :func:`staged` does the same for a body taking
the array operands positionally and its configuration as static keywords.
"""
from __future__ import annotations

from ..jit import internal_jit as jit

__all__ = ["staged", "hashable_axis"]

_JITS: dict = {}


def staged(name: str, body, arrays: tuple, **static):
    """``body(*arrays, **static)`` through a ``jit`` named ``name`` (one per name), the
    keywords static (hashable)."""
    f = _JITS.get(name)
    if f is None:
        def run(arrays, **kw):
            return body(*arrays, **kw)
        run.__name__ = name
        f = _JITS[name] = jit(run, static_argnames=tuple(static))
    return f(arrays, **static)


def hashable_axis(axis):
    """``axis`` with a list made a tuple (a static argument must hash)."""
    return tuple(axis) if isinstance(axis, list) else axis
