"""Shards: one device's block of a sharded array, and the array methods built on them.

An ``Array`` placed by ``device_put`` (or made by an operation on placed arrays) carries
its sharding in ``Array._sharding``; one never placed has none and is *uncommitted*: it
lives on the default device and follows committed operands. The data is always the one
global host buffer, and ``Shard.data`` is a view of it: no copies between CPU devices.
"""
from __future__ import annotations

from ..array import Array
from ..devices import default_device, devices
from .named import NamedSharding, SingleDeviceSharding

__all__ = ["Shard", "placed", "sharding_of", "is_committed", "addressable_shards",
           "global_shards", "STATE"]


class _State:
    """Whether any array was ever placed: until one is, eager operations skip the
    sharding bookkeeping altogether."""

    placed = False


STATE = _State()


class Shard:
    """One device's block of an array (``jax.Shard``).

    Attributes
    ----------
    device : Device
    index : tuple of slice
        Where the block sits in the global array.
    replica_id : int
        Which copy of the block this is, among the devices holding the same block.
    data : Array
        The block (a view of the global buffer).
    """

    def __init__(self, device, index, replica_id: int, data):
        self.device, self.index, self.replica_id, self.data = device, index, replica_id, data

    def __repr__(self) -> str:
        return (f"Shard(device={self.device!r}, index={self.index}, "
                f"replica_id={self.replica_id}, data={self.data})")


def placed(array: Array, sharding) -> Array:
    """A new ``Array`` over ``array``'s buffer that carries ``sharding`` (committed)."""
    out = Array._new(array._value, array._weak_type)
    out._sharding = sharding
    # With one CPU device a placement on it changes nothing an operation could see
    # (no other device to conflict with), so the per-call bookkeeping stays off.
    if not (isinstance(sharding, SingleDeviceSharding) and len(devices("cpu")) == 1
            and next(iter(sharding.device_set)).platform == "cpu"):
        STATE.placed = True
    return out


def sharding_of(array: Array):
    """The array's sharding: its own, or its default device's for an uncommitted one."""
    s = getattr(array, "_sharding", None)
    if s is None:
        d = default_device()
        # host arrays live on a CPU device even when the default device is a GPU
        return SingleDeviceSharding(d if d.platform == "cpu" else devices("cpu")[0])
    return s


def is_committed(array: Array) -> bool:
    """Whether the array was placed explicitly (and so pins the device of operations)."""
    return getattr(array, "_sharding", None) is not None


def _shards(array: Array, addressable: bool) -> list:
    sharding = sharding_of(array)
    shape = array.shape
    indices = (sharding.addressable_devices_indices_map(shape) if addressable
               else sharding.devices_indices_map(shape))
    replicas = sharding._replica_ids(shape)
    order = sorted(indices, key=lambda d: d.id)
    return [Shard(d, indices[d], replicas[d],
                  Array._new(array._value[indices[d]], array._weak_type)) for d in order]


def addressable_shards(array: Array) -> list:
    """The blocks this process's devices hold, by device id."""
    return _shards(array, True)


def global_shards(array: Array) -> list:
    """The blocks every device holds, by device id."""
    return _shards(array, False)


def array_devices(array: Array) -> set:
    return set(sharding_of(array).device_set)


def array_device(array: Array):
    """JAX's ``Array.device``: the device of a single-device array, else its sharding."""
    s = sharding_of(array)
    if isinstance(s, NamedSharding) and s.num_devices > 1:
        return s
    return next(iter(s.device_set))
