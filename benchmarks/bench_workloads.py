"""The workloads table of issue 19: transpile, JAX and NumPy timed side by side in one
process, medians, ratio = JAX time / transpile time (> 1: transpile is faster).

Run from the repository root (JAX from the scratch virtualenv):

    PYTHONPATH=. $JAX_PYTHON benchmarks/bench_workloads.py
    PYTHONPATH=. $JAX_PYTHON benchmarks/bench_workloads.py --hog
    PYTHONPATH=. $JAX_PYTHON benchmarks/bench_workloads.py eager dispatch

``--hog`` keeps one core busy (``python -c "while True: pass"``) for the whole run, as
the other jobs of a shared machine do. Row names given on the command line select rows
by substring.
"""
from __future__ import annotations

import collections
import os
import subprocess
import sys

# NumPy's OpenBLAS threads spin for a long while after each call (its default timeout),
# holding both cores while the next contender runs: NumPy's matrix product made ours and
# the MLP step lose a core in this process (ours 1024^3: 20-46 ms against 10.7 alone).
# With a short timeout NumPy keeps its threads, which sleep once done. Set before NumPy
# is imported; a value already in the environment is kept.
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")

import numpy as np  # noqa: E402

from bench_backend import _ready, jax, jnp, median_time, tnp, tp  # noqa: E402

Row = collections.namedtuple("Row", "name build repeat number")
ROWS: list = []


def row(name, repeat=7, number=1):
    def add(build):
        ROWS.append(Row(name, build, repeat, number))
        return build
    return add


def _f32(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


# Each builder returns {contender: zero-argument callable}; JAX's block until ready.

def _jax_call(fn, *args):
    return lambda: _ready(fn(*args))


@row("dispatch: cached jit call, 9 f32", number=2000)
def _jit9():
    x = _f32(9)
    out = {"transpile": (lambda f, a: lambda: f(a))(
        tp.jit(lambda v: tnp.sin(v) + tnp.cos(v)), tnp.asarray(x))}
    if jax:
        out["JAX"] = _jax_call(jax.jit(lambda v: jnp.sin(v) + jnp.cos(v)), jnp.asarray(x))
    out["NumPy"] = lambda: np.sin(x) + np.cos(x)
    return out


def _dict5(d):
    return d["a"] * d["b"] + d["c"] - d["d"] * d["e"]


@row("dispatch: cached jit, dict of 5 arrays", number=2000)
def _jitdict():
    d = {k: _f32(9, seed=i) for i, k in enumerate("abcde")}
    td = {k: tnp.asarray(v) for k, v in d.items()}
    f = tp.jit(_dict5)
    out = {"transpile": lambda: f(td)}
    if jax:
        jd = {k: jnp.asarray(v) for k, v in d.items()}
        jf = jax.jit(_dict5)
        out["JAX"] = lambda: _ready(jf(jd))
    out["NumPy"] = lambda: _dict5(d)
    return out


@row("dispatch: cached jit, keyword argument", number=2000)
def _jitkw():
    x, s = _f32(9), _f32(9, seed=1)
    f = tp.jit(lambda v, *, scale: v * scale + 1.0)
    tx, ts = tnp.asarray(x), tnp.asarray(s)
    out = {"transpile": lambda: f(tx, scale=ts)}
    if jax:
        jf = jax.jit(lambda v, *, scale: v * scale + 1.0)
        jx, js = jnp.asarray(x), jnp.asarray(s)
        out["JAX"] = lambda: _ready(jf(jx, scale=js))
    out["NumPy"] = lambda: x * s + np.float32(1.0)
    return out


@row("eager: sin(x) + cos(x), 9 f32", number=500)
def _eager9():
    x = _f32(9)
    tx = tnp.asarray(x)
    out = {"transpile": lambda: tnp.sin(tx) + tnp.cos(tx)}
    if jax:
        jx = jnp.asarray(x)
        out["JAX"] = lambda: _ready(jnp.sin(jx) + jnp.cos(jx))
    out["NumPy"] = lambda: np.sin(x) + np.cos(x)
    return out


def _eager_unary(name, n=1 << 20):
    x = np.abs(_f32(n)) + np.float32(0.5)
    tx = tnp.asarray(x)
    tfn, nfn = getattr(tnp, name), getattr(np, name)
    out = {"transpile": lambda: tfn(tx)}
    if jax:
        jx, jfn = jnp.asarray(x), getattr(jnp, name)
        out["JAX"] = lambda: _ready(jfn(jx))
    out["NumPy"] = lambda: nfn(x)
    return out


row("eager: exp, 1M f32", repeat=9)(lambda: _eager_unary("exp"))
row("eager: exp, 9 f32", number=500)(lambda: _eager_unary("exp", 9))
row("eager: tanh, 1M f32", repeat=9)(lambda: _eager_unary("tanh"))
row("eager: tanh, 9 f32", number=500)(lambda: _eager_unary("tanh", 9))


@row("eager: sigmoid, 1M f32", repeat=9)
def _eager_sigmoid(n=1 << 20):
    x = _f32(n)
    tx = tnp.asarray(x)
    out = {"transpile": lambda: tp.nn.sigmoid(tx)}
    if jax:
        jx = jnp.asarray(x)
        out["JAX"] = lambda: _ready(jax.nn.sigmoid(jx))
    out["NumPy"] = lambda: 1 / (1 + np.exp(-x))
    return out


row("eager: log, 1M f32 (a compiled route)", repeat=9)(lambda: _eager_unary("log"))
row("eager: mean, 1M f32", repeat=9)(lambda: _eager_unary("mean"))


def _jitted(make, *arrays, numpy_fn=None):
    """make(namespace) -> function of the arrays; jitted for transpile and JAX."""
    out = {}
    f = tp.jit(make(tnp))
    targs = [tnp.asarray(a) for a in arrays]
    out["transpile"] = lambda: f(*targs)
    if jax:
        jf = jax.jit(make(jnp))
        jargs = [jnp.asarray(a) for a in arrays]
        out["JAX"] = lambda: _ready(jf(*jargs))
    if numpy_fn is not None:
        out["NumPy"] = lambda: numpy_fn(*arrays)
    return out


def _selu(np_):
    def f(x):
        a, s = np.float32(1.6732632), np.float32(1.050701)
        return s * np_.where(x > 0, x, a * (np_.exp(x) - 1))
    return f


N16M = 16 * 1024 * 1024
row("selu, 16M f32", repeat=5)(lambda: _jitted(_selu, _f32(N16M), numpy_fn=_selu(np)))
row("sum(x**2 - x**3 - x), 16M f32", repeat=5)(lambda: _jitted(
    lambda np_: lambda x: np_.sum(x ** 2 - x ** 3 - x), _f32(N16M),
    numpy_fn=lambda x: np.sum(x ** 2 - x ** 3 - x)))
row("sum(axis=1), 4096x4096 f32", repeat=5)(lambda: _jitted(
    lambda np_: lambda x: np_.sum(x, axis=1), _f32(4096, 4096),
    numpy_fn=lambda x: np.sum(x, axis=1)))
row("sum(axis=0), 4096x4096 f32", repeat=5)(lambda: _jitted(
    lambda np_: lambda x: np_.sum(x, axis=0), _f32(4096, 4096),
    numpy_fn=lambda x: np.sum(x, axis=0)))


def _softmax(np_):
    def f(x):
        e = np_.exp(x - np_.max(x, axis=1, keepdims=True))
        return e / np_.sum(e, axis=1, keepdims=True)
    return f


def _layernorm(np_):
    def f(x, g, b):
        m = np_.mean(x, axis=1, keepdims=True)
        v = np_.mean((x - m) ** 2, axis=1, keepdims=True)
        return (x - m) / np_.sqrt(v + np.float32(1e-5)) * g + b
    return f


row("softmax over rows, 4096x1024 f32", repeat=5)(lambda: _jitted(
    _softmax, _f32(4096, 1024), numpy_fn=_softmax(np)))
row("layernorm, 4096x1024 f32", repeat=5)(lambda: _jitted(
    _layernorm, _f32(4096, 1024), _f32(1024, seed=1), _f32(1024, seed=2),
    numpy_fn=_layernorm(np)))
row("matmul 256^3 f32", repeat=9, number=10)(lambda: _jitted(
    lambda np_: lambda a, b: np_.dot(a, b), _f32(256, 256), _f32(256, 256, seed=1),
    numpy_fn=np.dot))
row("matmul 1024^3 f32", repeat=5)(lambda: _jitted(
    lambda np_: lambda a, b: np_.dot(a, b), _f32(1024, 1024), _f32(1024, 1024, seed=1),
    numpy_fn=np.dot))


def _mlp_step(lib, np_):
    def loss(p, x, y):
        h = np_.maximum(x @ p["w1"] + p["b1"], 0)
        logits = h @ p["w2"] + p["b2"]
        logits = logits - np_.max(logits, axis=1, keepdims=True)
        logp = logits - np_.log(np_.sum(np_.exp(logits), axis=1, keepdims=True))
        return -np_.mean(np_.sum(logp * y, axis=1))

    def step(p, x, y):
        val, g = lib.value_and_grad(loss)(p, x, y)
        return val, lib.tree_util.tree_map(lambda a, b: a - np.float32(0.01) * b, p, g)
    return step


@row("MLP train step 784-512-10, batch 128", repeat=7)
def _mlp():
    p = {"w1": _f32(784, 512) * np.float32(0.05), "b1": np.zeros(512, np.float32),
         "w2": _f32(512, 10, seed=1) * np.float32(0.05), "b2": np.zeros(10, np.float32)}
    x = _f32(128, 784, seed=2)
    y = np.eye(10, dtype=np.float32)[np.arange(128) % 10]
    f = tp.jit(_mlp_step(tp, tnp))
    tpp = {k: tnp.asarray(v) for k, v in p.items()}
    tx, ty = tnp.asarray(x), tnp.asarray(y)
    out = {"transpile": lambda: f(tpp, tx, ty)}
    if jax:
        jf = jax.jit(_mlp_step(jax, jnp))
        jp = {k: jnp.asarray(v) for k, v in p.items()}
        jx, jy = jnp.asarray(x), jnp.asarray(y)
        out["JAX"] = lambda: _ready(jf(jp, jx, jy)[0])
    return out


def _rnn(lib, np_):
    def f(w, u, xs, h0):
        def cell(h, x):
            h = np_.tanh(h @ w + x @ u)
            return h, h[0]
        return lib.lax.scan(cell, h0, xs)[0]
    return f


@row("scan RNN, 200 steps, hidden 256", repeat=7)
def _scan():
    w = _f32(256, 256) * np.float32(0.06)
    u = _f32(64, 256, seed=1) * np.float32(0.1)
    xs = _f32(200, 64, seed=2)
    h0 = np.zeros(256, np.float32)
    out = {"transpile": (lambda f, a: lambda: f(*a))(
        tp.jit(_rnn(tp, tnp)), [tnp.asarray(a) for a in (w, u, xs, h0)])}
    if jax:
        jf = jax.jit(_rnn(jax, jnp))
        ja = [jnp.asarray(a) for a in (w, u, xs, h0)]
        out["JAX"] = lambda: _ready(jf(*ja))
    return out


def _loop(lib, np_):
    def f(n, x):
        return lib.lax.while_loop(lambda c: c[0] < n, lambda c: (
            c[0] + 1, c[1] * np_.float32(0.999) + np_.float32(0.5)), (0, x))[1]
    return f


@row("while_loop, 1M scalar iterations", repeat=5)
def _while():
    n, x = np.int32(1_000_000), np.float32(1.0)
    f = tp.jit(_loop(tp, tnp))
    out = {"transpile": lambda: f(n, x)}
    if jax:
        jf = jax.jit(_loop(jax, jnp))
        out["JAX"] = lambda: _ready(jf(n, x))
    return out


@row("random.normal (1000, 2000)", repeat=9)
def _normal():
    f = tp.jit(lambda k: tp.random.normal(k, (1000, 2000)))
    k = tp.random.PRNGKey(0)
    out = {"transpile": lambda: f(k)}
    if jax:
        jf = jax.jit(lambda k: jax.random.normal(k, (1000, 2000)))
        jk = jax.random.PRNGKey(0)
        out["JAX"] = lambda: _ready(jf(jk))
    rng = np.random.default_rng(0)
    out["NumPy"] = lambda: rng.standard_normal((1000, 2000), dtype=np.float32)
    return out


@row("gather x[idx], 1M from 1M f32", repeat=9)
def _gather():
    x = _f32(1 << 20)
    idx = np.random.default_rng(1).integers(0, 1 << 20, 1 << 20).astype(np.int32)
    return _jitted(lambda np_: lambda a, i: a[i], x, idx, numpy_fn=lambda a, i: a[i])


@row("segment sum .at[idx].add, 1M into 4096", repeat=9)
def _segsum():
    v = _f32(1 << 20)
    idx = np.random.default_rng(1).integers(0, 4096, 1 << 20).astype(np.int32)

    def numpy_fn(vals, i):
        out = np.zeros(4096, np.float32)
        np.add.at(out, i, vals)
        return out
    return _jitted(lambda np_: lambda a, i: np_.zeros(4096, np.float32).at[i].add(a),
                   v, idx, numpy_fn=numpy_fn)


def _fmt(seconds) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:9.3f} ms"
    return f"{seconds * 1e6:9.2f} us"


def run(selected) -> None:
    print(f"{'workload':44s} {'transpile':>12s} {'JAX':>12s} {'NumPy':>12s}  JAX/transpile")
    for r in ROWS:
        if selected and not any(s in r.name for s in selected):
            continue
        fns = r.build()
        times = {}
        # Interleaved: each repetition times every contender once, so a burst of load
        # from the machine's other jobs falls on all of them.
        for fn in fns.values():
            fn()  # compile, warm caches
        samples = {k: [] for k in fns}
        for _ in range(r.repeat):
            for k, fn in fns.items():
                samples[k].append(median_time(fn, repeat=1, number=r.number, warmup=0))
        for k, ts in samples.items():
            times[k] = sorted(ts)[len(ts) // 2]
        ours = times["transpile"]
        cells = [_fmt(times[k]) if k in times else f"{'-':>12s}"
                 for k in ("transpile", "JAX", "NumPy")]
        ratio = f"{times['JAX'] / ours:8.2f}x" if "JAX" in times else ""
        print(f"{r.name:44s} {cells[0]:>12s} {cells[1]:>12s} {cells[2]:>12s}  {ratio}",
              flush=True)


def main(argv) -> None:
    hog = None
    if "--hog" in argv:
        argv = [a for a in argv if a != "--hog"]
        hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        print("(one core kept busy by a spinning process for the whole run)")
    try:
        run(argv)
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()


if __name__ == "__main__":
    main(sys.argv[1:])
