"""``jnp`` functions about complex numbers: ``angle``, ``iscomplex`` (``real``/``imag``/
``conj`` are ufuncs, ``ufuncs.py``; ``isreal``/``iscomplexobj``/``isrealobj`` are in
``math_extra.py``)."""
from __future__ import annotations

import numpy as np

from .. import dtypes, lax
from ..jit import internal_jit as jit
from ._util import aval, check_arraylike
from .ufuncs import const_like, imag, lax_const, real

__all__ = ["angle", "iscomplex"]


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


def iscomplex(x):
    """Elementwise: whether the imaginary part is nonzero (never, for real dtypes).

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array of bool
    """
    return _iscomplex_jit(x)


def _iscomplex(x):
    i = imag(x)
    return lax.ne(i, lax_const(i, 0))


_iscomplex.__name__ = _iscomplex.__qualname__ = "iscomplex"
_iscomplex_jit = jit(_iscomplex)
