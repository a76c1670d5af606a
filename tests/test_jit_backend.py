"""jit running compiled C: the in-memory and disk caches, logging, compiler errors."""
import logging
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile.backend import CompilerNotFoundError
from transpile.memory import pool

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_cache_hit_does_no_tracing_and_no_compiling(monkeypatch):
    traced = []

    @jax.jit
    def f(x):
        traced.append(1)
        return jnp.sin(x) + 1

    x = jnp.arange(4.0)
    f(x)
    import transpile.stages as stages
    monkeypatch.setattr(stages, "lower_jaxpr", lambda *a: pytest.fail("lowered again"))
    monkeypatch.setattr(stages, "compile_lowering", lambda *a: pytest.fail("compiled again"))
    for _ in range(3):
        np.testing.assert_allclose(np.asarray(f(x)), np.sin(np.arange(4.0)) + 1, rtol=1e-6)
        f(np.arange(4.0, dtype=np.float32))
    assert len(traced) == 1


def test_new_shape_traces_and_compiles_again():
    traced = []

    @jax.jit
    def f(x):
        traced.append(x.shape)
        return x * 2

    f(jnp.ones(3))
    f(jnp.ones(4))
    f(jnp.ones(3))
    assert traced == [(3,), (4,)]


_FRESH = textwrap.dedent("""
    import sys, numpy as np
    import transpile as jax, transpile.numpy as jnp
    f = jax.jit(lambda x: jnp.tanh(x) * 3 - x)
    print(np.asarray(f(np.arange(5, dtype=np.float32))).tolist())
    print("rendered" if "jinja2" in sys.modules else "not rendered")
""")


def _run_fresh(cache, **env):
    e = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache), PYTHONPATH=REPO, **env)
    return subprocess.run([sys.executable, "-c", _FRESH], env=e, capture_output=True,
                          text=True, timeout=120)


def test_fresh_process_loads_from_disk_without_the_compiler(tmp_path):
    log = tmp_path / "cc.log"
    wrapper = tmp_path / "cc-logged"
    wrapper.write_text(f"#!/bin/sh\necho \"$@\" >> {log}\nexec cc \"$@\"\n")
    wrapper.chmod(0o755)
    cache = tmp_path / "cache"
    first = _run_fresh(cache, CC=str(wrapper))
    assert first.returncode == 0, first.stderr
    calls = log.read_text().count("\n")
    assert calls >= 1
    second = _run_fresh(cache, CC=str(wrapper))
    assert second.returncode == 0, second.stderr
    assert second.stdout.splitlines()[0] == first.stdout.splitlines()[0]
    assert log.read_text().count("\n") == calls  # the compiler was not invoked
    # Through the lowering index: no planning or rendering of C either.
    assert first.stdout.splitlines()[1] == "rendered"
    assert second.stdout.splitlines()[1] == "not rendered"


def test_missing_compiler_names_cc(tmp_path):
    res = _run_fresh(tmp_path, CC="/nonexistent/cc-missing")
    assert res.returncode != 0
    assert "CompilerNotFoundError" in res.stderr and "CC" in res.stderr


def test_four_processes_compiling_one_function_at_once(tmp_path):
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(tmp_path), PYTHONPATH=REPO)
    procs = [subprocess.Popen([sys.executable, "-c", _FRESH], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(4)]
    outs = [p.communicate(timeout=180) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
    assert len({o[0].splitlines()[0] for o in outs}) == 1
    libs = [p for p in tmp_path.rglob("lib.so")]
    assert len(libs) == 1


def test_log_compiles_reports_function_signature_and_disk_hit(caplog):
    jax.config.update("jax_log_compiles", True)
    try:
        with caplog.at_level(logging.WARNING, logger="transpile"):
            jax.jit(lambda x: x * 3 + 2)(np.ones((2, 7), np.float32))
    finally:
        jax.config.update("jax_log_compiles", False)
    text = caplog.text
    assert "Finished tracing <lambda> for signature (f32[2,7])" in text
    assert "Compiling jit__lambda_ for signature (f32[2,7])" in text
    assert "disk cache hit:" in text


def test_explain_cache_misses_names_the_changed_argument(caplog):
    def g(a, b):
        return a.sum() + b.sum()
    f = jax.jit(g)
    f(np.ones(3, np.float32), np.ones(3, np.float32))
    jax.config.update("jax_explain_cache_misses", True)
    try:
        with caplog.at_level(logging.WARNING, logger="transpile"):
            f(np.ones(3, np.float32), np.ones(4, np.float32))
    finally:
        jax.config.update("jax_explain_cache_misses", False)
    assert "TRACING CACHE MISS at g because:" in caplog.text
    assert "for b the type changed from float32[3] to float32[4]" in caplog.text


def test_large_outputs_reuse_pooled_memory():
    f = jax.jit(lambda x: x * 2)
    x = np.ones(1 << 18, np.float32)
    y = f(x)
    del y
    before = pool.stats()["hits"]
    y = f(x)
    assert pool.stats()["hits"] == before + 1
    np.testing.assert_array_equal(np.asarray(y), 2.0)


def test_pooled_memory_is_not_reused_while_a_view_lives():
    f = jax.jit(lambda x: x + 1)
    x = np.zeros(1 << 18, np.float32)
    view = np.asarray(f(x))[10:]
    again = f(x + 5)
    assert view[0] == 1.0 and np.asarray(again)[0] == 6.0
    held = np.asarray(f(x))
    f(x + 7)
    assert held[0] == 1.0


def test_results_are_immutable():
    y = jax.jit(lambda x: x + 1)(np.zeros(4, np.float32))
    with pytest.raises(ValueError):
        np.asarray(y)[0] = 5


_SUM = textwrap.dedent("""
    import numpy as np, transpile as jax, transpile.numpy as jnp
    x = np.random.default_rng(0).standard_normal(1 << 20).astype(np.float32)
    f = jax.jit(lambda v: (jnp.sum(v ** 2 - v ** 3 - v), jnp.sum(v.reshape(1024, 1024),
                                                                 axis=1)))
    print(b"".join(np.asarray(r).tobytes() for r in f(x)).hex())
""")


def test_reductions_give_the_same_bits_with_one_or_two_threads():
    outs = []
    for threads in ("1", "2"):
        env = dict(os.environ, OMP_NUM_THREADS=threads, PYTHONPATH=REPO)
        res = subprocess.run([sys.executable, "-c", _SUM], env=env, capture_output=True,
                             text=True, timeout=120)
        assert res.returncode == 0, res.stderr
        outs.append(res.stdout)
    assert outs[0] == outs[1]


def test_x64_float64_programs():
    with jax.enable_x64():
        x = np.random.default_rng(0).standard_normal((33, 17))
        y = np.random.default_rng(1).standard_normal((17, 5))
        got = jax.jit(lambda a, b: jnp.tanh(a) @ b)(x, y)
        assert got.dtype == np.float64
        np.testing.assert_allclose(np.asarray(got), np.tanh(x) @ y, rtol=1e-12, atol=1e-13)
