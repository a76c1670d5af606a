"""``jnp.vectorize``: a function of scalars (or of core-dimension blocks named by a gufunc
``signature``) mapped with ``vmap`` over the broadcast of its arguments' other axes.
"""
from __future__ import annotations

import functools
import re
import warnings

from ..config import config
from ..vmapping import vmap
from . import creation, shape_ops
from ._util import aval

__all__ = ["vectorize"]

_NAME = r"\w+"
_ARG = r"\((?:{0}(?:,{0})*)?\)".format(_NAME)
_ARG_LIST = r"{0}(?:,{0})*".format(_ARG)
_SIGNATURE = r"^{0}->{0}$".format(_ARG_LIST)


def _parse_signature(signature: str):
    """``'(m,n),(n)->(m)'`` as ``([('m', 'n'), ('n',)], [('m',)])``."""
    if not re.match(_SIGNATURE, signature):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    ins, outs = ([tuple(re.findall(_NAME, arg)) for arg in re.findall(_ARG, side)]
                 for side in signature.split("->"))
    return ins, outs


def _record_sizes(sizes: dict, shape: tuple, core: tuple, context: str, is_input: bool):
    n = len(core)
    if is_input and len(shape) < n:
        raise ValueError(f"input with shape {shape!r} does not have enough dimensions for all "
                         f"core dimensions {core!r} {context}")
    if not is_input and len(shape) != n:
        raise ValueError(f"output shape {shape!r} does not match core dimensions {core!r} "
                         f"{context}")
    for name, size in zip(core, shape[len(shape) - n:] if n else (), strict=True):
        if sizes.setdefault(name, size) != size:
            raise ValueError(f"inconsistent size for core dimension {name!r}: {size!r} vs "
                             f"{sizes[name]!r} {context}")


def _checking_outputs(func, sizes: dict, out_cores: list, context: str):
    def checked(*args):
        out = func(*args)
        outs = out if isinstance(out, tuple) else (out,)
        if len(out_cores) > 1 and not isinstance(out, tuple):
            raise TypeError("output must be a tuple when multiple outputs are expected, "
                            f"got: {out!r}\n{context}")
        if len(outs) != len(out_cores):
            raise TypeError(f"wrong number of output arguments: expected {len(out_cores)!r}, "
                            f"got {len(outs)!r} {context}")
        seen = dict(sizes)
        for o, core in zip(outs, out_cores, strict=True):
            _record_sizes(seen, tuple(aval(o).shape), core, context, is_input=False)
        return out
    return checked


def _bind_excluded(func, excluded, args, kwargs):
    """``func`` with the excluded positional and keyword arguments bound; the rest."""
    if not excluded:
        return func, list(args), kwargs
    dynamic = [a for i, a in enumerate(args) if i not in excluded]
    dynamic_kwargs = {k: v for k, v in kwargs.items() if k not in excluded}
    fixed = [(i, args[i]) for i in sorted(e for e in excluded if isinstance(e, int))
             if i < len(args)]
    fixed_kwargs = {k: v for k, v in kwargs.items() if k in excluded}

    def bound(*a, **kw):
        a = list(a)
        for i, v in fixed:
            a.insert(i, v)
        return func(*a, **kw, **fixed_kwargs)
    return bound, dynamic, dynamic_kwargs


def vectorize(pyfunc, *, excluded=frozenset(), signature=None):
    """``pyfunc`` made to broadcast over its arguments, through ``vmap``.

    Parameters
    ----------
    pyfunc : callable
    excluded : set of int or str
        Positional indices or keyword names passed through unmapped.
    signature : str, optional
        A gufunc signature such as ``'(n),(n)->()'``: the named trailing axes are handed
        to ``pyfunc`` whole; without it every argument is mapped down to scalars.

    Returns
    -------
    callable

    Notes
    -----
    As in JAX 0.10.2, keyword arguments that are not excluded are not passed on.
    """
    if any(not isinstance(e, (str, int)) for e in excluded):
        raise TypeError("jax.numpy.vectorize can only exclude integer or string arguments, "
                        f"but excluded={excluded!r}")
    if any(isinstance(e, int) and e < 0 for e in excluded):
        raise ValueError(f"excluded={excluded!r} contains negative numbers")

    @functools.wraps(pyfunc)
    def wrapped(*args, **kwargs):
        context = f"on vectorized function with excluded={excluded!r} and " \
                  f"signature={signature!r}"
        func, args, kwargs = _bind_excluded(pyfunc, excluded, args, kwargs)
        if signature is not None:
            in_cores, out_cores = _parse_signature(signature)
        else:
            in_cores, out_cores = [()] * len(args), None
        nones = {i for i, a in enumerate(args) if a is None}
        if any(nones):  # as in JAX: a None first argument is not caught here
            if any(in_cores[i] != () for i in nones):
                raise ValueError(f"Cannot pass None at locations {nones} with "
                                 f"signature={signature!r}")
            func, args, _ = _bind_excluded(func, nones, args, {})
            in_cores = [c for i, c in enumerate(in_cores) if i not in nones]
        args = [creation.asarray(a) for a in args]
        if len(args) != len(in_cores):
            raise TypeError(f"wrong number of positional arguments: expected "
                            f"{len(in_cores)!r}, got {len(args)!r} {context}")
        sizes: dict = {}
        loop_shapes = []
        for a, core in zip(args, in_cores, strict=True):
            shp = tuple(aval(a).shape)
            _record_sizes(sizes, shp, core, context, is_input=True)
            loop_shapes.append(shp[:len(shp) - len(core)])
        loop_shape = shape_ops.broadcast_shapes(*loop_shapes)
        if out_cores is not None:
            func = _checking_outputs(func, sizes, out_cores, context)
        mode = config.jax_numpy_rank_promotion
        if mode != "allow":
            ranks = {aval(a).ndim - len(c) for a, c in zip(args, in_cores, strict=True)
                     if aval(a).ndim}
            if len(ranks) > 1:
                msg = (f"operands with shapes {[tuple(aval(a).shape) for a in args]} require "
                       f"rank promotion for jnp.vectorize function with signature {signature}."
                       " Set the jax_numpy_rank_promotion config option to 'allow' to disable "
                       "this message; for more information, see "
                       "https://docs.jax.dev/en/latest/rank_promotion_warning.html.")
                if mode == "warn":
                    warnings.warn(msg, stacklevel=2)
                else:
                    raise ValueError(msg)
        # Size-1 loop axes are squeezed away and not mapped; an axis no argument maps over
        # is put back on the result.
        squeezed, rev_shapes = [], []
        for a, shp in zip(args, loop_shapes, strict=True):
            rev_shapes.append(((1,) * (len(loop_shape) - len(shp)) + shp)[::-1])
            ones = tuple(i for i, d in enumerate(shp) if d == 1)
            squeezed.append(shape_ops.squeeze(a, axis=ones) if ones else a)
        mapped, expand = func, []
        for neg, dims in enumerate(zip(*rev_shapes, strict=True)):
            in_axes = tuple(None if d == 1 else 0 for d in dims)
            if all(ax is None for ax in in_axes):
                expand.append(len(loop_shape) - 1 - neg)
            else:
                mapped = vmap(mapped, in_axes)
        result = mapped(*squeezed)
        if not expand:
            return result
        if isinstance(result, tuple):
            return tuple(shape_ops.expand_dims(r, axis=tuple(expand)) for r in result)
        return shape_ops.expand_dims(result, axis=tuple(expand))

    return wrapped
