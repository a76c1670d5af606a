"""``lax.custom_linear_solve`` and ``lax.custom_root``: solves whose derivatives go
through the solver instead of through its iterations.

``custom_linear_solve(matvec, b, solve, transpose_solve)`` stages one
``custom_linear_solve`` equation holding four jaxprs (``matvec``, its transpose
``vecmat``, ``solve`` and ``transpose_solve``, each taking its closed-over values first)
in a ``_LinearSolveTuple``, as JAX 0.10.2 does. Its rules:

* value: ``solve(b)``;
* JVP: ``x = A^-1 b`` gives ``dx = A^-1 (db - dA x)``, the second solve being the same
  equation applied to the tangent right-hand side (``dA x`` is the JVP of ``matvec``
  in its closed-over values, ``x`` held fixed);
* transpose (the equation is linear in ``b``): the cotangent of ``b`` is the solve of
  the transposed system, the same equation with matvec/vecmat and
  solve/transpose_solve swapped;
* batching: the batch axis moved to the front; ``b`` and ``x`` batched only where
  the batched operands make them so (a fixed point over the four jaxprs, as in JAX);
* compiled: the ``inline`` pass splices the ``solve`` jaxpr in.

``custom_root(f, initial_guess, solve, tangent_solve)`` is a ``custom_jvp_call`` of the
solver whose JVP is the implicit function theorem: ``du = -(d_u f)^-1 (d_m f dm)``,
the inverse applied by ``tangent_solve``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import core, tree_util
from ..interpreters import ad
from ..interpreters.batching import bdim_at_front, not_mapped, primitive_batchers
from ..interpreters.eval import eval_jaxpr, eval_jaxpr_numpy
from ..interpreters.tracing import trace_to_jaxpr
from ..array import Array
from ..ir import ClosedJaxpr, Jaxpr, Literal, Var, pp_param_rules
from ._control_flow_tracing import _flatten_operands, _trace, _trace_uncached
from .control_flow_batching import batch_jaxpr
from .custom_derivatives import _Hidden, custom_jvp_call_p
from . import elementwise as ew

__all__ = ["custom_linear_solve", "custom_root", "linear_solve_p"]


class _LinearSolveTuple(NamedTuple):
    """One entry per function of a linear solve (JAX's name: it shows in jaxpr text)."""
    matvec: object
    vecmat: object
    solve: object
    transpose_solve: object

    def transpose(self) -> "_LinearSolveTuple":
        """The entries of the transposed system."""
        return type(self)(self.vecmat, self.matvec, self.transpose_solve, self.solve)


class _RootTuple(NamedTuple):
    f: object
    solve: object
    l_and_s: object


def _split(args, const_lengths):
    """``args`` as (a ``_LinearSolveTuple`` of const lists, the right-hand side)."""
    out, i = [], 0
    for n in const_lengths:
        out.append(list(args[i:i + n]))
        i += n
    return type(const_lengths)(*out), list(args[i:])


def _flatten(parts) -> list:
    return [x for part in parts for x in part]


def _call(closed: ClosedJaxpr, *args) -> list:
    return eval_jaxpr(closed.jaxpr, closed.consts, *args)


# ---------------------------------------------------------------------------------------
# the primitive

linear_solve_p = core.new_primitive("custom_linear_solve", multiple_results=True)


@linear_solve_p.def_abstract_eval
def _linear_solve_abstract(*avals, const_lengths, jaxprs):
    return list(avals[sum(const_lengths):])


@linear_solve_p.def_impl
def _linear_solve_impl(*args, const_lengths, jaxprs):
    params, b = _split(args, const_lengths)
    solve = jaxprs.solve
    return eval_jaxpr_numpy(solve.jaxpr, solve.consts, *params.solve, *b)


class _Printed:
    """A param printed as given text (``jaxprs``: each jaxpr printed on its own)."""

    def __init__(self, text: str):
        self.text = text

    def __str__(self) -> str:
        return self.text


pp_param_rules[linear_solve_p] = lambda p: [
    ("const_lengths", p["const_lengths"]), ("jaxprs", _Printed(repr(p["jaxprs"])))]


def _linear_solve_jvp(primals, tangents, *, const_lengths, jaxprs):
    kw = dict(const_lengths=const_lengths, jaxprs=jaxprs)
    x = linear_solve_p.bind(*primals, **kw)
    params, _ = _split(primals, const_lengths)
    params_dot, b_dot = _split(tangents, const_lengths)
    if all(isinstance(t, ad.Zero) for t in params_dot.matvec):
        rhs = b_dot
    else:
        # dA x: the JVP of matvec in its closed-over values, x held fixed.
        zeros = [ad.Zero(ad.tangent_aval(core.get_aval(v))) for v in x]
        _, dax = ad.jvp_flat(lambda *xs: _call(jaxprs.matvec, *xs),
                             params.matvec + list(x), params_dot.matvec + zeros)
        rhs = [ad.add_tangents(bd, ad.Zero(core.get_aval(v)) if isinstance(t, ad.Zero)
                               else ew.neg(t))
               for bd, t, v in zip(b_dot, dax, x, strict=True)]
    if all(isinstance(t, ad.Zero) for t in rhs):
        return x, [ad.Zero(ad.tangent_aval(core.get_aval(v))) for v in x]
    rhs = [ad.instantiate(t) for t in rhs]
    x_dot = linear_solve_p.bind(*_flatten(params), *rhs, **kw)
    return x, x_dot


def _linear_solve_transpose(cts, *args, const_lengths, jaxprs):
    if jaxprs.transpose_solve is None:
        raise TypeError("transpose_solve required for backwards mode automatic "
                        "differentiation of custom_linear_solve")
    params, b = _split(args, const_lengths)
    if any(ad.is_undefined_primal(p) for p in _flatten(params)):
        raise NotImplementedError("custom_linear_solve is linear only in its right-hand "
                                  "side")
    cts = [ad.instantiate(c) for c in cts]
    ct_b = linear_solve_p.bind(*_flatten(params.transpose()), *cts,
                               const_lengths=const_lengths.transpose(),
                               jaxprs=jaxprs.transpose())
    return [None] * sum(const_lengths) + list(ct_b)


ad.jvp_rules[linear_solve_p] = _linear_solve_jvp
ad.transpose_rules[linear_solve_p] = _linear_solve_transpose


def _or(a, b) -> list:
    return [x or y for x, y in zip(a, b, strict=True)]


def _linear_solve_batch(vals, dims, *, const_lengths, jaxprs):
    size = next(core.get_aval(x).shape[d] for x, d in zip(vals, dims, strict=True)
                if d is not not_mapped)
    params, b = _split(vals, const_lengths)
    p_dims, b_dims = _split(dims, const_lengths)
    p_bat = type(const_lengths)(*[[d is not not_mapped for d in ds] for ds in p_dims])
    orig_b_bat = [d is not not_mapped for d in b_dims]
    mv, vm, sv, st = jaxprs
    # Which of b and x must be batched: until nothing changes, batch each jaxpr with
    # what its inputs are and let what it batches spread (b through matvec and
    # transpose_solve, x through solve and vecmat), as JAX's rule does.
    b_bat, x_bat = list(orig_b_bat), [False] * len(sv.out_avals)
    for _ in range(1 + len(b_bat) + len(x_bat)):
        sv_b, sv_x_bat = batch_jaxpr(sv, size, p_bat.solve + b_bat, x_bat)
        if vm is None:
            vm_b, x_out = None, sv_x_bat
        else:
            vm_b, vm_x_bat = batch_jaxpr(vm, size, p_bat.vecmat + b_bat, b_bat)
            x_out = _or(vm_x_bat, sv_x_bat)
        mv_b, mv_b_bat = batch_jaxpr(mv, size, p_bat.matvec + x_out, b_bat)
        if st is None:
            st_b, b_out = None, _or(mv_b_bat, orig_b_bat)
        else:
            st_b, st_b_bat = batch_jaxpr(st, size, p_bat.transpose_solve + x_out, x_out)
            b_out = _or(_or(mv_b_bat, st_b_bat), orig_b_bat)
        if x_out == x_bat and b_out == b_bat:
            break
        x_bat, b_bat = x_out, b_out
    params = [x if d is not_mapped else bdim_at_front(x, d, size)
              for x, d in zip(_flatten(params), _flatten(p_dims), strict=True)]
    b = [bdim_at_front(x, d, size) if now else x
         for x, d, now in zip(b, b_dims, b_bat, strict=True)]
    outs = linear_solve_p.bind(*params, *b, const_lengths=const_lengths,
                               jaxprs=_LinearSolveTuple(mv_b, vm_b, sv_b, st_b))
    return outs, [0 if bat else not_mapped for bat in sv_x_bat]


primitive_batchers[linear_solve_p] = _linear_solve_batch


# ---------------------------------------------------------------------------------------
# the API

def _shapes(xs) -> list:
    return [tuple(core.get_aval(x).shape) for x in xs]


def _checked(fun, name: str, b_avals):
    """``fun`` with its output shapes checked against ``b``'s (JAX's message)."""
    def checked(x):
        y = fun(x)
        got = [a.shape for a in (core.get_aval(v) for v in tree_util.tree_leaves(y))]
        want = [a.shape for a in b_avals]
        if got != want:
            raise ValueError(f"{name}() output shapes must match b, got {got} and {want}")
        return y
    checked.__name__ = getattr(fun, "__name__", name)
    return checked


def _check_tree(name: str, expected: str, tree, want) -> None:
    if tree != want:
        raise TypeError(f"{name}() output pytree structure must match {expected}, got "
                        f"{tree} and {want}")


def _traced(fun, in_tree, avals, cached: bool = True):
    t = (_trace if cached else _trace_uncached)(fun, in_tree, avals, "custom_linear_solve")
    return ClosedJaxpr(t.jaxpr, []), list(t.consts), t.out_tree


def _transposed(matvec: ClosedJaxpr, nconsts: int, consts: list):
    """``vecmat``: the transpose of the linear map ``matvec`` (its closed-over values
    ``consts`` fixed)."""
    j = matvec.jaxpr
    # Literals become constants of the transposed function, as in JAX's transposition
    # (which stages them as operands, not literals).
    lit_vars, lit_vals, eqns = [], [], []
    for e in j.eqns:
        ins = []
        for a in e.invars:
            if isinstance(a, Literal):
                v = Var(a.aval)
                lit_vars.append(v)
                lit_vals.append(Array._new(np.asarray(a.val, a.aval.dtype), a.aval.weak_type))
                a = v
            ins.append(a)
        eqns.append(e.replace(invars=tuple(ins)))
    linear = Jaxpr(tuple(j.invars[:nconsts]) + tuple(lit_vars), tuple(j.invars[nconsts:]),
                   j.outvars, tuple(eqns))
    consts = list(consts) + lit_vals

    def vecmat(y):
        cts = ad.backward_pass(linear, consts, None, tree_util.tree_leaves(y))
        return [ad.instantiate(c) for c in cts]
    return vecmat


def _scalar_literal(c):
    """A concrete 0-d constant as a value the enclosing trace stages as a literal (JAX
    passes such operands as literals)."""
    if type(c) is Array and c.ndim == 0:
        val = np.asarray(c)
        return val.item() if c.weak_type else val
    return c


def custom_linear_solve(matvec, b, solve, transpose_solve=None, symmetric: bool = False,
                        has_aux: bool = False):
    """Solve ``matvec(x) == b`` with ``solve``, differentiating through the solver.

    Parameters
    ----------
    matvec : callable
        The linear map ``x -> A x`` (``x`` of ``b``'s structure).
    b : pytree
        The right-hand side.
    solve : callable
        ``solve(matvec, b) -> x`` with ``matvec(x) == b``.
    transpose_solve : callable, optional
        ``transpose_solve(vecmat, b) -> x`` with ``vecmat(x) == b``; needed for
        reverse-mode derivatives.
    symmetric : bool
        ``A`` is symmetric: ``vecmat`` is ``matvec`` (and ``transpose_solve``, when not
        given, is ``solve``).
    has_aux : bool
        Not supported by transpile.

    Returns
    -------
    pytree
        ``x``, of ``b``'s structure.
    """
    if has_aux:
        raise NotImplementedError("transpile does not implement custom_linear_solve with "
                                  "has_aux=True")
    return linear_solve_with(matvec, b, solve, transpose_solve, symmetric)


def linear_solve_with(matvec, b, solve, transpose_solve=None, symmetric: bool = False,
                      vecmat=None):
    """``custom_linear_solve`` with, optionally, the transpose of ``matvec`` given as
    ``vecmat`` (a library function that knows it writes the transposed equations JAX
    stages for it) instead of derived by transposing ``matvec``'s jaxpr."""
    if transpose_solve is None and symmetric:
        transpose_solve = solve
    b_flat, tree, b_avals = _flatten_operands(b)
    in_tree = tree_util.PyTreeDef("tuple", None, (tree,))
    mv_j, mv_c, out = _traced(_checked(matvec, "matvec", b_avals), in_tree, b_avals)
    _check_tree("matvec", "b", out, tree)
    s_j, s_c, out = _traced(_checked(lambda x: solve(matvec, x), "solve", b_avals),
                            in_tree, b_avals, cached=False)
    _check_tree("solve", "b", out, tree)
    if transpose_solve is None:
        vm_j = ts_j = None
        vm_c, ts_c = [], []
    else:
        if symmetric:
            vm_j, vm_c = mv_j, mv_c
            vecmat = matvec
        else:
            if vecmat is None:
                flat_vecmat = _transposed(mv_j, len(mv_c), mv_c)

                def vecmat(y):
                    return tree_util.tree_unflatten(tree, flat_vecmat(y))
            vm_j, vm_c, _ = _traced(vecmat, in_tree, b_avals, cached=False)
        ts_j, ts_c, out = _traced(
            _checked(lambda x: transpose_solve(vecmat, x), "transpose_solve", b_avals),
            in_tree, b_avals, cached=False)
        _check_tree("transpose_solve", "b", out, tree)
    consts = [[_scalar_literal(c) for c in cs] for cs in (mv_c, vm_c, s_c, ts_c)]
    lengths = _LinearSolveTuple(*map(len, consts))
    outs = linear_solve_p.bind(*_flatten(consts), *b_flat, const_lengths=lengths,
                               jaxprs=_LinearSolveTuple(mv_j, vm_j, s_j, ts_j))
    return tree_util.tree_unflatten(tree, list(outs))


class _Named:
    """A rule shown in jaxpr params by its name."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__


def custom_root(f, initial_guess, solve, tangent_solve, has_aux: bool = False):
    """Find a root of ``f`` with ``solve``, differentiating by the implicit function
    theorem.

    Parameters
    ----------
    f : callable
        The function whose root is sought (its output has ``initial_guess``'s
        structure).
    initial_guess : pytree
    solve : callable
        ``solve(f, initial_guess) -> root``.
    tangent_solve : callable
        ``tangent_solve(g, y) -> x`` with ``g(x) == y`` for the linear map ``g``
        (the JVP of ``f`` at the root).
    has_aux : bool
        Not supported by transpile.

    Returns
    -------
    pytree
        The root, of ``initial_guess``'s structure.
    """
    if has_aux:
        raise NotImplementedError("transpile does not implement custom_root with "
                                  "has_aux=True")
    g_flat, tree, g_avals = _flatten_operands(initial_guess)
    in_tree = tree_util.PyTreeDef("tuple", None, (tree,))
    f_j, f_c, out = _traced(f, in_tree, g_avals)
    _check_tree("f", "initial_guess", out, tree)
    s_j, s_c, out = _traced(lambda x: solve(f, x), in_tree, g_avals, cached=False)
    _check_tree("solve", "initial_guess", out, tree)

    def linearize_and_solve(x, rhs):
        def jvp_f(v):
            v_flat = tree_util.tree_leaves(v)
            _, t = ad.jvp_flat(lambda *xs: tree_util.tree_leaves(
                f(tree_util.tree_unflatten(tree, list(xs)))),
                tree_util.tree_leaves(x), v_flat)
            return tree_util.tree_unflatten(tree, [ad.instantiate(u) for u in t])
        return tangent_solve(jvp_f, rhs)
    pair_tree = tree_util.PyTreeDef("tuple", None, (tree, tree))
    ls_j, ls_c, out = _traced(linearize_and_solve, pair_tree, g_avals * 2, cached=False)
    _check_tree("tangent_solve", "x", out, tree)
    lengths = _RootTuple(len(f_c), len(s_c), len(ls_c))
    args = f_c + s_c + ls_c + list(g_flat)

    def root_jvp(primals, tangents):
        params, _ = _split(primals, lengths)
        params_dot, _ = _split(tangents, lengths)
        sol = custom_jvp_call_p.bind(*primals, **call_params)
        nf = len(params.f)
        _, rhs = ad.jvp_flat(lambda *ps: _call(f_j, *ps[:nf], *ps[nf:]),
                             params.f + list(sol),
                             params_dot.f + [ad.Zero(ad.tangent_aval(core.get_aval(s)))
                                             for s in sol])
        rhs = [ad.instantiate(r) for r in rhs]
        dx = _call(ls_j, *params.l_and_s, *sol, *rhs)
        return list(sol), [ew.neg(d) for d in dx]

    def body(*xs):
        params, guess = _split(xs, lengths)
        return _call(s_j, *params.solve, *guess)
    closed = trace_to_jaxpr(body, [core.get_aval(a) for a in args])
    call_params = dict(call_jaxpr=closed, jvp=_Named("_root_jvp"), name="_custom_root",
                       symbolic_zeros=False, _rule=_Hidden(root_jvp))
    outs = custom_jvp_call_p.bind(*args, **call_params)
    return tree_util.tree_unflatten(tree, list(outs))
