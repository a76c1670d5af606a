"""Shardings: which device holds which block of an array.

``Sharding`` is the base class; ``SingleDeviceSharding`` puts the whole array on one
device; ``NamedSharding`` splits it over a ``Mesh`` as a ``PartitionSpec`` says. All CPU
devices share host memory, so a sharding is metadata: an array keeps one global NumPy
buffer and each device's block (``devices_indices_map``) is a view of it.

A dimension whose entry names mesh axes ``(a, b)`` is cut into ``size(a) * size(b)``
equal blocks, ``a`` major; a device takes the block its mesh coordinates on those axes
number. Devices that differ only on axes the spec does not use hold the same block: they
are replicas, numbered (``replica_id``) by their coordinates on those unused axes.
"""
from __future__ import annotations

import math

from ..devices import process_index as _process_index
from .mesh import AbstractMesh, Mesh, get_abstract_mesh
from .partition_spec import UNCONSTRAINED, PartitionSpec

__all__ = ["Sharding", "SingleDeviceSharding", "NamedSharding", "DuplicateSpecError",
           "IndivisibleError", "spec_entries", "canonical_spec"]


class DuplicateSpecError(Exception):
    """A spec names one mesh axis on two dimensions (JAX's exception)."""


class IndivisibleError(ValueError):
    """An array dimension is not a multiple of the number of blocks it is cut into."""


def _names_of(entry) -> tuple:
    if entry is None or entry is UNCONSTRAINED:
        return ()
    return tuple(entry) if isinstance(entry, tuple) else (entry,)


def spec_entries(spec: PartitionSpec, ndim: int) -> tuple:
    """The spec's entries padded with ``None`` to ``ndim``."""
    entries = tuple(spec)
    return entries + (None,) * (ndim - len(entries))


def canonical_spec(entries) -> PartitionSpec:
    """A spec of ``entries`` without trailing ``None`` (how JAX shows derived specs)."""
    entries = list(entries)
    while entries and entries[-1] is None:
        entries.pop()
    return PartitionSpec(*entries)


class Sharding:
    """What every sharding answers (``jax.sharding.Sharding``): its devices and the
    block of a global shape each holds."""

    memory_kind: str | None = "device"

    @property
    def device_set(self) -> set:
        raise NotImplementedError

    def devices_indices_map(self, global_shape) -> dict:
        """Device to the tuple of slices of its block of an array of ``global_shape``."""
        raise NotImplementedError

    def _replica_ids(self, global_shape) -> dict:
        return {d: 0 for d in self.device_set}

    @property
    def num_devices(self) -> int:
        return len(self.device_set)

    @property
    def addressable_devices(self) -> set:
        """The devices of this process."""
        me = _process_index()
        return {d for d in self.device_set if d.process_index == me}

    @property
    def is_fully_addressable(self) -> bool:
        # asked on every conversion of a placed array to NumPy: known once per sharding
        known = self.__dict__.get("_fully_addressable")
        if known is None:
            known = self._fully_addressable = \
                len(self.addressable_devices) == self.num_devices
        return known

    @property
    def has_addressable_devices(self) -> bool:
        return bool(self.addressable_devices)

    def addressable_devices_indices_map(self, global_shape) -> dict:
        mine = self.addressable_devices
        return {d: i for d, i in self.devices_indices_map(global_shape).items() if d in mine}

    def shard_shape(self, global_shape) -> tuple:
        """The shape of one device's block."""
        index = next(iter(self.devices_indices_map(global_shape).values()))
        return tuple(len(range(*s.indices(n))) for s, n in zip(index, global_shape))

    def is_equivalent_to(self, other, ndim: int) -> bool:
        """Whether both put the same blocks on the same devices for rank ``ndim``."""
        if not isinstance(other, Sharding) or self.memory_kind != other.memory_kind:
            return False
        shape = (math.lcm(1, *range(1, 9)),) * ndim  # divisible by any small mesh axis
        return self.devices_indices_map(shape) == other.devices_indices_map(shape)

    def with_memory_kind(self, kind: str):
        raise NotImplementedError


class SingleDeviceSharding(Sharding):
    """The whole array on one device (``jax.sharding.SingleDeviceSharding``)."""

    def __init__(self, device, *, memory_kind: str | None = "device"):
        self._device = device
        self.memory_kind = memory_kind

    @property
    def device_set(self) -> set:
        return {self._device}

    @property
    def num_devices(self) -> int:
        return 1

    @property
    def is_fully_replicated(self) -> bool:
        return True

    def devices_indices_map(self, global_shape) -> dict:
        return {self._device: tuple(slice(None) for _ in global_shape)}

    def with_memory_kind(self, kind: str) -> "SingleDeviceSharding":
        return SingleDeviceSharding(self._device, memory_kind=kind)

    def __eq__(self, other) -> bool:
        return isinstance(other, SingleDeviceSharding) and other._device == self._device \
            and other.memory_kind == self.memory_kind

    def __hash__(self) -> int:
        return hash((self._device, self.memory_kind))

    def __repr__(self) -> str:
        return f"SingleDeviceSharding(device={self._device!r}, memory_kind={self.memory_kind})"


class NamedSharding(Sharding):
    """An array split over the axes of a mesh (``jax.sharding.NamedSharding``).

    Parameters
    ----------
    mesh : Mesh or AbstractMesh
    spec : PartitionSpec
        Entry ``i`` names the mesh axes dimension ``i`` is split over.
    memory_kind : str, optional
        Only ``"device"`` (host memory shared by every CPU device).

    Raises
    ------
    TypeError
        When ``spec`` is not a ``PartitionSpec``.
    ValueError
        When the spec names an axis the mesh lacks.
    DuplicateSpecError
        When it names one mesh axis twice.
    """

    def __init__(self, mesh, spec=PartitionSpec(), *, memory_kind: str | None = None):
        if not isinstance(mesh, (Mesh, AbstractMesh)):
            raise TypeError("mesh should be of type `jax.sharding.Mesh` or "
                            f"`jax.sharding.AbstractMesh`. Got type: {type(mesh)}")
        if not isinstance(spec, PartitionSpec):
            raise TypeError("spec of NamedSharding should be of type `PartitionSpec`. "
                            f"Got {spec} of type {type(spec)}")
        self.mesh, self.spec = mesh, spec
        self.memory_kind = None if isinstance(mesh, AbstractMesh) else (memory_kind or
                                                                        "device")
        self._check()

    def _check(self) -> None:
        seen: set = set()
        for entry in self.spec:
            for name in _names_of(entry):
                if name not in self.mesh.axis_names:
                    raise ValueError(f"Resource axis: {name} of {self.spec} is not found in "
                                     f"mesh: {self.mesh.axis_names}.")
                if name in seen:
                    raise DuplicateSpecError(
                        "A single NamedSharding spec specification can map every mesh "
                        "axis to at most one positional dimension, but "
                        f"{self.spec} has duplicate entries for `{name}`")
                seen.add(name)

    # --- devices and blocks -----------------------------------------------------------
    @property
    def device_set(self) -> set:
        if isinstance(self.mesh, AbstractMesh):
            raise ValueError("a NamedSharding over an AbstractMesh has no devices")
        return set(self.mesh.devices.flat)

    @property
    def num_devices(self) -> int:
        return self.mesh.size

    @property
    def is_fully_replicated(self) -> bool:
        return all(self.mesh.shape[n] == 1 for e in self.spec for n in _names_of(e))

    @property
    def replicated_axes(self) -> tuple:
        used = self.spec.axis_names()
        return tuple(n for n in self.mesh.axis_names if n not in used)

    def _parts(self, ndim: int) -> list:
        return [math.prod(self.mesh.shape[n] for n in _names_of(e))
                for e in spec_entries(self.spec, ndim)]

    def check_compatible_aval(self, shape) -> None:
        """Raise unless an array of ``shape`` can be cut as this sharding says."""
        if len(self.spec) > len(shape):
            raise ValueError(f"Sharding {self} is only valid for values of rank at least "
                             f"{len(self.spec)}, but was applied to a value of rank "
                             f"{len(shape)}.")
        parts = self._parts(len(shape))
        for axis, (n, p) in enumerate(zip(shape, parts)):
            if n % p:
                raise IndivisibleError(
                    f"Sharding {self} implies that array axis {axis} is partitioned {p} "
                    f"times, but the dimension size is {n} (full shape: {tuple(shape)}, "
                    f"per-dimension tiling factors: {parts} should evenly divide the "
                    "shape)")

    def _coords(self):
        """Each device with its mesh coordinates, in mesh order."""
        names = self.mesh.axis_names
        for flat, device in enumerate(self.mesh.devices.flat):
            idx = divmod_all(flat, self.mesh.axis_sizes)
            yield device, dict(zip(names, idx))

    def devices_indices_map(self, global_shape) -> dict:
        shape = tuple(global_shape)
        self.check_compatible_aval(shape)
        entries = spec_entries(self.spec, len(shape))
        out = {}
        for device, at in self._coords():
            index = []
            for n, e in zip(shape, entries):
                names = _names_of(e)
                if not names:
                    index.append(slice(None))
                    continue
                k = _mixed_radix([at[a] for a in names], [self.mesh.shape[a] for a in names])
                step = n // math.prod(self.mesh.shape[a] for a in names)
                index.append(slice(k * step, (k + 1) * step))
            out[device] = tuple(index)
        return out

    def _replica_ids(self, global_shape) -> dict:
        rest = self.replicated_axes
        sizes = [self.mesh.shape[a] for a in rest]
        return {d: _mixed_radix([at[a] for a in rest], sizes) for d, at in self._coords()}

    # --- copies and comparisons -------------------------------------------------------
    def update(self, **kwargs) -> "NamedSharding":
        return NamedSharding(kwargs.get("mesh", self.mesh), kwargs.get("spec", self.spec),
                             memory_kind=kwargs.get("memory_kind", self.memory_kind))

    def with_memory_kind(self, kind: str) -> "NamedSharding":
        return self.update(memory_kind=kind)

    def _key(self) -> tuple:
        return (self.mesh, self.spec, self.memory_kind)

    def __eq__(self, other) -> bool:
        return isinstance(other, NamedSharding) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        tail = "" if self.memory_kind is None else f", memory_kind={self.memory_kind}"
        return f"NamedSharding(mesh={self.mesh}, spec={self.spec}{tail})"

    __str__ = __repr__


def divmod_all(flat: int, sizes) -> tuple:
    """The coordinates of position ``flat`` in a row-major grid of ``sizes``."""
    out = []
    for s in reversed(sizes):
        flat, r = divmod(flat, s)
        out.append(r)
    return tuple(reversed(out))


def _mixed_radix(digits, sizes) -> int:
    k = 0
    for d, s in zip(digits, sizes):
        k = k * s + d
    return k


def resolve(sharding, api: str):
    """``sharding`` as a Sharding: a bare ``PartitionSpec`` takes the ambient mesh
    (``set_mesh``), as JAX's ``reshard`` and ``with_sharding_constraint`` do."""
    if isinstance(sharding, PartitionSpec):
        mesh = get_abstract_mesh()
        if mesh.empty:
            raise ValueError("Using PartitionSpec when you are not under a mesh context is "
                             "not allowed. Please pass a NamedSharding instance or enter "
                             f"into a mesh context via `jax.set_mesh`. Got {sharding}")
        return NamedSharding(mesh, sharding)
    if not isinstance(sharding, Sharding):
        raise TypeError(f"{api}: expected a jax.sharding.Sharding or a PartitionSpec, got "
                        f"{sharding!r} of type {type(sharding).__name__}")
    return sharding
