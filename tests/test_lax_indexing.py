"""The indexing primitives (gather, scatter family, dynamic_slice, dynamic_update_slice)
and their lax API.

Two kinds of checks: JAX 0.10.2's recorded behaviour on the programs of
``indexing_cases.py`` (jaxpr text, eager values, error texts; see ``indexing_checks``),
and the NumPy rules against plain Python loops written from XLA's definitions, on
random dimension numbers, every mode, duplicate and extreme indices and empty arrays.
"""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.ir import typecheck
from transpile.lax import GatherDimensionNumbers as GD
from transpile.lax import GatherScatterMode as Mode
from transpile.lax import ScatterDimensionNumbers as SD
from transpile.lax.indexing import default_fill_value

try:
    from indexing_checks import (check_compiled, check_eager, check_jaxpr, check_staged,
                                 compile_recorded, names)
except ImportError:  # collected as a package
    from tests.indexing_checks import (check_compiled, check_eager, check_jaxpr,
                                       check_staged, compile_recorded, names)

LAX = names("lax")
ERRS = names("laxerr")
# Where transpile deliberately differs from JAX 0.10.2 (an explicit error instead of a
# bare AssertionError from deep inside JAX).
DEVIATIONS = {"laxerr/one_hot": "ONE_HOT gathers raise NotImplementedError when evaluated",
              "laxerr/duid3": "a scalar update of a 2-D operand raises the "
                              "dynamic_update_slice rank TypeError"}


# ---------------------------------------------------------------------------------------
# Recorded JAX behaviour

@pytest.mark.parametrize("name", LAX)
def test_jaxpr_text(name):
    check_jaxpr(name)


@pytest.mark.parametrize("name", LAX)
def test_eager_values(name):
    check_eager(name)


@pytest.mark.parametrize("name", LAX)
def test_staged_values(name):
    check_staged(name)


@pytest.fixture(scope="module")
def compiled_lax():
    return compile_recorded(LAX)


@pytest.mark.parametrize("name", LAX)
def test_compiled_values(compiled_lax, name):
    check_compiled(compiled_lax, name)


@pytest.mark.parametrize("name", ERRS)
def test_api_errors(name):
    if name in DEVIATIONS:
        pytest.xfail(DEVIATIONS[name])
    check_eager(name)


def test_counts():
    assert len(LAX) >= 35 and len(ERRS) >= 75


# ---------------------------------------------------------------------------------------
# API objects

def test_dimension_numbers_and_modes():
    assert str(GD((0,), (1,), (1,))) == (
        "GatherDimensionNumbers(offset_dims=(0,), collapsed_slice_dims=(1,), "
        "start_index_map=(1,), operand_batching_dims=(), start_indices_batching_dims=())")
    assert str(SD((), (0,), (0,))) == (
        "ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), "
        "scatter_dims_to_operand_dims=(0,), operand_batching_dims=(), "
        "scatter_indices_batching_dims=())")
    assert [m.name for m in Mode] == ["CLIP", "FILL_OR_DROP", "PROMISE_IN_BOUNDS", "ONE_HOT"]
    assert str(Mode.CLIP) == "GatherScatterMode.CLIP"
    table = {None: Mode.FILL_OR_DROP, "clip": Mode.CLIP, "fill": Mode.FILL_OR_DROP,
             "drop": Mode.FILL_OR_DROP, "promise_in_bounds": Mode.PROMISE_IN_BOUNDS,
             "one_hot": Mode.ONE_HOT, Mode.CLIP: Mode.CLIP}
    for arg, want in table.items():
        assert Mode.from_any(arg) is want
    for bad in ("bogus", "CLIP", 3):
        with pytest.raises(ValueError, match=f'Unknown gather mode "{bad}"'):
            Mode.from_any(bad)


def test_default_fill_values():
    assert np.isnan(default_fill_value(np.float16))
    assert default_fill_value(np.int32) == np.iinfo(np.int32).min
    assert default_fill_value(np.int8) == -128
    assert default_fill_value(np.uint8) == 255
    assert default_fill_value(np.uint32) == 2 ** 32 - 1
    assert default_fill_value(np.bool_) == True  # noqa: E712


def test_update_jaxpr_is_shared_and_hoisted():
    dn = SD((), (0,), (0,))

    def f(x, i, u):
        return lax.scatter_add(lax.scatter_add(x, i, u, dn), i, u, dn)
    text = str(jax.make_jaxpr(f)(np.zeros(5, np.float32), np.zeros((2, 1), np.int32),
                                 np.ones(2, np.float32)))
    assert text.startswith("let jaxpr = { lambda ; a:f32[] b:f32[]. let c:f32[] = add a b "
                           "in (c,) } in\n")
    assert text.count("update_jaxpr=jaxpr") == 2


def test_staged_jaxprs_typecheck():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    fns = [lambda x: lax.gather(x, np.array([[1], [2]], np.int32), GD((1,), (0,), (0,)),
                                (1, 4), mode="fill"),
           lambda x: lax.scatter_mul(x, np.array([[1], [2]], np.int32),
                                     np.ones((2, 4), np.float32), SD((1,), (0,), (0,))),
           lambda x: lax.dynamic_slice(x, (np.int32(1), np.int32(-1)), (2, 2)),
           lambda x: lax.dynamic_update_slice(x, np.ones((1, 4), np.float32), (7, 0)),
           lambda x: lax.scatter_apply(x, np.array([[0]], np.int32), lax.sin,
                                       SD((1,), (0,), (0,)), update_shape=(1, 4))]
    for fn in fns:
        typecheck(jax.make_jaxpr(fn)(x))


# ---------------------------------------------------------------------------------------
# Loop references, written from XLA's definitions

def _fill(dtype, fill_value):
    return default_fill_value(dtype) if fill_value is None else np.asarray(
        fill_value).astype(dtype)


def gather_loop(operand, indices, dn, slice_sizes, mode, fill_value=None):
    """Output element by output element."""
    batch_shape = indices.shape[:-1]
    dropped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    offsets = [s for d, s in enumerate(slice_sizes) if d not in dropped]
    window_dims = [d for d in range(operand.ndim) if d not in dropped]
    out_rank = len(batch_shape) + len(offsets)
    b_iter, o_iter = iter(batch_shape), iter(offsets)
    out_shape = tuple(next(o_iter) if p in dn.offset_dims else next(b_iter)
                      for p in range(out_rank))
    out = np.empty(out_shape, operand.dtype)
    for pos in itertools.product(*map(range, out_shape)):
        b = tuple(pos[p] for p in range(out_rank) if p not in dn.offset_dims)
        w = [pos[p] for p in dn.offset_dims]
        start = [0] * operand.ndim
        for k, d in enumerate(dn.start_index_map):
            start[d] = int(indices[b + (k,)])
        for od, bd in zip(dn.operand_batching_dims, dn.start_indices_batching_dims,
                          strict=True):
            start[od] = b[bd]
        ok = all(0 <= s <= n - k for s, n, k in zip(start, operand.shape, slice_sizes,
                                                     strict=True))
        if mode == Mode.FILL_OR_DROP and not ok:
            out[pos] = _fill(operand.dtype, fill_value)
            continue
        start = [min(max(s, 0), n - k) for s, n, k in zip(start, operand.shape, slice_sizes,
                                                           strict=True)]
        full = list(start)
        for d, o in zip(window_dims, w, strict=True):
            full[d] += o
        out[pos] = operand[tuple(full)]
    return out


_COMBINE = {"scatter": lambda old, u: u, "scatter-add": lambda old, u: old + u,
            "scatter-sub": lambda old, u: old - u, "scatter-mul": lambda old, u: old * u,
            "scatter-min": min, "scatter-max": max}


def scatter_loop(kind, operand, indices, updates, dn, mode):
    """Update element by update element, in row-major order of (scatter index, window
    index)."""
    out = operand.copy()
    uwd = dn.update_window_dims
    scatter_dims = [d for d in range(updates.ndim) if d not in uwd]
    dropped = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
    window_dims = [d for d in range(operand.ndim) if d not in dropped]
    sizes = [1] * operand.ndim
    for d, u in zip(window_dims, uwd, strict=True):
        sizes[d] = updates.shape[u]
    # Order: scatter index first, then window index (the documented contract).
    order = scatter_dims + list(uwd)
    with np.errstate(all="ignore"):
        for perm_pos in itertools.product(*(range(updates.shape[d]) for d in order)):
            pos = [0] * updates.ndim
            for d, v in zip(order, perm_pos, strict=True):
                pos[d] = v
            pos = tuple(pos)
            b = tuple(pos[d] for d in scatter_dims)
            start = [0] * operand.ndim
            for k, d in enumerate(dn.scatter_dims_to_operand_dims):
                start[d] = int(indices[b + (k,)])
            for od, bd in zip(dn.operand_batching_dims, dn.scatter_indices_batching_dims,
                              strict=True):
                start[od] = b[bd]
            ok = all(0 <= s <= n - k for s, n, k in zip(start, operand.shape, sizes,
                                                         strict=True))
            if mode != Mode.CLIP and not ok:
                continue
            start = [min(max(s, 0), n - k) for s, n, k in zip(start, operand.shape, sizes,
                                                               strict=True)]
            for d, u in zip(window_dims, uwd, strict=True):
                start[d] += pos[u]
            t = tuple(start)
            out[t] = _COMBINE[kind](out[t], updates[pos])
    return out


def _random_gather(rng: random.Random):
    """A random valid gather: (operand, indices, dnums, slice_sizes)."""
    nd = rng.randint(1, 3)
    shape = tuple(rng.randint(0 if rng.random() < 0.1 else 1, 4) for _ in range(nd))
    dims = list(range(nd))
    rng.shuffle(dims)
    n_batching = rng.randint(0, 1) if nd > 1 else 0
    op_batch = sorted(dims[:n_batching])
    rest = dims[n_batching:]
    k = rng.randint(0, len(rest))
    index_map = rest[:k]
    collapsed = sorted(d for d in index_map if rng.random() < 0.6)
    sizes = []
    for d in range(nd):
        if d in collapsed or d in op_batch:
            sizes.append(1 if shape[d] else 0)
        else:
            sizes.append(rng.randint(0, shape[d]))
    if any(sizes[d] != 1 for d in collapsed + op_batch):
        return None
    batch = [rng.randint(0, 3) for _ in range(rng.randint(0, 2))]
    idx_batch = []
    for d in op_batch:
        batch.insert(0, shape[d])
        idx_batch = [i + 1 for i in idx_batch] + [0]
    idx_batch = sorted(idx_batch)
    lo, hi = -3, max(shape) + 3
    values = np.array([rng.choice([lo, hi, rng.randint(lo, hi), 2 ** 31 - 1, -2 ** 31])
                       for _ in range(int(np.prod(batch + [len(index_map)], dtype=int)))])
    indices = values.reshape(batch + [len(index_map)]).astype(np.int32)
    n_off = nd - len(collapsed) - len(op_batch)
    out_rank = len(batch) + n_off
    offset_dims = sorted(rng.sample(range(out_rank), n_off))
    operand = (np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) + 1) * 10
    dn = GD(tuple(offset_dims), tuple(collapsed), tuple(index_map), tuple(op_batch),
            tuple(idx_batch))
    return operand, indices, dn, tuple(sizes)


GATHER_CASES = [c for c in (_random_gather(random.Random(s)) for s in range(400))
                if c is not None][:150]


@pytest.mark.parametrize("case", range(len(GATHER_CASES)))
def test_gather_matches_loops(case):
    operand, indices, dn, sizes = GATHER_CASES[case]
    for mode in (Mode.CLIP, Mode.PROMISE_IN_BOUNDS, Mode.FILL_OR_DROP):
        want = gather_loop(operand, indices, dn, sizes, mode)
        got = lax.gather(operand, indices, dn, sizes, mode=mode)
        np.testing.assert_array_equal(np.asarray(got), want)
    want = gather_loop(operand, indices, dn, sizes, Mode.FILL_OR_DROP, -7)
    got = lax.gather(operand, indices, dn, sizes, mode="fill", fill_value=-7)
    np.testing.assert_array_equal(np.asarray(got), want)


def _scatter_from_gather(case):
    """The scatter with the same index space as a gather case (updates shaped like its
    output)."""
    operand, indices, dn, sizes = case
    sdn = SD(dn.offset_dims, dn.collapsed_slice_dims, dn.start_index_map,
             dn.operand_batching_dims, dn.start_indices_batching_dims)
    out_shape = gather_loop(operand, indices, dn, sizes, Mode.CLIP).shape
    updates = (np.arange(int(np.prod(out_shape)), dtype=np.float32).reshape(out_shape)
               % 7 - 3)
    return operand, indices, updates, sdn


_SCATTERS = {"scatter": lax.scatter, "scatter-add": lax.scatter_add,
             "scatter-sub": lax.scatter_sub, "scatter-mul": lax.scatter_mul,
             "scatter-min": lax.scatter_min, "scatter-max": lax.scatter_max}


@pytest.mark.parametrize("case", range(0, len(GATHER_CASES), 2))
def test_scatter_matches_loops(case):
    operand, indices, updates, dn = _scatter_from_gather(GATHER_CASES[case])
    for kind, fn in _SCATTERS.items():
        for mode in (Mode.CLIP, Mode.PROMISE_IN_BOUNDS, Mode.FILL_OR_DROP):
            want = scatter_loop(kind, operand, indices, updates, dn, mode)
            got = fn(operand, indices, updates, dn, mode=mode)
            np.testing.assert_array_equal(np.asarray(got), want, err_msg=f"{kind} {mode}")


def test_scatter_duplicates_apply_in_order():
    x = np.zeros(4, np.float32)
    idx = np.array([[1], [1], [3], [1], [-1], [4]], np.int32)
    upd = np.array([1, 2, 3, 4, 5, 6], np.float32)
    dn = SD((), (0,), (0,))
    assert np.asarray(lax.scatter(x, idx, upd, dn)).tolist() == [0, 4, 0, 3]
    assert np.asarray(lax.scatter_add(x, idx, upd, dn)).tolist() == [0, 7, 0, 3]
    assert np.asarray(lax.scatter_sub(x, idx, upd, dn)).tolist() == [0, -7, 0, -3]
    assert np.asarray(lax.scatter(x, idx, upd, dn, mode="clip")).tolist() == [5, 4, 0, 6]
    ones = np.ones(4, np.float32)
    assert np.asarray(lax.scatter_mul(ones, idx, upd, dn)).tolist() == [1, 8, 1, 3]
    # float addition is not associative: updates must apply one after the other
    big = np.array([1e8, 1.0, -1e8, 1.0], np.float32)
    got = lax.scatter_add(np.zeros(1, np.float32), np.zeros((4, 1), np.int32), big, dn)
    acc = np.float32(0)
    for v in big:
        acc = np.float32(acc + v)
    assert np.asarray(got).tolist() == [acc]
    # apply: once per index occurrence
    out = lax.scatter_apply(np.ones(3, np.float32), np.array([[1], [1], [2]], np.int32),
                            lambda v: v * 3, dn, update_shape=(3,))
    assert np.asarray(out).tolist() == [1, 9, 3]


def test_scatter_min_max_nan_and_dtypes():
    dn = SD((), (0,), (0,))
    idx = np.array([[0], [1], [1]], np.int32)
    x = np.array([1.0, 2.0, 3.0], np.float32)
    upd = np.array([np.nan, 0.5, 5.0], np.float32)
    assert np.isnan(np.asarray(lax.scatter_min(x, idx, upd, dn))[0])
    assert np.asarray(lax.scatter_max(x, idx, upd, dn))[1:].tolist() == [5.0, 3.0]
    b = np.array([True, False, True])
    assert np.asarray(lax.scatter_max(b, idx, np.array([False, True, False]), dn)).tolist() \
        == [True, True, True]
    assert np.asarray(lax.scatter_min(b, idx, np.array([False, True, False]), dn)).tolist() \
        == [False, False, True]
    i8 = np.array([120, 0], np.int8)
    out = lax.scatter_add(i8, np.array([[0], [0]], np.int32), np.array([5, 5], np.int8), dn)
    assert np.asarray(out).tolist() == [-126, 0]  # wraps
    h = np.zeros(2, np.float16)
    out = lax.scatter_add(h, np.array([[0]], np.int32), np.array([0.1], np.float16), dn)
    assert np.asarray(out).dtype == np.float16


def test_extreme_and_wide_indices_are_safe():
    x = np.arange(5, dtype=np.float32)
    dn = GD((), (0,), (0,))
    for dt in (np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32):
        info = np.iinfo(dt)
        idx = np.array([[info.min], [info.max], [0]], dt)
        got = lax.gather(x, idx, dn, (1,), mode="clip")
        want = [0.0 if info.min <= 0 else 4.0, 4.0, 0.0]
        assert np.asarray(got).tolist() == want, dt
        got = lax.gather(x, idx, dn, (1,), mode="fill", fill_value=-1)
        assert np.asarray(got).tolist() == [-1.0 if info.min < 0 else 0.0, -1.0, 0.0], dt
        out = lax.scatter_add(x, idx, np.ones(3, np.float32), SD((), (0,), (0,)))
        assert np.asarray(out).tolist() == [1.0 + (info.min == 0), 1, 2, 3, 4], dt
    big = np.array([np.iinfo(np.int32).max, np.iinfo(np.int32).min], np.int32)
    assert np.asarray(lax.dynamic_slice(x, (big[0],), (2,))).tolist() == [3.0, 4.0]
    assert np.asarray(lax.dynamic_slice(x, (jnp.asarray(big[1]),), (2,),
                                        allow_negative_indices=False)).tolist() == [0.0, 1.0]
    with pytest.raises(ValueError, match="Index -2147483648 is out of bounds for dimension 5 "
                                         "if allow_negative_indices=False"):
        lax.dynamic_slice(x, (big[1],), (2,), allow_negative_indices=False)
    out = lax.dynamic_update_slice(x, np.array([9.0], np.float32), (big[0],))
    assert np.asarray(out).tolist() == [0, 1, 2, 3, 9]


def test_empty_arrays_and_windows():
    dn = GD((0,), (), (0,))
    empty = np.zeros((0,), np.float32)
    out = lax.gather(empty, np.array([[0], [5]], np.int32), dn, (0,), mode="fill")
    assert np.asarray(out).shape == (0, 2)
    out = lax.gather(np.arange(3.0, dtype=np.float32), np.zeros((0, 1), np.int32),
                     GD((), (0,), (0,)), (1,))
    assert np.asarray(out).shape == (0,)
    out = lax.scatter_add(empty, np.array([[0]], np.int32), np.zeros((1, 0), np.float32),
                          SD((1,), (), (0,)))
    assert np.asarray(out).shape == (0,)
    for mode in ("clip", "fill", "promise_in_bounds"):
        out = lax.scatter(np.zeros((0, 2), np.float32), np.array([[3]], np.int32),
                          np.ones((1, 2), np.float32), SD((1,), (0,), (0,)), mode=mode)
        assert np.asarray(out).shape == (0, 2)
    assert np.asarray(lax.dynamic_slice(np.zeros((0, 3), np.float32), (4, 1),
                                        (0, 2))).shape == (0, 2)
    out = lax.dynamic_update_slice(np.zeros((2, 0), np.float32),
                                   np.zeros((1, 0), np.float32), (5, 5))
    assert np.asarray(out).shape == (2, 0)


def _dynamic_slice_ref(x, starts, sizes):
    lo = [min(max(int(s), 0), n - k) for s, n, k in zip(starts, x.shape, sizes, strict=True)]
    return x[tuple(slice(s, s + k) for s, k in zip(lo, sizes, strict=True))]


@pytest.mark.parametrize("seed", range(20))
def test_dynamic_slices_match_reference(seed):
    rng = np.random.RandomState(seed)
    shape = tuple(rng.randint(1, 5, size=rng.randint(1, 4)))
    x = rng.randn(*shape).astype(np.float32)
    sizes = tuple(rng.randint(0, n + 1) for n in shape)
    starts = tuple(int(s) for s in rng.randint(-7, 8, size=len(shape)))
    wrapped = [s + n if s < 0 else s for s, n in zip(starts, shape, strict=True)]
    got = lax.dynamic_slice(x, [np.int32(s) for s in starts], sizes)
    np.testing.assert_array_equal(np.asarray(got), _dynamic_slice_ref(x, wrapped, sizes))
    got = lax.dynamic_slice(x, [jnp.asarray(np.int32(s)) for s in starts], sizes,
                            allow_negative_indices=False)
    np.testing.assert_array_equal(np.asarray(got), _dynamic_slice_ref(x, starts, sizes))
    upd = rng.randn(*sizes).astype(np.float32)
    want = x.copy()
    lo = [min(max(s, 0), n - k) for s, n, k in zip(wrapped, shape, sizes, strict=True)]
    want[tuple(slice(s, s + k) for s, k in zip(lo, sizes, strict=True))] = upd
    got = lax.dynamic_update_slice(x, upd, [np.int32(s) for s in starts])
    np.testing.assert_array_equal(np.asarray(got), want)
    # the same through a trace, evaluated by the NumPy evaluator
    from transpile.interpreters.eval import eval_jaxpr_numpy
    closed = jax.make_jaxpr(lambda a, *s: lax.dynamic_update_slice(a, upd, s))(
        x, *[np.int32(s) for s in starts])
    out = eval_jaxpr_numpy(closed.jaxpr, closed.consts, x,
                           *[np.asarray(s, np.int32) for s in starts])
    np.testing.assert_array_equal(out[0], want)


def test_in_dim_helpers():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert np.asarray(lax.dynamic_index_in_dim(x, -1, 1, keepdims=False)).tolist() == \
        [3.0, 7.0, 11.0]
    assert np.asarray(lax.dynamic_slice_in_dim(x, 3, 2, 0)).tolist() == x[1:3].tolist()
    out = lax.dynamic_update_index_in_dim(x, np.zeros(4, np.float32), -1, 0)
    assert np.asarray(out)[2].tolist() == [0, 0, 0, 0]
    out = lax.dynamic_update_slice_in_dim(x, np.ones((3, 1), np.float32), 9, 1)
    assert np.asarray(out)[:, 3].tolist() == [1, 1, 1]
    text = str(jax.make_jaxpr(lambda a, i: lax.dynamic_index_in_dim(a, i) +
                              lax.dynamic_index_in_dim(a, i))(x, 1))
    assert text.startswith("let dynamic_index_in_dim = ")  # one shared jitted helper


def test_weak_types():
    weak = lax.broadcast_in_dim(1.0, (3,), ())
    strong = np.ones((1,), np.float32)
    assert lax.gather(weak, np.array([[0]], np.int32), GD((), (0,), (0,)), (1,)).weak_type
    assert lax.scatter(weak, np.array([[0]], np.int32), strong, SD((), (0,), (0,))).weak_type
    assert not lax.scatter(np.ones(3, np.float32), np.array([[0]], np.int32),
                           lax.broadcast_in_dim(2.0, (1,), ()), SD((), (0,), (0,))).weak_type
    assert lax.dynamic_slice(weak, (1,), (1,)).weak_type
    assert not lax.dynamic_update_slice(weak, lax.broadcast_in_dim(2.0, (1,), ()),
                                        (1,)).weak_type


def test_one_hot_is_staged_but_not_evaluated():
    x = np.arange(4, dtype=np.float32)
    idx = np.array([[1]], np.int32)
    text = str(jax.make_jaxpr(lambda a: lax.gather(a, idx, GD((), (0,), (0,)), (1,),
                                                   mode="one_hot"))(x))
    assert "mode=GatherScatterMode.ONE_HOT" in text
    with pytest.raises(NotImplementedError, match="ONE_HOT"):
        lax.gather(x, idx, GD((), (0,), (0,)), (1,), mode="one_hot")
