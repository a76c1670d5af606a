"""The generated CUDA, run on the CPU emulator (``tests/cuda_emulation.py``), against the
C backend: the templates' index arithmetic, grid-stride loops, block reductions (warp
shuffles, barriers), matmul tiling, copies, scans, gathers and scatters, and the
entry's host-driven control flow, checked without a GPU.

The programs are those of ``test_codegen_cuda.py`` (every primitive; the elementwise
table sampled), plus shapes large enough for several blocks, several matmul tiles with
ragged edges and every reduction mode. What the emulator cannot show (speed, memory
ordering, the real runtime) is for ``test_backend_cuda.py`` on a GPU.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from cuda_emulation import assert_same_result, build_emulated, compiler

pytestmark = pytest.mark.skipif(compiler() is None, reason="no C++ compiler")

rng = np.random.default_rng(7)
F = rng.standard_normal((300, 70)).astype(np.float32)
D = rng.standard_normal((129, 65)).astype(np.float64)
H = rng.standard_normal((3000,)).astype(np.float16)
N = rng.integers(-1000, 1000, (70, 130)).astype(np.int32)
B = rng.standard_normal((3, 40, 50)).astype(np.float32)


def _large_programs():
    """Shapes that take several blocks, tiles and partials."""
    return {
        "big/selu": (lambda x: 1.05 * jnp.where(x > 0, x, 1.67 * jnp.expm1(x)), (F,)),
        "big/sum": (jnp.sum, (F,)),
        "big/sum_f64": (jnp.sum, (D,)),
        "big/sum_f16": (jnp.sum, (H,)),
        "big/max": (jnp.max, (F,)),
        "big/int_sum": (lambda x: jnp.sum(x, dtype=np.int32), (N,)),
        "big/rows": (lambda x: jnp.sum(x * x, 1), (F.reshape(30, 700),)),
        "big/rows_small": (lambda x: jnp.sum(x, 1), (F,)),
        "big/cols": (lambda x: jnp.sum(x, 0), (F,)),
        "big/mid": (lambda x: jnp.max(x, 1), (B,)),
        "big/outer": (lambda x: jnp.sum(x, (0, 2)), (B,)),
        "big/argmax": (lambda x: jnp.argmax(x, 0), (F,)),
        "big/matmul": (jnp.matmul, (F, F.T[:, :130])),
        "big/matmul_T": (lambda a, b: a.T @ b, (F, F[:, :33])),
        "big/matmul_f64": (jnp.matmul, (D, D.T)),
        "big/matmul_int": (jnp.matmul, (N, N.T)),
        "big/batched": (lambda a: jnp.einsum("bij,bkj->bik", a, a), (B,)),
        "big/cumsum": (lambda x: jnp.cumsum(x, 0), (F,)),
        "big/concat": (lambda x: jnp.concatenate([x, x[:7] * 2], 0), (F,)),
        "big/gather": (lambda x, i: x[i], (F, rng.integers(0, 300, 500).astype(np.int32))),
        "big/scatter": (lambda x, i: x.at[i].add(1.0),
                        (F, rng.integers(0, 300, 500).astype(np.int32))),
        "big/dus": (lambda x: lax.dynamic_update_slice(x, x[:50, :20] * 3, (100, 7)), (F,)),
        "big/transpose": (lambda x: x.T + 1, (F,)),
        "big/sort": (lambda x: jnp.sort(x[:, :5], 0), (F,)),
        "big/normal": (lambda k: jax.random.normal(k, (5000,)), (jax.random.PRNGKey(3),)),
        "big/scan": (lambda x: lax.scan(lambda c, r: (c + jnp.sum(r), c * r), 0.0, x), (F,)),
        "big/while": (lambda x: lax.while_loop(lambda c: jnp.sum(c) < 1e4, lambda c: c * 1.5,
                                               jnp.abs(x) + 1), (F,)),
        "big/switch": (lambda n, x: lax.switch(n, [jnp.sin, jnp.cos, jnp.tanh], x),
                       (np.int32(1), F)),
    }


def _programs():
    from test_codegen_cuda import _shared_programs, _traced
    from test_codegen_c import _table, _traceable
    items = []
    with jax.enable_x64(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # every 7th elementwise case: each primitive in several dtypes
        items += [(n, c, list(a)) for n, c, a, _ in _traceable(_table())[::7]]
        items += _traced(_shared_programs())
        items += _traced([(n, f, a) for n, (f, a) in _large_programs().items()])
    return items


@pytest.fixture(scope="module")
def emulated(tmp_path_factory):
    from transpile.codegen.plan import plan_program
    from transpile.passes import optimize
    from transpile.stages import compile_many
    kept = []
    for name, closed, args in _programs():
        try:
            plan_program(optimize(closed), "probe")
        except NotImplementedError:
            continue
        kept.append((name, closed, args))
    named = [(f"e{i}", closed) for i, (_, closed, _) in enumerate(kept)]
    with jax.enable_x64():
        cpu = compile_many(named)
        emu = build_emulated(named, tmp_path_factory.mktemp("emu"))
    return kept, cpu, emu


def test_emulated_cuda_matches_the_c_backend(emulated):
    kept, cpu, emu = emulated
    assert len(kept) > 450
    failures = []
    with jax.enable_x64():
        for (name, closed, args), c, g in zip(kept, cpu, emu, strict=True):
            # Arrays (typed keys among them) pass their host NumPy value as it is
            args = [a._value if hasattr(a, "_value") else np.asarray(a, aval.dtype)
                    for a, aval in zip(args, closed.in_avals, strict=True)]
            want = c(args)
            got = g(args)
            for k, (x, y) in enumerate(zip(got, want, strict=True)):
                try:
                    x, y = (np.asarray(getattr(v, "_value", v)) for v in (x, y))
                    if y.dtype.names is not None:  # typed keys: compare their bytes
                        x, y = x.reshape(-1).view(np.uint32), y.reshape(-1).view(np.uint32)
                    assert_same_result(x, y, f"{name} output {k}")
                except AssertionError as e:
                    failures.append(str(e).strip().splitlines()[0])
    assert not failures, f"{len(failures)} programs differ:\n" + "\n".join(failures[:40])


def test_emulated_reductions_use_several_blocks(emulated):
    # the large programs really take the multi-block paths of the templates
    from transpile.codegen.plan import plan_program
    from transpile.codegen.render import render_module
    from transpile.passes import optimize
    closed = jax.make_jaxpr(jnp.sum)(np.ones(1 << 20, np.float32))
    opt = optimize(closed)
    text, _ = render_module([(plan_program(opt, "jit_s", fuse_rows=False), str(opt))], target="cuda")
    assert "jit_s_k0_part<<<512, TP_BLOCK" in text
