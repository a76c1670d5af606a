"""The complex-number primitives ``real``, ``imag``, ``conj`` and ``complex``, with all
their rules (abstract eval, NumPy, JVP, transpose, batching).

They follow JAX 0.10.2: ``real``/``imag`` take a complex operand and give its parts' float
dtype; ``complex`` builds complex64 from float32 parts (complex128 from float64); ``conj``
takes a float or complex operand and gives a complex result, recording the operand's
dtype as ``input_dtype`` so that its transpose can return a real cotangent for a real
operand. All four are linear; their transposes are JAX's:
``real^T(t) = complex(t, 0)``, ``imag^T(t) = complex(0, -t)``, ``conj^T(t) = conj(t)``
(``real(t)`` for a real operand) and ``complex^T(t) = (real(t), imag(-t))``.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..interpreters import ad
from ..interpreters.batching import defbroadcasting, defvectorized
from . import elementwise as ew
from ._base import broadcasting_shape, check_same_dtypes, set_cost

__all__ = ["real", "imag", "conj", "complex", "real_p", "imag_p", "conj_p", "complex_p"]


def _check(name: str, dtype, kinds: str, accepted: str) -> None:
    if dtypes.is_key(dtype) or dtypes.kind(dtype) not in kinds:
        raise TypeError(f"{name} does not accept dtype {dtypes.dtype_name(dtype)}. Accepted "
                        f"dtypes are subtypes of {accepted}.")


real_p = core.new_primitive("real")
imag_p = core.new_primitive("imag")
conj_p = core.new_primitive("conj")
complex_p = core.new_primitive("complex")
set_cost(core.Cost.FREE, real_p, imag_p, conj_p)


def _part_abstract(name):
    def abstract(x):
        _check(name, x.dtype, "c", "complexfloating")
        return ShapedArray(x.shape, dtypes.real_dtype(x.dtype), x.weak_type)
    return abstract


real_p.def_abstract_eval(_part_abstract("real"))
imag_p.def_abstract_eval(_part_abstract("imag"))
real_p.def_impl(lambda x: np.real(x).copy())
imag_p.def_impl(lambda x: np.imag(x).copy())


@conj_p.def_abstract_eval
def _conj_abstract(x, *, input_dtype):
    if dtypes.is_key(x.dtype) or not (dtypes.is_complex(x.dtype)
                                      or x.dtype in dtypes.COMPLEX_OF):
        raise TypeError(f"conj does not accept dtype {dtypes.dtype_name(x.dtype)}. Accepted "
                        "dtypes are subtypes of float32, float64, complexfloating.")
    out = x.dtype if dtypes.is_complex(x.dtype) else dtypes.COMPLEX_OF[x.dtype]
    return ShapedArray(x.shape, out, x.weak_type)


@conj_p.def_impl
def _conj_impl(x, *, input_dtype):
    out = x.dtype if dtypes.is_complex(x.dtype) else dtypes.COMPLEX_OF[x.dtype]
    return np.conj(x).astype(out, copy=False)





@complex_p.def_abstract_eval
def _complex_abstract(x, y):
    shape = broadcasting_shape("complex", x.shape, y.shape)
    for i, a in enumerate((x, y)):
        if a.dtype not in dtypes.COMPLEX_OF:
            raise TypeError(f"complex does not accept dtype {dtypes.dtype_name(a.dtype)} at "
                            f"position {i}. Accepted dtypes at position {i} are subtypes of "
                            "float32, float64.")
    dt = check_same_dtypes("complex", (x, y))
    return ShapedArray(shape, dtypes.COMPLEX_OF[dt], x.weak_type and y.weak_type)


@complex_p.def_impl
def _complex_impl(x, y):
    out = np.empty(np.broadcast_shapes(x.shape, y.shape), dtypes.COMPLEX_OF[x.dtype])
    out.real, out.imag = x, y
    return out


# ---------------------------------------------------------------------------------------
# The lax API

def real(x):
    """Elementwise real part of a complex array (a float array)."""
    return real_p.bind(x)


def imag(x):
    """Elementwise imaginary part of a complex array (a float array)."""
    return imag_p.bind(x)


def conj(x):
    """Elementwise complex conjugate; a float32/float64 operand gives a complex result."""
    return conj_p.bind(x, input_dtype=core.get_aval(x).dtype)


def complex(x, y):  # noqa: A001  (JAX's name)
    """Elementwise ``x + y * 1j`` from float32 (or float64) parts of one dtype."""
    return complex_p.bind(x, y)


# ---------------------------------------------------------------------------------------
# Differentiation (all four are linear) and batching

def _zeros_of(t):
    aval = core.get_aval(t)
    return np.zeros((), aval.dtype)


ad.deflinear2(real_p, lambda t, x: [complex(t, _zeros_of(t))])
ad.deflinear2(imag_p, lambda t, x: [complex(_zeros_of(t), ew.neg(t))])
ad.deflinear2(complex_p, lambda t, x, y: [real(t), imag(ew.neg(t))])


def _conj_transpose(t, x, *, input_dtype):
    if dtypes.is_complex(input_dtype):
        return [conj(t)]
    return [real(t)]


ad.deflinear2(conj_p, _conj_transpose)

for _p in (real_p, imag_p, conj_p):
    defvectorized(_p)
defbroadcasting(complex_p)
