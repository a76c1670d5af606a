"""Generated C of the dynamic-indexing primitives against their NumPy rules, bit for bit.

``dynamic_slice`` fused into loops and reductions, ``dynamic_update_slice``, ``gather``
and every scatter, over dtypes, index dtypes and index values that are negative, out of
bounds, duplicated or the extremes of their type, in every mode, with empty arrays and
zero-size windows; plus random dimension numbers (batch, offset, collapsed, batching
dims). Everything compiles with one compiler call (``stages.compile_many``);
``test_memory_safety.py`` runs the same programs under AddressSanitizer
(``indexing_cases``).
"""
import numpy as np
import pytest

import transpile as jax
from transpile import lax
from transpile.interpreters.eval import eval_jaxpr_numpy
from transpile.stages import compile_many

GD, SD, MODE = lax.GatherDimensionNumbers, lax.ScatterDimensionNumbers, lax.GatherScatterMode
MODES = [MODE.CLIP, MODE.FILL_OR_DROP, MODE.PROMISE_IN_BOUNDS]
DTYPES = [np.float32, np.float64, np.int32, np.uint8, np.bool_, np.float16, np.int8]
INDEX_DTYPES = [np.int32, np.int64, np.uint8, np.uint32, np.uint64, np.int8, np.int16]
SCATTERS = {"set": lax.scatter, "add": lax.scatter_add, "sub": lax.scatter_sub,
            "mul": lax.scatter_mul, "min": lax.scatter_min, "max": lax.scatter_max}


def _values(dtype, shape, seed):
    """Operand values with the specials of ``dtype`` (NaN, -0.0, extremes) mixed in."""
    dt = np.dtype(dtype)
    r = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    if dt == np.bool_:
        return r.random(shape) < 0.5
    if dt.kind == "f":
        special = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5, -2.25,
                            float(np.finfo(dt).max), float(np.finfo(dt).tiny)], dt)
        v = (r.standard_normal(n) * 8).astype(dt)
    else:
        info = np.iinfo(dt)
        special = np.array([info.min, info.max, 0, 1], dt)
        v = r.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    pick = r.random(n) < 0.25
    v[pick] = special[r.integers(0, special.size, int(pick.sum()))]
    return v.reshape(shape)


def _index_values(dtype, shape, bound, seed):
    """Indices of ``dtype``: mostly in ``[-bound, 2 * bound)``, some at the extremes."""
    dt = np.dtype(dtype)
    info = np.iinfo(dt)
    r = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    lo = max(-bound, int(info.min))
    v = [int(k) for k in r.integers(lo, min(2 * bound + 1, int(info.max)), max(n, 1))[:n]]
    special = [int(info.min), int(info.max), 0, bound, bound - 1, -1, -bound]
    for k in np.flatnonzero(r.random(n) < 0.2):
        v[k] = special[int(r.integers(0, len(special)))]
    return np.array([min(max(k, int(info.min)), int(info.max)) for k in v],
                    dtype=dt).reshape(shape)


# ---------------------------------------------------------------------------------------
# Hand-written cases

def _starts(dt, values):
    return [np.asarray(v, dt) for v in values]


def _dynamic_slice_cases():
    cases = []
    x = _values(np.float32, (4, 5), 0)
    for dt in INDEX_DTYPES:
        info = np.iinfo(dt)
        for i in sorted({0, 2, 3, 4, 100, int(info.max), int(info.min), -1 if info.min else 1}):
            i = np.asarray(i).astype(dt)
            name = f"{np.dtype(dt).name}_{i}"
            # x[i] (wrapped once if negative, clamped) fused into 2 * x[i] + 1
            cases.append((f"ds_row_{name}",
                          lambda x, i: 2 * lax.dynamic_index_in_dim(x, i, 0, False) + 1,
                          (x, i)))
            cases.append((f"ds_window_{name}",
                          lambda x, i, j: lax.dynamic_slice(x, (i, j), (2, 3)) * 3,
                          (x, i, np.asarray(int(i) // 2).astype(dt))))
    for dt in DTYPES:
        v = _values(dt, (3, 4, 5), 1)
        cases.append((f"ds_dtype_{np.dtype(dt).name}",
                      lambda v, i: lax.dynamic_slice(v, (i, np.int32(1), i), (2, 2, 3)),
                      (v, np.int32(2))))
    i = np.int32(-3)
    cases += [
        # composed with other index maps, on a computed operand, inside a reduction
        ("ds_of_transpose", lambda x, i: lax.dynamic_slice(x.T, (i, i), (3, 2)) + 1, (x, i)),
        ("ds_then_rev", lambda x, i: lax.rev(
            lax.dynamic_slice(x, (i, np.int32(1)), (3, 4)), (0, 1)), (x, np.int32(1))),
        ("ds_of_sin", lambda x, i: lax.dynamic_slice(lax.sin(x), (i, i), (2, 2)), (x, i)),
        ("ds_of_broadcast", lambda v, i: lax.dynamic_slice(
            lax.broadcast_in_dim(v, (6, 5), (1,)), (i, i), (3, 3)) * 2, (x[0], np.int32(4))),
        ("ds_twice", lambda x, i, j: lax.dynamic_index_in_dim(x, i, 0, False)
         + lax.dynamic_index_in_dim(x, j, 0, False), (x, np.int32(1), np.int32(-1))),
        ("ds_nested", lambda x, i: lax.dynamic_slice(
            lax.dynamic_slice(x, (i, i), (3, 3)), (i, np.int32(0)), (2, 3)), (x, np.int32(1))),
        # (integer-valued, so that the sums are exact in any order)
        ("ds_sum", lambda x, i: lax.reduce_sum(lax.dynamic_slice(x, (i, i), (3, 4)), (0,)),
         (np.arange(20, dtype=np.float32).reshape(4, 5), np.int32(7))),
        ("ds_full_sum", lambda x, i: lax.reduce_sum(
            lax.dynamic_index_in_dim(x, i, 1, False), (0,)),
         (np.arange(20, dtype=np.float32).reshape(4, 5), np.int32(-2))),
        ("ds_start_computed", lambda x, i: lax.dynamic_slice(x, (i * 3 - 1, i), (2, 2)),
         (x, np.int32(1))),
        ("ds_zero_size", lambda x, i: lax.dynamic_slice(x, (i, i), (0, 3)), (x, i)),
        ("ds_empty_operand", lambda z, i: lax.dynamic_slice(z, (i, i), (0, 2)),
         (np.zeros((0, 3), np.float32), i)),
        ("ds_scalar_result", lambda x, i: lax.dynamic_slice(x, (i, i), (1, 1)).reshape(()) * 2,
         (x, np.int32(2))),
        ("ds_whole", lambda x, i: lax.dynamic_slice(x, (i, i), (4, 5)), (x, i)),
    ]
    return cases


def _dynamic_update_slice_cases():
    cases = []
    for dt in DTYPES:
        x, u = _values(dt, (4, 5), 2), _values(dt, (2, 3), 3)
        cases.append((f"dus_{np.dtype(dt).name}",
                      lambda x, u, i, j: lax.dynamic_update_slice(x, u, (i, j)),
                      (x, u, np.int32(1), np.int32(3))))
    x, u = _values(np.float32, (4, 5), 2), _values(np.float32, (2, 3), 3)
    for dt in INDEX_DTYPES:
        info = np.iinfo(dt)
        for a, b in ((0, 0), (int(info.max), int(info.min)), (int(info.min), int(info.max)),
                     (3, 100), (-1 if info.min else 1, 2)):
            cases.append((f"dus_{np.dtype(dt).name}_{a}_{b}",
                          lambda x, u, i, j: lax.dynamic_update_slice(x, u, (i, j)),
                          (x, u, *_starts(dt, (a, b)))))
    cases += [
        ("dus_rows", lambda x, u, i: lax.dynamic_update_slice(x, u, (i, np.int32(0))),
         (x, _values(np.float32, (2, 5), 4), np.int32(3))),
        ("dus_column", lambda x, u, i: lax.dynamic_update_slice(x, u, (np.int32(0), i)),
         (x, _values(np.float32, (4, 1), 4), np.int32(-1))),
        ("dus_index", lambda x, v, i: lax.dynamic_update_index_in_dim(x, v, i, 0),
         (x, x[0] * 2, np.int32(-1))),
        ("dus_empty_update", lambda x, u, i: lax.dynamic_update_slice(x, u, (i, i)),
         (x, np.zeros((0, 3), np.float32), np.int32(2))),
        ("dus_empty_operand", lambda z, u, i: lax.dynamic_update_slice(z, u, (i, i)),
         (np.zeros((0, 3), np.float32), np.zeros((0, 2), np.float32), np.int32(2))),
        ("dus_scalar", lambda s, t: lax.dynamic_update_slice(s, t, ()),
         (np.float32(1.5), np.float32(-2.0))),
        ("dus_computed", lambda x, u, i: lax.dynamic_update_slice(x * 2, lax.exp(u), (i, i)) + 1,
         (x, u, np.int32(1))),
        ("dus_constant_update", lambda x, i: lax.dynamic_update_slice(
            x, np.full((1, 1), 7, np.float32), (i, i)), (x, np.int32(2))),
        ("dus_literal_operand", lambda t: lax.dynamic_update_slice(np.float32(1.5), t, ()),
         (np.float32(-3.0),)),
        ("dus_literal_update", lambda s: lax.dynamic_update_slice(s, np.float32(-3.0), ()),
         (np.float32(1.5),)),
    ]
    return cases


def _gather_cases():
    cases = []
    x = _values(np.float32, (5, 4), 5)
    rows, cols = GD((1,), (0,), (0,)), GD((0,), (1,), (1,))
    points = GD((), (0, 1), (0, 1))
    for mode in MODES:
        m = mode.name.lower()
        for dt in INDEX_DTYPES:
            idx = _index_values(dt, (9, 1), 5, 6)
            cases.append((f"gather_rows_{m}_{np.dtype(dt).name}", lambda x, i, mode=mode:
                          lax.gather(x, i, rows, (1, 4), mode=mode), (x, idx)))
        idx = _index_values(np.int32, (7, 1), 4, 7)
        cases.append((f"gather_cols_{m}", lambda x, i, mode=mode:
                      lax.gather(x, i, cols, (5, 1), mode=mode), (x, idx)))
        idx = _index_values(np.int64, (3, 4, 2), 5, 8)
        cases.append((f"gather_points_{m}", lambda x, i, mode=mode:
                      lax.gather(x, i, points, (1, 1), mode=mode), (x, idx)))
        cases.append((f"gather_windows_{m}", lambda x, i, mode=mode: lax.gather(
            x, i, GD((1, 2), (), (0, 1)), (3, 2), mode=mode), (x, idx)))
        for dt in DTYPES:
            v = _values(dt, (5, 4), 9)
            for fill in (None, 3):
                cases.append((f"gather_dtype_{m}_{np.dtype(dt).name}_{fill}",
                              lambda v, i, mode=mode, fill=fill: lax.gather(
                                  v, i, rows, (1, 4), mode=mode, fill_value=fill),
                              (v, _index_values(np.int32, (6, 1), 5, 10))))
    i = _index_values(np.int32, (4, 1), 5, 11)
    cases += [
        ("gather_fill_converted", lambda v, i: lax.gather(
            v, i, rows, (1, 4), mode="fill", fill_value=-1.5), (_values(np.uint8, (5, 4), 0), i)),
        ("gather_empty_indices", lambda x, i: lax.gather(x, i, rows, (1, 4), mode="fill"),
         (x, np.zeros((0, 1), np.int32))),
        ("gather_zero_window", lambda x, i: lax.gather(x, i, rows, (1, 0), mode="clip"),
         (x, i)),
        ("gather_empty_operand", lambda z, i: lax.gather(
            z, i, GD((1,), (0,), (0,)), (1, 0), mode="fill"), (np.zeros((3, 0), np.float32), i)),
        ("gather_no_index_vector", lambda x, i: lax.gather(x, i, GD((1, 2), (), ()), (2, 3)),
         (x, np.zeros((3, 0), np.int32))),
        ("gather_then_fuse", lambda x, i: lax.gather(lax.sin(x), i * 2, rows, (1, 4)) + 1,
         (x, i)),
        ("gather_big_parallel", lambda x, i: lax.gather(x, i, rows, (1, 512)),
         (_values(np.float32, (64, 512), 12), _index_values(np.int32, (300, 1), 64, 13))),
    ]
    return cases


def _scatter_cases():
    cases = []
    x = _values(np.float32, (5, 4), 14)
    rows, points = SD((1,), (0,), (0,)), SD((), (0, 1), (0, 1))
    for kind, fn in SCATTERS.items():
        for mode in MODES:
            m = mode.name.lower()
            for dt in DTYPES:
                if dt == np.bool_ and kind in ("add", "sub", "mul"):
                    continue  # lax has no bool add, sub or mul
                v = _values(dt, (5, 4), 15)
                # duplicates: index 1 three times; out-of-bounds and extreme indices
                idx = np.array([[1], [4], [1], [-1], [5], [1], [2147483647],
                                [-2147483648], [0]], np.int32)
                cases.append((f"scatter_{kind}_{m}_{np.dtype(dt).name}", lambda v, i, u,
                              fn=fn, mode=mode: fn(v, i, u, rows, mode=mode),
                              (v, idx, _values(dt, (9, 4), 16))))
            for dt in INDEX_DTYPES:
                idx = _index_values(dt, (12, 2), 5, 17)
                cases.append((f"scatter_{kind}_{m}_points_{np.dtype(dt).name}",
                              lambda x, i, u, fn=fn, mode=mode: fn(x, i, u, points, mode=mode),
                              (x, idx, _values(np.float32, (12,), 18))))
            cases.append((f"scatter_{kind}_{m}_windows", lambda x, i, u, fn=fn, mode=mode: fn(
                x, i, u, SD((1, 2), (), (0, 1)), mode=mode),
                (x, _index_values(np.int64, (6, 2), 5, 19), _values(np.float32, (6, 3, 2), 20))))
        cases.append((f"scatter_{kind}_scalar_update", lambda x, i, fn=fn: fn(
            x, i, np.float32(10), SD((), (0, 1), (0, 1))), (x, np.array([1, 2], np.int32))))
        cases.append((f"scatter_{kind}_empty_updates", lambda x, i, u, fn=fn: fn(x, i, u, rows),
                       (x, np.zeros((0, 1), np.int32), np.zeros((0, 4), np.float32))))
    cases += [
        ("scatter_int_wrap", lambda a, i, u: lax.scatter_add(a, i, u, points),
         (np.full((2, 2), 2**31 - 1, np.int32), np.array([[0, 0], [0, 0], [1, 1]], np.int32),
          np.array([1, 2**31 - 1, -2**31], np.int32))),
        ("scatter_f16_add", lambda a, i, u: lax.scatter_add(a, i, u, points),
         (np.full((2, 2), 2048, np.float16), np.zeros((7, 2), np.int32),
          np.ones(7, np.float16))),
        ("scatter_apply", lambda x, i: lax.scatter_apply(
            x, i, lambda v: lax.sin(v) * 2 + 1, points, update_shape=(6,)),
         (x, _index_values(np.int32, (6, 2), 5, 21))),
        ("scatter_apply_int", lambda a, i: lax.scatter_apply(
            a, i, lambda v: v * 3 - 1, rows, update_shape=(5, 4)),
         (_values(np.int32, (5, 4), 22), _index_values(np.int32, (5, 1), 5, 23))),
        ("scatter_empty_operand", lambda z, i, u: lax.scatter_add(z, i, u, rows),
         (np.zeros((3, 0), np.float32), np.array([[1]], np.int32),
          np.zeros((1, 0), np.float32))),
        ("scatter_literal_operand", lambda i, u: lax.scatter_add(
            np.float32(1.5), i, u, SD((), (), ())), (np.zeros((3, 0), np.int32),
                                                     np.array([1, 2, 4], np.float32))),
        ("scatter_computed", lambda x, i, u: lax.scatter_add(x * 2, i, lax.exp(u), rows) - 1,
         (x, np.array([[0], [0]], np.int32), _values(np.float32, (2, 4), 24))),
    ]
    return cases


# ---------------------------------------------------------------------------------------
# Random dimension numbers

def _random_layout(r):
    """A random operand shape, its batching dims, the indexed dims and the dims that
    lose their size-1 axis (collapsed or inserted)."""
    rank = int(r.integers(1, 4))
    shape = [int(n) for n in r.integers(1, 5, rank)]
    dims = list(range(rank))
    r.shuffle(dims)
    n_batching = int(r.integers(0, 2)) if rank > 1 else 0
    batching, rest = sorted(dims[:n_batching]), dims[n_batching:]
    indexed = tuple(int(d) for d in rest[:int(r.integers(0, len(rest) + 1))])
    squeezed = tuple(sorted(d for d in rest if r.random() < 0.4))
    return rank, shape, batching, indexed, squeezed


def _random_gather(seed):
    r = np.random.default_rng(seed)
    rank, shape, batching, start_map, collapsed = _random_layout(r)
    sizes = [1 if d in batching or d in collapsed else int(r.integers(0, shape[d] + 1))
             for d in range(rank)]
    batch = [int(n) for n in r.integers(0 if r.random() < 0.1 else 1, 4, int(r.integers(0, 3)))]
    idx_batching = []
    for od in batching:  # each operand batching dim pairs with a new indices batch dim
        pos = int(r.integers(0, len(batch) + 1))
        batch.insert(pos, shape[od])
        idx_batching = [p + (p >= pos) for p in idx_batching] + [pos]
    n_offset = rank - len(collapsed) - len(batching)
    out_rank = len(batch) + n_offset
    offset = tuple(sorted(int(d) for d in r.choice(out_rank, n_offset, replace=False)))
    dn = GD(offset, collapsed, start_map, tuple(batching), tuple(idx_batching))
    dt = INDEX_DTYPES[seed % len(INDEX_DTYPES)]
    idx = _index_values(dt, tuple(batch) + (len(start_map),), max(shape), seed)
    mode = MODES[seed % 3]
    x = _values(DTYPES[seed % len(DTYPES)], tuple(shape), seed)
    return (f"rgather{seed}", lambda x, i: lax.gather(x, i, dn, sizes, mode=mode), (x, idx))


def _random_scatter(seed):
    r = np.random.default_rng(seed)
    rank, shape, batching, to_operand, inserted = _random_layout(r)
    window = [d for d in range(rank) if d not in batching and d not in inserted]
    wsizes = [int(r.integers(0 if r.random() < 0.1 else 1, shape[d] + 1)) for d in window]
    batch = [int(n) for n in r.integers(1, 5, int(r.integers(0, 3)))]
    idx_batching = []
    for od in batching:
        pos = int(r.integers(0, len(batch) + 1))
        batch.insert(pos, shape[od])
        idx_batching = [p + (p >= pos) for p in idx_batching] + [pos]
    u_rank = len(batch) + len(window)
    uwd = tuple(sorted(int(d) for d in r.choice(u_rank, len(window), replace=False)))
    ushape, b, w = [], iter(batch), iter(wsizes)
    for d in range(u_rank):
        ushape.append(next(w) if d in uwd else next(b))
    dn = SD(uwd, inserted, to_operand, tuple(batching), tuple(idx_batching))
    kind = list(SCATTERS)[seed % len(SCATTERS)]
    dt = DTYPES[seed % len(DTYPES)]
    if dt == np.bool_ and kind in ("add", "sub", "mul"):
        dt = np.int8
    fn, mode = SCATTERS[kind], MODES[seed % 3]
    # Few distinct indices, so that windows overlap and duplicates combine.
    idx = _index_values(INDEX_DTYPES[seed % len(INDEX_DTYPES)],
                        tuple(batch) + (len(to_operand),), 2, seed)
    args = (_values(dt, tuple(shape), seed), idx, _values(dt, tuple(ushape), seed + 1))
    return (f"rscatter{seed}_{kind}", lambda x, i, u: fn(x, i, u, dn, mode=mode), args)


def _numpy_cases():
    """The jnp indexing (``x[i]``, ``.at[]``) that stages these primitives."""
    x = _values(np.float32, (4, 5), 40)
    idx = np.array([0, -1, 7, 2, -9], np.int32)
    return [
        ("np_getitem_scalar", lambda x, i: 2 * x[i] + 1, (x, np.int32(-1))),
        ("np_getitem_array", lambda x, i: x[i], (x, idx)),
        ("np_getitem_column", lambda x, i: x[:, i] * 2, (x, idx)),
        ("np_at_add", lambda x, i: x.at[i].add(1.0), (x, idx)),
        ("np_at_set_pairs", lambda x, i: x.at[i, 2].set(-5.0), (x, idx)),
        ("np_at_get_fill", lambda x, i: x.at[i].get(mode="fill"), (x, idx)),
        ("np_at_min_clip", lambda x, i: x.at[i].min(0.0, mode="clip"), (x, idx)),
    ]


def indexing_cases():
    """Every ``(name, function, arguments)`` of this file (run under ``enable_x64``)."""
    return (_dynamic_slice_cases() + _dynamic_update_slice_cases() + _gather_cases()
            + _scatter_cases() + _numpy_cases() + [_random_gather(s) for s in range(80)]
            + [_random_scatter(s) for s in range(80)])


# ---------------------------------------------------------------------------------------
# The comparison

def _same_bits(got, want) -> bool:
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind == "f":  # every bit, except that any NaN matches any NaN
        both_nan = np.isnan(got) & np.isnan(want)
        u = {2: np.uint16, 4: np.uint32, 8: np.uint64}[got.dtype.itemsize]
        return bool(np.all(both_nan | (got.view(u) == want.view(u))))
    return bool(np.array_equal(got, want))


@pytest.fixture(scope="module")
def compiled():
    with jax.enable_x64():
        items = [(name, jax.make_jaxpr(fn)(*args), args)
                 for name, fn, args in indexing_cases()]
        exes = compile_many([(f"ix_{name}", closed) for name, closed, _ in items])
        results = []
        for (name, closed, args), exe in zip(items, exes, strict=True):
            want = eval_jaxpr_numpy(closed.jaxpr, closed.consts, *args)
            results.append((name, exe(list(args)), want))
    return items, results


def test_every_case_matches_the_numpy_rule_bit_for_bit(compiled):
    items, results = compiled
    assert len(items) > 500
    bad = [name for name, got, want in results
           if not all(_same_bits(g, w) for g, w in zip(got, want, strict=True))]
    assert not bad, f"{len(bad)} mismatches: {bad[:30]}"


def test_every_indexing_primitive_is_exercised(compiled):
    items, _ = compiled
    seen = {e.primitive.name for _, closed, _ in items for e in closed.jaxpr.eqns}
    inner = {e.primitive.name for _, closed, _ in items for e in closed.jaxpr.eqns
             if e.primitive.name == "jit" for e in e.params["jaxpr"].jaxpr.eqns}
    assert {"gather", "scatter", "scatter-add", "scatter-sub", "scatter-mul", "scatter-min",
            "scatter-max", "dynamic_update_slice"} <= seen
    assert "dynamic_slice" in seen | inner


# ---------------------------------------------------------------------------------------
# The shape of the generated code

def _source(fn, *args):
    return jax.jit(fn).lower(*args).as_text()


def test_dynamic_slice_fuses_into_the_loop_as_an_offset():
    x = np.zeros((64, 128), np.float32)
    text = _source(lambda x, i: 2 * lax.dynamic_index_in_dim(x, i, 0, False) + 1, x,
                   np.int32(3))
    assert text.count("static void") == 1  # one loop, no copy of the row
    assert "tp_clamp_start(" in text and "* 128 + idx]" in text
    assert "%" not in text.split("static void", 1)[1]  # no index decomposition


def test_scatter_and_dynamic_update_slice_can_run_in_place():
    x = np.zeros((8, 4), np.float32)
    for text in (_source(lambda x, u, i: lax.dynamic_update_slice(x, u, (i, i)), x,
                         np.ones((2, 4), np.float32), np.int32(1)),
                 _source(lambda x, i, u: lax.scatter_add(x, i, u, SD((1,), (0,), (0,))), x,
                         np.zeros((3, 1), np.int32), np.ones((3, 4), np.float32))):
        kernel = text[text.rindex("static void", 0, text.index("!= A) memcpy(")):]
        signature = kernel[:kernel.index(")")]
        assert "const float *A" in signature and "const float *restrict A" not in signature


@pytest.mark.parametrize("name, fn, args", [
    ("dus", lambda x, u, i: lax.dynamic_update_slice(x, u, (i, np.int32(1)),
                                                     allow_negative_indices=False),
     (_values(np.float32, (6, 5), 30), _values(np.float32, (2, 3), 31), np.int32(-9))),
    ("scatter", lambda x, i, u: lax.scatter(x, i, u, SD((1,), (0,), (0,))),
     (_values(np.int32, (6, 5), 32), np.array([[1], [7], [1]], np.int32),
      _values(np.int32, (3, 5), 33))),
    ("scatter_add", lambda x, i, u: lax.scatter_add(x, i, u, SD((), (0, 1), (0, 1))),
     (_values(np.float16, (6, 5), 34), np.array([[1, 2], [1, 2], [5, 4]], np.int32),
      _values(np.float16, (3,), 35))),
])
def test_kernels_update_in_place_when_the_output_is_the_operand(name, fn, args):
    # Call the entry point with the operand's buffer as the output too (as the planner
    # may arrange inside loops): the copy is skipped and the update lands in place.
    closed = jax.make_jaxpr(fn)(*args)
    exe, = compile_many([(f"inplace_{name}", closed)])
    want = eval_jaxpr_numpy(closed.jaxpr, closed.consts, *args)[0]
    assert len(closed.jaxpr.eqns) == 1 and exe.workspace_bytes == 0
    lib, ffi = exe.library.lib, exe.library.ffi
    buf = [np.array(a) for a in args]
    getattr(lib, exe.abi.name)(*[ffi.from_buffer(b) for b in buf], ffi.from_buffer(buf[0]),
                                ffi.NULL)
    assert _same_bits(buf[0], want)


def test_gathered_rows_are_copied_with_memcpy():
    text = _source(lambda x, i: lax.gather(x, i, GD((1,), (0,), (0,)), (1, 16)),
                   np.zeros((8, 16), np.float32), np.zeros((5, 1), np.int32))
    assert "memcpy(dst, src, sizeof(*dst) * 16);" in text


def test_one_hot_mode_is_refused():
    f = jax.jit(lambda x, i: lax.gather(x, i, GD((1,), (0,), (0,)), (1, 4), mode="one_hot"))
    with pytest.raises(NotImplementedError):
        f.lower(np.zeros((5, 4), np.float32), np.zeros((2, 1), np.int32)).compile()
