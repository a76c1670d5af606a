"""The sharding of an operation's results when nothing states it.

JAX leaves this to XLA's propagation; transpile follows the rule below, which gives
JAX 0.10.2's answers for the common cases (checked in ``tests/test_sharding_named.py``):

* No operand committed: the results are uncommitted (default device).
* Committed operands on single devices: the results go to that device; two different
  devices raise JAX's "incompatible devices" error.
* Some operand a ``NamedSharding`` (the mesh of the first one is the results' mesh):

  - reductions (``reduce_*``, ``argmax``/``argmin``) drop the reduced dimensions' entries;
  - ``transpose`` permutes the entries, ``broadcast_in_dim`` moves them to their new
    dimensions (a dimension that is broadcast is not split);
  - ``dot_general`` keeps the batch and free dimensions' entries of both operands
    (a contracted split dimension is summed across devices: the result is not split on
    that axis);
  - ``reshape`` keeps a split leading dimension when the new leading dimension is a
    multiple of it;
  - ``sharding_constraint`` takes its own sharding;
  - anything else whose result has the shape of a split operand keeps that operand's
    spec (elementwise operations, casts, ``select_n``, cumulative sums, ...);
  - otherwise the result is replicated over the mesh (``P()``).

  Derived specs drop trailing ``None`` entries, as JAX shows them; a kept spec is the
  operand's own. Inside ``jit``, the rule runs equation by equation over the jaxpr.
"""
from __future__ import annotations

from ..array import Array
from ..memory.device_array import CudaArray
from .mesh import AbstractMesh, get_mesh
from .named import NamedSharding, canonical_spec, spec_entries
from .partition_spec import PartitionSpec
from .shards import placed

__all__ = ["out_shardings", "jaxpr_out_shardings", "check_devices", "eager", "attach",
           "places_results"]

#: Primitives whose results have a sharding of their own, whatever the operands'.
_SELF_PLACED = frozenset({"sharding_constraint", "shard_map"})

_REDUCTIONS = frozenset({"reduce_sum", "reduce_max", "reduce_min", "reduce_prod",
                         "reduce_and", "reduce_or", "reduce_xor", "argmax", "argmin"})


def _entries(s, ndim: int):
    return spec_entries(s.spec, ndim) if isinstance(s, NamedSharding) else (None,) * ndim


def _dedupe(entries) -> list:
    """A mesh axis splits one dimension only: later uses are dropped."""
    seen: set = set()
    out = []
    for e in entries:
        names = () if e is None else (e if isinstance(e, tuple) else (e,))
        if any(n in seen for n in names):
            e = None
        seen.update(names)
        out.append(e)
    return out


def _reshape(e, in_shape, out_shape):
    if not in_shape or not out_shape or e[0] is None or any(x is not None for x in e[1:]):
        return None
    if out_shape[0] % in_shape[0]:
        return None
    return (e[0],) + (None,) * (len(out_shape) - 1)


def _derived(name, params, ins, in_shapes, out_shape):
    """The entries of a result of ``name`` from the operands' (or None: no rule)."""
    e = _entries(ins[0], len(in_shapes[0])) if ins else ()
    if name in _REDUCTIONS:
        axes = set(params["axes"])
        return [x for i, x in enumerate(e) if i not in axes]
    if name == "transpose":
        return [e[p] for p in params["permutation"]]
    if name == "broadcast_in_dim":
        out = [None] * len(out_shape)
        for i, d in enumerate(params["broadcast_dimensions"]):
            if in_shapes[0][i] == out_shape[d]:
                out[d] = e[i]
        return out
    if name == "dot_general":
        (lc, rc), (lb, rb) = params["dimension_numbers"]
        r = _entries(ins[1], len(in_shapes[1]))
        lfree = [i for i in range(len(e)) if i not in lc and i not in lb]
        rfree = [i for i in range(len(r)) if i not in rc and i not in rb]
        return _dedupe([e[i] for i in lb] + [e[i] for i in lfree] + [r[i] for i in rfree])
    if name == "reshape":
        return _reshape(e, in_shapes[0], out_shape)
    return None


def out_shardings(name: str, params: dict, ins: list, in_shapes: list,
                  out_shapes: list) -> list:
    """The sharding of each result of ``name`` applied to operands with shardings
    ``ins`` (None: uncommitted) of shapes ``in_shapes``; None for uncommitted results."""
    if name == "sharding_constraint":
        s = params["sharding"]
        if isinstance(s, NamedSharding) and isinstance(s.mesh, AbstractMesh):
            s = NamedSharding(get_mesh(), s.spec)
        return [s] * len(out_shapes)
    if name == "shard_map":  # each result is laid out over the mesh as its spec says
        return [NamedSharding(params["mesh"], spec) for spec in params["out_specs"]]
    named = [s for s in ins if isinstance(s, NamedSharding)]
    if not named:
        single = next((s for s in ins if s is not None), None)
        return [single] * len(out_shapes)
    mesh = named[0].mesh
    out = []
    for shape in out_shapes:
        entries = _derived(name, params, ins, in_shapes, shape)
        if entries is not None:
            out.append(NamedSharding(mesh, canonical_spec(entries)))
            continue
        same = next((s for s, sh in zip(ins, in_shapes)
                     if isinstance(s, NamedSharding) and tuple(sh) == tuple(shape)), None)
        out.append(NamedSharding(mesh, same.spec) if same is not None
                   else NamedSharding(mesh, PartitionSpec()))
    return out


def _ids(s) -> list:
    if isinstance(s, NamedSharding):
        return [int(i) for i in s.mesh.device_ids.flat]
    return [d.id for d in s.device_set]


def check_devices(ins: list, names: list, shapes: list, what: str) -> None:
    """JAX's error when committed operands sit on different devices.

    Parameters
    ----------
    ins : list
        Each operand's sharding (None: uncommitted).
    names, shapes : list
        Each operand's name and type text (``float32[4]``), for the message.
    what : str
        The computation's name (``add``, a jitted function's name).
    """
    first = None
    for i, s in enumerate(ins):
        if s is None:
            continue
        if first is None:
            first = i
            continue
        a = ins[first]
        if _ids(a) != _ids(s):
            raise ValueError(
                "Received incompatible devices for jitted computation. Got argument "
                f"{names[first]} of {what} with shape {shapes[first]} and with device ids "
                f"{_ids(a)} on platform CPU and argument {names[i]} of {what} with shape "
                f"{shapes[i]} and with device ids {_ids(s)} on platform CPU")


def places_results(jaxpr) -> bool:
    """Whether some equation of ``jaxpr`` (or of a ``jit`` in it) gives its results a
    sharding of its own (``shard_map``, ``sharding_constraint``)."""
    for eqn in jaxpr.eqns:
        if eqn.primitive.name in _SELF_PLACED:
            return True
        inner = eqn.params.get("jaxpr") if eqn.primitive.name in ("jit", "pjit") else None
        if inner is not None and places_results(getattr(inner, "jaxpr", inner)):
            return True
    return False


def jaxpr_out_shardings(jaxpr, ins: list) -> list:
    """The results' shardings of the ``Jaxpr`` ``jaxpr`` whose inputs have ``ins``."""
    env = dict(zip(jaxpr.invars, ins))

    def read(v):
        return env.get(v) if hasattr(v, "count") else None

    for eqn in jaxpr.eqns:
        args = [read(v) for v in eqn.invars]
        if eqn.primitive.name not in _SELF_PLACED and all(a is None for a in args):
            continue
        inner = eqn.params.get("jaxpr")
        if eqn.primitive.name in ("jit", "pjit") and inner is not None:
            outs = jaxpr_out_shardings(getattr(inner, "jaxpr", inner), args)
        else:
            outs = out_shardings(eqn.primitive.name, eqn.params, args,
                                 [v.aval.shape for v in eqn.invars],
                                 [v.aval.shape for v in eqn.outvars])
        env.update(zip(eqn.outvars, outs))
    return [read(v) for v in jaxpr.outvars]


def _type_text(x) -> str:
    return f"{x.dtype.name}[{','.join(str(d) for d in x.shape)}]"


def attach(results: list, shardings: list) -> list:
    """``results`` carrying ``shardings`` (host arrays only; None leaves them be)."""
    return [placed(r, s) if s is not None and isinstance(r, Array)
            and not isinstance(r, CudaArray) else r
            for r, s in zip(results, shardings, strict=True)]


def eager(run, primitive, args, params):
    """``run(primitive, args, params)`` (eager dispatch) with the results placed by
    the rule above when some operand is committed."""
    ins = [getattr(a, "_sharding", None) if isinstance(a, Array) else None for a in args]
    if all(s is None for s in ins) and primitive.name not in _SELF_PLACED:
        return run(primitive, args, params)
    names = ["x", "y"] + [f"args[{i}]" for i in range(2, len(args))]
    check_devices(ins, names, [_type_text(a) if isinstance(a, Array) else "" for a in args],
                  primitive.name)
    out = run(primitive, args, params)
    outs = list(out) if primitive.multiple_results else [out]
    shardings = out_shardings(primitive.name, params, ins,
                              [getattr(a, "shape", ()) for a in args],
                              [o.shape for o in outs])
    outs = attach(outs, shardings)
    return outs if primitive.multiple_results else outs[0]
