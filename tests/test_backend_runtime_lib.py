"""The precompiled runtime object (backend/runtime_lib.py) and the cffi module written
without cffi's parser (backend/ffi_module.py)."""
import contextlib
import io
import json
import re
import subprocess

import cffi
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.backend import compiler_info, runtime_lib
from transpile.backend.ffi_module import module_text
from transpile.config import enable_x64


def _cffi_text(cdef, tmp_path):
    ffi = cffi.FFI()
    ffi.cdef(cdef)
    ffi.set_source("_transpile_ffi", None)
    with contextlib.redirect_stdout(io.StringIO()):
        ffi.emit_python_code(str(tmp_path / "m.py"))
    return (tmp_path / "m.py").read_text()


@pytest.mark.parametrize("n", [1, 2, 3, 7, 40, 300])
def test_ffi_module_is_the_one_cffi_writes(n, tmp_path):
    cdef = (f"int jit_f_2({', '.join(['void *'] * n)});\n"
            "int64_t jit_f_2_workspace_size(void);")
    assert module_text(cdef) == _cffi_text(cdef, tmp_path)


def test_ffi_module_leaves_other_shapes_to_cffi():
    assert module_text("int f(void *, int (*)(int64_t, void **, void **));\n"
                       "int64_t f_workspace_size(void);") is None
    assert module_text("int f(void *);\nint64_t g_workspace_size(void);") is None


def _special_inputs():
    rs = np.random.RandomState(3)
    x = np.concatenate([rs.randn(2000) * 4, rs.randn(200) * 1e5,
                        [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -3e-39, 0.5, 80.0]])
    return x.astype(np.float32)


def _many_calls(x):
    # Heavy and cheap functions, enough calls of each to go out of line.
    ys = []
    for k in range(40):
        s = 1.0 + k / 64
        ys += [jnp.sin(x * s), jnp.cos(x * s), jnp.tanh(x * s), jnp.exp(x * s / 64),
               lax.erf(x * s), jnp.arctan(x * s)]
    return jnp.stack(ys)


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    def make(name):
        folder = tmp_path / name
        monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(folder))
        return folder
    return make


def test_out_of_line_math_gives_the_inline_bits(fresh_cache, monkeypatch):
    x = _special_inputs()
    fresh_cache("inline")
    monkeypatch.setattr(runtime_lib, "LIB_WORTH_CALLS", 10 ** 9)
    source = jax.jit(_many_calls).lower(x).as_text()
    heavy, cheap = runtime_lib.math_calls(source)
    assert heavy >= 160 and cheap > runtime_lib.CHEAP_OUT_OF_LINE
    assert runtime_lib.link_arguments(compiler_info(), source)[1] == []  # not built
    inline = np.asarray(jax.jit(_many_calls)(x))

    lib_cache = fresh_cache("lib")
    monkeypatch.setattr(runtime_lib, "LIB_WORTH_CALLS", 0)
    before, after = runtime_lib.link_arguments(compiler_info(), source)
    assert "-DTP_RUNTIME_LIB" in before and "-DTP_RUNTIME_LIB_ALL" in before
    assert after and after[0].startswith(str(lib_cache / "runtime"))
    out_of_line = np.asarray(jax.jit(_many_calls)(x))
    assert out_of_line.tobytes() == inline.tobytes()
    with np.errstate(invalid="ignore"):
        want = np.sin(x.astype(np.float64))
    np.testing.assert_allclose(out_of_line[0], want, rtol=1e-6, atol=1e-6)


def test_cheap_calls_stay_inline_below_the_threshold(fresh_cache, monkeypatch):
    fresh_cache("few")
    monkeypatch.setattr(runtime_lib, "LIB_WORTH_CALLS", 0)
    source = jax.jit(lambda x: jnp.exp(x) + jnp.sin(x)).lower(np.ones(4, np.float32)).as_text()
    assert runtime_lib.math_calls(source) == (1, 1)
    before, after = runtime_lib.link_arguments(compiler_info(), source)
    assert "-DTP_RUNTIME_LIB" in before and "-DTP_RUNTIME_LIB_ALL" not in before
    assert runtime_lib.link_arguments(compiler_info(), "int f(void);") == ([], [])


def test_parallel_regions_use_the_object_only_once_it_is_there(fresh_cache):
    x = np.random.RandomState(5).randn(1 << 17).astype(np.float32)

    def f(v):
        return v * 1.5 + 2.0
    fresh_cache("none")
    source = jax.jit(f).lower(x).as_text()
    assert "tp_par_team(" in source and runtime_lib.math_calls(source) == (0, 0)
    assert _without_prelude(runtime_lib.link_arguments(compiler_info(), source)) == ([], [])
    inline = np.asarray(jax.jit(f)(x))
    assert runtime_lib.runtime_object(compiler_info(), build=False) is None  # not built

    lib_cache = fresh_cache("lib")
    runtime_lib.runtime_object(compiler_info())
    before, after = _without_prelude(runtime_lib.link_arguments(compiler_info(), source))
    assert before == ["-DTP_RUNTIME_LIB_PAR"]
    assert after and after[0].startswith(str(lib_cache / "runtime"))
    out = np.asarray(jax.jit(lambda v: f(v))(x))
    assert out.tobytes() == inline.tobytes()
    # one rounding, as the fused multiply-add XLA forms here: float64 holds x * 1.5 exactly
    np.testing.assert_array_equal(out, (x.astype(np.float64) * 1.5 + 2.0).astype(np.float32))


def _without_prelude(arguments):
    """``link_arguments``' result less the precompiled prelude's ``-iquote`` folder."""
    before, after = arguments
    if "-iquote" in before:
        i = before.index("-iquote")
        before = before[:i] + before[i + 2:]
    return before, after


def _gcc() -> bool:
    return "clang" not in compiler_info().version.lower()


def test_prelude_is_precompiled_once_per_parallel_macro(fresh_cache):
    """gcc's precompiled tp_prelude.h: one per value of TP_RUNTIME_LIB_PAR (the one build
    macro the prelude reads), found through -iquote before the runtime folder."""
    if not _gcc():
        pytest.skip("precompiled headers are gcc's")
    cache = fresh_cache("pch")
    info = compiler_info()
    assert runtime_lib.prelude_header(info, False, build=False) is None
    plain = runtime_lib.prelude_header(info, False)
    par = runtime_lib.prelude_header(info, True)
    for folder in (plain, par):
        assert folder.parent == cache / "runtime"
        assert (folder / "tp_prelude.h.gch").stat().st_size > 0
    assert plain != par and runtime_lib.prelude_header(info, False, build=False) == plain
    source = '#include "tp_prelude.h"\n#include "tp_math_lib.h"\nint f(void);\n'
    assert runtime_lib.link_arguments(info, source) == (["-iquote", str(plain)], [])
    assert runtime_lib.link_arguments(info, "int f(void);") == ([], [])  # no prelude


def test_library_built_with_the_precompiled_prelude_reads_it(fresh_cache, tmp_path):
    """gcc reports (-H) the precompiled header as used ("!"), and the library's results
    are those of the same source built without it."""
    if not _gcc():
        pytest.skip("precompiled headers are gcc's")
    fresh_cache("used")
    x = np.linspace(-3, 3, 4096, dtype=np.float32)

    def f(v):
        return 1.0507 * jnp.where(v > 0, v, 1.6733 * jnp.exp(v) - 1.6733)
    source = jax.jit(f).lower(x).as_text()
    info = compiler_info()
    before, after = runtime_lib.link_arguments(info, source)
    src = tmp_path / "prelude_probe.c"
    src.write_text(source)
    flags = [a for a in info.flags if a != "-shared"]
    proc = subprocess.run([info.path, *flags, *before, "-H", "-c", str(src), "-o",
                           str(tmp_path / "p.o")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert re.search(r"^! .*tp_prelude\.h\.gch$", proc.stderr, re.M), proc.stderr[:500]
    with_pch = np.asarray(jax.jit(f)(x))
    plain = fresh_cache("without")
    with pytest.MonkeyPatch.context() as m:
        m.setattr(runtime_lib, "prelude_header", lambda *a, **k: None)
        jax.clear_caches()  # the library above is kept in memory too
        without = np.asarray(jax.jit(f)(x))
    commands = [json.loads(r.read_text())["command"] for r in plain.glob("*/*/meta.json")]
    assert commands and all("-iquote" not in c for c in commands)  # really built without
    assert with_pch.tobytes() == without.tobytes()


def test_big_sources_build_at_o2(monkeypatch):
    monkeypatch.setattr(runtime_lib, "O2_ABOVE_CHARS", 10)
    assert runtime_lib.link_arguments(compiler_info(), "int f(void) { return 0; }")[0] \
        == ["-O2"]


def _products(a, b, v):
    # packed (large), matrix-vector, tiny direct, transposed operands
    return (a @ b, a @ v, a[:3, :4] @ b[:4, :2], a.T @ a, b @ b.T)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_precompiled_matmul_gives_the_inline_bits(dtype, fresh_cache):
    with enable_x64():
        _check_matmul(dtype, fresh_cache)


def _check_matmul(dtype, fresh_cache):
    rs = np.random.RandomState(0)
    a, b = rs.randn(150, 70).astype(dtype), rs.randn(70, 130).astype(dtype)
    v = rs.randn(70).astype(dtype)
    fresh_cache("inline")
    inline = [np.asarray(o) for o in jax.jit(_products)(a, b, v)]
    source = jax.jit(_products).lower(a, b, v).as_text()
    assert runtime_lib.link_arguments(compiler_info(), source)[1] == []

    fresh_cache("lib")
    runtime_lib.runtime_object(compiler_info())
    before, after = runtime_lib.link_arguments(compiler_info(), source)
    assert "-DTP_RUNTIME_LIB" in before and after
    out = [np.asarray(o) for o in jax.jit(lambda *xs: _products(*xs))(a, b, v)]
    for got, want, ref in zip(out, inline, _products(a.astype(np.float64), b, v),
                              strict=True):
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
        np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)
