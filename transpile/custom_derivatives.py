"""User-defined derivatives and rematerialisation: ``custom_jvp``, ``custom_vjp`` and
``checkpoint`` (``remat``), with JAX's names, jaxpr text and errors.

* ``custom_jvp(f)`` with ``f.defjvp(jvp)``: traces to a ``custom_jvp_call`` equation;
  differentiating it runs the user's ``jvp(primals, tangents)`` instead of ``f``'s body
  (under ``grad`` its tangent part is then transposed like any other).
* ``custom_vjp(f)`` with ``f.defvjp(fwd, bwd)``: a ``custom_vjp_call`` equation; under
  reverse mode ``fwd`` runs with the primals and its residuals feed a linear
  ``custom_lin`` equation whose transpose calls ``bwd(residuals, cotangents)``.
  Forward mode raises JAX's error.
* ``checkpoint(f)``: a ``remat2`` equation; differentiating it differentiates its body
  (the values are exact; the saving of memory by recomputation is not implemented).

The primitives and their rules are in ``lax.custom_derivatives`` (batching rules:
``lax.call_batching``); this module is the API that builds their equations.
"""
from __future__ import annotations

import functools
from typing import Callable

from . import core, tree_util
from .interpreters import ad
from .interpreters.tracing import split_tracer_consts, trace_to_jaxpr
from .lax.custom_derivatives import (_Hidden, _is_staged_tangent,  # noqa: F401
                                     custom_jvp_call_p, custom_lin_p, custom_vjp_call_p,
                                     remat_p)

__all__ = ["custom_jvp", "custom_vjp", "checkpoint", "remat", "custom_jvp_call_p",
           "custom_vjp_call_p", "custom_lin_p", "remat_p"]


def _trace_flat(fun: Callable, args: tuple, kwargs: dict):
    """``fun(*args, **kwargs)`` traced to a ClosedJaxpr of the flat argument leaves;
    returns (closed jaxpr, flat leaves, out tree)."""
    leaves, in_tree = tree_util.tree_flatten((args, kwargs))
    store = {}

    def flat(*xs):
        a, k = tree_util.tree_unflatten(in_tree, list(xs))
        out_leaves, store["tree"] = tree_util.tree_flatten(fun(*a, **k))
        return out_leaves
    avals = [core.get_aval(x) for x in leaves]
    closed = trace_to_jaxpr(flat, avals)
    closed, extra = split_tracer_consts(closed)
    return closed, list(extra) + list(leaves), store["tree"], len(extra)


def _name(fun) -> str:
    return getattr(fun, "__name__", type(fun).__name__)


class _FnName:
    """A function shown in jaxpr params by its name (``jvp=f_jvp``)."""

    def __init__(self, fn):
        self.fn = fn

    def __repr__(self) -> str:
        return _name(self.fn)

    __str__ = __repr__


# ---------------------------------------------------------------------------------------
# custom_jvp

class custom_jvp:  # noqa: N801  (JAX's name)
    """A function with a user-defined JVP rule.

    Parameters
    ----------
    fun : callable
    nondiff_argnums : tuple of int
        Arguments passed through to the rule undifferentiated (first, in order).

    Examples
    --------
    >>> @custom_jvp
    ... def f(x):
    ...     return transpile.numpy.sin(x)
    >>> @f.defjvp
    ... def f_jvp(primals, tangents):
    ...     (x,), (t,) = primals, tangents
    ...     return f(x), transpile.numpy.cos(x) * t
    """

    def __init__(self, fun: Callable, nondiff_argnums: tuple = ()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.jvp = None

    def defjvp(self, jvp: Callable, symbolic_zeros: bool = False) -> Callable:
        """Set the rule ``jvp(primals, tangents) -> (primal_out, tangent_out)``."""
        self.jvp = jvp
        self.symbolic_zeros = symbolic_zeros
        return jvp

    def defjvps(self, *jvps: Callable | None) -> None:
        """One rule per argument, ``jvps[i](g, ans, *args)``, their terms summed."""
        def jvp(primals, tangents):
            ans = self(*primals)
            total = None
            for fn, t in zip(jvps, tangents, strict=True):
                if fn is None:
                    continue
                term = fn(t, ans, *primals)
                total = term if total is None else tree_util.tree_map(
                    lambda a, b: a + b, total, term)
            return ans, total
        self.defjvp(jvp)

    def __call__(self, *args, **kwargs):
        if self.jvp is None:
            raise AttributeError(f"No JVP defined for custom_jvp function {_name(self.fun)} "
                                 "using defjvp.")
        nd = self.nondiff_argnums
        fixed = {i: args[i] for i in nd}
        dyn = tuple(a for i, a in enumerate(args) if i not in fixed)

        def body(*d):
            full, it = [], iter(d)
            for i in range(len(args)):
                full.append(fixed[i] if i in fixed else next(it))
            return self.fun(*full, **kwargs)
        closed, leaves, out_tree, n_extra = _trace_flat(body, dyn, {})
        user_jvp = self.jvp

        def rule(primals, tangents):
            p_args, _ = tree_util.tree_unflatten(
                tree_util.tree_structure((dyn, {})), list(primals[n_extra:]))
            t_args, _ = tree_util.tree_unflatten(
                tree_util.tree_structure((dyn, {})),
                [ad.instantiate(t) for t in tangents[n_extra:]])
            out, t_out = user_jvp(tuple(fixed[i] for i in nd) + tuple(p_args), tuple(t_args)) \
                if nd else user_jvp(tuple(p_args), tuple(t_args))
            outs, t_outs = tree_util.tree_leaves(out), tree_util.tree_leaves(t_out)
            for o, t in zip(outs, t_outs):
                want = ad.tangent_aval(core.get_aval(o).strip_weak_type())
                got = core.get_aval(t).strip_weak_type()
                if got.shape != want.shape or got.dtype != want.dtype:
                    raise TypeError(
                        "Custom JVP rule must produce primal and tangent outputs with "
                        f"corresponding shapes and dtypes. Expected {want.str_long()} "
                        f"(tangent type of {core.get_aval(o).strip_weak_type().str_long()}) "
                        f"but got {got.str_long()}.")
            return outs, t_outs
        outs = custom_jvp_call_p.bind(*leaves, call_jaxpr=closed, jvp=_FnName(user_jvp),
                                      name=_name(self.fun),
                                      symbolic_zeros=getattr(self, "symbolic_zeros", False),
                                      _rule=_Hidden(rule))
        return tree_util.tree_unflatten(out_tree, outs)


# ---------------------------------------------------------------------------------------
# custom_vjp

class custom_vjp:  # noqa: N801  (JAX's name)
    """A function with a user-defined VJP: ``f.defvjp(fwd, bwd)``.

    ``fwd(*args)`` returns ``(output, residuals)``; ``bwd(residuals, cotangent)``
    returns a tuple with one cotangent per argument.
    """

    def __init__(self, fun: Callable, nondiff_argnums: tuple = ()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.fwd = self.bwd = None

    def defvjp(self, fwd: Callable, bwd: Callable, symbolic_zeros: bool = False) -> None:
        """Set the forward function and the backward function."""
        self.fwd, self.bwd = fwd, bwd
        self.symbolic_zeros = symbolic_zeros

    def __call__(self, *args, **kwargs):
        if self.fwd is None:
            raise AttributeError(f"No VJP defined for custom_vjp function {_name(self.fun)} "
                                 "using defvjp.")
        nd = self.nondiff_argnums
        fixed = {i: args[i] for i in nd}
        dyn = tuple(a for i, a in enumerate(args) if i not in fixed)

        def full_args(d):
            out, it = [], iter(d)
            for i in range(len(args)):
                out.append(fixed[i] if i in fixed else next(it))
            return out
        closed, leaves, out_tree, n_extra = _trace_flat(
            lambda *d: self.fun(*full_args(d), **kwargs), dyn, {})
        in_tree = tree_util.tree_structure(dyn)
        fwd, bwd = self.fwd, self.bwd
        out_avals = list(closed.out_avals)
        in_avals = [core.get_aval(x) for x in leaves[n_extra:]]

        def rule(primals, tangents):
            if not any(_is_staged_tangent(t) for t in tangents):
                raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp "
                                "function.")
            p_args = tree_util.tree_unflatten(in_tree, list(primals[n_extra:]))
            out, res = fwd(*full_args(p_args))
            res_leaves, res_tree = tree_util.tree_flatten(res)
            ts = [ad.instantiate(t) for t in tangents[n_extra:]]
            t_out = custom_lin_p.bind(
                *res_leaves, *ts, num_res=len(res_leaves),
                out_avals=tuple(ad.tangent_aval(a.strip_weak_type()) for a in out_avals),
                bwd=_Hidden((bwd, res_tree, out_tree, in_tree, tuple(in_avals), nd, fixed)))
            return tree_util.tree_leaves(out), t_out
        # What the batching rule (lax/call_batching.py) needs to run the rule under vmap.
        rule.parts = dict(fwd=fwd, bwd=bwd, full_args=full_args, in_tree=in_tree,
                          n_extra=n_extra, nd=nd, fixed=fixed, out_avals=out_avals,
                          in_avals=in_avals, out_tree=out_tree)
        outs = custom_vjp_call_p.bind(*leaves, call_jaxpr=closed, fwd=_FnName(fwd),
                                      bwd=_FnName(bwd), name=_name(self.fun),
                                      symbolic_zeros=getattr(self, "symbolic_zeros", False),
                                      _rule=_Hidden(rule))
        return tree_util.tree_unflatten(out_tree, outs)


# ---------------------------------------------------------------------------------------
# checkpoint

def checkpoint(fun: Callable, *, prevent_cse: bool = True, policy=None,
               static_argnums: tuple = ()):
    """``fun`` marked for rematerialisation (``jax.checkpoint``).

    Its jaxpr shows a ``remat2`` equation; derivatives are exact. transpile does not
    recompute the residuals in the backward pass (it keeps them), so memory use is that
    of the function without ``checkpoint``.

    Returns
    -------
    callable
    """
    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        closed, leaves, out_tree, _ = _trace_flat(fun, args, kwargs)
        outs = remat_p.bind(*leaves, jaxpr=closed, prevent_cse=prevent_cse,
                            differentiated=False, policy=policy)
        return tree_util.tree_unflatten(out_tree, outs)
    return wrapped


remat = checkpoint
