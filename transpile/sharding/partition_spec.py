"""``PartitionSpec``: how each axis of an array maps onto mesh axes.

Entry ``i`` says how array dimension ``i`` is split: ``None`` (not split), a mesh axis
name, or a tuple of names (split over their product, major to minor), or
``UNCONSTRAINED`` (the compiler may choose). Dimensions past the end are not split.
Two specs are equal only when their entries are: ``P('x')`` is not ``P('x', None)``.
"""
from __future__ import annotations

__all__ = ["PartitionSpec", "UNCONSTRAINED"]


class _Unconstrained:
    """The entry that leaves a dimension's split to the compiler."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNCONSTRAINED"

    def __reduce__(self):
        return (_Unconstrained, ())


UNCONSTRAINED = _Unconstrained()


def _entry_repr(e) -> str:
    return repr(e)


class PartitionSpec:
    """A tuple-like description of how an array is split over a mesh
    (``jax.sharding.PartitionSpec``, usually imported as ``P``).

    Parameters
    ----------
    *partitions : None, str, tuple of str or UNCONSTRAINED
        One entry per leading array dimension.
    unreduced, reduced : set of str, optional
        Mesh axes over which the array holds partial sums (kept for JAX's sake).

    Examples
    --------
    >>> from transpile.sharding import PartitionSpec as P
    >>> P('x', None)
    P('x', None)
    """

    UNCONSTRAINED = UNCONSTRAINED
    __slots__ = ("_partitions", "unreduced", "reduced")

    def __init__(self, *partitions, unreduced=frozenset(), reduced=frozenset()):
        self._partitions = tuple(tuple(p) if isinstance(p, list) else p for p in partitions)
        self.unreduced = frozenset(unreduced)
        self.reduced = frozenset(reduced)

    @property
    def partitions(self) -> tuple:
        """The entries, as a tuple."""
        return self._partitions

    def __len__(self) -> int:
        return len(self._partitions)

    def __iter__(self):
        return iter(self._partitions)

    def __getitem__(self, i):
        return self._partitions[i]

    def count(self, value) -> int:
        return self._partitions.count(value)

    def index(self, value) -> int:
        return self._partitions.index(value)

    def __add__(self, other):
        if isinstance(other, PartitionSpec):
            other = other._partitions
        return PartitionSpec(*self._partitions, *tuple(other),
                             unreduced=self.unreduced, reduced=self.reduced)

    def __eq__(self, other) -> bool:
        return isinstance(other, PartitionSpec) and other._partitions == self._partitions \
            and other.unreduced == self.unreduced and other.reduced == self.reduced

    def __hash__(self) -> int:
        return hash((PartitionSpec, self._partitions, self.unreduced, self.reduced))

    def __repr__(self) -> str:
        parts = [_entry_repr(p) for p in self._partitions]
        if len(parts) == 1 and not (self.unreduced or self.reduced):
            parts[0] += ","
        if self.unreduced:
            parts.append(f"unreduced={set(sorted(self.unreduced))!r}")
        if self.reduced:
            parts.append(f"reduced={set(sorted(self.reduced))!r}")
        return f"P({', '.join(parts)})"

    __str__ = __repr__

    def __reduce__(self):
        return (_rebuild, (self._partitions, self.unreduced, self.reduced))

    def axis_names(self) -> set:
        """Every mesh axis name the spec uses."""
        out = set()
        for p in self._partitions:
            if isinstance(p, tuple):
                out.update(p)
            elif p is not None and p is not UNCONSTRAINED:
                out.add(p)
        return out


def _rebuild(partitions, unreduced, reduced):
    return PartitionSpec(*partitions, unreduced=unreduced, reduced=reduced)
