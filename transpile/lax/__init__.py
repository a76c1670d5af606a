"""``transpile.lax``: the primitives under JAX's names, one module per family.

Each family module lists its public names in ``__all__``; this package re-exports them.
"""
from .elementwise import *  # noqa: F401,F403
from .elementwise import __all__ as _ew_all

__all__ = list(_ew_all)

from . import (contraction, control_flow, indexing, layout, prng, reduction,  # noqa: E402
               slicing, sorting, special, structural)
from . import convolution  # noqa: E402
from . import complex_ops  # noqa: E402
from . import reduce_generic, windowed  # noqa: E402
from . import fft as _fft_mod  # noqa: E402

for _m in (structural, slicing, layout, reduction, contraction, sorting, control_flow,
           indexing, prng, special, convolution, complex_ops, windowed, reduce_generic,
           _fft_mod):
    globals().update({_n: getattr(_m, _n) for _n in _m.__all__})
    __all__ += list(_m.__all__)

# The jit primitive (its API, ``transpile.jit``, sits above lax).
from . import call  # noqa: E402,F401

# Differentiation rules of each family (kept apart from the primitives' modules for size).
from . import elementwise_ad  # noqa: E402,F401
from . import special_ad  # noqa: E402,F401
from . import control_flow_ad  # noqa: E402,F401
from . import dot_ad, indexing_ad, reduction_ad, sort_ad, structural_ad  # noqa: E402,F401
from . import convolution_ad  # noqa: E402,F401

# Batching rules of each family.
from . import elementwise_batching  # noqa: E402,F401
from . import structural_batching, reduction_batching  # noqa: E402,F401
from . import indexing_batching, control_flow_batching  # noqa: E402,F401
from . import convolution_batching  # noqa: E402,F401
# Windowed reductions (pooling) and reductions with a user's monoid: their rules.
from . import windowed_ad, windowed_batching  # noqa: E402,F401

# ``lax.linalg`` is a namespace of its own, as in JAX (``lax.linalg.cholesky``).
from . import linalg  # noqa: E402,F401
from . import linalg_ad, linalg_batching  # noqa: E402,F401

# PRNG key primitives (``transpile.random`` is their API) and host callbacks.
from . import keys, keys_batching, callbacks  # noqa: E402,F401

# Custom-derivative primitives, and the batching rules of the call-like primitives.
from . import custom_derivatives, call_batching  # noqa: E402,F401

# ``custom_linear_solve`` and ``custom_root`` (solves differentiated through the solver).
from . import linear_solve  # noqa: E402
from .linear_solve import custom_linear_solve, custom_root  # noqa: E402,F401

__all__ += ["custom_linear_solve", "custom_root"]

# Bit-level primitives (clz, population_count, mulhi, reduce_precision, optimization_barrier).
# ... and the smaller names composed of other primitives (``extra``), ``unstack``.
from . import bits, extra  # noqa: E402
from . import custom_batching  # noqa: E402,F401  (custom_vmap_call)

for _m in (bits, extra):
    globals().update({_n: getattr(_m, _n) for _n in _m.__all__})
    __all__ += list(_m.__all__)

# XLA's bit generator (rng_bit_generator, RandomAlgorithm).
from . import rng_bits as _rbg  # noqa: E402
globals().update({_n: getattr(_rbg, _n) for _n in _rbg.__all__})
__all__ += list(_rbg.__all__)

# with_sharding_constraint (the sharding_constraint primitive).
from .sharding_ops import with_sharding_constraint  # noqa: E402
__all__ += ["with_sharding_constraint"]

# Collectives over named axes (psum, all_gather, ppermute, ...) and their rules.
from . import parallel, parallel_ad, parallel_batching, shard_map_call  # noqa: E402,F401
from . import parallel_multi_axis  # noqa: E402,F401
from . import shard_map_ad  # noqa: E402,F401
globals().update({_n: getattr(parallel, _n) for _n in parallel.__all__})
__all__ += list(parallel.__all__)
# Collectives between processes (transpile.distributed): a module, not lax names.
from . import process_collectives  # noqa: E402,F401
