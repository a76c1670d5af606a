"""CUDA rendering (issue 9): the generated CUDA C++ compiles with nvcc for every primitive
and every example program, on a machine without a GPU.

One translation unit holds them all (one nvcc run, about a minute): the elementwise
table of ``test_codegen_c.py`` in every dtype, its example programs, the control-flow,
indexing, linalg and random programs of the other suites, and the programs below that
reach the remaining primitives. ``test_every_primitive_is_compiled_for_cuda`` checks
that together they use every primitive. Running the kernels needs a GPU:
``tests/test_backend_cuda.py``.
"""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax, random
from transpile.codegen.plan import plan_program
from transpile.codegen.render import render_module
from transpile.ir import ClosedJaxpr
from transpile.lax.prng import threefry_2x32
from transpile.passes import optimize


def _nvcc():
    from transpile.backend.build import CompilerNotFoundError, _nvcc
    try:
        return _nvcc()
    except CompilerNotFoundError:
        return None


needs_nvcc = pytest.mark.skipif(_nvcc() is None, reason="nvcc is not installed")

F32 = np.float32
rng = np.random.default_rng(0)
X = rng.standard_normal((4, 5)).astype(F32)
V = rng.standard_normal(6).astype(F32)
I = rng.integers(0, 4, (4, 5)).astype(np.int32)
PD = np.array([[4., 2., .4], [2., 3., .5], [.4, .5, 2.]], F32)


def _extra_programs():
    """Programs reaching the primitives the shared tables leave out."""
    key = random.PRNGKey(0)
    tkey = random.key(1)
    return {
        "sort2": (lambda x, i: lax.sort((x, i), num_keys=1), (X, I.astype(F32))),
        "argsort": (lambda x: jnp.argsort(x, axis=0), (X,)),
        "cumulative": (lambda x: (jnp.cumsum(x, 1), jnp.cumprod(x, 0),
                                  lax.cummax(x, axis=1), lax.cummin(x, axis=0,
                                                                    reverse=True)), (X,)),
        "argmax": (lambda x: (jnp.argmax(x, 0), jnp.argmin(x, 1)), (X,)),
        "split_stack_concat": (lambda x: jnp.concatenate(
            [*jnp.split(x, [1, 3], axis=1), jnp.stack([x[:, 0], x[:, 1]], 1)], 1), (X,)),
        "reductions": (lambda x, i: (jnp.max(x, 0), jnp.min(x, 1), jnp.prod(x, 1),
                                     jnp.all(x > 0, 0), jnp.any(x > 0, 1),
                                     lax.reduce_xor_p.bind(i, axes=(1,)),
                                     jnp.sum(x[None, :, :, None], (0, 2)),
                                     jnp.sum(jnp.ones((3, 1000)) * x[0, 0], 1)), (X, I)),
        "big_sum": (lambda x: jnp.sum(x * x), (rng.standard_normal(70000).astype(F32),)),
        "dot_batch_T": (lambda a, b: jnp.einsum("bij,bkj->bik", a, b),
                        (rng.standard_normal((2, 3, 4)).astype(F32),
                         rng.standard_normal((2, 5, 4)).astype(F32))),
        "dot_int": (lambda a, b: a @ b, (I, I.T)),
        "complex": (lambda z, w: (jnp.real(z), jnp.imag(w), jnp.conj(z), lax.complex(
            z.real, z.imag), jnp.exp(w) * w / (w + 1j), jnp.abs(z), jnp.sum(w), jnp.sort(z),
            z @ z, jnp.cumprod(w), jnp.max(w), z.astype(np.int32)),
            ((rng.standard_normal(6) + 1j * rng.standard_normal(6)).astype(np.complex64),
             (rng.standard_normal(6) - 1j * rng.standard_normal(6)).astype(np.complex128))),
        "threefry": (lambda k: random.normal(k, (3, 4)), lambda: (key,)),
        "keys": (lambda k: random.key_data(random.split(random.fold_in(k, 3), 4)),
                 lambda: (tkey,)),
        "key_bits": (lambda k: random.bits(k, (5,)), lambda: (tkey,)),
        "key_seed": (lambda s: random.key_data(random.key(s)), (np.int32(7),)),
        "raw_threefry": (lambda k, x: threefry_2x32(k, x),
                         (np.array([1, 2], np.uint32), np.arange(6, dtype=np.uint32))),
        "top_k": (lambda x: lax.top_k(x, 3), (X,)),
        "cholesky_solve": (lambda a, b: lax.linalg.triangular_solve(
            jnp.linalg.cholesky(a), b, left_side=True, lower=True), (PD, X[:3, :2])),
        "factorizations": (lambda a: (lax.linalg.lu(a), lax.linalg.qr(a),
                                      lax.linalg.eigh(a), lax.linalg.svd(a),
                                      lax.linalg.svd(a, compute_uv=False),
                                      lax.linalg.tridiagonal_solve(a[0], a[1], a[2], a)),
                           (PD,)),
        "gather_scatter": (lambda x, i: (x[i[0, :3]], x.at[i[0, :3]].add(1.0),
                                         x.at[i[0, :2]].set(0.0), x.at[i[0, :2]].mul(2.0),
                                         x.at[i[0, :2]].min(0.0), x.at[i[0, :2]].max(0.0)),
                           (X, I)),
        "dynamic_slices": (lambda x, n: (lax.dynamic_slice(x, (n, n), (2, 2)),
                                         lax.dynamic_update_slice(x, x[:2, :2], (n, 1))),
                           (X, np.int32(1))),
        "bitcast": (lambda x: (lax.bitcast_convert_type(x, np.int32),
                               lax.bitcast_convert_type(x, np.uint8)), (X,)),
        "cond_switch": (lambda x, n: (lax.cond(x[0, 0] > 0, jnp.sin, jnp.cos, x),
                                      lax.switch(n, [jnp.sin, jnp.cos, jnp.tanh], x)),
                        (X, np.int32(2))),
        "while_scan": (lambda x: (lax.while_loop(lambda c: c[0] < 10,
                                                 lambda c: (c[0] + 1, c[1] * 1.5), (0, x)),
                                  lax.scan(lambda c, r: (c + r, c * r), x[0], x),
                                  lax.fori_loop(0, 3, lambda i, c: c + i, x)), (X,)),
        "structural": (lambda x: (jnp.flip(x, 0), jnp.pad(x, ((1, 0), (0, 2))), x.T,
                                  jnp.tile(x, (2, 1)), jnp.broadcast_to(x[0], (3, 5)),
                                  jnp.arange(12).reshape(3, 4), x.reshape(5, 4)), (X,)),
        "grad_add_any": (jax.grad(lambda x: jnp.sum(x[0] + x[1])), (X,)),
        "bfloat16": (lambda x: (jnp.exp(x) * x + 1.0, jnp.sum(x, 0), jnp.cumsum(x, 1),
                                x @ x.T, lax.convert_element_type(x, np.float32)),
                     (X.astype(jnp.bfloat16),)),
        "float8": (lambda x: (jnp.sum(x, 0), jnp.sum(x, 1), jnp.cumsum(x, 1), jnp.sort(x, 1),
                              jnp.max(x, 1), jnp.argmin(x, 0), x @ x.T,
                              jnp.sum(jnp.tile(x, (1, 40)), 1)),
                   (X.astype(jnp.float8_e4m3fn),)),
        "nextafter_erf": (lambda x: (lax.nextafter(x, x + 1), lax.erf_inv(x / 10),
                                     lax.erf(x), jnp.cbrt(x), x ** 2.5), (X,)),
        "special": (lambda x: (lax.lgamma(x), lax.digamma(x), lax.erfc(x), lax.bessel_i0e(x),
                               lax.bessel_i1e(x), lax.igamma(x * x, x * x + 1),
                               lax.igammac(x * x, x * x + 1), lax.igamma_grad_a(x * x, x * x),
                               lax.random_gamma_grad(x * x, x * x), lax.polygamma(x * 0 + 2, x),
                               lax.zeta(x * 0 + 2, x), lax.betainc(x * x, x * x + 1, x * x / 9)),
                    (X,)),
        "conv": (lambda a, b: (lax.conv_general_dilated(a, b, (2, 1), "SAME", (1, 1), (1, 2),
                                                        ("NHWC", "HWIO", "NHWC")),
                               lax.conv(a.transpose(0, 3, 1, 2), b.transpose(3, 2, 0, 1)[:2],
                                        (1, 1), "VALID")),
                 (rng.standard_normal((2, 5, 6, 3)).astype(F32),
                  rng.standard_normal((3, 2, 3, 4)).astype(F32))),
        "pooling": (lambda x: (
            lax.reduce_window(x[None, :, :, None], -jnp.inf, lax.max, (1, 2, 2, 1),
                              (1, 1, 2, 1), "SAME"),
            lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), ((1, 0), (0, 1)),
                              base_dilation=(1, 2), window_dilation=(2, 1)),
            lax.reduce_window(x, jnp.inf, lax.min, (2, 3), (1, 1), "VALID"),
            lax.reduce_window(x, np.float32(1), lax.mul, (2, 2), (1, 1), "VALID"),
            lax.reduce(x, np.float32(0), lambda a, b: a + 2.0 * b, (1,)),
            lax.cumlogsumexp(x, axis=1, reverse=True),
            jax.grad(lambda x: jnp.sum(lax.reduce_window(
                x, -jnp.inf, lax.max, (2, 2), (2, 1), "SAME") ** 2))(x),
            jax.jvp(lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (2, 2), (1, 1),
                                                "VALID"), (x,), (x,))[1]), (X,)),
        "bits": (lambda x: (lax.clz(lax.convert_element_type(x, np.int32)),
                            lax.population_count(lax.convert_element_type(x, np.uint64)),
                            lax.mulhi(lax.convert_element_type(x, np.int64),
                                      lax.convert_element_type(x * 7, np.int64)),
                            lax.mulhi(lax.convert_element_type(x, np.uint16),
                                      lax.convert_element_type(x, np.uint16)),
                            lax.reduce_precision(x, 5, 3),
                            lax.reduce_precision(x.astype(np.float64), 4, 10),
                            lax.eq_to_p.bind(x, -x), lax.le_to_p.bind(x, x * 2),
                            lax.lt_to_p.bind(x.astype(np.float64), x.astype(np.float64))),
                 (X,)),
    }


def _shared_programs():
    """(name, fn, args) of the other suites' program tables."""
    import control_flow_cases
    import indexing_cases
    import random_cases
    from test_codegen_c import PROGRAMS
    out = [(f"c/{n}", fn, args) for n, (fn, args) in PROGRAMS.items()]
    for case in control_flow_cases.cases(jax, jnp, lax, np):
        fn, args, _ = case.build()
        out.append((f"cf/{case.name}", fn, args))
    for name, (fn, args) in indexing_cases.programs(jax, jnp, lax, np).items():
        out.append((f"ix/{name}", fn, args))
    for name, case in random_cases.programs(jax, jnp, lax, np, random).items():
        out.append((f"rand/{name}", case.fn, case.args))
    for name, (fn, args) in _extra_programs().items():
        out.append((f"x/{name}", fn, args))
    return out


def _traced(items):
    traced = []
    for name, fn, args in items:
        args = args() if callable(args) else args
        try:
            closed = jax.make_jaxpr(fn)(*args)
        except Exception:  # noqa: BLE001 - programs that raise are error cases elsewhere
            continue
        flat = jax.tree_util.tree_leaves(args)
        traced.append((name, closed, flat))
    return traced


def _elementwise():
    from test_codegen_c import _table, _traceable
    return [(name, closed, list(args)) for name, closed, args, _ in _traceable(_table())]


def compilable_programs():
    """``(name, ClosedJaxpr, flat args)`` of every program above that the backends
    compile (x64 on: the 64-bit cases are real), and their optimised jaxprs."""
    import warnings
    with jax.enable_x64(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the programs' own dtype warnings
        items = _elementwise() + _traced(_shared_programs())
    kept, optimized = [], []
    for name, closed, args in items:
        opt = optimize(closed)
        try:
            plan_program(opt, "jit_probe")
        except NotImplementedError:
            continue  # refused by the C backend too (test_codegen_indexing.py)
        kept.append((name, closed, args))
        optimized.append(opt)
    return kept, optimized


def _primitives(closed) -> set:
    seen = set()

    def walk(j):
        for e in j.eqns:
            seen.add(e.primitive.name)
            for v in e.params.values():
                for sub in (v if isinstance(v, (tuple, list)) else [v]):
                    if isinstance(sub, ClosedJaxpr):
                        walk(sub.jaxpr)
                    elif hasattr(sub, "eqns"):
                        walk(sub)
    walk(closed.jaxpr)
    return seen


@pytest.fixture(scope="module")
def cuda_build(tmp_path_factory):
    """Every program rendered for CUDA into one file, and nvcc's verdict on it."""
    items, optimized = compilable_programs()
    programs = [(plan_program(opt, f"jit_c{i}", fuse_rows=False), str(opt)) for i, opt in enumerate(optimized)]
    source, cdef = render_module(programs, target="cuda")
    folder = tmp_path_factory.mktemp("cuda")
    src = folder / "all.cu"
    src.write_text(source)
    proc = None
    if _nvcc() is not None:
        from transpile.backend.build import compile_command, cuda_compiler_info
        cmd = compile_command(cuda_compiler_info("sm_90"), src, folder / "all.so")
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return items, optimized, source, cdef, proc


@needs_nvcc
def test_generated_cuda_compiles_with_nvcc(cuda_build):
    items, _, source, _, proc = cuda_build
    assert len(items) > 1600
    errors = [ln for ln in proc.stderr.splitlines() if "error" in ln][:20]
    assert proc.returncode == 0, "\n".join(errors) or proc.stderr[-3000:]
    assert "warning" not in proc.stderr, proc.stderr[:3000]


def test_every_primitive_is_compiled_for_cuda(cuda_build):
    from transpile import core
    items, optimized, _, _, _ = cuda_build
    used = set()
    for closed in optimized:
        used |= _primitives(closed)
    # inlined before planning (jit, custom rules, remat, custom_linear_solve, the
    # random_gamma expansion); custom_lin never compiles; host callbacks are refused by
    # the CUDA backend (test below); fft has no CUDA kernel yet (refused, test below)
    exempt = {"fft", "jit", "custom_jvp_call", "custom_vjp_call", "remat2", "custom_lin",
              "custom_linear_solve", "random_gamma",
              "debug_print", "debug_callback", "pure_callback", "io_callback"}
    # C kernels only (complex operands: host steps), refused (test_linalg_eig.py,
    # test_lax_rng_bit_generator.py)
    exempt |= {"eig", "hessenberg", "householder_product", "schur", "rng_bit_generator"}
    # expanded into their bodies by passes.inline (lax.call.EXPANSIONS)
    exempt |= {"optimization_barrier", "unstack", "custom_vmap_call", "approx_top_k"}
    # collectives and shard_map: expanded, or batching rules (tests/test_shard_map.py)
    exempt |= {"psum", "pmax", "pmin", "pvary", "shard_map", "psum_invariant", "all_gather",
               "reduce_scatter", "ppermute", "all_to_all", "axis_index", "pbroadcast"}
    # the identity, expanded before planning; process collectives run on the host (MPI)
    exempt |= {"sharding_constraint", "process_allreduce", "process_allgather",
               "process_ppermute", "process_alltoall", "process_index"}
    missing = sorted(set(core.primitives) - used - exempt)
    assert not missing, f"primitives no CUDA program uses: {missing}"


def test_cuda_source_is_kernels_and_launchers(cuda_build):
    _, _, source, cdef, _ = cuda_build
    assert source.count("__global__") > 1600
    assert 'extern "C" int jit_c0(' in source
    assert "int jit_c0(void *, void *, void *, void *);" in cdef  # x, out, workspace, stream


def _lower_cuda(fn, *args):
    return jax.jit(fn, backend="cuda").lower(*args).as_text()


def test_lowering_for_cuda_needs_no_gpu():
    text = _lower_cuda(lambda x, y: jnp.sum(jnp.tanh(x @ y), 0), X, X.T)
    assert "Generated by transpile" in text and "for CUDA" in text
    assert "__global__" in text and "<<<" in text
    # the jaxpr heads the file; kernels are named after the entry point
    assert "reduce_sum[axes=(0,)]" in text
    assert "jit__lambda__k0_kernel" in text


@pytest.mark.parametrize("fn, args, native", [
    (lambda x: jnp.where(x > 0, x, 0.01 * x), (X,), "kernel"),
    (lambda x: jnp.sum(x), (X,), "part"),
    (lambda x: jnp.sum(x, 1), (X,), "kernel"),
    (lambda x: jnp.sum(x, 0), (X,), "kernel"),
    (lambda x: x @ x.T, (X,), "kernel"),
    (lambda k: random.uniform(k, (3000,)), (random.PRNGKey(0),), "kernel"),
])
def test_hot_kernels_are_parallel_cuda_kernels(fn, args, native):
    text = _lower_cuda(fn, *args)
    assert f"_k0_{native}<<<" in text
    assert "_serial" not in text


def test_scalar_control_flow_reads_the_device():
    text = _lower_cuda(lambda x: lax.while_loop(lambda c: c < 10.0, lambda c: c * 2.0, x),
                       np.float32(1.0))
    assert "tp_load(" in text
    text = _lower_cuda(lambda n, x: lax.switch(n, [jnp.sin, jnp.cos, jnp.tanh], x),
                       np.int32(1), X)
    assert "tp_load(" in text and "switch (" in text


def test_host_callbacks_are_refused_for_cuda():
    def f(x):
        jax.debug.print("{}", x)
        return x + 1
    with pytest.raises(NotImplementedError, match="CUDA backend cannot run host callbacks"):
        _lower_cuda(f, X)


def test_cuda_cache_key_includes_nvcc_version_and_arch():
    if _nvcc() is None:
        pytest.skip("nvcc is not installed")
    from transpile.backend.build import cuda_compiler_info
    from transpile.backend.cache import cache_key
    a, b = cuda_compiler_info("sm_90"), cuda_compiler_info("sm_80")
    assert "-arch=sm_90" in a.flags and "-arch=sm_80" in b.flags
    assert "V" in a.version or "release" in a.version  # nvcc's own version line
    assert cache_key("x", a) != cache_key("x", b)


def test_fft_is_refused_by_the_cuda_backend_for_now():
    with pytest.raises(NotImplementedError, match="no FFT kernel"):
        _lower_cuda(jnp.fft.fft, np.ones(8, np.complex64))


def test_compiling_for_cuda_without_a_gpu_is_a_clear_error():
    from transpile.memory import cuda_runtime
    if cuda_runtime.available():
        pytest.skip("a GPU is present")
    lowered = jax.jit(lambda x: x + 1, backend="cuda").lower(X)
    with pytest.raises(RuntimeError, match="CUDA"):
        lowered.compile()
    with pytest.raises(RuntimeError, match="CUDA"):
        jax.jit(lambda x: x + 1, backend="cuda")(X)


def test_cuda_scratch_pointers_are_not_restrict():
    # nvcc 13.0 forwarded stores made through a restrict scratch pointer before a loop
    # to the loads after it (svd's sweeps came out unrotated on an H200); C keeps it
    from transpile.codegen.plan import plan_program
    from transpile.codegen.render import render_module
    from transpile.passes import optimize
    opt = optimize(jax.make_jaxpr(lambda a: lax.linalg.svd(a))(PD))
    cuda, _ = render_module([(plan_program(opt, "jit_svd", fuse_rows=False), str(opt))],
                            target="cuda")
    c, _ = render_module([(plan_program(opt, "jit_svd"), str(opt))])
    assert "char *scratch" in cuda and "restrict scratch" not in cuda
    assert "char *restrict scratch" in c
