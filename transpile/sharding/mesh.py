"""Device meshes: an n-dimensional array of devices with a name per axis.

``Mesh`` is the concrete mesh (which device sits where); ``AbstractMesh`` keeps only the
axis names, sizes and types, which is all tracing needs. ``set_mesh`` makes a mesh the
ambient one (globally, or for a ``with`` block); ``get_mesh`` and ``get_abstract_mesh``
read it.
"""
from __future__ import annotations

import collections
import enum
import math
import warnings

import numpy as np

from ..devices import devices as _all_devices, process_index as _process_index

__all__ = ["AxisType", "Mesh", "AbstractMesh", "make_mesh", "set_mesh", "get_mesh",
           "get_abstract_mesh", "use_abstract_mesh"]


class AxisType(enum.Enum):
    """How a mesh axis is partitioned: by the compiler (``Auto``), by types the user
    states (``Explicit``) or by hand inside ``shard_map`` (``Manual``)."""

    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()

    def __repr__(self) -> str:
        return self.name


def _axis_types(axis_types, n: int, default: AxisType) -> tuple:
    if axis_types is None:
        return (default,) * n
    if isinstance(axis_types, AxisType):
        return (axis_types,) * n
    axis_types = tuple(axis_types)
    if len(axis_types) != n or not all(isinstance(t, AxisType) for t in axis_types):
        raise ValueError(f"axis_types must be a tuple of {n} AxisType values, got "
                         f"{axis_types}")
    return axis_types


def _names(axis_names) -> tuple:
    return (axis_names,) if isinstance(axis_names, str) else tuple(axis_names)


class _MeshBase:
    """What both meshes share: names, sizes, types and the queries on them."""

    axis_names: tuple
    axis_sizes: tuple
    axis_types: tuple

    @property
    def shape(self) -> collections.OrderedDict:
        """Axis name to size, in mesh order."""
        return collections.OrderedDict(zip(self.axis_names, self.axis_sizes))

    @property
    def shape_tuple(self) -> tuple:
        return tuple(zip(self.axis_names, self.axis_sizes))

    @property
    def size(self) -> int:
        return math.prod(self.axis_sizes)

    @property
    def empty(self) -> bool:
        return not self.axis_names

    @property
    def is_scalar(self) -> bool:
        return self.size == 1 and not self.empty

    def _axes_of(self, kind: AxisType) -> tuple:
        return tuple(n for n, t in zip(self.axis_names, self.axis_types) if t is kind)

    @property
    def auto_axes(self) -> tuple:
        return self._axes_of(AxisType.Auto)

    @property
    def explicit_axes(self) -> tuple:
        return self._axes_of(AxisType.Explicit)

    @property
    def manual_axes(self) -> tuple:
        return self._axes_of(AxisType.Manual)

    @property
    def are_all_axes_auto(self) -> bool:
        return all(t is AxisType.Auto for t in self.axis_types)

    @property
    def are_all_axes_explicit(self) -> bool:
        return all(t is AxisType.Explicit for t in self.axis_types)

    @property
    def are_all_axes_manual(self) -> bool:
        return all(t is AxisType.Manual for t in self.axis_types)

    def _shape_text(self) -> str:
        return ", ".join(f"'{n}': {s}" for n, s in zip(self.axis_names, self.axis_sizes))


class Mesh(_MeshBase):
    """Devices laid out on named axes (``jax.sharding.Mesh``).

    Parameters
    ----------
    devices : array_like of Device
        An array with one dimension per axis name.
    axis_names : str or tuple of str
    axis_types : AxisType or tuple of AxisType, optional
        Default ``Auto`` for every axis.

    Raises
    ------
    ValueError
        When ``devices`` has not one dimension per axis name.
    """

    def __init__(self, devices, axis_names, axis_types=None):
        devs = devices if isinstance(devices, np.ndarray) else np.array(devices, dtype=object)
        names = _names(axis_names)
        if devs.ndim != len(names):
            raise ValueError(
                "Mesh requires the ndim of its first argument (`devices`) to equal the "
                "length of its second argument (`axis_names`), but got devices.ndim == "
                f"{devs.ndim} and len(axis_names) == {len(names)}.")
        self.devices = devs
        self.axis_names = names
        self.axis_sizes = tuple(devs.shape)
        self.axis_types = _axis_types(axis_types, len(names), AxisType.Auto)
        self._entered: list = []

    @property
    def device_ids(self) -> np.ndarray:
        if self.empty:
            return np.zeros((), int)
        return np.vectorize(lambda d: d.id, otypes=[int])(self.devices)

    @property
    def local_devices(self) -> list:
        """The mesh's devices that belong to this process."""
        me = _process_index()
        return [] if self.empty else [d for d in self.devices.flat if d.process_index == me]

    @property
    def local_mesh(self) -> "Mesh":
        return self

    @property
    def is_multi_process(self) -> bool:
        return not self.empty and any(d.process_index != _process_index()
                                      for d in self.devices.flat)

    @property
    def abstract_mesh(self) -> "AbstractMesh":
        kind = platform = None
        if not self.empty:
            first = self.devices.flat[0]
            kind, platform = first.device_kind, first.platform
        return AbstractMesh(self.axis_sizes, self.axis_names, self.axis_types,
                            _device_kind=kind, _platform=platform)

    def update(self, devices=None, axis_names=None, axis_types=None) -> "Mesh":
        """A copy with some fields replaced."""
        return Mesh(self.devices if devices is None else devices,
                    self.axis_names if axis_names is None else axis_names,
                    self.axis_types if axis_types is None else axis_types)

    def _key(self) -> tuple:
        # A mesh never changes after construction; its key is hashed on every jit call
        # with a sharded argument, so it is made once.
        key = self.__dict__.get("_key_cache")
        if key is None:
            key = (self.device_ids.tobytes(), self.axis_sizes, self.axis_names,
                   self.axis_types)
            self._key_cache = key
        return key

    def __eq__(self, other) -> bool:
        return isinstance(other, Mesh) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        if self.empty:
            return "Mesh()"
        return f"Mesh({self._shape_text()}, axis_types={self.axis_types!r})"

    def __repr__(self) -> str:
        if self.empty:
            return "Mesh(axis_sizes=(), axis_names=())"
        return (f"Mesh(axis_sizes={self.axis_sizes!r}, axis_names={self.axis_names!r}, "
                f"axis_types={self.axis_types!r})")

    def __enter__(self):
        warnings.warn("`with mesh:` context manager has been deprecated. Please use "
                      "`with jax.set_mesh(mesh):` instead.", DeprecationWarning,
                      stacklevel=2)
        self._entered.append(_context.mesh)
        _context.mesh = self
        return self

    def __exit__(self, *exc) -> None:
        _context.mesh = self._entered.pop()


class AbstractMesh(_MeshBase):
    """A mesh's axis names, sizes and types, without devices
    (``jax.sharding.AbstractMesh``)."""

    def __init__(self, axis_sizes, axis_names, axis_types=None, *, _device_kind=None,
                 _platform=None):
        self.axis_sizes = tuple(axis_sizes)
        self.axis_names = _names(axis_names)
        self.axis_types = _axis_types(axis_types, len(self.axis_names), AxisType.Auto)
        self._device_kind, self._platform = _device_kind, _platform

    @property
    def abstract_mesh(self) -> "AbstractMesh":
        return self

    def _key(self) -> tuple:
        return (self.axis_sizes, self.axis_names, self.axis_types)

    def __eq__(self, other) -> bool:
        return isinstance(other, AbstractMesh) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        if self.empty:
            return "AbstractMesh((), axis_types=())"
        tail = ""
        if self._platform is not None:
            tail = (f", device_kind={self._device_kind}, num_cores=None, "
                    f"platform={self._platform}")
        return f"AbstractMesh({self._shape_text()}, axis_types={self.axis_types!r}{tail})"

    __str__ = __repr__


class _Context:
    """The ambient mesh (``set_mesh``): the empty mesh when none is set."""

    def __init__(self) -> None:
        self.mesh = Mesh(np.empty((), dtype=object), ())


_context = _Context()


def get_mesh() -> Mesh:
    """The mesh ``set_mesh`` made ambient (``Mesh()`` when none)."""
    return _context.mesh


def get_abstract_mesh() -> AbstractMesh:
    """The ambient mesh without its devices."""
    return _context.mesh.abstract_mesh


class set_mesh:  # noqa: N801 - JAX's name; a function that is also a context manager
    """Make ``mesh`` the ambient mesh: from now on, or, used as ``with set_mesh(m):``,
    until the block ends."""

    def __init__(self, mesh: Mesh):
        if not isinstance(mesh, Mesh):
            raise ValueError(f"Expected mesh of type `jax.sharding.Mesh`. Got {type(mesh)}")
        self._previous = _context.mesh
        _context.mesh = mesh

    def __enter__(self) -> Mesh:
        return _context.mesh

    def __exit__(self, *exc) -> None:
        _context.mesh = self._previous


use_abstract_mesh = set_mesh


def make_mesh(axis_shapes, axis_names, axis_types=None, *, devices=None) -> Mesh:
    """A mesh of the given shape over the first devices (``jax.make_mesh``).

    Parameters
    ----------
    axis_shapes : tuple of int
    axis_names : str or tuple of str
    axis_types : AxisType or tuple of AxisType, optional
        Default ``Explicit`` for every axis, as JAX 0.10 makes them.
    devices : sequence of Device, optional
        Default ``jax.devices()``.

    Raises
    ------
    ValueError
        When there are fewer devices than the mesh has places.
    """
    shape = tuple(int(s) for s in axis_shapes)
    devs = list(_all_devices() if devices is None else devices)
    n = math.prod(shape)
    if len(devs) < n:
        raise ValueError(f"Number of devices {len(devs)} must be >= the product of "
                         f"mesh_shape {shape}")
    grid = np.empty(n, dtype=object)
    grid[:] = devs[:n]
    names = _names(axis_names)
    return Mesh(grid.reshape(shape), names,
                _axis_types(axis_types, len(names), AxisType.Explicit))
