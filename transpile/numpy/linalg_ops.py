"""Products: dot, matmul (``@``), vdot, inner, outer, tensordot, and two-operand einsum.

All of them are one ``dot_general`` whose ``preferred_element_type`` is the promoted
dtype; operands keep their own dtypes (no ``convert_element_type``), as in JAX.
``matmul`` squeezes size-1 batch dimensions that broadcast, and transposes the result
into NumPy's order when ``dot_general``'s order differs. ``einsum`` first sums out
indices that appear in only one operand, then contracts, swapping the operands when
that gives the requested order without a transpose.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes, lax
from ._util import aval, canonicalize_axis, check_arraylike, ensure_array, promote_dtypes
from .shape_ops import ravel, transpose
from .ufuncs import multiply

# ``einsum`` (two operands at most) is exported through ``einsum_path.einsum``.
__all__ = ["dot", "matmul", "vdot", "inner", "outer", "tensordot"]


def _out_dtype(a, b, preferred_element_type):
    if preferred_element_type is not None:
        return dtypes.canonicalize_dtype(preferred_element_type), False
    return dtypes.result_type(a, b, return_weak_type_flag=True)


def _dot_general(a, b, contracting, batch, dt, weak, precision=None):
    out = lax.dot_general(a, b, (contracting, batch), precision=precision,
                          preferred_element_type=dt)
    return ensure_array(lax._convert_element_type(out, dt, weak))


def dot(a, b, *, precision=None, preferred_element_type=None):
    """Dot product: sums over the last axis of ``a`` and the second-to-last of ``b``.

    Parameters
    ----------
    a, b : array_like
    precision : None
        Accepted for compatibility.
    preferred_element_type : dtype, optional

    Returns
    -------
    Array
    """
    check_arraylike("dot", a, b)
    dt, weak = _out_dtype(a, b, preferred_element_type)
    a_nd, b_nd = aval(a).ndim, aval(b).ndim
    if a_nd == 0 or b_nd == 0:
        contracting = ((), ())
    else:
        contracting = ((a_nd - 1,), (0 if b_nd == 1 else b_nd - 2,))
    return _dot_general(a, b, contracting, ((), ()), dt, weak, precision)


def matmul(a, b, *, precision=None, preferred_element_type=None):
    """Matrix product with NumPy's broadcasting of leading (batch) dimensions.

    Parameters
    ----------
    a, b : array_like
        At least 1-D. 1-D operands are treated as a row (``a``) or column (``b``).
    precision : None
    preferred_element_type : dtype, optional

    Returns
    -------
    Array
    """
    check_arraylike("matmul", a, b)
    for i, x in enumerate((a, b)):
        if aval(x).ndim == 0:
            raise ValueError(f"matmul input operand {i} must have ndim at least 1, but it "
                             f"has ndim 0")
    dt, weak = _out_dtype(a, b, preferred_element_type)
    a_shape, b_shape = aval(a).shape, aval(b).shape
    a_mat, b_mat = len(a_shape) > 1, len(b_shape) > 1
    a_batch = a_shape[:-2] if a_mat else ()
    b_batch = b_shape[:-2] if b_mat else ()
    nbatch = max(len(a_batch), len(b_batch))
    a_batch = (None,) * (nbatch - len(a_batch)) + tuple(a_batch)
    b_batch = (None,) * (nbatch - len(b_batch)) + tuple(b_batch)
    # dot_general's output is [shared batch dims, a's free dims, b's free dims]; record
    # for each of them where NumPy wants it, and what to squeeze first.
    shared, a_free, b_free, unit = [], [], [], []
    a_squeeze, b_squeeze = [], []
    a_bdims, b_bdims = [], []
    a_pos = b_pos = 0  # positions in the squeezed operands
    for i, (da, db) in enumerate(zip(a_batch, b_batch, strict=True)):
        if da is None:
            b_free.append(i)
            b_pos += 1
        elif db is None:
            a_free.append(i)
            a_pos += 1
        elif da == 1 and db == 1:
            # Squeezed from both and put back at the end.
            a_squeeze.append(i - (nbatch - len(a_shape[:-2])))
            b_squeeze.append(i - (nbatch - len(b_shape[:-2])))
            unit.append(i)
        elif da == 1:
            a_squeeze.append(i - (nbatch - len(a_shape[:-2])))
            b_free.append(i)
            b_pos += 1
        elif db == 1:
            b_squeeze.append(i - (nbatch - len(b_shape[:-2])))
            a_free.append(i)
            a_pos += 1
        elif da == db:
            a_bdims.append(a_pos)
            b_bdims.append(b_pos)
            shared.append(i)
            a_pos += 1
            b_pos += 1
        else:
            raise ValueError("Incompatible types for matmul arguments: "
                             f"{aval(a).str_long()} and {aval(b).str_long()}")
    if a_mat:
        a_free.append(nbatch)
    if b_mat:
        b_free.append(nbatch + a_mat)
    if a_squeeze:
        a = lax.squeeze(a, tuple(a_squeeze))
    if b_squeeze:
        b = lax.squeeze(b, tuple(b_squeeze))
    a_nd, b_nd = aval(a).ndim, aval(b).ndim
    contracting = ((a_nd - 1,), (b_nd - 1 - b_mat,))
    out = lax.dot_general(a, b, (contracting, (tuple(a_bdims), tuple(b_bdims))),
                          precision=precision, preferred_element_type=dt)
    order = shared + a_free + b_free
    perm = tuple(int(p) for p in np.argsort(order))
    out = transpose(out, perm)
    if unit:
        out_shape = list(aval(out).shape)
        for i in unit:
            out_shape.insert(i, 1)
        kept = tuple(i for i in range(len(out_shape)) if i not in unit)
        out = lax.broadcast_in_dim(out, tuple(out_shape), kept)
    return ensure_array(lax._convert_element_type(out, dt, weak))


def vdot(a, b, *, precision=None, preferred_element_type=None):
    """Dot product of the flattened inputs."""
    check_arraylike("vdot", a, b)
    if dtypes.is_complex(aval(a).dtype):
        a = lax.conj(a)
    return dot(ravel(a), ravel(b), precision=precision,
               preferred_element_type=preferred_element_type)


def inner(a, b, *, precision=None, preferred_element_type=None):
    """Sum over the last axes of ``a`` and ``b``."""
    check_arraylike("inner", a, b)
    a_nd, b_nd = aval(a).ndim, aval(b).ndim
    if a_nd == 0 or b_nd == 0:
        return multiply(a, b)
    dt, weak = _out_dtype(a, b, preferred_element_type)
    return _dot_general(a, b, ((a_nd - 1,), (b_nd - 1,)), ((), ()), dt, weak, precision)


def outer(a, b, out=None):
    """Outer product of the flattened inputs."""
    check_arraylike("outer", a, b)
    a, b = promote_dtypes(a, b)
    a = ravel(a)
    a = lax.broadcast_in_dim(a, aval(a).shape + (1,), (0,))
    b = ravel(b)
    b = lax.broadcast_in_dim(b, (1,) + aval(b).shape, (1,))
    return multiply(a, b)


def tensordot(a, b, axes=2, *, precision=None, preferred_element_type=None):
    """Sum products over the given axes of ``a`` and ``b``.

    Parameters
    ----------
    a, b : array_like
    axes : int or (sequence, sequence)
        An int ``n`` contracts the last ``n`` axes of ``a`` with the first ``n`` of ``b``.

    Returns
    -------
    Array
    """
    check_arraylike("tensordot", a, b)
    a_nd, b_nd = aval(a).ndim, aval(b).ndim
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n > min(a_nd, b_nd):
            raise TypeError(f"Number of tensordot axes (axes {n}) exceeds input ranks "
                            f"({aval(a).shape} and {aval(b).shape})")
        ca, cb = tuple(range(a_nd - n, a_nd)), tuple(range(n))
    else:
        try:
            ax_a, ax_b = axes
        except (TypeError, ValueError):
            raise TypeError("tensordot axes argument must be an int, a pair of ints, or a "
                            f"pair of lists/tuples of ints; got {axes}") from None
        ax_a = (ax_a,) if isinstance(ax_a, (int, np.integer)) else tuple(ax_a)
        ax_b = (ax_b,) if isinstance(ax_b, (int, np.integer)) else tuple(ax_b)
        if len(ax_a) != len(ax_b):
            raise TypeError("tensordot requires axes lists to have equal length, got "
                            f"{list(ax_a)} and {list(ax_b)}.")
        ca = tuple(canonicalize_axis(i, a_nd) for i in ax_a)
        cb = tuple(canonicalize_axis(i, b_nd) for i in ax_b)
    dt, weak = _out_dtype(a, b, preferred_element_type)
    return _dot_general(a, b, (ca, cb), ((), ()), dt, weak, precision)


# ---------------------------------------------------------------------------------------
# einsum

def _parse_einsum(subscripts: str, shapes):
    spec = subscripts.replace(" ", "")
    if "->" in spec:
        inputs, output = spec.split("->")
    else:
        inputs, output = spec, None
    terms = inputs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"Number of einsum subscripts, {len(terms)}, must be equal to the "
                         f"number of operands, {len(shapes)}.")
    # Ellipses become fresh upper-case labels, right-aligned across operands.
    n_ell = max((len(s) - (len(t) - 3) for t, s in zip(terms, shapes, strict=True)
                 if "..." in t), default=0)
    ell = "".join(chr(ord("A") + i) for i in range(n_ell))
    expanded = []
    for i, (t, s) in enumerate(zip(terms, shapes, strict=True)):
        if "..." in t:
            k = len(s) - (len(t) - 3)
            t = t.replace("...", ell[n_ell - k:] if k else "")
        if len(t) != len(s):
            raise ValueError(f"Einstein sum subscript '{t}' does not contain the correct "
                             f"number of indices for operand {i}.")
        expanded.append(t)
    if output is None:
        counts = {}
        for t in expanded:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        output = ell + "".join(sorted(c for c, k in counts.items() if k == 1 and c not in ell))
    else:
        output = output.replace("...", ell)
        for c in output:
            if not any(c in t for t in expanded):
                raise ValueError(f"Output character '{c}' did not appear in the input")
    sizes = {}
    for i, (t, s) in enumerate(zip(expanded, shapes, strict=True)):
        if len(set(t)) != len(t):
            raise NotImplementedError("einsum with a repeated index within one operand "
                                      "(a diagonal) is not implemented in transpile")
        for c, d in zip(t, s, strict=True):
            if c in sizes and sizes[c] != d and d != 1 and sizes[c] != 1:
                raise ValueError(f"Size of label '{c}' for operand {i} ({d}) does not match "
                                 f"previous terms ({sizes[c]}).")
            sizes[c] = max(sizes.get(c, d), d)
    return expanded, output


def _sum_unique(x, names: str, keep: str):
    """Sum out the labels of ``x`` that appear nowhere in ``keep``."""
    axes = tuple(i for i, c in enumerate(names) if c not in keep)
    if axes:
        x = lax.reduce_sum(x, axes)
        names = "".join(c for c in names if c in keep)
    return x, names


def _to_order(x, names: str, output: str):
    if names == output:
        return x
    return transpose(x, tuple(names.index(c) for c in output))


def einsum(subscripts, *operands, out=None, optimize="auto", precision=None,
           preferred_element_type=None):
    """Einstein summation over one or two operands.

    Parameters
    ----------
    subscripts : str
        Such as ``'ij,jk->ik'``; ``...`` stands for leading broadcast dimensions.
    *operands : array_like
        One or two arrays.
    preferred_element_type : dtype, optional

    Returns
    -------
    Array
    """
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.einsum is not supported.")
    if not isinstance(subscripts, str):
        raise NotImplementedError("einsum with interleaved operand/subscript lists is not "
                                  "implemented in transpile")
    check_arraylike("einsum", *operands)
    if len(operands) not in (1, 2):
        n = len(subscripts.split("->")[0].split(","))
        if n != len(operands):
            raise ValueError(f"Number of einsum subscripts, {n}, must be equal to the "
                             f"number of operands, {len(operands)}.")
        raise NotImplementedError("einsum with more than two operands is not implemented "
                                  "in transpile")
    terms, output = _parse_einsum(subscripts, [aval(o).shape for o in operands])
    if len(operands) == 1:
        x, names = _sum_unique(operands[0], terms[0], output)
        return ensure_array(_to_order(x, names, output))
    a, b = operands
    dt, weak = _out_dtype(a, b, preferred_element_type)
    ta, tb = terms
    a, ta = _sum_unique(a, ta, tb + output)
    b, tb = _sum_unique(b, tb, ta + output)
    batch = [c for c in ta if c in tb and c in output]
    contract = [c for c in ta if c in tb and c not in output]

    def result_names(first: str, second: str) -> str:
        free1 = "".join(c for c in first if c not in batch and c not in contract)
        free2 = "".join(c for c in second if c not in batch and c not in contract)
        return "".join(batch) + free1 + free2

    swap = result_names(ta, tb) != output and result_names(tb, ta) == output
    if swap:
        a, b, ta, tb = b, a, tb, ta
    dims = ((tuple(ta.index(c) for c in contract), tuple(tb.index(c) for c in contract)),
            (tuple(ta.index(c) for c in batch), tuple(tb.index(c) for c in batch)))
    out_ = lax.dot_general(a, b, dims, precision=precision, preferred_element_type=dt)
    out_ = _to_order(out_, result_names(ta, tb), output)
    return ensure_array(lax._convert_element_type(out_, dt, weak))
