"""Differentiation and batching rules of ``shard_map`` that stage shard_maps, as JAX
0.10.2 does, instead of expanding the body into batched code.

* **JVP** (forward mode): one ``shard_map`` of the body's JVP, primals and nonzero
  tangents in, primal and nonzero tangent outputs out.
* **Linearize** (``grad``, ``vjp``, ``linearize``): the body is linearized on one
  device's blocks; a *known* ``shard_map`` computes the residuals (first) and the primal
  outputs, a *tangent* ``shard_map`` (residuals, then nonzero tangents in) the linear
  part. A residual that is an input or a primal output of the body is passed from
  outside instead of computed again (with that value's spec); the others vary over the
  manual axes their values vary over (all manual axes without ``check_vma``), on the
  leading array axis, so a scalar one travels as a ``[1]`` block.
* **Transpose**: a ``shard_map`` of the body run backwards: nonzero cotangents and the
  known operands in, the cotangents of the linear operands out. Without ``check_vma``
  a cotangent of an output replicated over some manual axes is divided by their size
  before, and the operands' cotangents summed over the axes their specs do not name.
* **Batching**: one ``shard_map`` of the batched body, the batch axis a ``None`` entry
  of the specs.
"""
from __future__ import annotations

import contextlib

import numpy as np

from .. import core
from ..core import ShapedArray
from ..interpreters import ad, batching
from ..interpreters.ad import Zero, is_undefined_primal, tangent_aval
from ..interpreters.eval import eval_jaxpr
from ..interpreters.tracing import JaxprTracer, trace_to_jaxpr
from ..ir import ClosedJaxpr, Jaxpr, Literal
from ..sharding.partition_spec import PartitionSpec
from . import parallel
from .shard_map_call import shard_map_p, spec_axes
from .structural import broadcast_in_dim, squeeze

__all__ = ["batch_spec"]


def _order(mesh, manual) -> list:
    return [n for n in mesh.axis_names if n in manual]


@contextlib.contextmanager
def _in_body(mesh, manual, check_vma):
    """Tracing a body: the manual axes bound, varying axes tracked when checked."""
    core.check_vma.append(bool(check_vma))
    try:
        with core.extend_axis_env([(n, mesh.shape[n], None) for n in _order(mesh, manual)]):
            yield
    finally:
        core.check_vma.pop()


def _spec_of_names(names) -> PartitionSpec:
    names = tuple(names)
    if not names:
        return PartitionSpec()
    return PartitionSpec(names[0] if len(names) == 1 else names)


def _residual_spec(aval, mesh, manual, check_vma) -> PartitionSpec:
    names = _order(mesh, manual)
    if check_vma:
        names = [n for n in names if n in aval.vma]
    return _spec_of_names(names)


def _unmentioned(mesh, manual, spec) -> list:
    named = set(n for e in spec_axes(spec) for n in e)
    return [n for n in _order(mesh, manual) if n not in named]


def _same(a, b) -> bool:
    return isinstance(a, JaxprTracer) and isinstance(b, JaxprTracer) and a.atom is b.atom \
        and not isinstance(a.atom, Literal)


def _dce(jaxpr: Jaxpr) -> Jaxpr:
    """Drop the equations nothing reads (staged zeros of outputs left out)."""
    live = set(v for v in jaxpr.outvars if not isinstance(v, Literal))
    kept = []
    for e in reversed(jaxpr.eqns):
        if any(v in live for v in e.outvars):
            kept.append(e)
            live.update(a for a in e.invars if not isinstance(a, Literal))
    return jaxpr.replace(eqns=tuple(reversed(kept)))


def _body_fn(closed):
    return lambda *xs: eval_jaxpr(closed, None, *xs)


def _known_body_fn(closed, trace):
    """The body with its literals as values of ``trace`` (the known body's): a literal a
    tangent equation reads is then a residual, as in JAX, not a literal of the tangent
    body."""
    j = closed.jaxpr

    def fun(*xs):
        env = dict(zip(j.constvars, closed.consts, strict=True))
        env.update(zip(j.invars, xs, strict=True))

        def read(a):
            return trace.pure(a.val) if isinstance(a, Literal) else env[a]
        for e in j.eqns:
            outs = e.primitive.bind(*[read(a) for a in e.invars], **e.params)
            env.update(zip(e.outvars, outs if e.primitive.multiple_results else [outs],
                           strict=True))
        return [read(a) for a in j.outvars]
    return fun


# ---------------------------------------------------------------------------------------
# Forward mode

def _shard_map_jvp(primals, tangents, *, jaxpr, mesh, in_specs, out_specs, check_vma,
                   newly_manual_axes):
    nz_in = [not isinstance(t, Zero) for t in tangents]
    body_avals = jaxpr.in_avals
    t_avals = [tangent_aval(a) for a, nz in zip(body_avals, nz_in) if nz]
    n = len(primals)
    store = {}

    def fun(*ins):
        ps, ts = list(ins[:n]), iter(ins[n:])
        ts = [next(ts) if nz else Zero(tangent_aval(a))
              for a, nz in zip(body_avals, nz_in)]
        outs, t_outs = ad.jvp_flat(_body_fn(jaxpr), ps, ts)
        store["nz"] = [not isinstance(t, Zero) for t in t_outs]
        return list(outs) + [t for t in t_outs if not isinstance(t, Zero)]
    with _in_body(mesh, newly_manual_axes, check_vma):
        body = trace_to_jaxpr(fun, list(body_avals) + t_avals)
    nz_out = store["nz"]
    outs = shard_map_p.bind(
        *primals, *[t for t in tangents if not isinstance(t, Zero)], jaxpr=body, mesh=mesh,
        in_specs=tuple(in_specs) + tuple(s for s, nz in zip(in_specs, nz_in) if nz),
        out_specs=tuple(out_specs) + tuple(s for s, nz in zip(out_specs, nz_out) if nz),
        check_vma=check_vma, newly_manual_axes=newly_manual_axes)
    p_out, t_iter = outs[:len(out_specs)], iter(outs[len(out_specs):])
    return p_out, [next(t_iter) if nz else Zero(tangent_aval(core.get_aval(p)))
                   for p, nz in zip(p_out, nz_out)]


# ---------------------------------------------------------------------------------------
# Linearize and transpose

def _shard_map_linearize(primals, tangents, *, jaxpr, mesh, in_specs, out_specs,
                         check_vma, newly_manual_axes):
    params = dict(jaxpr=jaxpr, mesh=mesh, in_specs=in_specs, out_specs=out_specs,
                  check_vma=check_vma, newly_manual_axes=newly_manual_axes)
    nz_in = [not isinstance(t, Zero) for t in tangents]
    if not any(nz_in):
        outs = shard_map_p.bind(*primals, **params)
        return outs, [Zero(tangent_aval(core.get_aval(o))) for o in outs]
    store = {}

    def known(*xs):
        body = _known_body_fn(jaxpr, xs[0]._trace)
        outs, lin, zero_out = ad.linearize_flat(body, list(xs), nz_in)
        fwd, res = [], []
        for r in lin.consts:
            if not isinstance(r, core.Tracer):  # a constant: stays in the tangent body
                fwd.append(None)
                continue
            i = next((k for k, x in enumerate(xs) if _same(r, x)), None)
            j = None if i is not None else next(
                (k for k, o in enumerate(outs) if _same(r, o)), None)
            fwd.append((i, j))
            if i is None and j is None:
                res.append(r)
        store.update(lin=lin, zero_out=zero_out, fwd=fwd,
                     res_avals=[core.get_aval(r) for r in res])
        res = [broadcast_in_dim(r, (1,), ()) if not core.get_aval(r).shape else r
               for r in res]
        return res + list(outs)
    with _in_body(mesh, newly_manual_axes, check_vma):
        known_body = trace_to_jaxpr(known, jaxpr.in_avals)
    lin, zero_out, fwd = store["lin"], store["zero_out"], store["fwd"]
    if known_body.consts:  # closed-over arrays: not split (the expansion's JVP then)
        return _expanded_jvp(primals, tangents, **params)
    res_specs = [_residual_spec(a, mesh, newly_manual_axes, check_vma)
                 for a in store["res_avals"]]
    outs = shard_map_p.bind(*primals, jaxpr=known_body, mesh=mesh, in_specs=in_specs,
                            out_specs=tuple(res_specs) + tuple(out_specs),
                            check_vma=check_vma, newly_manual_axes=newly_manual_axes)
    computed, p_out = iter(outs[:len(res_specs)]), outs[len(res_specs):]
    spec_iter = iter(res_specs)
    residuals, all_res_specs, promote = [], [], []
    for k, f in enumerate(fwd):
        if f is None:
            continue
        i, j = f
        if i is not None:
            residuals.append(primals[i])
            all_res_specs.append(in_specs[i])
        elif j is not None:
            residuals.append(p_out[j])
            all_res_specs.append(out_specs[j])
        else:
            residuals.append(next(computed))
            all_res_specs.append(next(spec_iter))
        promote.append(i is None and j is None and not lin.jaxpr.constvars[k].aval.shape)
    tan_body = _tangent_body(lin, [f is None for f in fwd], promote, zero_out, mesh,
                             newly_manual_axes, check_vma)
    nz_t = [t for t in tangents if not isinstance(t, Zero)]
    t_outs = shard_map_p.bind(
        *residuals, *nz_t, jaxpr=tan_body, mesh=mesh,
        in_specs=tuple(all_res_specs) + tuple(s for s, nz in zip(in_specs, nz_in) if nz),
        out_specs=tuple(s for s, z in zip(out_specs, zero_out) if not z),
        check_vma=check_vma, newly_manual_axes=newly_manual_axes)
    t_iter = iter(t_outs)
    return p_out, [Zero(tangent_aval(core.get_aval(p))) if z else next(t_iter)
                   for p, z in zip(p_out, zero_out)]


def _tangent_body(lin: ClosedJaxpr, closed, promote, zero_out, mesh, manual,
                  check_vma) -> ClosedJaxpr:
    """The linear jaxpr with its residuals as leading operands (scalar ones promoted to
    ``[1]`` blocks), its constants (``closed``) kept as constants and its symbolically
    zero outputs left out."""
    j = lin.jaxpr
    consts = [c for c, k in zip(lin.consts, closed) if k]
    res_vars = tuple(v for v, k in zip(j.constvars, closed) if not k)
    flat = Jaxpr(tuple(v for v, k in zip(j.constvars, closed) if k), res_vars + j.invars,
                 tuple(v for v, z in zip(j.outvars, zero_out) if not z), j.eqns)
    flat = _dce(flat)
    n_res = len(res_vars)

    def fun(*args):
        res = [squeeze(r, (0,)) if p else r for r, p in zip(args[:n_res], promote)]
        return eval_jaxpr(flat, consts, *res, *args[n_res:])
    avals = [ShapedArray((1,), v.aval.dtype, v.aval.weak_type, v.aval.vma) if p else v.aval
             for v, p in zip(res_vars, promote)] + [v.aval for v in j.invars]
    with _in_body(mesh, manual, check_vma):
        return trace_to_jaxpr(fun, avals)


def _shard_map_transpose(cts, *args, jaxpr, mesh, in_specs, out_specs, check_vma,
                         newly_manual_axes):
    manual = newly_manual_axes
    if all(isinstance(c, Zero) for c in cts):
        return [None] * len(args)
    if not check_vma:  # a replicated output's cotangent reaches every member's copy
        cts = [c if isinstance(c, Zero) or core.get_aval(c).dtype == ad.float0 else
               _divide(c, int(np.prod([mesh.shape[n] for n in _unmentioned(mesh, manual, s)])))
               for c, s in zip(cts, out_specs)]
    body = jaxpr.jaxpr
    undef = [is_undefined_primal(a) for a in args]
    nz_ct = [not isinstance(c, Zero) for c in cts]
    known_vars = [v for v, u in zip(body.invars, undef) if not u]
    lin_vars = [v for v, u in zip(body.invars, undef) if u]
    rev = Jaxpr(body.constvars + tuple(known_vars), tuple(lin_vars), body.outvars,
                body.eqns)
    out_avals = jaxpr.out_avals
    n_ct = sum(nz_ct)
    store = {}

    def fun(*ins):
        it = iter(ins[:n_ct])
        full = [next(it) if nz else Zero(a) for a, nz in zip(out_avals, nz_ct)]
        pre, consts = _forward_part(rev, list(jaxpr.consts) + list(ins[n_ct:]))
        got = ad.backward_pass(pre, consts, None, full)
        specs = [s for s, u in zip(in_specs, undef) if u]
        if not check_vma:
            got = [g if isinstance(g, Zero) else
                   _psum_over(g, _unmentioned(mesh, manual, s)) for g, s in zip(got, specs)]
        store["nz"] = [not isinstance(g, Zero) for g in got]
        return [g for g in got if not isinstance(g, Zero)]
    avals = [a for a, nz in zip(out_avals, nz_ct) if nz] + [v.aval for v in known_vars]
    with _in_body(mesh, manual, check_vma):
        trans = trace_to_jaxpr(fun, avals)
    lin_specs = [s for s, u in zip(in_specs, undef) if u]
    out_sp = tuple(s for s, nz in zip(lin_specs, store["nz"]) if nz)
    if not out_sp:
        return [None] * len(args)
    res = shard_map_p.bind(
        *[c for c in cts if not isinstance(c, Zero)],
        *[a for a, u in zip(args, undef) if not u], jaxpr=trans, mesh=mesh,
        in_specs=tuple(s for s, nz in zip(out_specs, nz_ct) if nz)
        + tuple(s for s, u in zip(in_specs, undef) if not u),
        out_specs=out_sp, check_vma=check_vma, newly_manual_axes=manual)
    it, nz_it = iter(res), iter(store["nz"])
    return [(next(it) if next(nz_it) else None) if u else None for u in undef]


def _forward_part(rev: Jaxpr, consts: list):
    """Evaluate the equations of ``rev`` that read no linear input first, in order (as
    JAX's transpose of a shard_map body does); ``rev`` without them, their outputs
    constants."""
    env = dict(zip(rev.constvars, consts, strict=True))
    linear = set(rev.invars)
    rest = []
    for e in rev.eqns:
        if any(not isinstance(a, Literal) and a in linear for a in e.invars):
            linear.update(e.outvars)
            rest.append(e)
            continue
        vals = [a.val if isinstance(a, Literal) else env[a] for a in e.invars]
        outs = e.primitive.bind(*vals, **e.params)
        env.update(zip(e.outvars, outs if e.primitive.multiple_results else [outs],
                       strict=True))
    known = list(env)
    return (rev.replace(constvars=tuple(known), eqns=tuple(rest)),
            [env[v] for v in known])


def _divide(ct, n: int):
    if n == 1:
        return ct
    return ct / n


def _psum_over(x, names):
    return parallel.psum(x, tuple(names)) if names else x


# ---------------------------------------------------------------------------------------
# Batching

def batch_spec(spec, dim: int) -> PartitionSpec:
    """``spec`` with an unsplit (``None``) entry for a batch axis inserted at ``dim``."""
    parts = list(spec) + [None] * max(0, dim - len(spec))
    parts.insert(dim, None)
    return PartitionSpec(*parts)


def _shard_map_batch(vals, dims, *, jaxpr, mesh, in_specs, out_specs, check_vma,
                     newly_manual_axes):
    size = next(core.get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    avals = []
    for a, d in zip(jaxpr.in_avals, dims):
        if d is not None:
            shape = list(a.shape)
            shape.insert(d, size)
            a = a.update(shape=tuple(shape))
        avals.append(a)
    store = {}

    def fun(*xs):
        outs, out_dims = batching.batch_flat(_body_fn(jaxpr), list(xs), list(dims), size)
        store["dims"] = out_dims
        return outs
    with _in_body(mesh, newly_manual_axes, check_vma):
        body = trace_to_jaxpr(fun, avals)
    out_dims = store["dims"]
    outs = shard_map_p.bind(
        *vals, jaxpr=body, mesh=mesh,
        in_specs=tuple(s if d is None else batch_spec(s, d) for s, d in zip(in_specs, dims)),
        out_specs=tuple(s if d is None else batch_spec(s, d)
                        for s, d in zip(out_specs, out_dims)),
        check_vma=check_vma, newly_manual_axes=newly_manual_axes)
    return outs, out_dims


_expanded_jvp = ad.jvp_rules[shard_map_p]  # the batched expansion's (set before this)
ad.jvp_rules[shard_map_p] = _shard_map_jvp
ad.linearize_rules[shard_map_p] = _shard_map_linearize
ad.transpose_rules[shard_map_p] = _shard_map_transpose
batching.primitive_batchers[shard_map_p] = _shard_map_batch
