"""Arrays from functions, buffers and files, printing, and small predicates: ``copy``,
``fromfunction``, ``frombuffer``, ``fromiter``, ``fromstring``, ``save``, ``savez``,
``load``, ``array_repr``, ``array_str``, the print options, ``isscalar`` and
``iterable``.

Printing and saving go through NumPy (an ``Array`` converts with ``np.asarray``), as in
JAX.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..array import Array
from ..vmapping import vmap
from . import creation
from ._util import check_arraylike

__all__ = ["copy", "fromfunction", "frombuffer", "fromiter", "fromstring", "save", "savez",
           "load", "array_repr", "array_str", "printoptions", "get_printoptions",
           "set_printoptions", "isscalar", "iterable"]

# Straight from NumPy, as in JAX: they convert their argument with np.asarray.
array_repr = np.array_repr
array_str = np.array_str
save = np.save
savez = np.savez
iterable = np.iterable


def get_printoptions():
    """NumPy's print options (they apply to printed arrays)."""
    return np.get_printoptions()


def printoptions(*args, **kwargs):
    """A context manager setting NumPy's print options (see :func:`numpy.printoptions`)."""
    return np.printoptions(*args, **kwargs)


def set_printoptions(*args, **kwargs):
    """Set NumPy's print options (see :func:`numpy.set_printoptions`)."""
    return np.set_printoptions(*args, **kwargs)


def copy(a, order=None):
    """A copy of ``a`` as an array.

    Parameters
    ----------
    a : array_like
    order : str, optional

    Returns
    -------
    Array
    """
    check_arraylike("copy", a)
    return creation.array(a, copy=True, order=order)


def isscalar(element) -> bool:
    """True for a scalar: a Python or NumPy scalar, or a 0-d array.

    Parameters
    ----------
    element : object

    Returns
    -------
    bool
    """
    if np.isscalar(element):
        return True
    if isinstance(element, (np.ndarray, Array, core.Tracer)):
        return element.ndim == 0
    return False


def fromfunction(function, shape, *, dtype=float, **kwargs):
    """``function`` evaluated (through ``vmap``) at every index of ``shape``.

    Parameters
    ----------
    function : callable
        Takes one coordinate per axis (scalars inside the ``vmap``).
    shape : sequence of int
    dtype : dtype
        Of the coordinates.
    **kwargs
        Passed to ``function``.

    Returns
    -------
    Array or pytree of Arrays
    """
    shape = core.canonicalize_shape(shape)
    nd = len(shape)
    for i in range(nd):
        in_axes = [0 if i == j else None for j in range(nd)]
        function = vmap(function, in_axes=tuple(in_axes[::-1]))
    return function(*(creation.arange(s, dtype=dtype) for s in shape), **kwargs)


def frombuffer(buffer, dtype=float, count: int = -1, offset: int = 0):
    """An array of the bytes of ``buffer`` read as ``dtype`` (see :func:`numpy.frombuffer`).

    Returns
    -------
    Array
    """
    return creation.asarray(np.frombuffer(buffer=buffer, dtype=dtype, count=count, offset=offset))


def fromiter(*args, **kwargs):
    """Not implemented: consuming an iterator is a side effect (JAX refuses it too)."""
    raise NotImplementedError(
        "jnp.fromiter() is not implemented because it may be non-pure and thus unsafe for use "
        "with JIT and other JAX transformations. Consider using jnp.asarray(np.fromiter(...)) "
        "instead, although care should be taken if np.fromiter is used within a jax "
        "transformations because of its potential side-effect of consuming the iterable "
        "object; for more information see "
        "https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions")


def fromstring(string: str, dtype=float, count: int = -1, *, sep: str):
    """An array of the numbers in the text ``string`` separated by ``sep``.

    Returns
    -------
    Array
    """
    return creation.asarray(np.fromstring(string, dtype=dtype, count=count, sep=sep))


def load(file, *args, **kwargs):
    """Read a ``.npy`` file as an Array (``.npz`` archives come back as NumPy's ``NpzFile``).

    Parameters
    ----------
    file : file-like or path
    *args, **kwargs
        Passed to :func:`numpy.load`.

    Returns
    -------
    Array or numpy.lib.npyio.NpzFile
    """
    out = np.load(file, *args, **kwargs)
    if isinstance(out, np.ndarray):
        if out.dtype == np.dtype("V2"):
            # np.save writes bfloat16 (an extension dtype) as two raw bytes: read back
            # as bfloat16, as JAX does
            out = out.view(dtypes.bfloat16)
        return creation.asarray(out)
    return out
