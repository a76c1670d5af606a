"""Compile latency (issue 17): the cold first call of a jitted function, each timed in a
fresh subprocess with a fresh, empty ``TRANSPILE_CACHE_DIR``.

Run from the repository root:

    python benchmarks/bench_compile.py                         # transpile only
    python benchmarks/bench_compile.py --contender jax         # JAX in this interpreter
    python benchmarks/bench_compile.py --contender jax --jax-python $JAX_PYTHON
    python benchmarks/bench_compile.py --cases sin100,selu --repeat 5
    python benchmarks/bench_compile.py --transpile-root ../old-checkout   # a baseline

A child process imports the library and builds its inputs, then times the first call
(tracing, optimisation, planning, rendering, the C compiler, loading, running) until
the result is on the host. Prints medians and ratios (JAX time / transpile time: above
1 means transpile's first call is faster), and when transpile's library was ready for
the second call ("compiled at", from the same start).

``--machine seeded`` (the default) copies what a cache holds for the machine rather
than for a program into each fresh cache first, as on a machine where transpile has
compiled before: the compiler probe, the precompiled runtime object and the
precompiled prelude header (``backend/runtime_lib.py``), and the prebuilt library of
elementwise kernels (``eager_kernels.py``, which a first call may evaluate with: see
``first_call.py``), made once per machine, compiler and transpile version in a few
seconds (printed first). ``--machine empty`` starts from nothing.

The first call of transpile may be evaluated on NumPy while its library compiles
(``first_call.py``); ``--compiled`` switches that off and times the first call that
waits for the library, as before.

Children write bytecode to a private ``PYTHONPYCACHEPREFIX`` (warmed by one import
first), as an installed package has its ``.pyc`` files, whatever
``PYTHONDONTWRITEBYTECODE`` says.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: name -> (kind, size): what the child builds (see ``_function``).
CASES = {
    "selu": ("selu", 0),
    "mlp_value_and_grad": ("mlp", 0),
    "sin100": ("sin", 100), "sin400": ("sin", 400), "sin1000": ("sin", 1000),
    "rev50": ("rev", 50), "rev100": ("rev", 100),
    "mean150": ("mean", 150), "mean400": ("mean", 400),
    "eqns100": ("eqns", 100), "eqns1000": ("eqns", 1000), "eqns10000": ("eqns", 10000),
}


# ---------------------------------------------------------------------------------------
# The child: one first call

def _function(lib, kind: str, n: int):
    """``(fn, args)`` for one case, written once for both libraries."""
    import numpy as np
    jnp = lib.numpy
    rs = np.random.RandomState(0)
    if kind == "selu":
        def selu(x):
            return 1.0507 * jnp.where(x > 0, x, 1.6733 * jnp.exp(x) - 1.6733)
        return selu, (rs.randn(512, 512).astype(np.float32),)
    if kind == "mlp":
        def loss(params, x, y):
            w1, b1, w2, b2 = params
            h = jnp.maximum(x @ w1 + b1, 0.0)
            z = h @ w2 + b2
            m = jnp.max(z, axis=1, keepdims=True)
            logp = z - m - jnp.log(jnp.sum(jnp.exp(z - m), axis=1, keepdims=True))
            return -jnp.mean(jnp.sum(logp * y, axis=1))
        params = (rs.randn(784, 512).astype(np.float32) * 0.05, np.zeros(512, np.float32),
                  rs.randn(512, 10).astype(np.float32) * 0.05, np.zeros(10, np.float32))
        x = rs.rand(128, 784).astype(np.float32)
        y = np.eye(10, dtype=np.float32)[rs.randint(0, 10, 128)]
        return lib.value_and_grad(loss), (params, x, y)
    x = rs.randn(64, 64).astype(np.float32)
    if kind == "sin":
        def f(x):
            for _ in range(n):
                x = jnp.sin(x) * 1.01 + 1.0
            return x
    elif kind == "rev":
        def f(x):
            for i in range(n):
                x = jnp.sin(x) * 1.01 + x[::-1] * 0.5 + i
            return x
    elif kind == "mean":
        def f(x):
            for _ in range(n):
                x = x - jnp.mean(x, -1, keepdims=True) * 0.5 + jnp.tanh(x)
            return x
    elif kind == "eqns":  # n equations: sin and add, alternately
        def f(x):
            for _ in range(n // 2):
                x = jnp.sin(x) + 1.0
            return x
    else:
        raise ValueError(kind)
    return f, (x,)


def _child(case: str, which: str) -> None:
    import numpy as np
    if which == "jax":
        import jax
        jax.config.update("jax_platform_name", "cpu")
        lib = jax
        import jax.numpy  # noqa: F401
    else:
        import transpile as lib
        import transpile.numpy  # noqa: F401
    kind, n = CASES[case]
    fn, args = _function(lib, kind, n)
    jitted = lib.jit(fn)
    t0 = time.perf_counter()
    out = jitted(*args)
    leaves = [np.asarray(a) for a in lib.tree_util.tree_leaves(out)]
    seconds = time.perf_counter() - t0
    assert all(np.isfinite(a).all() for a in leaves)
    ready = seconds
    if which != "jax":
        try:   # when the library the second call runs is ready
            from transpile import first_call
            first_call.wait_for_compiles()
            ready = time.perf_counter() - t0
        except ImportError:
            pass
    print(json.dumps({"seconds": seconds, "ready": ready}))


# ---------------------------------------------------------------------------------------
# The parent: fresh processes and caches

#: The cache folders that depend on the machine, not on a program.
MACHINE_STATE = ("compilers", "runtime")


def _child_env(root: str, cache: str, pycache: str, compiled: bool = False) -> dict:
    env = dict(os.environ, TRANSPILE_CACHE_DIR=cache, PYTHONPYCACHEPREFIX=pycache,
               PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""),
               TRANSPILE_INTERPRET_FIRST_CALL="0" if compiled else "1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("TRANSPILE_DEBUG", None)
    return env


def _seed(python: str, root: str, pycache: str) -> str | None:
    """A cache holding only the machine's state (made here once), or None when this
    fails (an old checkout without a runtime object still gets its probe)."""
    seed = tempfile.mkdtemp(prefix="tp-bench-seed-")
    code = ("import numpy as np, transpile as tp, transpile.numpy as jnp\n"
            "np.asarray(tp.jit(lambda x: jnp.sin(x) + 1)(np.ones(3, np.float32)))\n"
            "try:\n"
            "    from transpile.backend import compiler_info, runtime_lib\n"
            "    runtime_lib.runtime_object(compiler_info())\n"
            "    for par in (False, True):\n"
            "        getattr(runtime_lib, 'prelude_header', lambda *a: None)(compiler_info(), par)\n"
            "    from transpile import eager_kernels\n"
            "    eager_kernels.load()\n"
            "    lib = eager_kernels._state.get('lib')\n"
            "    if lib is not None:\n"
            "        import os\n"
            "        folder = os.path.dirname(lib.path)\n"
            "        with open(os.path.join(os.environ['TRANSPILE_CACHE_DIR'], 'EAGER'), 'w') as f:\n"
            "            f.write(os.path.relpath(folder, os.environ['TRANSPILE_CACHE_DIR']))\n"
            "except ImportError:\n"
            "    pass\n")
    t0 = time.perf_counter()
    proc = subprocess.run([python, "-c", code], capture_output=True, text=True,
                          env=_child_env(root, seed, pycache), cwd=root)
    if proc.returncode != 0:
        print(proc.stderr[-2000:])
        shutil.rmtree(seed, ignore_errors=True)
        return None
    print(f"machine state (compiler probe, runtime object, prelude header) made in "
          f"{time.perf_counter() - t0:.2f} s, once per machine")
    return seed


def _run_child(python: str, root: str, case: str, which: str, seed: str | None,
               timeout: float, pycache: str, compiled: bool = False) -> float | str:
    cache = tempfile.mkdtemp(prefix="tp-bench-cache-")
    try:
        for name in MACHINE_STATE if seed is not None else ():
            if os.path.isdir(os.path.join(seed, name)):
                shutil.copytree(os.path.join(seed, name), os.path.join(cache, name))
        if seed is not None and os.path.exists(os.path.join(seed, "CACHEDIR.TAG")):
            shutil.copy2(os.path.join(seed, "CACHEDIR.TAG"), cache)  # a marked cache
        if seed is not None and os.path.exists(os.path.join(seed, "EAGER")):
            with open(os.path.join(seed, "EAGER")) as f:   # the prebuilt kernels' entry
                rel = f.read().strip()
            shutil.copytree(os.path.join(seed, rel), os.path.join(cache, rel))
        env = _child_env(root, cache, pycache, compiled)
        try:
            proc = subprocess.run([python, os.path.abspath(__file__), "--child", case,
                                   "--lib", which], capture_output=True, text=True,
                                  env=env, timeout=timeout, cwd=root)
        except subprocess.TimeoutExpired:
            return f"timeout>{timeout:.0f}s"
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["?"])[-1]
            return "error: " + last[:60]
        found = json.loads(proc.stdout.strip().splitlines()[-1])
        return found["seconds"], found.get("ready", found["seconds"])
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def _median(xs, which=0):
    """The median of the runs' ``which``-th time, or the first failure."""
    nums = sorted(x[which] for x in xs if isinstance(x, tuple))
    if len(nums) < len(xs):
        return next(x for x in xs if not isinstance(x, tuple))
    return nums[len(nums) // 2]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--lib", default="transpile", help=argparse.SUPPRESS)
    ap.add_argument("--contender", choices=["jax"], help="also time JAX's first calls")
    ap.add_argument("--jax-python", default=sys.executable,
                    help="the interpreter that has jax (default: this one)")
    ap.add_argument("--transpile-root", default=ROOT,
                    help="the checkout whose transpile is timed (default: this one)")
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--machine", choices=["seeded", "empty"], default="seeded")
    ap.add_argument("--compiled", action="store_true",
                    help="transpile's first call waits for its library (no NumPy first call)")
    args = ap.parse_args(argv)
    if args.child:
        _child(args.child, args.lib)
        return
    cases = [c for c in args.cases.split(",") if c]
    pycache = tempfile.mkdtemp(prefix="tp-bench-pyc-")
    seed = _seed(sys.executable, args.transpile_root, pycache) \
        if args.machine == "seeded" else None
    if seed is None:
        subprocess.run([sys.executable, "-c", "import transpile"], cwd=args.transpile_root,
                       env=_child_env(args.transpile_root, pycache, pycache))
    print(f"cold first call, median of {args.repeat} fresh processes; ratio = JAX / "
          f"transpile")
    print(f"  {'case':22s} {'transpile':>12s} {'JAX':>12s} {'ratio':>8s} {'per eqn':>10s} "
          f"{'compiled at':>12s}")
    try:
        for case in cases:
            ts = [_run_child(sys.executable, args.transpile_root, case, "transpile", seed,
                             args.timeout, pycache, args.compiled)
                  for _ in range(args.repeat)]
            t, ready = _median(ts), _median(ts, 1)
            j = None
            if args.contender == "jax":
                j = _median([_run_child(args.jax_python, args.transpile_root, case, "jax",
                                        None, args.timeout, pycache)
                             for _ in range(args.repeat)])
            fmt = (lambda v: f"{v:10.3f} s" if isinstance(v, float) else f"{v:>12s}")
            ratio = f"{j / t:7.2f}x" if isinstance(t, float) and isinstance(j, float) \
                else ""
            kind, n = CASES[case]
            per = f"{t / n * 1e3:7.3f} ms" if kind == "eqns" and isinstance(t, float) \
                else ""
            print(f"  {case:22s} {fmt(t)} {fmt(j) if j is not None else '':>12s} "
                  f"{ratio:>8s} {per:>10s} {fmt(ready)}", flush=True)
    finally:
        for folder in (seed, pycache):
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
