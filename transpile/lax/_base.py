"""Shared helpers for defining primitives: shape/dtype checks and rule builders.

Every lax module defines its primitives with these helpers so that one primitive is
one block of code: its abstract-eval rule, its NumPy rule and its printing rule.
"""
from __future__ import annotations

import types

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..errors import jax_array_error
from ..interpreters import ad

__all__ = ["check_dtype", "broadcasting_shape", "FLOAT", "INT", "UINT", "BOOL", "NUMERIC",
           "INTEGRAL", "ANY", "kinds_desc", "aval_of", "set_cost"]

#: The few ``jax.numpy`` functions that helpers below ``transpile.numpy`` are written with
#: (``lax.map``'s batches, ``linalg.symmetrize``'s promotion, ``jacfwd``'s reshapes):
#: ``asarray``, ``concatenate``, ``reshape``, ``stack``, ``add``, ``true_divide``,
#: ``ensure_array``. ``transpile.numpy`` fills it at import (``import transpile`` does).
numpy_api = types.SimpleNamespace()

FLOAT = "f"
INT = "i"
UINT = "u"
BOOL = "b"
INTEGRAL = "iu"
NUMERIC = "iuf"
ANY = "biuf"

_KIND_WORDS = {"f": "floating", "i": "signedinteger", "u": "unsignedinteger", "b": "bool"}


def set_cost(cost: str, *prims: core.Primitive) -> None:
    """Give ``prims`` the ``Primitive.cost`` ``cost`` (one of ``core.Cost.ALL``)."""
    if cost not in core.Cost.ALL:
        raise ValueError(f"unknown cost {cost!r}")
    for p in prims:
        p.cost = cost


def kinds_desc(kinds: str) -> str:
    return ", ".join(_KIND_WORDS[k] for k in kinds)


def check_dtype(name: str, dtype: np.dtype, kinds: str) -> None:
    """Raise JAX's ``TypeError`` if ``dtype`` is not of one of ``kinds``."""
    if dtypes.kind(np.dtype(dtype)) not in kinds:
        raise TypeError(f"{name} does not accept dtype {np.dtype(dtype).name}. Accepted "
                        f"dtypes are subtypes of {kinds_desc(kinds)}.")


def check_same_dtypes(name: str, avals, jnp_name: str | None = None) -> np.dtype:
    dts = [a.dtype for a in avals]
    if any(d != dts[0] for d in dts[1:]):
        tip = "" if jnp_name is None else (
            f" (Tip: jnp.{jnp_name} is a similar function that does automatic type "
            "promotion on inputs).")
        raise TypeError(f"lax.{name} requires arguments to have the same dtypes, got "
                        f"{', '.join(d.name for d in dts)}.{tip}")
    return dts[0]


def broadcasting_shape(name: str, *shapes) -> tuple:
    """Equal ranks with size-1 dimensions broadcasting; rank-0 operands go anywhere."""
    shapes = [s for s in shapes if len(s)]
    if not shapes:
        return ()
    ranks = sorted({len(s) for s in shapes})
    if len(ranks) > 1:
        raise TypeError(f"{name}: arrays must have the same number of dimensions, got "
                        f"{{{', '.join(map(str, ranks))}}}")
    out = []
    for dims in zip(*shapes, strict=True):
        non1 = {d for d in dims if d != 1}
        if len(non1) > 1:
            raise TypeError(f"{name} got incompatible shapes for broadcasting: "
                            f"{', '.join(str(s) for s in shapes)}.")
        out.append(non1.pop() if non1 else 1)
    return tuple(out)


def aval_of(x) -> ShapedArray:
    return core.get_aval(x)


def canonical_dtype(dt) -> np.dtype:
    return dtypes.canonicalize_dtype(dt)


def _as_value(x, name: str | None = None):
    """A leaf argument as JAX takes it: an Array (weakly typed for a Python scalar) or a
    tracer; float0 arrays stay NumPy arrays."""
    if isinstance(x, core.Tracer) or hasattr(x, "_value"):
        return x
    if isinstance(x, np.ndarray) and x.dtype == ad.float0:
        return x
    if hasattr(x, "__jax_array__"):  # jnp.asarray would convert it; JAX refuses it here
        raise jax_array_error()
    if isinstance(x, str) or (isinstance(x, np.ndarray) and x.dtype.kind in "USO"):
        raise TypeError(f"Argument '{x}' of type {type(x)} is not a valid JAX type.")
    return numpy_api.asarray(x)
