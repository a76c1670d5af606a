"""``transpile.numpy``: the ``jax.numpy`` API, written on ``transpile.lax``.

Importing it installs the array operators and methods on ``Array`` and on every
tracer (see :mod:`transpile.numpy.array_methods`).
"""
from __future__ import annotations

import math as _math

from ..array import Array as ndarray
from ..lax import _base as _lax_base
from ._util import ensure_array as _ensure_array
from . import array_methods as _array_methods  # noqa: F401  (installs the methods)
from .creation import *  # noqa: F401,F403
from .creation import __all__ as _creation_all
from .dtype_api import *  # noqa: F401,F403
from .dtype_api import __all__ as _dtype_all
from .index_funcs import *  # noqa: F401,F403
from .index_funcs import __all__ as _index_all
from ._unique import unique  # noqa: F401
from .array_api import __array_namespace_info__, __array_api_version__, from_dlpack  # noqa: F401
from .linalg_ops import *  # noqa: F401,F403
from .linalg_ops import __all__ as _linalg_all
from . import linalg  # noqa: F401  (jnp.linalg, a namespace of its own as in JAX)
from . import fft  # noqa: F401  (jnp.fft, likewise)
from .reductions import *  # noqa: F401,F403
from .reductions import __all__ as _reductions_all
from .scalar_types import *  # noqa: F401,F403
from .scalar_types import __all__ as _scalar_all
from .selection import *  # noqa: F401,F403
from .selection import __all__ as _selection_all
from .shape_ops import *  # noqa: F401,F403
from .shape_ops import __all__ as _shape_all
from .sorting import *  # noqa: F401,F403
from .sorting import __all__ as _sorting_all
from .ufuncs import *  # noqa: F401,F403
from .ufuncs import __all__ as _ufuncs_all
from .ufuncs_compound import *  # noqa: F401,F403
from .ufuncs_compound import __all__ as _compound_all
from .math_extra import *  # noqa: F401,F403
from .math_extra import __all__ as _math_extra_all
from .nan_reductions import *  # noqa: F401,F403
from .nan_reductions import __all__ as _nan_all
from .statistics import *  # noqa: F401,F403
from .statistics import __all__ as _statistics_all
from .setops import *  # noqa: F401,F403
from .setops import __all__ as _setops_all
from .calculus import *  # noqa: F401,F403
from .calculus import __all__ as _calculus_all
from .histograms import *  # noqa: F401,F403
from .histograms import __all__ as _histograms_all
from .windows import *  # noqa: F401,F403
from .windows import __all__ as _windows_all
from .polynomial import *  # noqa: F401,F403
from .polynomial import __all__ as _polynomial_all
from .einsum_path import *  # noqa: F401,F403
from .einsum_path import __all__ as _einsum_all
from .pad import *  # noqa: F401,F403
from .pad import __all__ as _pad_all
from .convolve import convolve, correlate  # noqa: F401
from .shape_extra import *  # noqa: F401,F403
from .shape_extra import __all__ as _shape_extra_all
from .triangular import *  # noqa: F401,F403
from .triangular import __all__ as _triangular_all
from .index_tricks import *  # noqa: F401,F403
from .index_tricks import __all__ as _index_tricks_all
from .indexing_extra import *  # noqa: F401,F403
from .indexing_extra import __all__ as _indexing_extra_all
from .array_io import *  # noqa: F401,F403
from .array_io import __all__ as _array_io_all
from .vectorize import vectorize  # noqa: F401
from .complex_funcs import *  # noqa: F401,F403
from .complex_funcs import __all__ as _complex_all
from numpy import (floating, inexact, integer, number, signedinteger,  # noqa: F401
                   unsignedinteger, generic)

bool = bool_  # noqa: A001  (jnp.bool is the bool scalar type)
pi = _math.pi
e = _math.e
inf = _math.inf
nan = _math.nan
euler_gamma = 0.5772156649015329
newaxis = None

# What lax and the transformations (below this package) call jnp functions through.
_lax_base.numpy_api.__dict__.update(
    asarray=asarray, concatenate=concatenate, reshape=reshape, stack=stack,  # noqa: F405
    add=add, true_divide=true_divide, ensure_array=_ensure_array)  # noqa: F405
_lax_base.numpy_api.__dict__.update(remainder=remainder, cumsum=cumsum, take=take)  # noqa: F405

_internal = {"check_int_overflow", "fill_scalar", "scalar_types", "concrete_value"}
__all__ = sorted(
    {n for n in (_creation_all + _dtype_all + _index_all + _linalg_all + _reductions_all + _scalar_all
                 + _shape_all + _sorting_all + _ufuncs_all + _compound_all + _selection_all
                 + _math_extra_all + _nan_all + _statistics_all
                 + _setops_all + _calculus_all + _histograms_all
                 + _windows_all + _polynomial_all + _einsum_all
                 + _pad_all + _shape_extra_all + _triangular_all + _index_tricks_all
                 + _indexing_extra_all + _array_io_all + ["vectorize", "convolve", "correlate"]
                 + _complex_all)
     if n not in _internal}
    | {"unique", "ndarray", "bool", "pi", "e", "inf", "nan", "euler_gamma", "newaxis", "floating",
       "inexact", "integer", "number", "signedinteger", "unsignedinteger", "generic",
       "from_dlpack", "__array_namespace_info__", "__array_api_version__"})
