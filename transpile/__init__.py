"""transpile: trace jax.numpy-style Python into a jaxpr IR and run it, with JAX's names.

``import transpile as jax; import transpile.numpy as jnp`` gives a JAX user the same
results, dtypes, jaxpr text and errors.
"""
from __future__ import annotations

from .version import __version__  # noqa: F401

from . import core, errors, tree_util
from . import dispatch  # noqa: F401  (fills core.eager_apply: eager execution)
from .api import (CpuDevice, CudaDevice, block_until_ready, default_backend, device_count,
                  device_get, device_put, devices, local_device_count, local_devices,
                  print_environment_info)
from .array import Array
from .config import (config, debug_infs, debug_nans, default_device, disable_jit,
                     enable_x64, numpy_dtype_promotion)
from .core import ShapedArray
from .jit import ShapeDtypeStruct, eval_shape, jit, make_jaxpr
from .autodiff import (grad, hessian, jacfwd, jacrev, jvp, linearize,  # noqa: F401
                       value_and_grad, vjp)
from .custom_derivatives import checkpoint, custom_jvp, custom_vjp, remat  # noqa: F401
from .export import export_c  # noqa: F401
from .vmapping import vmap  # noqa: F401
from .callbacks import pure_callback  # noqa: F401
from . import debug, experimental  # noqa: E402,F401
from . import lax  # noqa: E402
from . import numpy  # noqa: E402
from . import random  # noqa: E402
from . import dtypes  # noqa: E402
from . import nn  # noqa: E402
from . import scipy  # noqa: E402,F401
from . import image  # noqa: E402,F401
from . import tree, ops, flatten_util, typing, checkpoint_policies, test_util  # noqa: E402,F401
from . import sharding  # noqa: E402,F401
from . import distributed  # noqa: E402,F401  (jax.distributed: MPI runs)
from .sharding import make_mesh, set_mesh  # noqa: E402,F401
from .sharding import NamedSharding, Shard, reshard  # noqa: E402,F401
from .shard_map import shard_map  # noqa: E402,F401
from .pmap import pmap  # noqa: E402,F401
from . import example_libraries  # noqa: E402,F401
from .api_extra import (clear_caches, closure_convert, ensure_compile_time_eval,  # noqa: E402,F401
                        jacobian, linear_transpose, live_arrays, named_call, named_scope)
from .dtypes import float0  # noqa: E402,F401
# The rest of JAX's top level: config context managers, process queries, profiling.
from . import config_flags as _config_flags  # noqa: E402
from . import api_more as _api_more  # noqa: E402
from . import custom_batching, dlpack, monitoring, profiler  # noqa: E402,F401
globals().update({_n: getattr(_m, _n) for _m in (_config_flags, _api_more)
                  for _n in _m.__all__})

def _typeof(x):
    """The abstract value of ``x`` (``jax.typeof``)."""
    return core.get_aval(x)


typeof = _typeof

__all__ = ["jit", "make_jaxpr", "block_until_ready", "ShapeDtypeStruct", "Array", "config",
           "errors", "tree_util", "numpy", "lax", "random", "dtypes", "devices", "device_put", "device_get",
           "device_count", "local_devices", "local_device_count", "default_backend",
           "disable_jit", "enable_x64", "eval_shape", "ShapedArray", "CpuDevice", "CudaDevice",
           "default_device", "typeof", "debug_nans", "debug_infs", "numpy_dtype_promotion",
           "print_environment_info", "grad", "value_and_grad", "jvp", "vjp", "linearize",
           "jacfwd", "jacrev", "hessian", "custom_jvp", "custom_vjp", "checkpoint", "remat",
           "export_c", "vmap", "nn", "tree", "ops", "flatten_util", "typing",
           "checkpoint_policies", "test_util", "example_libraries", "clear_caches",
           "closure_convert", "ensure_compile_time_eval", "jacobian", "linear_transpose",
           "live_arrays", "named_call", "named_scope", "float0", "custom_batching", "dlpack", "monitoring",
           "profiler", "sharding", "make_mesh", "set_mesh", "NamedSharding", "Shard",
           "reshard", "shard_map", "pmap", "distributed"] + _config_flags.__all__ + _api_more.__all__

# The compile pipeline (imported already through ``jit``; named here because
# ``transpile.stages`` is part of the AOT API). jinja2 stays lazy: a warm disk cache never
# renders.
from . import passes as _passes, stages as _stages  # noqa: E402,F401
