"""The differentiation API (JAX's names): ``jvp``, ``linearize``, ``vjp``, ``grad``,
``value_and_grad``, ``jacfwd``, ``jacrev``, ``hessian``.

Each flattens its pytrees, checks its arguments with JAX's messages and runs the
machinery of ``interpreters/ad.py``: forward mode through JVP tracers, reverse mode by
linearizing (primals now, tangents staged into a linear jaxpr) and transposing that
jaxpr from the output cotangents back to the inputs.
"""
from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from . import core, dtypes, tree_util
from .interpreters import ad
from .interpreters.eval import eval_jaxpr
from .interpreters.tracing import DebugInfo
from .lax._base import _as_value, numpy_api
from .lax.elementwise import _convert_element_type
from .vmapping import vmap

__all__ = ["jvp", "linearize", "vjp", "grad", "value_and_grad", "jacfwd", "jacrev",
           "hessian"]


def _zeros_out(t, aval):
    return ad.instantiate(t) if isinstance(t, ad.Zero) else t


def _flat_fun(fun, in_tree, has_aux=False):
    """``fun`` of flat arguments returning flat outputs: the output's leaves, then (with
    ``has_aux``) the aux value's, which leave the transformation as primals only.
    ``store`` gets the out tree, the aux tree and the number of output leaves."""
    store = {"aux_tree": None}

    def flat(*leaves):
        args = tree_util.tree_unflatten(in_tree, list(leaves))
        out = fun(*args)
        aux_leaves = []
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise TypeError("expected function with aux output to return a two-element "
                                f"tuple, but got type {type(out)} with value {out!r}")
            out, aux = out
            aux_leaves, store["aux_tree"] = tree_util.tree_flatten(aux)
        leaves_out, store["tree"] = tree_util.tree_flatten(out)
        store["n_out"] = len(leaves_out)
        return [_as_value(x) for x in leaves_out] + [_as_value(x) for x in aux_leaves]
    return flat, store


def _aux(store, primal_leaves):
    """The aux value rebuilt from its primal leaves (after the outputs')."""
    return tree_util.tree_unflatten(store["aux_tree"], list(primal_leaves[store["n_out"]:]))


# ---------------------------------------------------------------------------------------
# jvp, linearize

def _check_jvp_pair(p, t) -> None:
    pa, ta = core.get_aval(p), core.get_aval(t)
    expected = ad.tangent_aval(pa).dtype
    if ta.dtype != expected:
        raise TypeError(
            "primal and tangent arguments to jax.jvp do not match; dtypes must be equal, "
            "or in case of int/bool primal dtype the tangent dtype must be float0.Got "
            f"primal dtype {ad._dtype_name(pa.dtype)} and so expected tangent dtype "
            f"{ad._dtype_name(expected)}, but got tangent dtype "
            f"{ad._dtype_name(ta.dtype)} instead.")
    if pa.shape != ta.shape:
        raise ValueError("jvp called with different primal and tangent shapes;Got primal "
                         f"shape {pa.shape} and tangent shape as {ta.shape}")


def jvp(fun: Callable, primals, tangents, has_aux: bool = False):
    """Forward-mode derivative: ``fun(*primals)`` and its directional derivative along
    ``tangents``.

    Parameters
    ----------
    fun : callable
    primals, tangents : tuple or list
        Pytrees of the same structure; each tangent of its primal's shape and dtype
        (``float0`` for integer and boolean primals).
    has_aux : bool
        ``fun`` returns ``(output, aux)``; aux is returned as is.

    Returns
    -------
    (primals_out, tangents_out) or (primals_out, tangents_out, aux)
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("primal and tangent arguments to jax.jvp must be tuples or lists; "
                        f"found {type(primals).__name__} and {type(tangents).__name__}.")
    p_leaves, p_tree = tree_util.tree_flatten(tuple(primals))
    t_leaves, t_tree = tree_util.tree_flatten(tuple(tangents))
    if p_tree != t_tree:
        raise TypeError("primal and tangent arguments to jax.jvp must have the same tree "
                        f"structure; primals have tree structure {p_tree} whereas tangents "
                        f"have tree structure {t_tree}.")
    p_leaves = [_as_value(x) for x in p_leaves]
    t_leaves = [_as_value(x) for x in t_leaves]
    for p, t in zip(p_leaves, t_leaves, strict=True):
        _check_jvp_pair(p, t)
    flat, store = _flat_fun(fun, p_tree, has_aux)
    outs, t_outs = ad.jvp_flat(flat, p_leaves, t_leaves)
    n = store["n_out"]
    t_outs = [_zeros_out(t, None) for t in t_outs[:n]]
    out_tree = store["tree"]
    res = (tree_util.tree_unflatten(out_tree, outs[:n]),
           tree_util.tree_unflatten(out_tree, t_outs))
    return res + (_aux(store, outs),) if has_aux else res


def linearize(fun: Callable, *primals, has_aux: bool = False):
    """``fun(*primals)`` and its linear map of tangents (the JVP at ``primals``).

    Returns
    -------
    (primals_out, f_jvp) or (primals_out, f_jvp, aux)
        ``f_jvp(*tangents)`` evaluates the linearized function.
    """
    leaves, in_tree = tree_util.tree_flatten(primals)
    leaves = [_as_value(x) for x in leaves]
    flat, store = _flat_fun(fun, in_tree, has_aux)
    outs, lin, _ = ad.linearize_flat(flat, leaves)
    out_tree, n = store["tree"], store["n_out"]

    def f_jvp(*tangents):
        t_leaves, t_tree = tree_util.tree_flatten(tangents)
        if t_tree != in_tree:
            raise TypeError(f"linearized function called on tangent values inconsistent "
                            f"with the original primal values: got {t_tree} for primal "
                            f"{in_tree}")
        res = eval_jaxpr(lin.jaxpr, lin.consts, *[_as_value(t) for t in t_leaves])
        return tree_util.tree_unflatten(out_tree, res[:n])
    res = (tree_util.tree_unflatten(out_tree, outs[:n]), f_jvp)
    return res + (_aux(store, outs),) if has_aux else res


# ---------------------------------------------------------------------------------------
# vjp, grad

def vjp(fun: Callable, *primals, has_aux: bool = False):
    """``fun(*primals)`` and its pullback of output cotangents to input cotangents.

    Returns
    -------
    (primals_out, vjp_fn) or (primals_out, vjp_fn, aux)
        ``vjp_fn(ct)`` (``ct`` of the output's structure, shapes and dtypes) returns a
        tuple of cotangents, one per primal.
    """
    leaves, in_tree = tree_util.tree_flatten(primals)
    leaves = [_as_value(x) for x in leaves]
    flat, store = _flat_fun(fun, in_tree, has_aux)
    outs, lin, _ = ad.linearize_flat(flat, leaves)
    out_tree, n = store["tree"], store["n_out"]
    out_avals = [core.get_aval(o) for o in outs[:n]]
    aux_zeros = [ad.Zero(ad.tangent_aval(core.get_aval(o))) for o in outs[n:]]

    def vjp_fn(ct):
        ct_leaves, ct_tree = tree_util.tree_flatten(ct)
        if ct_tree != out_tree:
            raise ValueError(_tree_mismatch(fun, out_tree, ct_tree))
        cts = []
        for c, a in zip(ct_leaves, out_avals, strict=True):
            c = _as_value(c)
            ca = core.get_aval(c)
            want = ad.tangent_aval(a)
            if ca.shape != a.shape or ca.dtype != want.dtype:
                raise ValueError("unexpected JAX type (e.g. shape/dtype) for argument to "
                                 f"VJP function: got {ca.strip_weak_type().str_long()}, but "
                                 f"expected {want.str_long()} because the corresponding "
                                 "output of the differentiated function had JAX type "
                                 f"{a.strip_weak_type().str_long()}")
            cts.append(c)
        in_cts = ad.backward_pass(lin.jaxpr, lin.consts, None, cts + aux_zeros)
        in_cts = [ad.instantiate(c) for c in in_cts]
        return tree_util.tree_unflatten(in_tree, in_cts)
    res = (tree_util.tree_unflatten(out_tree, outs[:n]), vjp_fn)
    return res + (_aux(store, outs),) if has_aux else res


def _tree_mismatch(fun, want, got) -> str:
    where = DebugInfo.of(fun, "vjp").func_src
    if want.num_leaves == 1 and got.num_leaves == 1:
        detail = f"  * the output was {want} but the cotangent is {got}"
    elif got.num_leaves == 1 and got == tree_util.tree_structure(0):
        kind = "tuple" if "(" in str(want) else "container"
        detail = (f"  * out was a <class '{kind}'> in the original output, but a pytree leaf "
                  "here, so their Python types differ.")
    else:
        detail = f"  * the output has tree structure {want}, the cotangent {got}"
    return ("unexpected tree structure.\n\nThe argument to a VJP function returned by "
            "`jax.vjp` must match the pytree\nstructure of the differentiated function "
            f"{where}.\n\nBut the tree structures differ:\n{detail}")


def _check_input_dtype(name: str, x, holomorphic: bool, allow_int: bool) -> None:
    dt = core.get_aval(x).dtype
    dname = dtypes.dtype_name(dt)
    if holomorphic and not dtypes.is_complex(dt):
        raise TypeError(f"{name} with holomorphic=True requires inputs with complex dtype, "
                        f"but got {dname}.")
    if name == "jacfwd":
        if holomorphic or dtypes.is_float(dt):
            return
        raise TypeError(f"jacfwd requires real-valued inputs (input dtype that is a "
                        f"sub-dtype of np.floating), but got {dname}. For "
                        "holomorphic differentiation, pass holomorphic=True. For "
                        "differentiation of non-holomorphic functions involving complex "
                        "inputs or integer inputs, use jax.jvp directly.")
    if dtypes.is_float(dt) or dtypes.is_complex(dt) or (allow_int and dt.kind in "iub"):
        return
    if dt.kind in "iub":
        raise TypeError(f"{name} requires real- or complex-valued inputs (input dtype that "
                        "is a sub-dtype of np.inexact), but got "
                        f"{dname}. If you want to use Boolean- or "
                        "integer-valued inputs, use vjp or set allow_int to True.")
    raise TypeError(f"{name} requires real- or complex-valued inputs (input dtype that is "
                    f"a sub-dtype of np.inexact), but got {dname}.")


def _check_output_dtype(name: str, aval, holomorphic: bool) -> None:
    """JAX's checks of a reverse-mode output's dtype (``holomorphic``: complex only)."""
    dname = dtypes.dtype_name(aval.dtype)
    if holomorphic:
        if not dtypes.is_complex(aval.dtype):
            raise TypeError(f"{name} with holomorphic=True requires outputs with complex "
                            f"dtype, but got {dname}.")
        return
    if dtypes.is_complex(aval.dtype):
        raise TypeError(f"{name} requires real-valued outputs (output dtype that is a "
                        f"sub-dtype of np.floating), but got {dname}. For holomorphic "
                        "differentiation, pass holomorphic=True. For differentiation of "
                        "non-holomorphic functions involving complex outputs, use jax.vjp "
                        "directly.")
    if not dtypes.is_float(aval.dtype):
        raise TypeError(f"{name} requires real-valued outputs (output dtype that is a "
                        f"sub-dtype of np.floating), but got {dname}. For differentiation "
                        "of functions with integer outputs, use jax.vjp directly.")


def _check_output(name: str, ans, holomorphic: bool) -> None:
    aval = core.get_aval(ans)
    if aval.shape:
        raise TypeError("Gradient only defined for scalar-output functions. Output had "
                        f"shape: {aval.shape}.")
    _check_output_dtype(name, aval, holomorphic)


def _argnums_tuple(argnums, nargs: int):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for n in nums:
        if not -nargs <= n < nargs:
            raise TypeError(f"differentiating with respect to argnums={argnums} requires "
                             f"at least {max(nums) + 1} positional arguments to be passed "
                             f"by the caller, but got only {nargs} positional arguments.")
    return tuple(n % nargs for n in nums)


def _select(fun, args, kwargs, argnums, name, holomorphic, allow_int):
    """The differentiated arguments (checked) and ``fun`` as a function of them alone."""
    nums = _argnums_tuple(argnums, len(args))
    dyn = [args[i] for i in nums]
    for leaf in tree_util.tree_leaves(dyn):
        _check_input_dtype(name, _as_value(leaf), holomorphic, allow_int)

    def partial_fun(*dyn_args):
        full = list(args)
        for i, a in zip(nums, dyn_args, strict=True):
            full[i] = a
        return fun(*full, **kwargs)
    return dyn, partial_fun


def value_and_grad(fun: Callable, argnums=0, has_aux: bool = False,
                   holomorphic: bool = False, allow_int: bool = False, reduce_axes=()):
    """A function returning ``fun``'s value and its gradient with respect to the
    ``argnums`` arguments.

    Parameters
    ----------
    fun : callable
        Must return a scalar float (or ``(scalar, aux)`` with ``has_aux``).
    argnums : int or tuple of int
    has_aux : bool
    holomorphic : bool
        Complex differentiation is not supported; kept for the signature.
    allow_int : bool
        Integer and boolean arguments get ``float0`` gradients instead of an error.

    Returns
    -------
    callable
        ``(value, grad)`` or ``((value, aux), grad)``; ``grad`` has the structure of the
        selected argument (a tuple of them for a tuple ``argnums``).
    """
    return _value_and_grad(fun, argnums, has_aux, holomorphic, allow_int, "value_and_grad")


def _value_and_grad(fun, argnums, has_aux, holomorphic, allow_int, name):
    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        dyn, partial_fun = _select(fun, args, kwargs, argnums, name, holomorphic, allow_int)
        out = vjp(partial_fun, *dyn, has_aux=has_aux)
        if has_aux:
            ans, pullback, aux = out
        else:
            ans, pullback = out
        _check_output(name, ans, holomorphic)
        a = core.get_aval(ans)
        # The seed 1 is as weakly typed as the output, as JAX's (a weak Python float).
        one = 1.0 if not dtypes.is_complex(a.dtype) else complex(1)
        seed = one if a.weak_type else np.ones((), a.dtype)
        if getattr(a, "vma", None):  # in a shard_map body: one seed per member, as JAX
            seed = core.pvary(seed, tuple(sorted(a.vma)))
        g = pullback(seed)
        g = g[0] if isinstance(argnums, int) else tuple(g)
        return ((ans, aux) if has_aux else ans), g
    return wrapped


def grad(fun: Callable, argnums=0, has_aux: bool = False, holomorphic: bool = False,
         allow_int: bool = False, reduce_axes=()):
    """The gradient of the scalar function ``fun`` with respect to its ``argnums``
    arguments, by reverse mode.

    Parameters
    ----------
    fun : callable
        Returns a scalar float (or ``(scalar, aux)`` with ``has_aux``).
    argnums : int or tuple of int
    has_aux : bool
    holomorphic, allow_int : bool
        As in ``value_and_grad``.

    Returns
    -------
    callable
        The gradient (with ``has_aux``: ``(gradient, aux)``).
    """
    vg = _value_and_grad(fun, argnums, has_aux, holomorphic, allow_int, "grad")

    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        value, g = vg(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    return wrapped


# ---------------------------------------------------------------------------------------
# Jacobians (one pushforward or pullback per basis vector)

def _basis(aval):
    """The standard basis of ``aval``'s space, as weakly typed as ``aval``."""
    size = int(np.prod(aval.shape, dtype=np.int64))
    eye = np.eye(size, dtype=aval.dtype)
    vecs = [eye[i].reshape(aval.shape) for i in range(size)]
    if aval.weak_type:
        vecs = [_convert_element_type(v, aval.dtype, True) for v in vecs]
    return vecs


def jacfwd(fun: Callable, argnums=0, has_aux: bool = False, holomorphic: bool = False):
    """The Jacobian of ``fun`` by forward mode: output shape + input shape.

    Returns
    -------
    callable
    """
    jnp = numpy_api

    def wrapped(*args):
        dyn, partial_fun = _select(fun, args, {}, argnums, "jacfwd", holomorphic, False)
        leaves, tree = tree_util.tree_flatten(tuple(dyn))
        leaves = [_as_value(x) for x in leaves]
        avals = [core.get_aval(x) for x in leaves]
        sizes = [int(np.prod(a.shape, dtype=np.int64)) for a in avals]
        total = sum(sizes)
        # One standard basis over all inputs, its vectors along a leading axis that
        # vmap pushes forward at once (as JAX's jacfwd does).
        basis, start = [], 0
        for a, n in zip(avals, sizes, strict=True):
            eye = np.eye(total, dtype=a.dtype)[:, start:start + n].reshape((total,) + a.shape)
            basis.append(_weak_like(eye, a))
            start += n

        def pushfwd(*tangents):
            res = jvp(lambda *ls: partial_fun(*tree_util.tree_unflatten(tree, list(ls))),
                      leaves, list(tangents), has_aux=has_aux)
            return (res[1], res[2]) if has_aux else res[1]
        out = vmap(pushfwd, out_axes=(-1, None) if has_aux else -1)(*basis)
        t_out, aux = (out if has_aux else (out, None))
        if holomorphic:
            for o in tree_util.tree_leaves(t_out):
                if not dtypes.is_complex(core.get_aval(o).dtype):
                    raise TypeError("jacfwd with holomorphic=True requires outputs with "
                                    f"complex dtype, but got {core.get_aval(o).dtype.name}.")

        def unravel(t):
            shape = np.shape(t)[:-1]
            pieces, start = [], 0
            for a, n in zip(avals, sizes, strict=True):
                pieces.append(jnp.reshape(t[..., start:start + n], shape + a.shape))
                start += n
            return pieces
        per_output = tree_util.tree_map(unravel, t_out)
        per_input = [tree_util.tree_map(lambda ps, k=k: ps[k], per_output,
                                        is_leaf=lambda x: isinstance(x, list))
                     for k in range(len(leaves))]
        per_input = tree_util.tree_unflatten(tree, per_input)
        jac = per_input[0] if isinstance(argnums, int) else tuple(per_input)
        return (jac, aux) if has_aux else jac
    return wrapped


def _weak_like(value, aval):
    """``value`` as an Array as weakly typed as ``aval``."""
    return _convert_element_type(value, aval.dtype, aval.weak_type)


def _float0_as_zeros(ct, primal):
    if getattr(ct, "dtype", None) != ad.float0:
        return ct
    a = core.get_aval(_as_value(primal))
    return _convert_element_type(np.zeros(a.shape, a.dtype), a.dtype, a.weak_type)


def jacrev(fun: Callable, argnums=0, has_aux: bool = False, holomorphic: bool = False,
           allow_int: bool = False):
    """The Jacobian of ``fun`` by reverse mode: output shape + input shape.

    Returns
    -------
    callable
    """
    jnp = numpy_api

    def wrapped(*args):
        dyn, partial_fun = _select(fun, args, {}, argnums, "jacrev", holomorphic,
                                   allow_int)
        res = vjp(partial_fun, *dyn, has_aux=has_aux)
        out, pullback = res[0], res[1]
        out_leaves, out_tree = tree_util.tree_flatten(out)
        for o in out_leaves:
            _check_output_dtype("jacrev", core.get_aval(o), holomorphic)
        rows_per_out = []
        for k, o in enumerate(out_leaves):
            a = core.get_aval(o)
            rows = []
            for e in _basis(a):
                ct = [np.zeros(core.get_aval(x).shape, core.get_aval(x).strip_weak_type()
                               .dtype) if j != k else e for j, x in enumerate(out_leaves)]
                row = pullback(tree_util.tree_unflatten(out_tree, ct))
                # float0 cotangents (integer inputs) stack as zeros of the input's type,
                # as JAX's jacrev returns them
                rows.append(tuple(_float0_as_zeros(r, x) for r, x in zip(row, dyn)))
            rows_per_out.append(tree_util.tree_map(
                lambda *rs, a=a: jnp.stack(rs).reshape(a.shape + np.shape(rs[0])), *rows))
        jacs = [r[0] if isinstance(argnums, int) else tuple(r) for r in rows_per_out]
        jac = tree_util.tree_unflatten(out_tree, jacs)
        return (jac, res[2]) if has_aux else jac
    return wrapped


def hessian(fun: Callable, argnums=0, has_aux: bool = False, holomorphic: bool = False):
    """The Hessian of the scalar ``fun``: ``jacfwd(jacrev(fun))``."""
    return jacfwd(jacrev(fun, argnums, has_aux, holomorphic), argnums, has_aux, holomorphic)

