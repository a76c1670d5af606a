"""Primitives of user-defined derivatives and rematerialisation: ``custom_jvp_call``,
``custom_vjp_call``, ``custom_lin`` and ``remat2``, with their NumPy, printing and
differentiation rules (batching rules: ``lax.call_batching``). The API that builds
their equations (``custom_jvp``, ``custom_vjp``, ``checkpoint``) is
``transpile.custom_derivatives``.
"""
from __future__ import annotations

from .. import core, tree_util
from ..interpreters import ad
from ..interpreters.eval import eval_jaxpr, eval_jaxpr_numpy
from ..ir import ClosedJaxpr, pp_param_rules
from ._base import _as_value

__all__ = ["custom_jvp_call_p", "custom_vjp_call_p", "custom_lin_p", "remat_p",
           "bwd_cotangent_leaves"]


def _eval_call(*args, call_jaxpr: ClosedJaxpr, **_):
    return eval_jaxpr_numpy(call_jaxpr.jaxpr, call_jaxpr.consts, *args)


# ---------------------------------------------------------------------------------------
# custom_jvp

custom_jvp_call_p = core.new_primitive("custom_jvp_call", multiple_results=True)
custom_jvp_call_p.def_abstract_eval(lambda *avals, call_jaxpr, **_: list(call_jaxpr.out_avals))
custom_jvp_call_p.def_impl(_eval_call)
pp_param_rules[custom_jvp_call_p] = lambda p: [
    ("name", p["name"]), ("call_jaxpr", p["call_jaxpr"]), ("jvp", p["jvp"]),
    ("symbolic_zeros", p["symbolic_zeros"])]


class _Hidden:
    """A param carried by an equation but not printed (the rule closure)."""

    def __init__(self, value):
        self.value = value

    def __repr__(self) -> str:
        return "<rule>"


def _custom_jvp_call_jvp(primals, tangents, *, call_jaxpr, jvp, name, symbolic_zeros, _rule):
    return _rule.value(list(primals), list(tangents))


ad.jvp_rules[custom_jvp_call_p] = _custom_jvp_call_jvp


# ---------------------------------------------------------------------------------------
# custom_vjp

custom_vjp_call_p = core.new_primitive("custom_vjp_call", multiple_results=True)
custom_vjp_call_p.def_abstract_eval(lambda *avals, call_jaxpr, **_: list(call_jaxpr.out_avals))
custom_vjp_call_p.def_impl(_eval_call)
pp_param_rules[custom_vjp_call_p] = lambda p: [
    ("name", p["name"]), ("bwd", p["bwd"]), ("call_jaxpr", p["call_jaxpr"]),
    ("fwd", p["fwd"]), ("symbolic_zeros", p["symbolic_zeros"])]

#: The linear stand-in for a custom_vjp function in a tangent jaxpr: operands are the
#: residuals then the input tangents; its transpose calls the user's ``bwd``.
custom_lin_p = core.new_primitive("custom_lin", multiple_results=True)
custom_lin_p.def_abstract_eval(lambda *avals, out_avals, **_: list(out_avals))


def _custom_lin_impl(*args, **params):
    raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function.")


custom_lin_p.def_impl(_custom_lin_impl)


def _is_staged_tangent(t) -> bool:
    if not isinstance(t, core.Tracer):
        return False
    payload = t._trace.main.payload
    return bool(getattr(payload, "linear", False))


def _custom_vjp_call_jvp(primals, tangents, *, call_jaxpr, fwd, bwd, name, symbolic_zeros,
                         _rule):
    return _rule.value(list(primals), list(tangents))


def _custom_lin_transpose(cts, *args, num_res, out_avals, bwd):
    user_bwd, res_tree, out_tree, in_tree, in_avals, nd, fixed = bwd.value
    res = tree_util.tree_unflatten(res_tree, list(args[:num_res]))
    cts = [_as_value(ad.instantiate(c)) for c in cts]
    ct_out = tree_util.tree_unflatten(out_tree, cts)
    if nd:
        cts_in = user_bwd(*[fixed[i] for i in nd], res, ct_out)
    else:
        cts_in = user_bwd(res, ct_out)
    flat = bwd_cotangent_leaves(cts_in, in_tree, in_avals)
    return [None] * num_res + flat


def bwd_cotangent_leaves(cts_in, in_tree, in_avals, zeros: bool = False) -> list:
    """The leaves of a custom_vjp ``bwd`` output, one per differentiable input leaf,
    checked against the inputs as JAX checks them. ``None`` (for an argument or for any
    part of one) stands for zeros: ``None`` in the list, or zeros with ``zeros``."""
    children = tree_util.treedef_children(in_tree)
    if not isinstance(cts_in, (tuple, list)) or len(cts_in) != len(children):
        got = tree_util.tree_structure(tuple(cts_in) if isinstance(cts_in, list) else cts_in)
        raise TypeError("Custom VJP bwd rule must produce an output with the same container "
                        "(pytree) structure as the args tuple of the primal function, and "
                        "in particular must produce a tuple of length equal to the number "
                        "of arguments to the primal function, but got bwd output structure "
                        f"{got} for primal input structure {in_tree}.")
    flat = []
    for ct, child in zip(cts_in, children):
        if ct is None:
            flat.extend([None] * child.num_leaves)
            continue
        leaves, tree = tree_util.tree_flatten(ct, is_leaf=lambda x: x is None)
        if len(leaves) != child.num_leaves:
            raise TypeError("Custom VJP bwd rule must produce an output with the same "
                            "container (pytree) structure as the args tuple of the primal "
                            f"function, but got bwd output structure {tree} for primal "
                            f"input structure {child}.")
        flat.extend(leaves)
    for i, (c, a) in enumerate(zip(flat, in_avals, strict=True)):
        if c is None:
            continue
        ca = core.get_aval(c)
        if ca.shape != a.shape:
            raise ValueError("Custom VJP bwd rule must produce an output with the same type "
                             "as the args tuple of the primal function, but at output"
                             f"[{i}] the bwd rule produced an output of type "
                             f"{ca.strip_weak_type().str_long()} corresponding to an input "
                             f"of type {a.strip_weak_type().str_long()}, so the shapes do "
                             "not match")
    if zeros:
        return [ad.zeros_like_aval(ad.tangent_aval(a.strip_weak_type())) if c is None else c
                for c, a in zip(flat, in_avals)]
    return flat


ad.jvp_rules[custom_vjp_call_p] = _custom_vjp_call_jvp
ad.transpose_rules[custom_lin_p] = _custom_lin_transpose


# ---------------------------------------------------------------------------------------
# checkpoint

remat_p = core.new_primitive("remat2", multiple_results=True)
remat_p.def_abstract_eval(lambda *avals, jaxpr, **_: list(jaxpr.out_avals))
remat_p.def_impl(lambda *args, jaxpr, **_: _eval_call(*args, call_jaxpr=jaxpr))
pp_param_rules[remat_p] = lambda p: [
    ("differentiated", p["differentiated"]), ("jaxpr", p["jaxpr"]), ("policy", p["policy"]),
    ("prevent_cse", p["prevent_cse"])]


def _remat_jvp(primals, tangents, *, jaxpr, **_):
    # The body is differentiated in place (the enclosing JVP or linearize trace applies
    # its rules to each equation), so the values are exactly those without checkpoint.
    return ad.jvp_flat(lambda *xs: eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *xs),
                       list(primals), list(tangents))


ad.jvp_rules[remat_p] = _remat_jvp
