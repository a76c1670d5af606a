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
import inspect
from typing import Callable

import numpy as np

from . import core, dtypes, tree_util
from .interpreters import ad
from .errors import UnexpectedTracerError
from .interpreters.tracing import split_tracer_consts, trace_to_jaxpr
from .lax.custom_derivatives import (_Hidden, _is_staged_tangent,  # noqa: F401
                                     custom_jvp_call_p, custom_lin_p, custom_vjp_call_p,
                                     remat_p)
from .lax.sorting import stop_gradient

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
# Calls: which trace a call meets decides what runs (as in JAX, the user's function is
# only traced where a jaxpr is being built or batched)

def _resolve_kwargs(fun: Callable, args: tuple, kwargs: dict) -> tuple:
    """``args`` and ``kwargs`` as positional arguments, defaults filled in, by ``fun``'s
    signature (the rules take positional primals only)."""
    try:
        sig = inspect.signature(fun)
    except (TypeError, ValueError):
        if kwargs:
            raise TypeError("keyword arguments could not be resolved to positions") from None
        return tuple(args)
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    if bound.kwargs:
        raise TypeError("keyword arguments could not be resolved to positions")
    return tuple(bound.args)


def _nondiff_value(value, kind: str):
    """A ``nondiff_argnums`` argument as the rules see it: for custom_jvp, its arrays
    under ``stop_gradient`` (no derivative flows through them); custom_vjp refuses
    tracers there, as JAX does."""
    def one(v):
        if not isinstance(v, core.Tracer):
            return v
        if kind == "custom_vjp":
            raise UnexpectedTracerError(
                "Found a JAX Tracer object passed as an argument to a custom_vjp function "
                "in a position indicated by nondiff_argnums as non-differentiable. Tracers "
                "cannot be passed as non-differentiable arguments to custom_vjp functions; "
                "instead, nondiff_argnums should only be used for arguments that can't be "
                "or contain JAX tracers, e.g. function-valued arguments. In particular, "
                "array-valued arguments should typically not be indicated as "
                "nondiff_argnums.")
        return stop_gradient(v)
    return tree_util.tree_map(one, value)


class _Call:
    """One call of a custom-derivative function: its arguments split into the
    non-differentiable ones (``nondiff_argnums``, passed to the rules as they are) and
    the differentiable ones, flattened."""

    def __init__(self, fun: Callable, nondiff_argnums: tuple, args: tuple, kwargs: dict,
                 kind: str = "custom_jvp"):
        args = _resolve_kwargs(fun, args, kwargs)
        self.n_args = len(args)
        self.nd = tuple(nondiff_argnums)
        self.fixed = {i: _nondiff_value(args[i], kind) for i in self.nd}
        self.dyn = tuple(a for i, a in enumerate(args) if i not in self.fixed)
        self.leaves, self.in_tree = tree_util.tree_flatten(self.dyn)
        self.trace = core.find_top_trace(self.leaves)

    @property
    def eager(self) -> bool:
        return type(self.trace) is core.EvalTrace

    @property
    def differentiating(self) -> bool:
        return ad.is_jvp_trace(self.trace)

    def full_args(self, dyn) -> list:
        """The arguments in their positions, ``dyn`` in the differentiable ones."""
        out, it = [], iter(dyn)
        for i in range(self.n_args):
            out.append(self.fixed[i] if i in self.fixed else next(it))
        return out

    def nondiff(self) -> list:
        return [self.fixed[i] for i in self.nd]

    def eager_args(self) -> list:
        # NumPy arrays come in with their canonical dtype, Python scalars as they are.
        leaves = [np.asarray(x, dtypes.canonicalize_dtype(x.dtype))
                  if isinstance(x, (np.ndarray, np.generic)) and x.dtype != ad.float0 else x
                  for x in self.leaves]
        return self.full_args(tree_util.tree_unflatten(self.in_tree, leaves))

    def split(self):
        """The primals and tangents of the arguments' JVP tracers."""
        tracers = [self.trace.full_raise(x) for x in self.leaves]
        return [t.primal for t in tracers], [t.tangent for t in tracers]

    def wrap(self, primals, tangents) -> list:
        """Outputs as tracers of the call's JVP trace."""
        tr = self.trace
        return [core.full_lower(tr.tracer(tr, p, t)) for p, t in zip(primals, tangents)]


def _check_tangents(outs, t_outs) -> None:
    if len(outs) != len(t_outs):
        raise TypeError("Custom JVP rule must produce primal and tangent outputs with equal "
                        f"container (pytree) structures, but got {len(outs)} primal and "
                        f"{len(t_outs)} tangent leaves.")
    for o, t in zip(outs, t_outs):
        want = ad.tangent_aval(core.get_aval(o).strip_weak_type())
        got = core.get_aval(t).strip_weak_type()
        if got.shape != want.shape or got.dtype != want.dtype:
            raise TypeError(
                "Custom JVP rule must produce primal and tangent outputs with "
                f"corresponding shapes and dtypes. Expected {want.str_long()} "
                f"(tangent type of {core.get_aval(o).strip_weak_type().str_long()}) "
                f"but got {got.str_long()}.")


# ---------------------------------------------------------------------------------------
# custom_jvp

class custom_jvp:  # noqa: N801  (JAX's name)
    """A function with a user-defined JVP rule.

    Called outside any transformation it simply runs ``fun``; differentiated, it runs
    the rule instead, with the primals of that level (concrete under plain ``grad``, so
    Python control flow on them works); under ``jit`` or ``vmap`` it is traced to a
    ``custom_jvp_call`` equation that keeps the rule.

    Parameters
    ----------
    fun : callable
    nondiff_argnums : tuple of int
        Arguments passed to the rule undifferentiated, first and in order:
        ``jvp(*nondiff_args, primals, tangents)``.

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
        self.symbolic_zeros = False

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

    def _run_rule(self, call: _Call, primals, tangents):
        """The user's rule on flat primals and tangents: (out tree, outs, tangents)."""
        p_args = tree_util.tree_unflatten(call.in_tree, list(primals))
        t_args = tree_util.tree_unflatten(call.in_tree, [ad.instantiate(t) for t in tangents])
        out, t_out = self.jvp(*call.nondiff(), tuple(p_args), tuple(t_args))
        outs, out_tree = tree_util.tree_flatten(out)
        t_outs = tree_util.tree_leaves(t_out)
        _check_tangents(outs, t_outs)
        return out_tree, outs, t_outs

    def __call__(self, *args, **kwargs):
        if self.jvp is None:
            raise AttributeError(f"No JVP defined for custom_jvp function {_name(self.fun)} "
                                 "using defjvp.")
        call = _Call(self.fun, self.nondiff_argnums, args, kwargs)
        if call.eager:
            return self.fun(*call.eager_args())
        if call.differentiating:
            primals, tangents = call.split()
            if all(isinstance(t, ad.Zero) for t in tangents):
                return self(*call.full_args(tree_util.tree_unflatten(call.in_tree, primals)))
            out_tree, outs, t_outs = self._run_rule(call, primals, tangents)
            return tree_util.tree_unflatten(out_tree, call.wrap(outs, t_outs))
        closed, leaves, out_tree, n_extra = _trace_flat(
            lambda *d: self.fun(*call.full_args(d)), call.dyn, {})

        def rule(primals, tangents):
            _, outs, t_outs = self._run_rule(call, primals[n_extra:], tangents[n_extra:])
            return outs, t_outs
        outs = custom_jvp_call_p.bind(*leaves, call_jaxpr=closed, jvp=_FnName(self.jvp),
                                      name=_name(self.fun), symbolic_zeros=self.symbolic_zeros,
                                      _rule=_Hidden(rule))
        return tree_util.tree_unflatten(out_tree, outs)


# ---------------------------------------------------------------------------------------
# custom_vjp

class custom_vjp:  # noqa: N801  (JAX's name)
    """A function with a user-defined VJP: ``f.defvjp(fwd, bwd)``.

    ``fwd(*args)`` returns ``(output, residuals)``; ``bwd(*nondiff_args, residuals,
    cotangent)`` returns a tuple with one cotangent per differentiable argument
    (``None`` for zeros). Called outside any transformation it simply runs ``fun``;
    under ``grad`` it runs ``fwd`` with the primals of that level and ``bwd`` in the
    backward pass; under ``jit`` or ``vmap`` it is traced to a ``custom_vjp_call``
    equation.
    """

    def __init__(self, fun: Callable, nondiff_argnums: tuple = ()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.fwd = self.bwd = None
        self.symbolic_zeros = False

    def defvjp(self, fwd: Callable, bwd: Callable, symbolic_zeros: bool = False) -> None:
        """Set the forward function and the backward function."""
        self.fwd, self.bwd = fwd, bwd
        self.symbolic_zeros = symbolic_zeros

    def _run_rule(self, call: _Call, primals, tangents, out_tree=None):
        """``fwd`` on flat primals, then the linear ``custom_lin`` of the tangents."""
        if not any(_is_staged_tangent(t) for t in tangents):
            raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp "
                            "function.")
        p_args = tree_util.tree_unflatten(call.in_tree, list(primals))
        out, res = self.fwd(*call.full_args(p_args))
        outs, fwd_tree = tree_util.tree_flatten(out)
        out_tree = fwd_tree if out_tree is None else out_tree
        res_leaves, res_tree = tree_util.tree_flatten(res)
        ts = [ad.instantiate(t) for t in tangents]
        in_avals = tuple(core.get_aval(x) for x in primals)
        t_out = custom_lin_p.bind(
            *res_leaves, *ts, num_res=len(res_leaves),
            out_avals=tuple(ad.tangent_aval(core.get_aval(o)) for o in outs),
            bwd=_Hidden((self.bwd, res_tree, out_tree, call.in_tree, in_avals, call.nd,
                         call.fixed)))
        return out_tree, outs, t_out

    def __call__(self, *args, **kwargs):
        if self.fwd is None:
            raise AttributeError(f"No VJP defined for custom_vjp function {_name(self.fun)} "
                                 "using defvjp.")
        call = _Call(self.fun, self.nondiff_argnums, args, kwargs, "custom_vjp")
        if call.eager:
            return self.fun(*call.eager_args())
        if call.differentiating:
            primals, tangents = call.split()
            if all(isinstance(t, ad.Zero) for t in tangents):
                return self(*call.full_args(tree_util.tree_unflatten(call.in_tree, primals)))
            out_tree, outs, t_outs = self._run_rule(call, primals, tangents)
            return tree_util.tree_unflatten(out_tree, call.wrap(outs, t_outs))
        closed, leaves, out_tree, n_extra = _trace_flat(
            lambda *d: self.fun(*call.full_args(d)), call.dyn, {})

        def rule(primals, tangents):
            _, outs, t_outs = self._run_rule(call, primals[n_extra:], tangents[n_extra:],
                                             out_tree)
            return outs, t_outs
        # What the batching rule (lax/call_batching.py) needs to run the rule under vmap.
        rule.parts = dict(fwd=self.fwd, bwd=self.bwd, full_args=call.full_args,
                          in_tree=call.in_tree, n_extra=n_extra, nd=call.nd, fixed=call.fixed,
                          out_avals=list(closed.out_avals),
                          in_avals=[core.get_aval(x) for x in leaves[n_extra:]],
                          out_tree=out_tree)
        outs = custom_vjp_call_p.bind(*leaves, call_jaxpr=closed, fwd=_FnName(self.fwd),
                                      bwd=_FnName(self.bwd), name=_name(self.fun),
                                      symbolic_zeros=self.symbolic_zeros,
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
