"""``Array``: an immutable array in host memory, the value every transpile op returns.

Operators and methods (``+``, ``.sum()``, ``.at[]``, indexing, ...) are installed by
``transpile.numpy`` so that ``Array`` and tracers share one implementation.
"""
from __future__ import annotations

import numpy as np

from . import core, dtypes
from .core import ShapedArray, _IMMUTABLE_MSG
from .devices import CpuDevice

__all__ = ["Array"]


class Array:
    """An immutable n-dimensional array (``jax.Array``).

    Create one with ``transpile.numpy.asarray``/``array`` or any transpile operation.
    ``np.asarray(a)`` returns a read-only view without copying.
    """

    # _ptr caches the cffi pointer to the data once a compiled function has read it;
    # _sharding, set only on placed arrays (sharding/shards.py), is read with getattr.
    __slots__ = ("_value", "_weak_type", "_ptr", "_sharding", "__weakref__")
    __array_priority__ = 100

    @classmethod
    def _new(cls, value: np.ndarray, weak_type: bool = False) -> "Array":
        self = object.__new__(cls)
        if value.flags.writeable:
            value.flags.writeable = False
        self._value = value
        self._weak_type = bool(weak_type)
        self._ptr = None
        return self

    def __init__(self, *args, **kwargs):
        raise TypeError("Array cannot be constructed directly; use transpile.numpy.asarray")

    # --- abstract value ---------------------------------------------------------------
    @property
    def aval(self) -> ShapedArray:
        v = self._value
        return ShapedArray._trusted(v.shape, v.dtype, self._weak_type)

    @property
    def shape(self) -> tuple:
        return self._value.shape

    @property
    def dtype(self) -> np.dtype:
        d = self._value.dtype
        return d if d.names is None else dtypes.public_dtype(d)

    @property
    def ndim(self) -> int:
        return self._value.ndim

    @property
    def size(self) -> int:
        return self._value.size

    @property
    def weak_type(self) -> bool:
        return self._weak_type

    @property
    def itemsize(self) -> int:
        return self._value.itemsize

    @property
    def nbytes(self) -> int:
        return self._value.nbytes

    # --- conversion -------------------------------------------------------------------
    def _host_value(self) -> np.ndarray:
        """The buffer, for a conversion to NumPy or Python: refused for an array some of
        whose blocks live only in other processes (this process's buffer holds zeros
        there); a replicated one is whole in every process."""
        s = getattr(self, "_sharding", None)
        if s is not None and not s.is_fully_addressable and not s.is_fully_replicated:
            raise RuntimeError(
                "Fetching value for `jax.Array` that spans non-addressable (non process "
                "local) devices is not possible. You can use "
                "`jax.experimental.multihost_utils.process_allgather` to print the global "
                "array or use `.addressable_shards` method of jax.Array to inspect the "
                "addressable (process local) shards.")
        return self._value

    def __array__(self, dtype=None, copy=None):
        if getattr(self, "_sharding", None) is not None:
            self._host_value()
        if dtypes.is_key(self._value.dtype):
            raise TypeError("JAX array with PRNGKey dtype cannot be converted to a NumPy "
                            "array. Use jax.random.key_data(arr) if you wish to extract the "
                            "underlying integer array.")
        if copy:
            return np.array(self._value, dtype=dtype, copy=True)
        if dtype is None or np.dtype(dtype) == self._value.dtype:
            v = self._value
            if v.flags.writeable:  # compiled results are frozen only when seen
                v.flags.writeable = False
            return v
        return self._value.astype(dtype)

    def __bool__(self):
        return bool(self._host_value())

    def __int__(self):
        return int(self._host_value())

    def __float__(self):
        return float(self._host_value())

    def __complex__(self):
        return complex(self._host_value())

    def __index__(self):
        if self._value.dtype.kind not in "iub":
            raise TypeError("only integer arrays can be converted to an index")
        return int(self._value)

    def item(self, *args):
        """The element as a Python scalar."""
        return self._host_value().item(*args)

    def tolist(self):
        """The array as nested Python lists."""
        return self._host_value().tolist()

    def __len__(self):
        if not self._value.shape:
            raise TypeError("len() of unsized object")
        return self._value.shape[0]

    def __iter__(self):
        if not self._value.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self._value.shape[0]))

    def __reversed__(self):
        return (self[i] for i in reversed(range(len(self))))

    def __hash__(self):
        raise TypeError("unhashable type: 'transpile.Array'")

    def __setitem__(self, idx, value):
        raise TypeError(_IMMUTABLE_MSG)

    def __delitem__(self, idx):
        raise AttributeError("__delitem__")

    def __reduce__(self):
        return (_rebuild, (np.array(self._value), self._weak_type))

    # --- printing ---------------------------------------------------------------------
    def __repr__(self) -> str:
        v = self._value
        if dtypes.is_key(v.dtype):  # typed keys show their key data
            data = np.array(v, order="C").reshape(-1).view(np.uint32).reshape(v.shape + (2,))
            return f"Array({v.shape}, dtype=key<fry>) overlaying:\n{data}"
        suffix = ", weak_type=True" if self._weak_type else ""
        if v.size == 0:
            return f"Array([], shape={v.shape}, dtype={v.dtype.name}{suffix})"
        body = np.array2string(v, prefix="Array(", separator=", ")
        return f"Array({body}, dtype={v.dtype.name}{suffix})"

    def __str__(self) -> str:
        if dtypes.is_key(self._value.dtype):
            return repr(self)
        return str(self._value)

    def __format__(self, spec: str) -> str:
        if self._value.ndim == 0:
            return format(self._value.item(), spec)
        return format(str(self), spec)

    # --- runtime ----------------------------------------------------------------------
    def block_until_ready(self) -> "Array":
        """Wait for the value to be computed (it always is on the host) and return it."""
        return self

    def copy_to_host_async(self) -> None:
        """No-op: the value already lives in host memory."""

    def is_deleted(self) -> bool:
        return False

    def devices(self) -> set:
        """The devices holding the array: ``{CpuDevice(id=0)}`` (host memory)."""
        return {CpuDevice(0)}

    @property
    def device(self):
        """The device holding the array: ``CpuDevice(id=0)``."""
        return CpuDevice(0)

    def copy(self) -> "Array":
        return Array._new(np.array(self._value), self._weak_type)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def _rebuild(value, weak):
    return Array._new(value, weak)


core.pytype_aval_mappings[Array] = lambda x: x.aval
