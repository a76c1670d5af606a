"""The Array API standard's entry points (revision 2024.12, the one JAX 0.10.2 names):
``x.__array_namespace__()`` (installed on ``Array`` and every tracer here),
``__array_namespace_info__()`` and ``from_dlpack``.

``dtypes()`` lists complex64 (and complex128 under x64) as JAX does.
"""
from __future__ import annotations

import sys

import numpy as np

from ..devices import devices as _all_devices
from .. import dtypes
from ..array import Array
from ..array_interop import install as _install_interop  # noqa: F401  (DLPack, to_device)
from ..config import config
from ..core import Tracer
from ..memory.device_array import CudaArray
from .creation import asarray

__all__ = ["from_dlpack", "__array_namespace_info__", "ArrayNamespaceInfo",
           "__array_api_version__"]

#: The revisions of the standard ``__array_namespace__`` accepts.
API_VERSIONS = ("2024.12",)

#: The revision this namespace implements (what conformance suites read).
__array_api_version__ = API_VERSIONS[-1]


def _namespace(self, *, api_version: str | None = None):
    """``transpile.numpy``, the namespace of the Array API standard for this array.

    Parameters
    ----------
    api_version : str, optional
        A revision of the standard; only ``"2024.12"`` (or None).
    """
    if api_version is not None and api_version not in API_VERSIONS:
        raise ValueError(f"api_version={api_version!r} is not available; available "
                         f"versions are: {list(API_VERSIONS)}")
    return sys.modules[__name__.rpartition(".")[0]]


Array.__array_namespace__ = _namespace
Tracer.__array_namespace__ = _namespace


def from_dlpack(x, /, *, device=None, copy: bool | None = None):
    """An array from any object that exports DLPack (``__dlpack__`` and
    ``__dlpack_device__``): NumPy arrays, PyTorch CPU tensors, transpile arrays.

    Parameters
    ----------
    x : object
        The producer.
    device : Device, optional
        Where to put the result (``Array.to_device``).
    copy : bool, optional
        Passed to the producer (``np.from_dlpack``). An Array is immutable, so one made
        from another library's (writable) memory owns a copy of it; a transpile array
        is shared unless ``copy``. The dtype is canonicalised (float64 becomes float32
        unless x64 is enabled).

    Returns
    -------
    Array
    """
    if not (hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__")):
        raise TypeError("The array passed to from_dlpack must have __dlpack__ and "
                        "__dlpack_device__ methods.")
    if isinstance(x, Array) and not isinstance(x, CudaArray):
        # a new strongly typed array over the same (read-only) memory, or a copy
        out = Array._new(np.array(x._value) if copy else x._value, False)
    else:
        host = np.from_dlpack(x, copy=copy)
        out = asarray(host)
    return out if device is None else out.to_device(device)


class ArrayNamespaceInfo:
    """What ``__array_namespace_info__()`` returns: the capabilities, devices and
    dtypes of ``transpile.numpy``, as the Array API standard describes them."""

    _CAPABILITIES = {"boolean indexing": False, "data-dependent shapes": False,
                     "max dimensions": 64}

    def capabilities(self) -> dict:
        """What the namespace can do (JAX's answers: no boolean indexing or
        data-dependent shapes under ``jit``)."""
        return dict(self._CAPABILITIES)

    def default_device(self):
        """None: arrays go where ``transpile.default_device`` says."""
        return None

    def devices(self) -> list:
        """None (the default placement), then every device."""
        return [None, *_all_devices()]

    def default_dtypes(self, *, device=None) -> dict:
        """The default dtype of each kind (64-bit ones under x64)."""
        x64 = config.x64_enabled
        return {"real floating": dtypes.default_float_dtype(),
                "complex floating": np.dtype(np.complex128 if x64 else np.complex64),
                "integral": dtypes.default_int_dtype(),
                "indexing": dtypes.default_int_dtype()}

    def dtypes(self, *, device=None, kind=None) -> dict:
        """The dtypes of ``kind`` (a kind name, a tuple of them, or None for all)."""
        x64 = config.x64_enabled
        signed = [np.int8, np.int16, np.int32] + ([np.int64] if x64 else [])
        unsigned = [np.uint8, np.uint16, np.uint32] + ([np.uint64] if x64 else [])
        real = [np.float32] + ([np.float64] if x64 else [])
        cplx = [np.complex64] + ([np.complex128] if x64 else [])
        kinds = {"bool": [np.bool_], "signed integer": signed,
                 "unsigned integer": unsigned, "integral": signed + unsigned,
                 "real floating": real, "complex floating": cplx,
                 "numeric": signed + unsigned + real + cplx}
        if kind is None:
            chosen = kinds["bool"] + kinds["numeric"]
        else:
            chosen = []
            for k in (kind if isinstance(kind, tuple) else (kind,)):
                chosen += kinds[k]
        return {np.dtype(t).name: np.dtype(t) for t in chosen}


def __array_namespace_info__() -> ArrayNamespaceInfo:  # noqa: N807 - the standard's name
    """The inspection object of the Array API standard (``ArrayNamespaceInfo``)."""
    return ArrayNamespaceInfo()
