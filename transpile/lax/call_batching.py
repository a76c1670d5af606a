"""Batching rules of the call-like primitives: ``jit`` (``call.py``), ``custom_jvp_call``,
``custom_vjp_call`` and ``remat2`` (``custom_derivatives.py``).

``jit``
    A batched ``jit`` of the batched body, name unchanged; the body takes its operands
    with their batch axes where they are and its outputs keep theirs (JAX's
    ``batch_jaxpr2``). Batched bodies are cached per (body, axes, size), so a function
    called twice shares one batched body (printed once as ``let``).
``custom_jvp_call`` / ``custom_vjp_call`` / ``remat2``
    The call jaxpr is batched (batched operands at axis 0). The differentiation rule
    (the hidden ``_rule`` closure) is wrapped so that it takes batched primals and
    tangents: the user's rule runs under ``vmap``; for ``custom_vjp`` the residuals
    and the backward function are batched too.
"""
from __future__ import annotations

import weakref

from .. import core, tree_util
from ..interpreters import ad
from ..interpreters.batching import (batch_flat, bdim_at_front, matchaxis, moveaxis,
                                     not_mapped, primitive_batchers)
from .call import jit_p
from .control_flow_batching import batch_jaxpr, batch_jaxpr_axes
from .custom_derivatives import (_Hidden, _is_staged_tangent, bwd_cotangent_leaves,
                                 custom_jvp_call_p, custom_lin_p, custom_vjp_call_p,
                                 remat_p)

# ---------------------------------------------------------------------------------------
# jit

_jit_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _jit_batch(vals, dims, *, jaxpr, name):
    size = next(core.get_aval(x).shape[d] for x, d in zip(vals, dims, strict=True)
                if d is not not_mapped)
    key = (tuple(dims), size)
    table = _jit_cache.setdefault(jaxpr, {})
    if key not in table:
        table[key] = batch_jaxpr_axes(jaxpr, size, list(dims), "natural")
    batched, out_dims = table[key]
    return jit_p.bind(*vals, jaxpr=batched, name=name), list(out_dims)


primitive_batchers[jit_p] = _jit_batch


# ---------------------------------------------------------------------------------------
# remat2 and custom_jvp_call

def _front(vals, dims):
    """Batched operands moved to axis 0; (values, which are batched)."""
    bat = [d is not not_mapped for d in dims]
    return [moveaxis(x, d, 0) if b else x for x, d, b in zip(vals, dims, bat)], bat


def _size(vals, dims) -> int:
    return next(core.get_aval(x).shape[d] for x, d in zip(vals, dims, strict=True)
                if d is not not_mapped)


def _remat_batch(vals, dims, *, jaxpr, **params):
    size = _size(vals, dims)
    vals, bat = _front(vals, dims)
    batched, out_bat = batch_jaxpr(jaxpr, size, bat, False)
    outs = remat_p.bind(*vals, jaxpr=batched, **params)
    return outs, [0 if b else not_mapped for b in out_bat]


def _batched_jvp_rule(rule, size: int, in_bat: list, out_bat: list):
    """``rule(primals, tangents)`` for primals batched at 0 where ``in_bat``: the
    original rule under vmap, outputs batched at 0 where ``out_bat``."""
    n_out = len(out_bat)

    def batched_rule(primals, tangents):
        tangents = [ad.instantiate(t) for t in tangents]
        dims = [0 if b else not_mapped for b in in_bat]
        n = len(primals)

        def flat(*xs):
            outs, t_outs = rule(list(xs[:n]), list(xs[n:]))
            return list(outs) + list(t_outs)
        outs, out_dims = batch_flat(flat, list(primals) + tangents, dims + dims, size)
        res = []
        for i, (o, d) in enumerate(zip(outs, out_dims, strict=True)):
            want = 0 if out_bat[i % n_out] else not_mapped
            if want is not_mapped and d is not not_mapped:
                raise NotImplementedError("custom_jvp rule under vmap batched an output "
                                          "its function leaves unbatched")
            res.append(o if want is not_mapped else matchaxis(d, 0, o, size))
        return res[:n_out], res[n_out:]
    return batched_rule


def _custom_jvp_batch(vals, dims, *, call_jaxpr, jvp, name, symbolic_zeros, _rule):
    size = _size(vals, dims)
    vals, bat = _front(vals, dims)
    batched, out_bat = batch_jaxpr(call_jaxpr, size, bat, False)
    new_rule = _batched_jvp_rule(_rule.value, size, bat, out_bat)
    outs = custom_jvp_call_p.bind(*vals, call_jaxpr=batched, jvp=jvp, name=name,
                                  symbolic_zeros=symbolic_zeros, _rule=_Hidden(new_rule))
    return outs, [0 if b else not_mapped for b in out_bat]


# ---------------------------------------------------------------------------------------
# custom_vjp_call: its rule binds ``custom_lin`` (residuals, tangents) whose transpose
# calls the user's bwd; batched, every residual and tangent is batched at 0 and the bwd
# runs under vmap.

def _custom_vjp_batch(vals, dims, *, call_jaxpr, fwd, bwd, name, symbolic_zeros, _rule):
    size = _size(vals, dims)
    vals, bat = _front(vals, dims)
    # Every output batched (their tangents come from the batched bwd, all batched).
    batched, _ = batch_jaxpr(call_jaxpr, size, bat, True)
    parts = _rule.value.parts
    in_dims = [0 if b else not_mapped for b in bat]

    def batched_rule(primals, tangents):
        if not any(_is_staged_tangent(t) for t in tangents):
            raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp "
                            "function.")
        return _vmapped_vjp_rule(parts, size, list(primals), in_dims, list(tangents))
    outs = custom_vjp_call_p.bind(*vals, call_jaxpr=batched, fwd=fwd, bwd=bwd, name=name,
                                  symbolic_zeros=symbolic_zeros,
                                  _rule=_Hidden(batched_rule))
    return outs, [0] * len(outs)


def _vmapped_vjp_rule(parts, size, primals, in_dims, tangents):
    """The custom_vjp rule on batched primals: ``fwd`` under vmap, then a
    ``custom_lin`` of batched residuals and tangents whose bwd runs under vmap."""
    k = parts["n_extra"]
    in_tree, nd, fixed = parts["in_tree"], parts["nd"], parts["fixed"]
    store = {}

    def flat_fwd(*xs):
        out, res = parts["fwd"](*parts["full_args"](tree_util.tree_unflatten(in_tree,
                                                                             list(xs))))
        out_leaves = tree_util.tree_leaves(out)
        res_leaves, store["res_tree"] = tree_util.tree_flatten(res)
        store["n_out"] = len(out_leaves)
        return out_leaves + res_leaves
    outs, dims = batch_flat(flat_fwd, primals[k:], in_dims[k:], size)
    outs = [bdim_at_front(o, d, size) for o, d in zip(outs, dims, strict=True)]
    n_out = store["n_out"]
    prim_outs, res = outs[:n_out], outs[n_out:]
    ts = [bdim_at_front(ad.instantiate(t), d, size)
          for t, d in zip(tangents[k:], in_dims[k:], strict=True)]
    user_bwd, res_tree = parts["bwd"], store["res_tree"]
    out_avals = [a.strip_weak_type() for a in parts["out_avals"]]

    def batched_bwd(r, ct):
        r_leaves = tree_util.tree_leaves(r)
        ct_leaves, ct_tree = tree_util.tree_flatten(ct)

        def one(*leaves):
            rr = tree_util.tree_unflatten(res_tree, list(leaves[:len(r_leaves)]))
            cc = tree_util.tree_unflatten(ct_tree, list(leaves[len(r_leaves):]))
            got = user_bwd(*[fixed[i] for i in nd], rr, cc) if nd else user_bwd(rr, cc)
            return [ad.instantiate(g) for g in
                    bwd_cotangent_leaves(got, in_tree, parts["in_avals"], zeros=True)]
        leaves = r_leaves + ct_leaves
        got, gdims = batch_flat(one, leaves, [0] * len(leaves), size)
        got = [matchaxis(d, 0, g, size) for g, d in zip(got, gdims, strict=True)]
        return tuple(tree_util.tree_unflatten(in_tree, got))
    b_in = tuple(a.update(shape=(size,) + a.shape) for a in parts["in_avals"])
    b_out = tuple(ad.tangent_aval(a.update(shape=(size,) + a.shape)) for a in out_avals)
    t_out = custom_lin_p.bind(*res, *ts, num_res=len(res), out_avals=b_out,
                              bwd=_Hidden((batched_bwd, res_tree, parts["out_tree"],
                                           in_tree, b_in, (), {})))
    return prim_outs, t_out


primitive_batchers[remat_p] = _remat_batch
primitive_batchers[custom_jvp_call_p] = _custom_jvp_batch
primitive_batchers[custom_vjp_call_p] = _custom_vjp_batch
