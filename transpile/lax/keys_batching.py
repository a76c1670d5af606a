"""Batching rules of the key primitives (``lax/keys.py``), as JAX 0.10.2 writes
them: keys are arrays of keys, so a batch of keys is batched along one of their
leading dimensions. ``random_bits`` and ``random_split`` append their shape after the
key dimensions, so the batch axis stays where it is; ``random_fold_in`` broadcasts
keys against messages elementwise; ``random_wrap`` needs the key-data axis last, so
the batch axis goes in front."""
from __future__ import annotations

from ..interpreters.batching import (bdim_at_front, defbroadcasting, defvectorized,
                                     primitive_batchers)
from . import keys as k
from .prng import threefry2x32_p


def _wrap_batch(vals, dims, *, impl):
    (x,), (d,) = vals, dims
    x = bdim_at_front(x, d, 1)
    return k.random_wrap_p.bind(x, impl=impl), 0


for _p in (k.random_seed_p, k.random_unwrap_p, k.random_bits_p, k.random_split_p,
           k.random_clone_p):
    defvectorized(_p)
defbroadcasting(k.random_fold_in_p)
primitive_batchers[k.random_wrap_p] = _wrap_batch

# The threefry hash itself (``lax/prng.py``) is elementwise with broadcasting.
defbroadcasting(threefry2x32_p)
