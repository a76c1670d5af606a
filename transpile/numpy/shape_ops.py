"""Shape manipulation: reshape, transpose, squeeze, broadcasting, joining and splitting.

No-op requests (a reshape to the same shape, an identity permutation, squeezing no
axes) emit no equation, as in JAX.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from .. import core, dtypes, lax
from ..jit import internal_jit as jit
from ..lax.layout import check_stack_shapes
from ._util import (aval, broadcast_shapes, canonicalize_axes, canonicalize_axis,
                    check_arraylike, ensure_array, promote_dtypes)

__all__ = ["reshape", "ravel", "transpose", "permute_dims", "matrix_transpose", "swapaxes",
           "moveaxis", "squeeze", "expand_dims", "broadcast_to", "broadcast_arrays",
           "broadcast_shapes", "concatenate", "concat", "stack", "hstack", "vstack", "dstack",
           "column_stack", "split", "array_split", "atleast_1d", "atleast_2d", "atleast_3d",
           "flip", "fliplr", "flipud", "tile", "shape", "ndim", "size"]


def shape(a) -> tuple:
    """The shape of an array or scalar."""
    return aval(a).shape if not isinstance(a, (list, tuple)) else np.shape(a)


def ndim(a) -> int:
    """The number of dimensions of an array or scalar."""
    return len(shape(a))


def size(a, axis=None) -> int:
    """The number of elements (along ``axis`` if given)."""
    s = shape(a)
    if axis is None:
        return math.prod(s)
    return s[canonicalize_axis(axis, len(s))]


# ---------------------------------------------------------------------------------------
# Reshaping

def _compute_newshape(old_shape, newshape) -> tuple:
    if isinstance(newshape, (list, tuple)):
        newshape = tuple(newshape)
    else:
        newshape = (newshape,)
    newshape = _canonicalize_neg(newshape)
    size_ = math.prod(old_shape)
    if sum(1 for d in newshape if d == -1) > 1:
        raise TypeError("can only specify one unknown axis size with a `-1` value, got "
                        f"{newshape}")
    if -1 in newshape:
        known = math.prod(d for d in newshape if d != -1)
        if known == 0 or size_ % known:
            raise TypeError(f"cannot reshape array of shape {tuple(old_shape)} (size {size_}) "
                            f"into shape {newshape} because the product of specified axis "
                            f"sizes ({known}) does not evenly divide {size_}")
        newshape = tuple(size_ // known if d == -1 else d for d in newshape)
    if math.prod(newshape) != size_:
        shown = newshape[0] if len(newshape) == 1 else newshape
        raise TypeError(f"cannot reshape array of shape {tuple(old_shape)} (size {size_}) "
                        f"into shape {shown} (size {math.prod(newshape)})")
    return newshape


def _canonicalize_neg(newshape) -> tuple:
    """Like ``core.canonicalize_shape``, but -1 is allowed."""
    if any(isinstance(d, core.Tracer) for d in newshape):
        core.canonicalize_shape(newshape)  # raises the traced-shape TypeError
    out = []
    for d in newshape:
        if not (
                isinstance(d, (int, np.integer)) and not isinstance(d, bool)):
            raise TypeError("Shapes must be 1D sequences of concrete values of integer type, "
                            f"got {newshape}.")
        out.append(operator.index(d))
    return tuple(out)


def reshape(a, shape=None, order="C", *, copy=None):
    """Give ``a`` a new shape with the same number of elements.

    Parameters
    ----------
    a : array_like
    shape : int or tuple of int
        One entry may be -1 (inferred).
    order : {'C', 'F'}
    copy : None
        Accepted for compatibility.

    Returns
    -------
    Array
    """
    check_arraylike("reshape", a)
    if shape is None:
        raise TypeError("reshape() missing required argument 'shape'")
    old = aval(a).shape
    new = _compute_newshape(old, shape)
    if order == "C":
        return ensure_array(lax.reshape(a, new))
    if order == "F":
        dims = tuple(range(len(old)))[::-1]
        out = lax.reshape(a, new[::-1], dims)
        return transpose(out)
    raise ValueError(f"Unexpected value for 'order' argument: {order}.")


def ravel(a, order="C"):
    """Flatten ``a`` to one dimension."""
    check_arraylike("ravel", a)
    return reshape(a, (aval(a).size,), order=order)


def transpose(a, axes=None):
    """Permute the dimensions of ``a`` (reverse them by default).

    Parameters
    ----------
    a : array_like
    axes : sequence of int, optional

    Returns
    -------
    Array
    """
    check_arraylike("transpose", a)
    nd = aval(a).ndim
    if axes is None:
        perm = tuple(range(nd))[::-1]
    else:
        axes = tuple(axes)
        if len(axes) != nd or sorted(a_ % nd if nd else a_ for a_ in axes) != list(range(nd)):
            raise TypeError("transpose permutation isn't a permutation of operand dimensions, "
                            f"got permutation {axes} for operand shape {aval(a).shape}.")
        perm = tuple(canonicalize_axis(a_, nd) for a_ in axes)
    if perm == tuple(range(nd)):
        return ensure_array(a)
    return lax.transpose(a, perm)


permute_dims = transpose


def matrix_transpose(x, /):
    """Swap the last two dimensions."""
    nd = aval(x).ndim
    if nd < 2:
        raise ValueError(f"x must be at least two-dimensional for matrix_transpose; got "
                         f"ndim={nd}")
    return transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))


def swapaxes(a, axis1, axis2):
    """Exchange two dimensions."""
    check_arraylike("swapaxes", a)
    nd = aval(a).ndim
    perm = list(range(nd))
    try:
        perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    except IndexError:
        bad = axis1 if not -nd <= axis1 < nd else axis2
        raise IndexError(f"index {bad} is out of bounds for axis 0 with size {nd}") from None
    return transpose(a, perm)


def moveaxis(a, source, destination):
    """Move dimensions ``source`` to positions ``destination``."""
    check_arraylike("moveaxis", a)
    nd = aval(a).ndim
    src = canonicalize_axes(source, nd)
    dst = canonicalize_axes(destination, nd)
    if len(src) != len(dst):
        raise ValueError("Inconsistent number of elements: "
                         f"{len(src)} vs {len(dst)}")
    perm = [i for i in range(nd) if i not in src]
    for d, s in sorted(zip(dst, src, strict=True)):
        perm.insert(d, s)
    return transpose(a, perm)


def squeeze(a, axis=None):
    """Remove size-1 dimensions (all of them, or those in ``axis``)."""
    check_arraylike("squeeze", a)
    shp = aval(a).shape
    if axis is None:
        dims = tuple(i for i, d in enumerate(shp) if d == 1)
    else:
        dims = canonicalize_axes(axis, len(shp))
        if any(shp[d] != 1 for d in dims):
            raise ValueError("cannot select an axis to squeeze out which has size not equal "
                             f"to one, got shape={shp} and dimensions={dims}")
    if not dims:
        return ensure_array(a)
    return lax.squeeze(a, tuple(sorted(dims)))


def expand_dims(a, axis):
    """Insert size-1 dimensions at positions ``axis`` of the result."""
    check_arraylike("expand_dims", a)
    shp = aval(a).shape
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out_nd = len(shp) + len(axes)
    norm = [canonicalize_axis(ax, out_nd) for ax in axes]
    if len(set(norm)) != len(norm):
        raise ValueError(f"repeated axis in lax.expand_dims: {tuple(axes)}")
    if not norm:
        return ensure_array(a)
    new_shape = []
    kept = []
    it = iter(shp)
    for i in range(out_nd):
        if i in norm:
            new_shape.append(1)
        else:
            kept.append(i)
            new_shape.append(next(it))
    return lax.broadcast_in_dim(a, tuple(new_shape), tuple(kept))


# ---------------------------------------------------------------------------------------
# Broadcasting

def broadcast_to(array, shape):
    """Broadcast ``array`` to ``shape`` (NumPy rules, leading dimensions added)."""
    check_arraylike("broadcast_to", array)
    shape = core.canonicalize_shape(shape)
    a = aval(array)
    if a.shape == shape:
        return ensure_array(array)
    lead = len(shape) - a.ndim
    if lead < 0:
        raise ValueError("Cannot broadcast to shape with fewer dimensions: "
                         f"arr_shape={a.shape} shape={shape}")
    if any(d != 1 and d != s for d, s in zip(a.shape, shape[lead:], strict=True)):
        want = a.update(shape=shape)
        raise ValueError(f"Incompatible types for broadcasting: input type={a.str_long()} "
                         f"and requested type={want.str_long()}")
    return lax.broadcast_in_dim(array, shape, tuple(range(lead, len(shape))))


def broadcast_arrays(*args):
    """Broadcast all arguments to their common shape."""
    check_arraylike("broadcast_arrays", *args)
    shp = broadcast_shapes(*(aval(a).shape for a in args))
    return [broadcast_to(a, shp) for a in args]


# ---------------------------------------------------------------------------------------
# Joining

def _as_sequence(arrays, what: str):
    if isinstance(arrays, (core.Tracer,)) or hasattr(arrays, "_value"):
        return None
    if isinstance(arrays, np.ndarray):
        return None
    if not isinstance(arrays, (list, tuple)):
        raise TypeError(f"{what} requires a sequence of arrays, got {type(arrays)}")
    return list(arrays)


def concatenate(arrays, axis=0, dtype=None):
    """Join arrays along an existing axis.

    Parameters
    ----------
    arrays : sequence of array_like, or an array (its rows are joined)
    axis : int or None
        None flattens the inputs first.
    dtype : dtype, optional

    Returns
    -------
    Array
    """
    seq = _as_sequence(arrays, "concatenate")
    if seq is None:  # an array: join its leading-axis slices
        arr = arrays
        if aval(arr).ndim == 0:
            raise ValueError("Zero-dimensional arrays cannot be concatenated.")
        if axis is None:
            return ravel(arr)
        nd = aval(arr).ndim - 1
        ax = canonicalize_axis(axis, nd)
        moved = moveaxis(arr, 0, ax)
        shp = aval(moved).shape
        return reshape(moved, shp[:ax] + (shp[ax] * shp[ax + 1],) + shp[ax + 2:])
    if not seq:
        raise ValueError("Need at least one array to concatenate.")
    check_arraylike("concatenate", *seq)
    if axis is None:
        return concatenate([ravel(a) for a in seq], 0, dtype=dtype)
    if any(aval(a).ndim == 0 for a in seq):
        raise ValueError("Zero-dimensional arrays cannot be concatenated.")
    nd = aval(seq[0]).ndim
    ax = canonicalize_axis(axis, nd)
    if dtype is None:
        seq = promote_dtypes(*seq)
    else:
        dt = dtypes.canonicalize_dtype(dtype, warn_name="concatenate")
        seq = [lax._convert_element_type(a, dt, False) for a in seq]
    if len(seq) == 1:
        return ensure_array(seq[0])
    shapes = [aval(a).shape for a in seq]
    if any(len(s) != nd for s in shapes):
        raise TypeError("Cannot concatenate arrays with different numbers of dimensions: got "
                        f"{', '.join(str(s) for s in shapes)}.")
    return lax.concatenate(seq, ax)


concat = concatenate


def stack(arrays, axis=0, out=None, dtype=None):
    """Join arrays along a new axis.

    Parameters
    ----------
    arrays : sequence of array_like (all of the same shape), or an array
    axis : int
    out : None
    dtype : dtype, optional

    Returns
    -------
    Array
    """
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.stack is not supported.")
    seq = _as_sequence(arrays, "stack")
    if seq is None:
        nd = aval(arrays).ndim
        ax = canonicalize_axis(axis, nd)
        return concatenate(expand_dims(arrays, ax + 1), axis=ax, dtype=dtype)
    if not seq:
        raise ValueError("Need at least one array to stack.")
    check_arraylike("stack", *seq)
    shapes = [aval(a).shape for a in seq]
    check_stack_shapes(shapes)
    ax = canonicalize_axis(axis, len(shapes[0]) + 1)
    if dtype is None:
        seq = promote_dtypes(*seq)
    else:
        dt = dtypes.canonicalize_dtype(dtype, warn_name="stack")
        seq = [lax._convert_element_type(a, dt, False) for a in seq]
    lax_stack = getattr(lax, "stack", None)
    if lax_stack is not None:
        return lax_stack(seq, ax)
    return lax.concatenate([expand_dims(a, ax) for a in seq], ax)


def _atleast(n: int):
    def body(*arys):
        out = []
        for x in arys:
            nd = aval(x).ndim
            if nd >= n:
                out.append(ensure_array(x))
            elif n == 3 and nd == 1:
                out.append(expand_dims(x, (0, 2)))
            elif n == 3 and nd == 2:
                out.append(expand_dims(x, 2))
            else:
                out.append(expand_dims(x, tuple(range(n - nd))))
        return out[0] if len(out) == 1 else out
    body.__name__ = f"atleast_{n}d"
    return jit(body)


_atleast_jits = {n: _atleast(n) for n in (1, 2, 3)}


def atleast_1d(*arys):
    """View inputs with at least one dimension."""
    check_arraylike("atleast_1d", *arys)
    return _atleast_jits[1](*arys)


def atleast_2d(*arys):
    """View inputs with at least two dimensions."""
    check_arraylike("atleast_2d", *arys)
    return _atleast_jits[2](*arys)


def atleast_3d(*arys):
    """View inputs with at least three dimensions."""
    check_arraylike("atleast_3d", *arys)
    return _atleast_jits[3](*arys)


def hstack(tup, dtype=None):
    """Join horizontally: along axis 0 for 1-D inputs, else axis 1."""
    arrs = [atleast_1d(a) for a in tup]
    axis = 0 if aval(arrs[0]).ndim == 1 else 1
    return concatenate(arrs, axis=axis, dtype=dtype)


def vstack(tup, dtype=None):
    """Join vertically (along axis 0), treating 1-D inputs as rows."""
    return concatenate([atleast_2d(a) for a in tup], axis=0, dtype=dtype)


def dstack(tup, dtype=None):
    """Join along the third axis."""
    return concatenate([atleast_3d(a) for a in tup], axis=2, dtype=dtype)


def column_stack(tup):
    """Join 1-D arrays as columns of a 2-D array."""
    arrs = []
    for a in tup:
        a2 = atleast_2d(a)
        arrs.append(transpose(a2) if aval(a).ndim < 2 else a2)
    return concatenate(arrs, axis=1)


# ---------------------------------------------------------------------------------------
# Splitting

def _split(name, ary, indices_or_sections, axis, equal: bool):
    check_arraylike(name, ary)
    shp = aval(ary).shape
    ax = canonicalize_axis(axis, len(shp))
    n = shp[ax]
    if isinstance(indices_or_sections, (list, tuple, np.ndarray)) or (
            hasattr(indices_or_sections, "ndim") and indices_or_sections.ndim == 1):
        cuts = [operator.index(i) for i in np.asarray(indices_or_sections)]
        bounds = [0] + [min(max(c if c >= 0 else c + n, 0), n) for c in cuts] + [n]
        sizes = [max(b - a_, 0) for a_, b in zip(bounds[:-1], bounds[1:], strict=True)]
    else:
        k = operator.index(indices_or_sections)
        if k <= 0:
            raise ValueError("number sections must be larger than 0.")
        q, r = divmod(n, k)
        if equal and r:
            raise ValueError(f"array split does not result in an equal division: rest is {r}")
        sizes = [q + 1] * r + [q] * (k - r)
    lax_split = getattr(lax, "split", None)
    if lax_split is not None:
        # JAX computes the sizes with NumPy and they print as np.int64(...).
        return list(lax_split(ary, tuple(np.int64(s) for s in sizes), ax))
    out, start = [], 0
    for s in sizes:
        lo = [0] * len(shp)
        hi = list(shp)
        lo[ax], hi[ax] = start, start + s
        out.append(lax.slice(ary, tuple(lo), tuple(hi)))
        start += s
    return out


def split(ary, indices_or_sections, axis=0):
    """Split into equal sections (an int) or at the given indices (a sequence)."""
    return _split("split", ary, indices_or_sections, axis, equal=True)


def array_split(ary, indices_or_sections, axis=0):
    """Like :func:`split`, but sections may differ in size by one."""
    return _split("array_split", ary, indices_or_sections, axis, equal=False)


# ---------------------------------------------------------------------------------------
# Reversing, tiling, repeating

def _flip(m, axis=None):
    nd = aval(m).ndim
    dims = canonicalize_axes(axis, nd)
    if not dims:
        return ensure_array(m)
    return lax.rev(m, dims)


_flip_jit = jit(_flip, static_argnames=("axis",))


def flip(m, axis=None):
    """Reverse the order of elements along ``axis`` (all axes by default)."""
    check_arraylike("flip", m)
    if isinstance(axis, list):
        axis = tuple(axis)
    return _flip_jit(m, axis=axis)


def fliplr(m):
    """Reverse along axis 1."""
    return flip(m, 1)


def flipud(m):
    """Reverse along axis 0."""
    return flip(m, 0)


def tile(A, reps):
    """Repeat the whole array ``reps`` times along each axis.

    Parameters
    ----------
    A : array_like
    reps : int or sequence of int (static)

    Returns
    -------
    Array
    """
    check_arraylike("tile", A)
    reps = tuple(operator.index(r) for r in (reps if isinstance(reps, (tuple, list))
                                              else (reps,)))
    shp = aval(A).shape
    if len(reps) > len(shp):
        A = expand_dims(A, tuple(range(len(reps) - len(shp))))
        shp = aval(A).shape
    reps = (1,) * (len(shp) - len(reps)) + reps
    lax_tile = getattr(lax, "tile", None)
    if lax_tile is not None:
        return lax_tile(A, reps)
    # Without a tile primitive: broadcast a new axis before each one and merge them.
    wide = lax.broadcast_in_dim(A, tuple(x for r, d in zip(reps, shp, strict=True)
                                         for x in (r, d)),
                                tuple(range(1, 2 * len(shp), 2)))
    return lax.reshape(wide, tuple(r * d for r, d in zip(reps, shp, strict=True)))


def repeat_static(a, repeats: int, axis=None):
    """Repeat each element ``repeats`` (a static non-negative int) times along ``axis``
    (of the flattened array when None): a broadcast and a reshape. ``jnp.repeat`` is
    :func:`transpile.numpy.shape_extra.repeat`.
    """
    r = operator.index(repeats)
    if axis is None:
        a = ravel(a) if aval(a).ndim else lax.reshape(a, (1,))
        axis = 0
    shp = aval(a).shape
    ax = canonicalize_axis(axis, len(shp))
    wide_shape = shp[:ax + 1] + (r,) + shp[ax + 1:]
    dims = tuple(range(ax + 1)) + tuple(range(ax + 2, len(shp) + 1))
    wide = lax.broadcast_in_dim(a, wide_shape, dims)
    return lax.reshape(wide, shp[:ax] + (shp[ax] * r,) + shp[ax + 1:])
