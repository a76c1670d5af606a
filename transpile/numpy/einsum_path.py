"""``einsum`` over any number of operands, ``einsum_path``, and the vector products
``matvec``, ``vecmat``, ``vecdot``.

Several operands are contracted pairwise, each pair one ``dot_general`` (through the
two-operand :func:`transpile.numpy.linalg_ops.einsum`), in the order a contraction
path gives. The path is chosen as ``opt_einsum`` (which JAX uses) chooses it:
``"optimal"`` searches every pairwise order for the fewest multiply-adds,
``"greedy"`` repeatedly contracts the pair whose result removes the most memory,
``False`` goes left to right, and ``"auto"`` is optimal for up to four operands and
greedy beyond. A path may also be given as a list of index pairs. Repeated labels
within one operand (``"ii->i"``) take the diagonal first.
"""
from __future__ import annotations

import itertools
import math

from ._util import aval, check_arraylike, ensure_array
from .creation import arange
from .linalg_ops import _parse_einsum, einsum as _einsum2
from .linalg_ops import matmul
from .shape_ops import moveaxis, transpose
from .ufuncs import conj

__all__ = ["einsum", "einsum_path", "matvec", "vecmat", "vecdot"]


def _labels(subscripts, shapes):
    """Input label strings (ellipses expanded) and the output labels."""
    spec = subscripts.replace(" ", "")
    inputs = spec.split("->")[0].split(",")
    if len(inputs) != len(shapes):
        raise ValueError(f"Number of einsum subscripts, {len(inputs)}, must be equal to the "
                         f"number of operands, {len(shapes)}.")
    # Diagonal terms are checked here; the rest of the parsing is the 2-operand einsum's.
    plain = [t if len(set(t.replace("...", ""))) == len(t.replace("...", "")) else
             _dedup(t) for t in inputs]
    shapes2 = [_dedup_shape(t, s) for t, s in zip(inputs, shapes, strict=True)]
    out_spec = spec.split("->")[1] if "->" in spec else None
    joined = ",".join(plain) + ("" if out_spec is None else "->" + out_spec)
    if out_spec is None:
        # An implicit output keeps labels that appear once over all operands (repeats
        # within one operand included), sorted.
        counts = {}
        for t in inputs:
            for c in t.replace("...", ""):
                counts[c] = counts.get(c, 0) + 1
        ell = "..." if any("..." in t for t in inputs) else ""
        joined = ",".join(plain) + "->" + ell + "".join(
            sorted(c for c, k in counts.items() if k == 1))
    terms, output = _parse_einsum(joined, shapes2)
    return terms, output, inputs


def _dedup(t: str) -> str:
    seen = []
    for c in t.replace("...", "\0"):
        if c not in seen or c == "\0":
            seen.append(c)
    return "".join(seen).replace("\0", "...")


def _dedup_shape(t: str, shape):
    """The shape after taking the diagonals of repeated labels (unchanged where the
    labels do not fit the shape: the parser reports that)."""
    named = len(t.replace("...", ""))
    if named > len(shape) or ("..." not in t and named != len(shape)):
        return tuple(shape)
    labels = _split_labels(t, len(shape))
    out, seen = [], set()
    for c, d in zip(labels, shape, strict=True):
        if c in seen and c is not None:
            continue
        seen.add(c)
        out.append(d)
    return tuple(out)


def _split_labels(t: str, ndim: int):
    """One entry per dimension: the label, or None for dimensions under ``...``."""
    if "..." not in t:
        return list(t)
    head, tail = t.split("...")
    return list(head) + [None] * (ndim - len(head) - len(tail)) + list(tail)


def _take_diagonals(x, t: str):
    """Operand ``x`` with the diagonal of every repeated label taken."""
    labels = _split_labels(t, aval(x).ndim)
    while True:
        dup = next((c for c in labels if c is not None and labels.count(c) > 1), None)
        if dup is None:
            return x
        p = labels.index(dup)
        q = labels.index(dup, p + 1)
        n = aval(x).shape[p]
        rest = [i for i in range(len(labels)) if i not in (p, q)]
        x = transpose(x, (p, q, *rest))
        idx = arange(n)
        x = x[idx, idx]
        # The diagonal axis goes back to where the label first appeared.
        perm = list(range(1, len(rest) + 1))
        perm.insert(p, 0)
        x = transpose(x, tuple(perm))
        labels = [labels[i] for i in rest]
        labels.insert(p, dup)


def _size(labels, sizes) -> int:
    return math.prod(sizes[c] for c in labels)


def _pair_result(ti: str, tj: str, others: list, output: str) -> str:
    keep = set(output).union(*others) if others else set(output)
    return "".join(c for c in dict.fromkeys(ti + tj) if c in keep)


def _pair_cost(ti, tj, sizes) -> int:
    return _size(set(ti) | set(tj), sizes)


def _optimal_path(terms, output, sizes):
    best = [None, math.inf]

    def search(current, path, cost):
        if cost >= best[1]:
            return
        if len(current) == 1:
            best[0], best[1] = list(path), cost
            return
        for i, j in itertools.combinations(range(len(current)), 2):
            others = [t for k, t in enumerate(current) if k not in (i, j)]
            res = _pair_result(current[i], current[j], others, output)
            search(others + [res], path + [(i, j)],
                   cost + _pair_cost(current[i], current[j], sizes))
    search(list(terms), [], 0)
    return best[0]


def _greedy_path(terms, output, sizes):
    current, path = list(terms), []
    while len(current) > 1:
        choice = None
        for i, j in itertools.combinations(range(len(current)), 2):
            others = [t for k, t in enumerate(current) if k not in (i, j)]
            res = _pair_result(current[i], current[j], others, output)
            removed = (_size(res, sizes) - _size(current[i], sizes)
                       - _size(current[j], sizes))
            key = (removed, _pair_cost(current[i], current[j], sizes))
            if choice is None or key < choice[0]:
                choice = (key, i, j, others, res)
        _, i, j, others, res = choice
        path.append((i, j))
        current = others + [res]
    return path


def _contraction_path(terms, output, sizes, optimize):
    n = len(terms)
    if n < 2:
        return [(0,)] if n == 1 else []
    if isinstance(optimize, (list, tuple)):
        path = [tuple(p) for p in optimize if p != "einsum_path"]
        return path
    if optimize is False or optimize is None:
        return [(0, 1)] * (n - 1)
    if optimize is True:
        optimize = "optimal"
    if optimize == "auto":
        optimize = "optimal" if n <= 4 else "greedy"
    if optimize in ("optimal", "dp", "branch-all", "branch-2", "branch-1"):
        return _optimal_path(terms, output, sizes)
    if optimize == "greedy":
        return _greedy_path(terms, output, sizes)
    raise ValueError(f"einsum: unknown optimize value {optimize!r}")


def _prepare(subscripts, operands):
    if not isinstance(subscripts, str):
        raise NotImplementedError("einsum with interleaved operand/subscript lists is not "
                                  "implemented in transpile")
    check_arraylike("einsum", *operands)
    operands = [ensure_array(o) for o in operands]
    terms, output, raw = _labels(subscripts, [aval(o).shape for o in operands])
    operands = [_take_diagonals(o, t) for o, t in zip(operands, raw, strict=True)]
    sizes = {}
    for t, o in zip(terms, operands, strict=True):
        for c, d in zip(t, aval(o).shape, strict=True):
            sizes[c] = max(sizes.get(c, 1), d)
    return operands, terms, output, sizes


def einsum_path(subscripts, /, *operands, optimize="auto"):
    """The pairwise contraction order :func:`einsum` would use, and a description.

    Returns
    -------
    (list of tuple of int, str)
        Each pair indexes the current operand list; the pair's result joins its end.
    """
    operands, terms, output, sizes = _prepare(subscripts, operands)
    path = _contraction_path(terms, output, sizes, optimize)
    lines = [f"  Complete contraction:  {','.join(terms)}->{output}",
             f"  Naive FLOP count:  {_size(set(''.join(terms)), sizes) * len(terms):.3e}"]
    current = list(terms)
    for pair in path:
        if len(pair) < 2:
            continue
        i, j = pair
        others = [t for k, t in enumerate(current) if k not in (i, j)]
        res = _pair_result(current[i], current[j], others, output)
        lines.append(f"  {current[i]},{current[j]}->{res}")
        current = others + [res]
    return path, "\n".join(lines)


def einsum(subscripts, /, *operands, out=None, optimize="auto", precision=None,
           preferred_element_type=None):
    """Einstein summation over any number of operands.

    Parameters
    ----------
    subscripts : str
        Such as ``'ij,jk,kl->il'``; ``...`` stands for broadcast dimensions, and a
        label repeated within one operand takes its diagonal.
    *operands : array_like
    out : None
    optimize : {"auto", "optimal", "greedy", True, False} or list of pairs
        The pairwise contraction order (see :func:`einsum_path`).
    precision : optional
    preferred_element_type : dtype, optional

    Returns
    -------
    Array
    """
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.einsum is not supported.")
    operands, terms, output, sizes = _prepare(subscripts, operands)
    kw = {"precision": precision, "preferred_element_type": preferred_element_type}
    if len(operands) <= 2:
        return _einsum2(",".join(terms) + "->" + output, *operands, **kw)
    path = _contraction_path(terms, output, sizes, optimize)
    current = list(zip(terms, operands, strict=True))
    for i, j in path:
        (ti, xi), (tj, xj) = current[i], current[j]
        rest = [c for k, c in enumerate(current) if k not in (i, j)]
        res = _pair_result(ti, tj, [t for t, _ in rest], output) if rest else output
        current = rest + [(res, _einsum2(f"{ti},{tj}->{res}", xi, xj, **kw))]
    (t, x), = current
    return _einsum2(f"{t}->{output}", x) if t != output else x


def matvec(x1, x2, /):
    """Matrix-vector product over the last axes: ``(..., m, n) @ (..., n) -> (..., m)``."""
    check_arraylike("matvec", x1, x2)
    x1, x2 = ensure_array(x1), ensure_array(x2)
    return matmul(x1, x2[..., None])[..., 0]


def vecmat(x1, x2, /):
    """Vector-matrix product over the last axes, the vector conjugated:
    ``conj(x1) (..., m) @ x2 (..., m, n) -> (..., n)``."""
    check_arraylike("vecmat", x1, x2)
    x1, x2 = ensure_array(x1), ensure_array(x2)
    return matmul(conj(x1)[..., None, :], x2)[..., 0, :]


def vecdot(x1, x2, /, *, axis=-1, precision=None, preferred_element_type=None):
    """Dot product of the vectors along ``axis``, the first conjugated.

    Parameters
    ----------
    x1, x2 : array_like
        At least 1-D, with the same length along ``axis``; the other axes broadcast
        once ``axis`` is moved last in both.
    axis : int
        The axis of the vectors.
    precision : None
        Accepted for compatibility.
    preferred_element_type : dtype, optional
        The dtype to accumulate in and return.

    Returns
    -------
    Array
        ``sum(conj(x1) * x2, axis)`` in the promoted dtype of the inputs: a product
        of ``uint8`` vectors is ``uint8`` (wrapping), as a ``dot`` is.
    """
    check_arraylike("vecdot", x1, x2)
    x1, x2 = ensure_array(x1), ensure_array(x2)
    # a 0-d operand has no ``axis``: the IndexError is JAX's answer too
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"axes must match; got shapes {x1.shape} and {x2.shape} "
                         f"with axis={axis}")
    x1, x2 = moveaxis(conj(x1), axis, -1), moveaxis(x2, axis, -1)
    return matmul(x1[..., None, :], x2[..., :, None], precision=precision,
                  preferred_element_type=preferred_element_type)[..., 0, 0]
