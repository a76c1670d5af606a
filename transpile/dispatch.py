"""Eager dispatch: what the eval trace does with a primitive applied to concrete values
outside any transformation.

Most primitives run their NumPy rule (``interpreters.eval.run_impl``); those that
``interpreters.eval.compiled_eagerly`` names (loops) are compiled once through the C
backend and cached, as JAX runs every primitive compiled. Results are ``Array``s, or
``CudaArray``s beside a GPU operand. This module sits above the stages it calls, so
``core`` reaches it through the ``core.eager_apply`` hook, set at the bottom of this file.
"""
from __future__ import annotations

import collections

from . import core, stages
from .array import Array
from .backend.build import CompilerNotFoundError
from .config import config
from .interpreters import eval as eval_mod
from .ir import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from .memory.device_array import CudaArray
from .passes.cse import params_key
from .placement import argument_device

__all__ = ["apply_primitive"]

_EAGER_CACHE_SIZE = 256
_eager_exes: "collections.OrderedDict" = collections.OrderedDict()


def _compiled_apply(primitive, params, avals, out_avals, vals):
    """Run one equation through the C backend; None when it cannot be compiled here."""
    if config.jax_disable_jit:
        return None
    key = (primitive.name, params_key(params), tuple(avals))
    hit = _eager_exes.get(key)
    if hit is None:
        ins = tuple(Var(a) for a in avals)
        outs = tuple(Var(a) for a in out_avals)
        eqn = JaxprEqn(ins, outs, primitive, dict(params))
        try:
            exe = stages.executable_for(ClosedJaxpr(Jaxpr((), ins, outs, (eqn,)), []),
                                 primitive.name)
        except (CompilerNotFoundError, NotImplementedError):
            exe = None
        # The params ride along so that the ids in the key stay theirs.
        hit = _eager_exes[key] = (exe, params)
        if len(_eager_exes) > _EAGER_CACHE_SIZE:
            _eager_exes.popitem(last=False)
    else:
        _eager_exes.move_to_end(key)
    return None if hit[0] is None else hit[0](vals)


def apply_primitive(primitive, args, params):
    """Evaluate ``primitive`` on concrete values, returning ``Array``(s)."""
    avals = [core.get_aval(a) for a in args]
    out = primitive.abstract_eval(*avals, **params)
    out_avals = out if primitive.multiple_results else [out]
    vals = [core.to_numpy(a, av) for a, av in zip(args, avals, strict=True)]
    wants_c = eval_mod.compiled_eagerly.get(primitive)
    arrays = None
    if wants_c is not None and wants_c(params):
        arrays = _compiled_apply(primitive, params, avals, out_avals, vals)
    if arrays is None:
        res = eval_mod.run_impl(primitive, vals, params, out_avals)
        arrays = [Array._new(r, aval.weak_type)
                  for r, aval in zip(res, out_avals, strict=True)]
    gpu = argument_device(args)
    if gpu is not None:
        arrays = _onto(gpu, arrays)
    return arrays if primitive.multiple_results else arrays[0]


def _onto(device, arrays) -> list:
    """``arrays`` uploaded to ``device``: an eager operation on a GPU array is computed
    on the host (one primitive is not worth an nvcc build), but its result lives where
    JAX puts it, beside its operand, so the next jitted call runs there too."""
    return [CudaArray.from_host(a._value, a._weak_type, device) for a in arrays]


core.eager_apply = apply_primitive
