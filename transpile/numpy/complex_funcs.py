"""``jnp`` functions about complex numbers: ``angle``, ``iscomplex``, ``isreal``,
``iscomplexobj``, ``isrealobj`` (``real``/``imag``/``conj`` are ufuncs, ``ufuncs.py``)."""
from __future__ import annotations

import numpy as np

from .. import dtypes, lax
from ..jit import internal_jit as jit
from ._util import aval, check_arraylike, ensure_array
from .ufuncs import const_like, imag, lax_const, real

__all__ = ["angle", "iscomplex", "isreal", "iscomplexobj", "isrealobj"]


def angle(z, deg: bool = False):
    """Counterclockwise angle of each complex number, ``atan2(imag, real)``.

    Parameters
    ----------
    z : array_like
    deg : bool
        Degrees rather than radians.

    Returns
    -------
    Array
        Of the real dtype of ``z`` (the default float for integers, and for a 0-d float
        ``z``, as in JAX).
    """
    check_arraylike("angle", z)
    return _angle_jit(z, deg=bool(deg))


def _angle(z, deg):
    re, im = real(z), imag(z)
    dt = aval(re).dtype
    if not (dtypes.is_float(dt)) or (dtypes.is_float(aval(z).dtype) and not aval(z).shape):
        dt = dtypes.default_float_dtype()
        re = lax.convert_element_type(re, dt)
        im = lax.convert_element_type(im, dt)
    out = lax.atan2(im, re)
    return lax.mul(out, const_like(out, 180 / np.pi)) if deg else out


_angle.__name__ = _angle.__qualname__ = "angle"  # the name JAX's jaxprs show
_angle_jit = jit(_angle, static_argnames=("deg",))


def _imag_test(name: str, lax_fn, what: str):
    def fn(x):
        i = imag(x)
        return lax_fn(i, lax_const(i, 0))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"Elementwise: whether the imaginary part is {what}.\n\nParameters\n"
                  "----------\nx : array_like\n\nReturns\n-------\nArray of bool\n")
    return fn


iscomplex = _imag_test("iscomplex", lax.ne, "nonzero")
isreal = _imag_test("isreal", lax.eq, "zero")


def iscomplexobj(x) -> bool:
    """Whether ``x`` has a complex dtype (whatever its values).

    Parameters
    ----------
    x : object

    Returns
    -------
    bool
    """
    if x is None:
        return False
    dt = getattr(x, "dtype", None)
    if dt is None:
        dt = aval(ensure_array(x)).dtype
    return not dtypes.is_key(dt) and dtypes.is_complex(dt)


def isrealobj(x) -> bool:
    """Whether ``x`` has no complex dtype: ``not iscomplexobj(x)``, which see."""
    return not iscomplexobj(x)
