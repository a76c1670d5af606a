"""``lax.cond/switch/while_loop/fori_loop/scan/map`` (and ``jnp.select/piecewise``).

Three independent references:

* JAX 0.10.2, recorded by ``tools/record_control_flow.py`` from the programs in
  ``tests/control_flow_cases.py`` into ``tests/data/control_flow.json``: jaxpr text,
  avals, outputs (eager, jit, disable_jit) and error messages;
* plain Python loops and NumPy (each program's ``ref``, and the tables below);
* the Python functions run directly under ``transpile.disable_jit()``.

``test_compiled_control_flow`` runs the programs through the C backend; it needs the
backend's control-flow support and is kept apart so that it can be run on its own
(``pytest -k compiled``).
"""
from __future__ import annotations

import numpy as np
import pytest

try:
    import control_flow_cases
    import control_flow_error_cases
    import jaxpr_cases
except ImportError:  # collected as a package
    from tests import control_flow_cases, control_flow_error_cases, jaxpr_cases

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.interpreters.eval import eval_jaxpr_numpy

DATA = jaxpr_cases.load_data("control_flow.json")
RECORDED, RECORDED_ERRORS = DATA["cases"], DATA["errors"]
NAMES = sorted(RECORDED)
TABLE = {c.name: c for c in control_flow_cases.cases(jax, jnp, lax, np)}


def test_table_matches_recording():
    """Every program has a recording and vice versa (the data is not stale)."""
    assert sorted(TABLE) == NAMES
    errors = [n for n, _ in control_flow_error_cases.error_cases(jax, jnp, lax, np)]
    assert len(errors) == len(set(errors))
    assert sorted(errors) == sorted(RECORDED_ERRORS)
    assert sum(c.jaxpr for c in TABLE.values()) >= 20


# ---------------------------------------------------------------------------------------
# Output checks

def _check_leaf(where, ours, want):
    if want["kind"] != "Array":
        assert type(ours).__name__ == want["kind"], where
        assert ours == want["value"] or repr(ours) == want["value"], where
        return
    assert isinstance(ours, jax.Array), f"{where}: {type(ours)} is not an Array"
    assert (list(ours.shape), str(ours.dtype)) == (want["shape"], want["dtype"]), where
    assert bool(ours.weak_type) == want["weak_type"], f"{where}: weak_type"
    expected = np.asarray(want["values"], dtype=want["dtype"]).reshape(want["shape"])
    np.testing.assert_allclose(np.asarray(ours), expected, rtol=1e-6, atol=1e-6,
                               err_msg=where)


def _check_recorded(run, want):
    if "error" in want:  # JAX raised too: the same exception class
        with pytest.raises(Exception) as info:
            run()
        assert type(info.value).__name__ == want["error"], str(info.value)
        return
    leaves, tree = jax.tree_util.tree_flatten(run())
    assert str(tree) == want["tree"]
    for i, (ours, w) in enumerate(zip(leaves, want["leaves"], strict=True)):
        _check_leaf(f"leaf {i}", ours, w)


def _check_reference(out, ref):
    got, got_tree = jax.tree_util.tree_flatten(out)
    want, want_tree = jax.tree_util.tree_flatten(ref)
    assert str(got_tree) == str(want_tree)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        g = np.asarray(g)
        np.testing.assert_allclose(g, np.broadcast_to(np.asarray(w, g.dtype), g.shape),
                                   rtol=1e-5, atol=1e-5, err_msg=f"leaf {i}")


# ---------------------------------------------------------------------------------------
# The recorded programs

@pytest.mark.parametrize("name", NAMES)
def test_jaxpr_text(name):
    case, rec = TABLE[name], RECORDED[name]
    fn, args, _ = case.build()
    closed = jax.make_jaxpr(fn)(*args)
    if not case.jaxpr:
        pytest.skip(f"jaxpr knowingly differs: {case.why}")
    assert str(closed) == rec["jaxpr"]
    avals = [{"shape": list(a.shape), "dtype": str(a.dtype), "weak_type": a.weak_type}
             for a in closed.out_avals]
    assert avals == rec["out_avals"]
    assert len(closed.consts) == rec["n_consts"]


@pytest.mark.parametrize("name", NAMES)
def test_eager_matches_jax(name):
    fn, args, _ = TABLE[name].build()
    _check_recorded(lambda: fn(*args), RECORDED[name]["eager"])


@pytest.mark.parametrize("name", NAMES)
def test_eager_matches_reference(name):
    fn, args, ref = TABLE[name].build()
    _check_reference(fn(*args), ref())


@pytest.mark.parametrize("name", NAMES)
def test_disable_jit_matches_jax(name):
    """With jit disabled the Python functions run directly (JAX's output types)."""
    fn, args, ref = TABLE[name].build()
    want = RECORDED[name]["disable_jit"]
    with jax.disable_jit():
        _check_recorded(lambda: fn(*args), want)
        if "error" not in want:
            _check_reference(fn(*args), ref())


@pytest.mark.parametrize("name", NAMES)
def test_compiled_control_flow(name):
    """``jit`` through the C backend: JAX's jit outputs and the Python reference."""
    fn, args, ref = TABLE[name].build()
    jitted = jax.jit(fn)
    _check_recorded(lambda: jitted(*args), RECORDED[name]["jit"])
    _check_reference(jitted(*args), ref())


# ---------------------------------------------------------------------------------------
# Error messages

# The text JAX shows for its own classes and internal functions.
_SPELLING = [("jax._src.core.ShapedArray", "transpile.core.ShapedArray")]
# Messages naming JAX's internal helper functions: compared on their key lines.
_KEY_LINES_ONLY = {"piecewise_non_scalar_piece": ("The output of",)}


def _error_names():
    return sorted(RECORDED_ERRORS)


@pytest.mark.parametrize("name", _error_names())
def test_error_message(name):
    trigger = dict(control_flow_error_cases.error_cases(jax, jnp, lax, np))[name]
    want = RECORDED_ERRORS[name]
    with pytest.raises(Exception) as info:
        trigger()
    assert type(info.value).__name__ == want["error"]
    got = jaxpr_cases.normalise_message(str(info.value))
    expected = want["message"]
    for theirs, ours in _SPELLING:
        expected = expected.replace(theirs, ours)
    if name in _KEY_LINES_ONLY:
        keys = _KEY_LINES_ONLY[name]
        assert jaxpr_cases.key_lines(got, keys) == jaxpr_cases.key_lines(expected, keys)
    else:
        assert got == expected


# ---------------------------------------------------------------------------------------
# Tables against plain Python loops

def _run_traced(f, *args, expect):
    """``f`` traced with ``args`` as arguments, then evaluated by the NumPy evaluator."""
    closed = jax.make_jaxpr(f)(*args)
    assert expect in str(closed)
    return eval_jaxpr_numpy(closed.jaxpr, closed.consts, *args)[0]


def _py_fori(lo, hi, body, init):
    v = init
    for i in range(lo, hi):
        v = body(i, v)
    return v


FORI_BOUNDS = [(0, 5), (2, 7), (5, 2), (3, 3), (-3, 2), (-5, -1), (0, 1)]


@pytest.mark.parametrize("lo,hi", FORI_BOUNDS)
@pytest.mark.parametrize("form", ["python_int", "numpy_int", "traced"])
def test_fori_loop_matches_python_loop(lo, hi, form):
    def body(i, c):
        return c * 2 + i

    want = _py_fori(lo, hi, body, 1)
    if form == "python_int":
        got = lax.fori_loop(lo, hi, body, jnp.int32(1))
    elif form == "numpy_int":
        got = lax.fori_loop(np.int32(lo), np.int32(hi), body, jnp.int32(1))
    else:
        got = _run_traced(lambda a, b: lax.fori_loop(a, b, body, jnp.int32(1)),
                          np.int32(lo), np.int32(hi), expect="while[")
    assert int(np.asarray(got)) == want


def test_fori_loop_concrete_is_scan_traced_is_while():
    body = lambda i, c: c + i  # noqa: E731
    assert "scan[" in str(jax.make_jaxpr(lambda x: lax.fori_loop(0, 3, body, x))(1.0))
    traced = str(jax.make_jaxpr(lambda n, x: lax.fori_loop(0, n, body, x))(3, 1.0))
    assert "while[" in traced and "scan[" not in traced


@pytest.mark.parametrize("index", [-3, -1, 0, 1, 2, 3, 7])
@pytest.mark.parametrize("traced", [False, True])
def test_switch_clamps_index(index, traced):
    branches = [lambda x: x + 1.0, lambda x: x * 10.0, lambda x: -x]
    want = branches[min(max(index, 0), 2)](2.0)
    if traced:
        got = _run_traced(lambda i: lax.switch(i, branches, jnp.float32(2.0)),
                          np.int32(index), expect="clamp")
    else:
        got = lax.switch(index, branches, jnp.float32(2.0))
    assert float(got) == want


@pytest.mark.parametrize("pred,want", [(True, 1.0), (False, 2.0), (0, 2.0), (5, 1.0),
                                       (-1, 1.0), (0.0, 2.0), (0.5, 1.0),
                                       (np.uint8(0), 2.0), (np.int8(3), 1.0)])
def test_cond_predicate_values(pred, want):
    assert float(lax.cond(pred, lambda: 1.0, lambda: 2.0)) == want
    got = _run_traced(lambda p: lax.cond(p, lambda: 1.0, lambda: 2.0), np.asarray(pred),
                      expect="cond[")
    assert float(got) == want


@pytest.mark.parametrize("start,limit", [(0.0, 10.0), (20.0, 10.0), (0.5, 3.0), (9.5, 10.0)])
def test_while_loop_matches_python_loop(start, limit):
    def py(v):
        n = 0
        while v < limit:
            v, n = v * 1.5 + 1, n + 1
        return v, n
    v, n = lax.while_loop(lambda c: c[0] < limit, lambda c: (c[0] * 1.5 + 1.0, c[1] + 1),
                          (jnp.float32(start), 0))
    want_v, want_n = py(np.float32(start))
    np.testing.assert_allclose(float(v), want_v, rtol=1e-6)
    assert int(n) == want_n


@pytest.mark.parametrize("n", [0, 1, 4, 9])
@pytest.mark.parametrize("reverse", [False, True])
def test_scan_matches_python_loop(n, reverse):
    rng = np.random.default_rng(n)
    xs = rng.standard_normal((n, 3)).astype(np.float32)
    ws = rng.standard_normal(n).astype(np.float32)

    def body(c, x):
        row, w = x
        return (c[0] * 0.5 + row * w, c[1] + 1), (c[0].sum(), row * 2)

    carry, ys = (np.zeros(3, np.float32), 0), ([], [])
    for t in (range(n - 1, -1, -1) if reverse else range(n)):
        carry, y = body(carry, (xs[t], ws[t]))
        ys[0].append((t, y[0]))
        ys[1].append((t, y[1]))
    got_c, got_ys = lax.scan(body, (jnp.zeros(3), 0), (jnp.asarray(xs), jnp.asarray(ws)),
                             reverse=reverse)
    np.testing.assert_allclose(np.asarray(got_c[0]), carry[0], rtol=1e-5, atol=1e-6)
    assert int(got_c[1]) == n
    want0 = np.array([v for _, v in sorted(ys[0], key=lambda p: p[0])], np.float32)
    want1 = np.array([v for _, v in sorted(ys[1], key=lambda p: p[0])], np.float32)
    np.testing.assert_allclose(np.asarray(got_ys[0]), want0.reshape(n), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(got_ys[1]), want1.reshape(n, 3), rtol=1e-5)


@pytest.mark.parametrize("batch_size", [None, 1, 2, 3, 5, 7])
def test_map_matches_numpy(batch_size):
    xs = np.arange(10, dtype=np.float32).reshape(5, 2)
    got = lax.map(lambda r: (r.sum(), r * r), jnp.asarray(xs), batch_size=batch_size)
    np.testing.assert_allclose(np.asarray(got[0]), xs.sum(1))
    np.testing.assert_allclose(np.asarray(got[1]), xs * xs)


# ---------------------------------------------------------------------------------------
# disable_jit, and tracing once

def test_disable_jit_runs_python_functions_each_iteration():
    from transpile.config import disable_jit
    calls = []

    def body(c):
        calls.append(isinstance(c, jax.Array))
        return c + 1

    with disable_jit():
        out = lax.while_loop(lambda c: c < 3, body, 0)
        assert len(calls) == 3
        got = lax.fori_loop(0, 4, lambda i, c: c + [type(i).__name__], [])
        assert got == ["int"] * 4  # the index is a Python int and any carry works
        assert lax.cond(True, lambda: "t", lambda: "f") == "t"
        assert lax.switch(9, [lambda: "a", lambda: "b"]) == "b"
    assert int(out) == 3
    assert calls == [True] * 3  # while_loop's carry is made an array first


def test_traced_functions_run_once_and_share_one_jaxpr():
    calls = []

    def body(c, x):
        calls.append(1)
        return c + x, None

    def f(xs):
        return lax.scan(body, 0.0, xs)[0] + lax.scan(body, 0.0, xs)[0]
    text = str(jax.make_jaxpr(f)(jnp.arange(3.0)))
    assert len(calls) == 1
    assert text.startswith("let jaxpr = ")


def test_cached_trace_with_dead_tracer_retraces():
    """A function closing over a tracer of a finished trace is traced again.

    (A deliberate difference: JAX 0.10.2's cache hands back the dead tracer, and the
    eager call below raises UnexpectedTracerError there.)
    """
    box = {}

    def body(c, _):
        return c + box["y"], None

    def outer(y):
        box["y"] = y
        return lax.scan(body, 0.0, None, length=2)[0]
    jax.make_jaxpr(outer)(1.0)
    assert float(jax.jit(outer)(3.0)) == 6.0
    assert float(outer(2.0)) == 4.0
