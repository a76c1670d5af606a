"""The NumPy evaluator: eager execution of primitives, and jaxprs run on NumPy arrays.

``apply_primitive`` is what the eval trace does with each primitive outside any
transformation; ``eval_jaxpr_numpy`` runs a whole jaxpr on NumPy arrays (the
execution path of ``jit`` before a native backend, and the oracle tests compare
generated code against); ``eval_jaxpr`` re-binds every equation, so it works under
any trace (it is how transformations inline a jaxpr).
"""
from __future__ import annotations

import collections

import numpy as np

from .. import core
from ..ir import ClosedJaxpr, Jaxpr, Literal
from ..placement import argument_device

__all__ = ["apply_primitive", "eval_jaxpr", "eval_jaxpr_numpy", "run_impl"]


def run_impl(primitive, vals, params, out_avals):
    """Run ``primitive``'s NumPy rule and cast each result to its aval's dtype."""
    with np.errstate(all="ignore"):
        res = primitive.impl(*vals, **params)
    outs = res if primitive.multiple_results else [res]
    fixed = []
    for r, aval in zip(outs, out_avals, strict=True):
        arr = np.asarray(r)
        if arr.dtype != aval.dtype:
            with np.errstate(all="ignore"):
                arr = arr.astype(aval.dtype)
        if arr.shape != aval.shape:
            arr = np.broadcast_to(arr, aval.shape)
        fixed.append(arr)
    return fixed


#: primitive -> predicate(params) saying whether an eager application runs compiled C,
#: as JAX runs every primitive: a loop interpreted one equation at a time on NumPy costs
#: about 100 us per iteration. Filled by ``lax.control_flow``.
compiled_eagerly: dict = {}
_EAGER_CACHE_SIZE = 256
_eager_exes: "collections.OrderedDict" = collections.OrderedDict()


def _compiled_apply(primitive, params, avals, out_avals, vals):
    """Run one equation through the C backend; None when it cannot be compiled here."""
    from ..config import config
    if config.jax_disable_jit:
        return None
    from ..passes.cse import params_key
    key = (primitive.name, params_key(params), tuple(avals))
    hit = _eager_exes.get(key)
    if hit is None:
        from ..backend.build import CompilerNotFoundError
        from ..ir import ClosedJaxpr, Jaxpr, JaxprEqn, Var
        from ..stages import executable_for
        ins = tuple(Var(a) for a in avals)
        outs = tuple(Var(a) for a in out_avals)
        eqn = JaxprEqn(ins, outs, primitive, dict(params))
        try:
            exe = executable_for(ClosedJaxpr(Jaxpr((), ins, outs, (eqn,)), []),
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
    from ..array import Array
    avals = [core.get_aval(a) for a in args]
    out = primitive.abstract_eval(*avals, **params)
    out_avals = out if primitive.multiple_results else [out]
    vals = [core.to_numpy(a, av) for a, av in zip(args, avals, strict=True)]
    wants_c = compiled_eagerly.get(primitive)
    arrays = None
    if wants_c is not None and wants_c(params):
        arrays = _compiled_apply(primitive, params, avals, out_avals, vals)
    if arrays is None:
        res = run_impl(primitive, vals, params, out_avals)
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
    from ..backend.device_array import CudaArray
    return [CudaArray.from_host(a._value, a._weak_type, device) for a in arrays]


def _as_jaxpr(j):
    if isinstance(j, ClosedJaxpr):
        return j.jaxpr, j.consts
    return j, []


def eval_jaxpr_numpy(jaxpr: Jaxpr, consts, *args) -> list:
    """Run ``jaxpr`` on NumPy arrays; returns a list of NumPy arrays."""
    env: dict = {}

    def read(a):
        return np.asarray(a.val, a.aval.dtype) if isinstance(a, Literal) else env[a]

    for v, c in zip(jaxpr.constvars, consts, strict=True):
        env[v] = core.to_numpy(c, v.aval)
    for v, x in zip(jaxpr.invars, args, strict=True):
        env[v] = x if isinstance(x, np.ndarray) else core.to_numpy(x, v.aval)
    for eqn in jaxpr.eqns:
        vals = [read(a) for a in eqn.invars]
        outs = run_impl(eqn.primitive, vals, eqn.params, [v.aval for v in eqn.outvars])
        for v, o in zip(eqn.outvars, outs, strict=True):
            env[v] = o
    return [read(a) for a in jaxpr.outvars]


def eval_jaxpr(jaxpr: Jaxpr | ClosedJaxpr, consts, *args) -> list:
    """Evaluate ``jaxpr`` by binding each equation under whatever traces are active."""
    if isinstance(jaxpr, ClosedJaxpr):
        jaxpr, consts = jaxpr.jaxpr, jaxpr.consts
    env: dict = {}

    def read(a):
        if isinstance(a, Literal):
            # Python-scalar literals re-bind as themselves, so they stay weak.
            return a.val if type(a.val) in (bool, int, float) else np.asarray(a.val)
        return env[a]

    for v, c in zip(jaxpr.constvars, consts, strict=True):
        env[v] = c
    for v, x in zip(jaxpr.invars, args, strict=True):
        env[v] = x
    for eqn in jaxpr.eqns:
        outs = eqn.primitive.bind(*[read(a) for a in eqn.invars], **eqn.params)
        outs = outs if eqn.primitive.multiple_results else [outs]
        for v, o in zip(eqn.outvars, outs, strict=True):
            env[v] = o
    return [read(a) for a in jaxpr.outvars]
