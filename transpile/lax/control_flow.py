"""Structured control flow: ``cond``, ``while`` and ``scan``, and the APIs built on them.

Each function argument (a branch, a loop body, a loop condition) is traced **once**, at
abstract values, into a sub-jaxpr held in the equation's params; the sub-jaxpr has no
constvars: values it closes over (arrays, tracers of an enclosing trace) become
leading operands of the equation. Python control flow inside those functions sees
tracers, as under ``jit``. As in JAX, traces are cached per function object and input
types (see :mod:`._control_flow_tracing`), so a function used twice gives one shared
sub-jaxpr.

Primitives (operands; params):

``cond``  (index, *consts, *operands; ``branches``)
    Runs ``branches[index]`` (the index is already clamped by ``switch``; ``cond``
    passes ``(false_fun, true_fun)``). Every branch takes all consts.
``while`` (*cond_consts, *body_consts, *carry; ``cond_jaxpr, cond_nconsts, body_jaxpr,
body_nconsts``)
    ``while cond(*cond_consts, *carry): carry = body(*body_consts, *carry)``.
``scan``  (*consts, *carry, *xs; ``jaxpr, length, num_consts, num_carry, reverse,
unroll``)
    ``carry, y = body(*consts, *carry, *x)`` for each leading slice ``x`` of ``xs``
    (last to first with ``reverse``), stacking the ``y``.

As in JAX 0.10.2, tracing forwards values that need no loop: a ``cond`` output that
every branch returns unchanged from the same operand is that operand; a loop carry
the body returns unchanged (and, for ``while``, the condition never reads) becomes a
leading const; a ``scan`` output that is just the current ``x`` is ``xs`` itself.
A weakly typed initial carry whose type the body changes is converted (to a strong
type promoted from both) and traced again; carries must otherwise keep shape and dtype.
A ``cond`` output takes its weak type from the first branch (``false_fun``).
"""
from __future__ import annotations

import weakref

import numpy as np

from .. import core, dtypes, tree_util
from ..config import config
from ..interpreters import eval as eval_mod
from ..interpreters.eval import eval_jaxpr_numpy
from ..ir import Var
from . import elementwise as ew
from ._base import numpy_api
from ._control_flow_tracing import (_arg_name, _as_array, _carry_tree_error, _carry_type_error,
                                    _check_branches, _closed, _derived, _flatten_operands,
                                    _invariant_carries, _join_consts, _move_to_consts, _trace,
                                    _type_mismatch, _used_vars, scalar_predicate_while)
from .slicing import concatenate
from .structural import expand_dims

__all__ = ["cond", "switch", "while_loop", "fori_loop", "scan", "map",
           "cond_p", "while_p", "scan_p"]

cond_p = core.new_primitive("cond", multiple_results=True)
while_p = core.new_primitive("while", multiple_results=True)
scan_p = core.new_primitive("scan", multiple_results=True)


# ---------------------------------------------------------------------------------------
# Abstract evaluation and NumPy evaluation

@cond_p.def_abstract_eval
def _cond_abstract(index, *args, branches):
    if index.shape != () or index.dtype != np.int32:
        raise TypeError(f"cond index must be an int32 scalar, got {index.str_short()}")
    # As in JAX, the weak types are those of the first branch (``false_fun`` for cond):
    # branches may differ only in weak type, and the first one's wins.
    return list(branches[0].out_avals)


@cond_p.def_impl
def _cond_impl(index, *args, branches):
    i = min(max(int(index), 0), len(branches) - 1)
    b = branches[i]
    return eval_jaxpr_numpy(b.jaxpr, b.consts, *args)


@while_p.def_abstract_eval
def _while_abstract(*args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    return list(body_jaxpr.out_avals)


@while_p.def_impl
def _while_impl(*args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    if cond_jaxpr.out_avals[0].shape:  # one predicate per example, from vmap
        cj, bj, nb = scalar_predicate_while(cond_jaxpr, body_jaxpr, cond_nconsts,
                                            body_nconsts)
        args = args[:cond_nconsts] + args
        cond_jaxpr, body_jaxpr, body_nconsts = cj, bj, nb
    cconsts = args[:cond_nconsts]
    bconsts = args[cond_nconsts:cond_nconsts + body_nconsts]
    carry = list(args[cond_nconsts + body_nconsts:])
    while eval_jaxpr_numpy(cond_jaxpr.jaxpr, cond_jaxpr.consts, *cconsts, *carry)[0]:
        carry = eval_jaxpr_numpy(body_jaxpr.jaxpr, body_jaxpr.consts, *bconsts, *carry)
    return carry


@scan_p.def_abstract_eval
def _scan_abstract(*args, jaxpr, length, reverse, unroll, num_consts, num_carry):
    outs = jaxpr.out_avals
    ys = [a.update(shape=(length,) + a.shape) for a in outs[num_carry:]]
    return list(outs[:num_carry]) + ys


@scan_p.def_impl
def _scan_impl(*args, jaxpr, length, reverse, unroll, num_consts, num_carry):
    consts = args[:num_consts]
    carry = list(args[num_consts:num_consts + num_carry])
    xs = args[num_consts + num_carry:]
    y_avals = jaxpr.out_avals[num_carry:]
    ys = [np.empty((length,) + a.shape, a.dtype) for a in y_avals]
    for t in range(length):
        i = length - 1 - t if reverse else t
        outs = eval_jaxpr_numpy(jaxpr.jaxpr, jaxpr.consts, *consts, *carry,
                                *[x[i] for x in xs])
        carry = outs[:num_carry]
        for y, v in zip(ys, outs[num_carry:], strict=True):
            y[i] = v
    return carry + ys


#: Scans shorter than this run eagerly on NumPy: interpreting a few steps costs less
#: than the first compile.
EAGER_SCAN_MIN_LENGTH = 64
# Loops applied eagerly run compiled, as JAX runs them (see eval.compiled_eagerly).
eval_mod.compiled_eagerly[while_p] = lambda params: True
eval_mod.compiled_eagerly[scan_p] = lambda params: params["length"] >= EAGER_SCAN_MIN_LENGTH


# ---------------------------------------------------------------------------------------
# cond and switch

_NO_OPERAND = object()


def _operand_error(operand, operands) -> TypeError:
    return TypeError("if 'operand' keyword is passed then no positional operands can be "
                     f"passed, got operand={operand} and positional operands {operands}")


def _as_index_pred(pred):
    # JAX's checks, in its order: None, sequences, non-array values, shape, dtype.
    if pred is None:
        raise TypeError("cond predicate is None")
    if isinstance(pred, (list, tuple, str)):
        raise TypeError(f"Pred must be a scalar, got {pred} of type {type(pred)}")
    if not core.is_valid_value(pred):
        raise TypeError(f"Pred type must be either boolean or number, got {pred}.")
    a = core.get_aval(pred)
    if a.shape != ():
        raise TypeError(f"Pred must be a scalar, got {pred} of shape {a.shape}.")
    if a.dtype != np.bool_:
        if dtypes.kind(a.dtype) not in "iuf":
            raise TypeError(f"Pred type must be either boolean or number, got {a.dtype}.")
        pred = ew.ne(pred, np.zeros((), a.dtype)[()])
    return ew._convert_element_type(pred, np.int32)


def cond(pred, true_fun, false_fun, *operands, operand=_NO_OPERAND):
    """Apply ``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``.

    Both branches are traced, whatever ``pred`` is, and must return the same pytree
    structure with the same shapes and dtypes. Under ``jit`` the choice is made at run
    time.

    Parameters
    ----------
    pred : bool or int scalar
        Any non-zero number selects ``true_fun``.
    true_fun, false_fun : callable
    *operands : pytrees of arrays
        The branches' arguments.

    Returns
    -------
    pytree
        The chosen branch's output.
    """
    if not callable(true_fun) or not callable(false_fun):
        raise TypeError("lax.cond: true_fun and false_fun arguments should be callable.")
    if operand is not _NO_OPERAND:
        if operands:
            raise _operand_error(operand, operands)
        operands = (operand,)
    if config.jax_disable_jit and core.is_concrete(pred):
        return true_fun(*operands) if core.concrete_or_error(pred) else false_fun(*operands)
    index = _as_index_pred(pred)
    return _cond_branches("cond", index, [true_fun, false_fun], operands, reverse=True)


def switch(index, branches, *operands, operand=_NO_OPERAND):
    """Apply ``branches[index](*operands)``, with ``index`` clamped into range.

    Parameters
    ----------
    index : int scalar
        Values below 0 select the first branch, values past the end the last.
    branches : sequence of callables
    *operands : pytrees of arrays

    Returns
    -------
    pytree
    """
    if operand is not _NO_OPERAND:
        if operands:
            raise _operand_error(operand, operands)
        operands = (operand,)
    branches = tuple(branches)
    if not all(callable(b) for b in branches):
        raise TypeError("lax.switch: branches argument should be a sequence of callables.")
    # JAX's checks, in its order (None counts as a float32 scalar there).
    if index is None:
        raise TypeError("Index type must be an integer, got None as float32")
    if isinstance(index, (list, tuple)):
        raise TypeError(f"Branch index must be scalar, got {index} of shape "
                        f"{np.shape(index)}.")
    if not core.is_valid_value(index):
        raise TypeError(f"Index type must be an integer, got {index}.")
    a = core.get_aval(index)
    if a.shape != ():
        raise TypeError(f"Branch index must be scalar, got {index} of shape {a.shape}.")
    if a.dtype.kind not in "iu":
        raise TypeError(f"Index type must be an integer, got {index} as {a.dtype}")
    if not branches:
        raise ValueError("Empty branch sequence")
    if len(branches) == 1:
        return branches[0](*operands)
    if config.jax_disable_jit and core.is_concrete(index):
        i = int(core.concrete_or_error(index))
        return branches[min(max(i, 0), len(branches) - 1)](*operands)
    index = ew._convert_element_type(index, np.int32)
    index = ew.clamp(np.int32(0), index, np.int32(len(branches) - 1))
    return _cond_branches("switch", index, list(branches), operands, reverse=False)


def _cond_branches(kind, index, funs, operands, reverse: bool):
    ops, in_tree, in_avals = _flatten_operands(tuple(operands))
    traced = [_trace(f, in_tree, in_avals, kind) for f in funs]
    _check_branches(kind, traced)
    consts, jaxprs = _join_consts(traced)
    nin = len(consts) + len(ops)
    # An output every branch returns unchanged from the same operand is that operand.
    forward = []
    for k in range(len(jaxprs[0].outvars)):
        pos = [j.invars.index(j.outvars[k]) if j.outvars[k] in j.invars else -1
               for j in jaxprs]
        forward.append(pos[0] if pos[0] >= 0 and all(p == pos[0] for p in pos) else -1)
    keep = [f < 0 for f in forward]
    if not all(keep):
        jaxprs = [_derived(j, ("keep", tuple(keep)), lambda j=j: j.replace(outvars=tuple(
            o for o, k in zip(j.outvars, keep, strict=True) if k))) for j in jaxprs]
    branches = tuple(_closed(j) for j in (reversed(jaxprs) if reverse else jaxprs))
    outs = iter(cond_p.bind(index, *consts, *ops, branches=branches))
    args = list(consts) + list(ops)
    assert nin == len(args)
    # Traced, a forwarded operand is the operand itself (a Python scalar stays a literal);
    # eagerly, JAX runs the cond and returns arrays.
    eager = isinstance(core.find_top_trace([index, *args]), core.EvalTrace)
    fwd = _as_array if eager else (lambda x: x)
    flat = [fwd(args[f]) if f >= 0 else next(outs) for f in forward]
    return tree_util.tree_unflatten(traced[0].out_tree, flat)


# ---------------------------------------------------------------------------------------
# while_loop and fori_loop

class _HasAval:
    """Lets ``dtypes.result_type`` see an aval's dtype and weak type."""

    def __init__(self, aval):
        self.aval = aval


def _retype_weak(init: list, in_avals: list, out_avals: list):
    """Convert weak initial carries whose type the body changes; None if none does.

    As in JAX, such a carry becomes a *strong* value of the type promoted from itself
    and the body's output (so a weak float init stays float32 when the body returns
    int32, and the mismatch is then reported).
    """
    changed = False
    new = list(init)
    for k, (a, b) in enumerate(zip(in_avals, out_avals, strict=True)):
        if a.weak_type and _type_mismatch(a, b):
            dt = dtypes.result_type(init[k], _HasAval(b))
            new[k] = ew._convert_element_type(init[k], dt, weak_type=False)
            changed = True
    return new if changed else None


def while_loop(cond_fun, body_fun, init_val):
    """``val = init_val; while cond_fun(val): val = body_fun(val)``, as one primitive.

    Parameters
    ----------
    cond_fun : callable
        Returns a boolean scalar.
    body_fun : callable
        Returns a value of the same pytree structure, shapes and dtypes as its input.
    init_val : pytree

    Returns
    -------
    pytree
        The final value.
    """
    if config.jax_disable_jit:
        val = tree_util.tree_map(_as_array, init_val)
        while cond_fun(val):
            val = body_fun(val)
        return val
    init, in_tree, in_avals = _flatten_operands(init_val)
    name = _arg_name(body_fun, 0, "carry")
    args_tree = tree_util.PyTreeDef("tuple", None, (in_tree,))
    for _ in range(2):
        cond_t = _trace(cond_fun, args_tree, in_avals, "while_loop")
        if cond_t.out_tree.kind != "leaf":
            raise TypeError("cond_fun must return a boolean scalar, but got pytree "
                            f"{cond_t.out_tree}.")
        out = cond_t.out_avals
        if len(out) != 1 or out[0].shape != () or out[0].dtype != np.bool_:
            raise TypeError("cond_fun must return a boolean scalar, but got output type(s) "
                            f"[{', '.join(repr(a) for a in out)}].")
        body_t = _trace(body_fun, args_tree, in_avals, "while_loop")
        if body_t.out_tree != in_tree:
            raise _carry_tree_error("while_loop", name, in_tree, body_t.out_tree)
        retyped = _retype_weak(init, in_avals, body_t.out_avals)
        if retyped is None:
            break
        init = retyped
        in_avals = [core.get_aval(x) for x in init]
    if any(_type_mismatch(a, b) for a, b in zip(in_avals, body_t.out_avals, strict=True)):
        raise _carry_type_error("while_loop", name, in_tree, in_avals, body_t.out_avals)
    cj, bj = cond_t.jaxpr, body_t.jaxpr
    nc, nb, n = len(cond_t.consts), len(body_t.consts), len(init)
    # A carry the body passes through unchanged and the condition never reads is a
    # body const.
    cond_uses = _used_vars(cj)
    moved = [inv and cj.invars[nc + k] not in cond_uses
             for k, inv in enumerate(_invariant_carries(bj, nb, n))]
    bj = _move_to_consts(bj, nb, n, moved)
    if any(moved):
        cj = _derived(cj, ("drop", nc, tuple(moved)), lambda: cj.replace(
            invars=cj.invars[:nc] + tuple(v for v, m in zip(cj.invars[nc:], moved,
                                                           strict=True) if not m)))
    moved_vals = [x for x, m in zip(init, moved, strict=True) if m]
    kept_vals = [x for x, m in zip(init, moved, strict=True) if not m]
    outs = iter(while_p.bind(*cond_t.consts, *moved_vals, *body_t.consts, *kept_vals,
                             cond_jaxpr=_closed(cj), body_jaxpr=_closed(bj),
                             cond_nconsts=nc, body_nconsts=nb + len(moved_vals)))
    # A carry the loop never changes is returned as it was passed (not made an array).
    flat = [x if m else next(outs) for x, m in zip(init, moved, strict=True)]
    return tree_util.tree_unflatten(in_tree, flat)


def fori_loop(lower, upper, body_fun, init_val, *, unroll=None):
    """``val = init_val; for i in range(lower, upper): val = body_fun(i, val)``.

    With concrete bounds this is a ``scan`` of ``upper - lower`` steps (so it can be
    reverse-differentiated); with traced bounds a ``while`` loop.

    Parameters
    ----------
    lower, upper : int scalars of the same dtype
    body_fun : callable ``(i, val) -> val``
    init_val : pytree
    unroll : int or bool, optional
        Passed to ``scan`` (concrete bounds only).

    Returns
    -------
    pytree
    """
    la, ua = core.get_aval(lower), core.get_aval(upper)
    # As in JAX, a weakly typed int bound (a Python int) takes the other bound's signed
    # int dtype (in the while form); any other difference is an error. Float bounds are
    # allowed.
    signed = la.dtype.kind == ua.dtype.kind == "i"
    if la.dtype != ua.dtype and not (signed and (la.weak_type or ua.weak_type)):
        raise TypeError("lower and upper arguments to fori_loop must have equal types, "
                        f"got {la.dtype.name} and {ua.dtype.name}")
    if config.jax_disable_jit and core.is_concrete(lower) and core.is_concrete(upper):
        val = init_val
        for i in range(int(core.concrete_or_error(lower)),
                       int(core.concrete_or_error(upper))):
            val = body_fun(i, val)
        return val
    try:
        lo, hi = int(lower), int(upper)
    except (TypeError, core.ConcretizationTypeError):
        lo = hi = None
    if lo is not None:
        if type(lower) is int:  # the index starts as a default int: JAX's error, no wrap
            info = np.iinfo(dtypes.default_int_dtype())
            if not info.min <= lower <= info.max:
                raise OverflowError(f"Python int {lower} too large to convert to "
                                    f"{info.dtype}")
        (_, out), _ = scan(_fori_wrapper(body_fun, "scan"), (lo, init_val), None,
                           length=max(hi - lo, 0), unroll=1 if unroll is None else unroll)
        return out
    if unroll is not None and unroll is not False and unroll != 1:
        raise ValueError("Can only use `unroll` in `fori_loop` if the loop bounds are "
                         "statically known.")
    if la.dtype != ua.dtype:
        if la.weak_type:
            lower = ew._convert_element_type(lower, ua.dtype)
        else:
            upper = ew._convert_element_type(upper, la.dtype)
    _, _, out = while_loop(_fori_cond, _fori_wrapper(body_fun, "while"),
                           (lower, upper, init_val))
    return out


def _fori_cond(carry):
    return ew.lt(carry[0], carry[1])


# One wrapper per body function (and form), so that the trace cache sees the same
# function each time ``fori_loop`` gets the same ``body_fun``, as in JAX.
_fori_wrappers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _fori_wrapper(body_fun, form: str):
    try:
        fun = weakref.ref(body_fun)  # (a strong reference would keep the key alive)
    except TypeError:
        fun = lambda: body_fun  # noqa: E731

    def scan_step(carry, _):
        i, x = carry
        return (i + 1, fun()(i, x)), None

    def while_body(carry):
        i, u, x = carry
        return i + 1, u, fun()(i, x)

    try:
        per_fun = _fori_wrappers.setdefault(body_fun, {})
    except TypeError:  # not weakly referenceable or not hashable
        per_fun = {}
    return per_fun.setdefault(form, scan_step if form == "scan" else while_body)


# ---------------------------------------------------------------------------------------
# scan and map

def scan(f, init, xs=None, length=None, reverse=False, unroll=1, _split_transpose=False):
    """Loop ``carry, y = f(carry, x)`` over the leading axis of ``xs``, stacking ``y``.

    Parameters
    ----------
    f : callable ``(carry, x) -> (carry, y)``
    init : pytree
        The initial carry; ``f`` must return a carry of the same structure and types.
    xs : pytree of arrays, optional
        Sliced along their leading axis; ``None`` scans ``length`` times over nothing.
    length : int, optional
        Required when ``xs`` has no leaves.
    reverse : bool
        Run from the last slice to the first (outputs keep their positions).
    unroll : int or bool
        Kept as a parameter; generated code keeps one loop.

    Returns
    -------
    (carry, ys)
    """
    xs_flat, xs_tree = tree_util.tree_flatten(xs)
    x_avals = [core.get_aval(x) for x in xs_flat]
    if any(not a.shape for a in x_avals):
        # JAX lists the values themselves (for a 0-d array JAX fails with an IndexError).
        bad = [x for x, a in zip(xs_flat, x_avals, strict=True) if not a.shape]
        raise ValueError("scan got value with no leading axis to scan over: "
                         f"{', '.join(str(x) for x in bad)}.")
    lengths = [a.shape[0] for a in x_avals]
    if length is not None:
        length = int(core.concrete_or_error(length, "The `length` argument to `scan`"))
        if length > np.iinfo(dtypes.default_int_dtype()).max:
            # JAX parses the length as an argument of a jitted computation: its message.
            raise OverflowError(
                "An overflow was encountered while parsing an argument to a jitted "
                "computation, whose argument path is y. Got <class 'int'> with value "
                f"{length}")
        if any(n != length for n in lengths):
            raise ValueError(f"scan got `length` argument of {length} which disagrees with "
                             f"leading axis sizes {lengths}.")
    elif not lengths:
        raise ValueError("scan got no values to scan over and `length` not provided.")
    elif len(set(lengths)) > 1:
        raise ValueError("scan got values with different leading axis sizes: "
                         f"{', '.join(str(n) for n in lengths)}.")
    else:
        length = lengths[0]
    unroll = (length if unroll else 1) if isinstance(unroll, bool) else int(unroll)
    if config.jax_disable_jit:
        return _scan_python(f, init, xs_flat, xs_tree, length, reverse)
    init_flat, init_tree, init_avals = _flatten_operands(init)
    x_avals = [a.update(shape=a.shape[1:]) for a in x_avals]
    in_tree = tree_util.tree_structure((init, tree_util.tree_unflatten(
        xs_tree, [0] * len(xs_flat))))
    name = _arg_name(f, 0, "carry")
    for _ in range(2):
        t = _trace(f, in_tree, list(init_avals) + x_avals, "scan")
        if t.out_tree.kind not in ("tuple", "list") or len(t.out_tree.children) != 2:
            # JAX formats the tree of avals: str of a lone aval (``~float32[]``), the
            # container's repr (``(ShapedArray(float32[]), ...)``) otherwise.
            shown = (t.out_avals[0].str_weak() if t.out_tree.kind == "leaf" else
                     str(tree_util.tree_unflatten(t.out_tree, t.out_avals)))
            raise TypeError(f"scan body output must be a pair, got {shown}.")
        carry_tree = t.out_tree.children[0]
        if carry_tree != init_tree:
            raise _carry_tree_error("scan", name, init_tree, carry_tree)
        n = len(init_flat)
        retyped = _retype_weak(init_flat, init_avals, t.out_avals[:n])
        if retyped is None:
            break
        init_flat = retyped
        init_avals = [core.get_aval(x) for x in init_flat]
    if any(_type_mismatch(a, b) for a, b in zip(init_avals, t.out_avals[:n], strict=True)):
        raise _carry_type_error("scan", name, init_tree, init_avals, t.out_avals[:n])
    jaxpr, nconsts = t.jaxpr, len(t.consts)
    moved = _invariant_carries(jaxpr, nconsts, n)
    x_vars = jaxpr.invars[nconsts + n:]
    # A y that is the current x is xs itself.
    y_vars = jaxpr.outvars[n:]
    y_from_x = [x_vars.index(y) if isinstance(y, Var) and y in x_vars else -1
                for y in y_vars]
    if any(k >= 0 for k in y_from_x):
        jaxpr = _derived(jaxpr, ("ys", n, tuple(y_from_x)), lambda: jaxpr.replace(
            outvars=jaxpr.outvars[:n] + tuple(y for y, k in zip(y_vars, y_from_x,
                                                                strict=True) if k < 0)))
    jaxpr = _move_to_consts(jaxpr, nconsts, n, moved)
    moved_vals = [x for x, m in zip(init_flat, moved, strict=True) if m]
    kept_vals = [x for x, m in zip(init_flat, moved, strict=True) if not m]
    outs = scan_p.bind(*moved_vals, *t.consts, *kept_vals, *xs_flat, jaxpr=_closed(jaxpr),
                       length=length, reverse=bool(reverse), unroll=unroll,
                       num_consts=nconsts + len(moved_vals), num_carry=len(kept_vals))
    outs = iter(outs)
    # Unchanged carries come back as passed; forwarded ys as arrays (as JAX does).
    carry = [x if m else next(outs) for x, m in zip(init_flat, moved, strict=True)]
    ys = [_as_array(xs_flat[k]) if k >= 0 else next(outs) for k in y_from_x]
    return tree_util.tree_unflatten(t.out_tree, carry + ys)


def _scan_python(f, init, xs_flat, xs_tree, length, reverse):
    if length == 0:
        raise ValueError("zero-length scan is not supported in disable_jit() mode because "
                         "the output type is unknown.")
    xs_flat = [_as_array(x) for x in xs_flat]  # JAX slices arrays, not the NumPy inputs
    carry, ys = init, []
    order = range(length - 1, -1, -1) if reverse else range(length)
    for i in order:
        x = tree_util.tree_unflatten(xs_tree, [x[i] for x in xs_flat])
        carry, y = f(carry, x)
        ys.append(y)
    if reverse:
        ys.reverse()
    for x in tree_util.tree_leaves(ys):
        if not core.is_valid_value(x):
            raise TypeError(f"Argument {x!r} of type {type(x)} is not a valid JAX type")
    # Stacked without promotion, as JAX does (ys of different dtypes are an error).
    stacked = tree_util.tree_map(
        lambda *v: concatenate([expand_dims(y, (0,)) for y in v], 0), *ys)
    return carry, stacked


def map(f, xs, *, batch_size=None):  # noqa: A001 - JAX's name
    """Apply ``f`` to each leading slice of ``xs`` and stack the results (a ``scan``).

    Parameters
    ----------
    f : callable
    xs : pytree of arrays
    batch_size : int, optional
        Process this many slices per step (a remainder is processed after).

    Returns
    -------
    pytree
    """
    if batch_size is None:
        _, ys = scan(lambda _, x: ((), f(x)), (), xs)
        return ys
    concatenate, reshape = numpy_api.concatenate, numpy_api.reshape
    leaves, tree = tree_util.tree_flatten(xs)
    n = core.get_aval(leaves[0]).shape[0]
    nb, rem = divmod(n, int(batch_size))
    parts = []
    if nb:
        batched = tree_util.tree_unflatten(tree, [
            reshape(x[:nb * batch_size], (nb, batch_size) + core.get_aval(x).shape[1:])
            for x in leaves])
        out = map(lambda b: map(f, b), batched)
        parts.append(tree_util.tree_map(
            lambda y: reshape(y, (nb * batch_size,) + core.get_aval(y).shape[2:]), out))
    if rem:
        parts.append(map(f, tree_util.tree_unflatten(tree, [x[nb * batch_size:]
                                                            for x in leaves])))
    if len(parts) == 1:
        return parts[0]
    return tree_util.tree_map(lambda a, b: concatenate([a, b]), *parts)
