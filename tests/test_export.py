"""Standalone C export (transpile/export.py): each exported function builds with strict
flags (with and without OpenMP), links with a small C driver that reads its inputs
from a binary file and writes its outputs, and computes the same bits as the
in-process jit. One export runs under valgrind, one from two threads at once.
"""
import os
import shutil
import subprocess
import textwrap

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax, random

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")

STRICT = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O2"]
R = np.random.default_rng(0)
F3 = R.standard_normal((4, 3)).astype(np.float32)
F8 = R.standard_normal(8).astype(np.float32)
M = R.standard_normal((5, 7)).astype(np.float32)
N = R.standard_normal((7, 3)).astype(np.float32)
IDX = np.array([3, 0, 2, 7, 1], np.int32)
C_ARRAY = np.linspace(-1.0, 1.0, 8).astype(np.float32)
Z8 = (F8 + 1j * C_ARRAY).astype(np.complex64)
C_CPLX = (C_ARRAY - 0.5j * C_ARRAY[::-1]).astype(np.complex64)


def _mlp_loss(w, x, y):
    return jnp.mean((jnp.tanh(x @ w) - y) ** 2)


def _scan_cumsum(x):
    return lax.scan(lambda c, v: (c + v, c * v), 0.0, x)


def _while_count(x):
    return lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 1.5 + 0.25),
                          (0, x))[1]


#: name -> (function, arguments): one per feature the issue names, and a few more.
EXPORTS = {
    "fused_elementwise": (lambda x: 1.05 * jnp.where(x > 0, x, 1.67 * jnp.exp(x) - 1.67),
                          (F3,)),
    "reductions": (lambda x: (jnp.sum(x ** 2, axis=0), jnp.max(x), jnp.argmin(x, axis=1)),
                   (F3,)),
    "matmul": (lambda a, b: a @ b, (M, N)),
    # 16-bit floats: computed in float, rounded to bfloat16 after each equation
    "bfloat16": (lambda x, a, b: (jnp.exp(x) * x + 1.0, jnp.sum(x, axis=0), a @ b),
                 (F3.astype(jnp.bfloat16), M.astype(jnp.bfloat16), N.astype(jnp.bfloat16))),
    "cond": (lambda p, x: lax.cond(p > 0, lambda v: jnp.sin(v), lambda v: v * 2.0, x),
             (np.float32(1.5), F8)),
    "while_loop": (_while_count, (F8,)),
    "scan": (_scan_cumsum, (F8,)),
    "gather": (lambda x, i: x[i], (F8, IDX)),
    # the nonsymmetric eigenproblem's C kernels (runtime/tp_eig.h)
    "eig_schur": (lambda a: (lax.linalg.eig(a), lax.linalg.schur(a), lax.linalg.hessenberg(a)),
                  (np.random.default_rng(20).standard_normal((2, 4, 4)).astype(np.float32),)),
    # complex: gcc -O3 -march=native (jit) fuses vectorised complex products
    # (vfmaddsub) even under ISO C's -ffp-contract=off, so only close, not the same bits
    # (and of the Schur form only T's diagonal: its other entries follow Z's phases)
    "eig_schur_complex": (lambda a: (lax.linalg.eig(a), lax.linalg.hessenberg(a),
                                     jnp.diagonal(lax.linalg.schur(a)[0], 0, -2, -1)),
                          ((np.random.default_rng(21).standard_normal((2, 4, 4)) + 1j)
                           .astype(np.complex64),)),
    "scatter_add": (lambda x, i: x.at[i].add(10.0), (F8, IDX)),
    "threefry_normal": (lambda k: random.normal(k, (1000,)), (random.PRNGKey(42),)),
    "threefry_split_uniform": (lambda k: random.uniform(random.split(k)[1], (5, 4)),
                               (random.PRNGKey(7),)),
    "grad_mlp": (jax.grad(_mlp_loss), (R.standard_normal((3, 4)).astype(np.float32) * 0.5,
                                       F3, R.standard_normal((4, 4)).astype(np.float32))),
    "value_and_grad": (jax.value_and_grad(lambda x: jnp.sum(jnp.sin(x) * x)), (F8,)),
    "sort_cumsum": (lambda x: (jnp.sort(x), jnp.cumsum(x)), (F8,)),
    "constants_and_literals": (lambda x: (x + C_ARRAY, 3.0, x, C_ARRAY), (F8,)),
    "integers": (lambda a, b: (a // 3 + b, a % 5, a << 2), (IDX, IDX[::-1].copy())),
    "float64_x64": (lambda x: jnp.exp(x) * 2, (F8.astype(np.float64),)),
    "float16": (lambda x: x * 2 + 1, (F8.astype(np.float16),)),
    "concatenate_transpose": (lambda a: jnp.concatenate([a, a * 2]).T, (F3,)),
    # a small CNN (direct conv kernels; the GEMM path needs -march=native for the same
    # bits as jit, as matmul does): convs, a depthwise conv, bias and relu
    "cnn": (lambda x, w1, w2, w3: jnp.sum(jax.nn.relu(lax.conv_general_dilated(
        jax.nn.relu(lax.conv_general_dilated(
            jax.nn.relu(lax.conv_general_dilated(x, w1, (1, 1), "SAME", dimension_numbers=(
                "NHWC", "HWIO", "NHWC")) + 0.1), w2, (2, 2), "SAME",
            dimension_numbers=("NHWC", "HWIO", "NHWC"))), w3, (1, 1), "VALID",
        dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=8)), axis=(1, 2)),
            (R.standard_normal((2, 12, 12, 3)).astype(np.float32),
             R.standard_normal((3, 3, 3, 8)).astype(np.float32),
             R.standard_normal((3, 3, 8, 8)).astype(np.float32),
             R.standard_normal((2, 2, 1, 8)).astype(np.float32))),
    "complex64": (lambda z, w: (jnp.exp(z) * w / (z + 1j), jnp.sum(z * jnp.conj(w)),
                                jnp.abs(z), jnp.sort(z), z @ w, jnp.cumprod(z) + C_CPLX),
                  (Z8, Z8[::-1].copy())),
}
X64 = {"float64_x64"}
#: name -> absolute tolerance where the export computes the jit's values within rounding
CLOSE = {"eig_schur_complex": 1e-4}


def _build(tmp_path, name, extra=()):
    fn, args = EXPORTS[name]
    ctx = jax.enable_x64() if name in X64 else _null()
    with ctx:
        jitted = jax.jit(fn)
        want = [np.asarray(w) for w in jax.tree_util.tree_leaves(jitted(*args))]
        exported = jax.export_c(jitted, *args, name=name, out_dir=tmp_path / name)
    return exported, args, want


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


def _driver(name, args, want, threads=False) -> str:
    """A C main that reads the inputs from in.bin, runs the export (twice at once from
    two threads with ``threads``), and writes the outputs to out.bin."""
    decls, reads, call = [], [], []
    for i, a in enumerate(args):
        a = np.asarray(a)
        n = max(a.nbytes, 1)
        decls.append(f"static unsigned char in{i}[{n}];")
        reads.append(f"if (fread(in{i}, 1, {a.nbytes}, f) != {a.nbytes}) return 2;")
        call.append(f"(const void *)in{i}")
    for k in range(2 if threads else 1):
        for j, w in enumerate(want):
            n = max(w.nbytes, 1)
            decls.append(f"static unsigned char out{k}_{j}[{n}];")
    ws = "workspace"
    body_call = lambda k: f"{name}({', '.join(call + [f'(void *)out{k}_{j}' for j in range(len(want))] + [ws + str(k)])})"  # noqa: E731
    write_out = [f"fwrite(out0_{j}, 1, {w.nbytes}, g);" for j, w in enumerate(want)]
    same = " && ".join(f"memcmp(out0_{j}, out1_{j}, {w.nbytes}) == 0"
                       for j, w in enumerate(want)) or "1"
    thread_code = ""
    run = f"if ({body_call(0)} != 0) return 3;"
    if threads:
        thread_code = textwrap.dedent(f"""
            static void *workspace1;
            static int status1;
            static void *second(void *arg) {{ (void)arg; status1 = {body_call(1)}; return NULL; }}
        """)
        run = textwrap.dedent(f"""
            pthread_t t;
            workspace1 = ws > 0 ? malloc((size_t)ws) : NULL;
            if (pthread_create(&t, NULL, second, NULL) != 0) return 4;
            if ({body_call(0)} != 0) return 3;
            pthread_join(t, NULL);
            if (status1 != 0) return 3;
            if (!({same})) return 5;
            free(workspace1);
        """)
    return textwrap.dedent(f"""
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        {"#include <pthread.h>" if threads else ""}
        #include "{name}.h"
        {" ".join(decls)}
        static void *workspace0;
        {thread_code}
        int main(void) {{
            int64_t ws = {name}_workspace_size();
            FILE *f = fopen("in.bin", "rb");
            FILE *g;
            if (!f) return 1;
            {" ".join(reads)}
            fclose(f);
            workspace0 = ws > 0 ? malloc((size_t)ws) : NULL;
            {run}
            g = fopen("out.bin", "wb");
            {" ".join(write_out)}
            fclose(g);
            free(workspace0);
            return 0;
        }}
    """)


def _run_export(tmp_path, name, openmp: bool, threads=False, valgrind=False):
    exported, args, want = _build(tmp_path, name)
    d = exported.out_dir
    subprocess.run(["gcc", *STRICT, *(["-fopenmp"] if openmp else []), "-c",
                    f"{name}.c", "-o", f"{name}.o"], cwd=d, check=True,
                   capture_output=True, text=True)
    (d / "driver.c").write_text(_driver(name, args, want, threads))
    subprocess.run(["gcc", "-std=c99", "-O1", *(["-fopenmp"] if openmp else []),
                    *(["-pthread"] if threads else []), "driver.c", f"{name}.o", "-o",
                    "driver", "-lm"], cwd=d, check=True, capture_output=True, text=True)
    with open(d / "in.bin", "wb") as fh:
        for a in args:
            fh.write(np.ascontiguousarray(a if not hasattr(a, "_value") else a._value)
                     .tobytes())
    cmd = ["./driver"]
    if valgrind:
        cmd = ["valgrind", "--error-exitcode=1", "--leak-check=no", "-q", "./driver"]
    env = dict(os.environ, OMP_NUM_THREADS="2")
    proc = subprocess.run(cmd, cwd=d, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    raw = (d / "out.bin").read_bytes()
    off = 0
    for w in want:
        got = np.frombuffer(raw[off:off + w.nbytes], w.dtype).reshape(w.shape)
        off += w.nbytes
        if name in CLOSE:
            np.testing.assert_allclose(got, w, atol=CLOSE[name])
        else:
            assert got.tobytes() == w.tobytes(), (name, got, w)
    return exported


@pytest.mark.parametrize("openmp", [True, False], ids=["openmp", "serial"])
@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_export_builds_strictly_and_matches_jit(tmp_path, name, openmp):
    _run_export(tmp_path, name, openmp)


@pytest.mark.skipif(shutil.which("clang") is None, reason="needs clang")
@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_export_builds_strictly_with_clang(tmp_path, name):
    exported, _, _ = _build(tmp_path, name)
    for flags in ([], ["-fopenmp"]):
        proc = subprocess.run(["clang", *STRICT, *flags, "-c", f"{name}.c"],
                              cwd=exported.out_dir, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")
def test_export_under_valgrind(tmp_path):
    _run_export(tmp_path, "gather", openmp=False, valgrind=True)
    _run_export(tmp_path, "scan", openmp=False, valgrind=True)


def test_export_from_two_threads_at_once(tmp_path):
    _run_export(tmp_path, "grad_mlp", openmp=False, threads=True)


def test_files_example_makefile_and_header(tmp_path):
    exported, _, _ = _build(tmp_path, "matmul")
    names = {p.name for p in exported.files}
    assert {"matmul.c", "matmul.h", "Makefile", "CMakeLists.txt", "matmul_example.c",
            "transpile_macros.h", "tp_matmul.h"} <= names
    header = exported.header.read_text()
    assert "#define MATMUL_IN0_SHAPE { 5, 7 }" in header
    assert "int64_t matmul_workspace_size(void);" in header
    source = exported.source.read_text()
    assert "Python.h" not in source and "malloc" not in source
    proc = subprocess.run(["make", "-s"], cwd=exported.out_dir, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    out = subprocess.run(["./matmul_example"], cwd=exported.out_dir, capture_output=True,
                         text=True)
    assert out.returncode == 0 and out.stdout.startswith("out0 (f32[5,3])")
    # the header also compiles as C++ (restrict is spelled for it)
    if shutil.which("g++"):
        (exported.out_dir / "use.cpp").write_text('#include "matmul.h"\nint main() { return 0; }\n')
        subprocess.run(["g++", "-Wall", "-Werror", "-c", "use.cpp"], cwd=exported.out_dir,
                       check=True)


def test_lowered_export_and_cli(tmp_path):
    low = jax.jit(lambda x: jnp.sum(x * x)).lower(F8)
    exported = low.export_c(tmp_path / "lowered", name="sumsq")
    assert exported.source.name == "sumsq.c"
    mod = tmp_path / "expmod.py"
    mod.write_text("import transpile.numpy as jnp\n"
                   "def poly(x, y, power=2):\n    return jnp.sum(x ** power) + y\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path), os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]))
    proc = subprocess.run(
        ["python", "-m", "transpile", "export", "expmod:poly", "--arg", "f32[10]", "--arg",
         "f32[]", "--static", "power=3", "-o", str(tmp_path / "cli")], cwd=tmp_path,
        env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "cli" / "poly.h").exists()
    subprocess.run(["gcc", *STRICT, "-c", "poly.c"], cwd=tmp_path / "cli", check=True)


def test_bad_names_and_types():
    with pytest.raises(ValueError, match="not a valid C identifier"):
        jax.export_c(jax.jit(lambda x: x), F8, name="1bad", out_dir="unused")
    from transpile.__main__ import parse_abstract_arg
    assert parse_abstract_arg("f32[100,3]").shape == (100, 3)
    assert parse_abstract_arg("i32[]").dtype == np.int32
    with pytest.raises(ValueError, match="expected a type such as"):
        parse_abstract_arg("float[3]")
