"""Stage 6, build: compile C text to a shared library, load it, and find it again."""
import importlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from transpile.backend import CompileError, CompilerNotFoundError, build, compiler_info

# `transpile.backend.build` the attribute is the function; the module is reached this way.
buildmod = importlib.import_module("transpile.backend.build")

REPO = pathlib.Path(__file__).resolve().parent.parent
CDEF = "void scale(const float *x, float *y, int64_t n);"


def kernel(factor: float = 2.0, tag: str = "") -> str:
    """A tiny C kernel using the runtime header, made unique by ``tag``."""
    return ('#include <stdint.h>\n#include "transpile_macros.h"\n'
            f"/* {tag} */\n"
            "void scale(const float *TP_RESTRICT x, float *TP_RESTRICT y, int64_t n) {\n"
            f"    for (int64_t i = 0; i < n; i++) y[i] = {factor}f * x[i];\n}}\n")


def call(library, n: int = 5) -> np.ndarray:
    x = np.arange(n, dtype=np.float32)
    y = np.zeros(n, dtype=np.float32)
    ffi = library.ffi
    library.lib.scale(ffi.from_buffer("float[]", x), ffi.from_buffer("float[]", y), n)
    return y


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private cache directory for one test."""
    path = tmp_path / "cache"
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(path))
    return path


@pytest.fixture
def logging_cc(tmp_path, monkeypatch):
    """CC set to a wrapper that logs every invocation and then runs the real compiler."""
    real = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if real is None:
        pytest.skip("no C compiler")
    log = tmp_path / "cc.log"
    wrapper = tmp_path / "logging-cc"
    # The sleep on real compiles makes concurrent builders overlap in time.
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\n'
                       f'case "$*" in *source.c*) sleep 0.3;; esac\nexec "{real}" "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("CC", str(wrapper))
    log.touch()
    return log


def kernel_compiles(log: pathlib.Path) -> int:
    return sum("source.c" in line for line in log.read_text().splitlines())


SCRIPT = """
import json, sys
import numpy as np
from transpile.backend.build import build
lib = build(sys.argv[1], sys.argv[2], name="scale", signature="f32[5]")
x = np.arange(5, dtype=np.float32); y = np.zeros(5, dtype=np.float32)
lib.lib.scale(lib.ffi.from_buffer("float[]", x), lib.ffi.from_buffer("float[]", y), 5)
print(json.dumps({"disk_hit": lib.disk_hit, "y": y.tolist(), "path": lib.path}))
"""


def child_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def test_build_and_call(cache):
    library = build(kernel(2.0), CDEF, name="scale", signature="f32[5]", meta={"n": 5})
    np.testing.assert_array_equal(call(library), 2.0 * np.arange(5, dtype=np.float32))
    assert not library.disk_hit and library.seconds > 0
    assert "-shared" in library.command and library.key in library.command
    entry = pathlib.Path(library.path).parent
    assert entry == cache / library.key[:2] / library.key
    assert (entry / "source.c").read_text() == kernel(2.0)
    meta = json.loads((entry / "meta.json").read_text())
    assert (meta["name"], meta["signature"], meta["meta"]) == ("scale", "f32[5]", {"n": 5})
    assert meta["size"] == pathlib.Path(library.path).stat().st_size
    assert not list((cache / "tmp").iterdir())  # the staging directory was renamed away


def test_second_build_is_an_in_memory_hit(cache, monkeypatch):
    first = build(kernel(3.0), CDEF, name="scale", signature="f32[5]")

    def no_compiler(*args, **kwargs):
        raise AssertionError(f"the compiler ran: {args}")

    monkeypatch.setattr(buildmod.subprocess, "run", no_compiler)
    again = build(kernel(3.0), CDEF, name="scale", signature="f32[5]")
    assert again is first
    np.testing.assert_array_equal(call(again), 3.0 * np.arange(5, dtype=np.float32))


def test_fresh_process_loads_from_disk_without_the_compiler(cache, logging_cc):
    built = build(kernel(4.0, "disk"), CDEF, name="scale", signature="f32[5]")
    assert kernel_compiles(logging_cc) == 1
    before = logging_cc.read_text()
    out = subprocess.run([sys.executable, "-c", SCRIPT, kernel(4.0, "disk"), CDEF],
                         env=child_env(), capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    assert result["disk_hit"] is True and result["path"] == built.path
    assert result["y"] == [4.0 * i for i in range(5)]
    # Not even `cc --version` or a flag probe: the probe is remembered in the cache.
    assert logging_cc.read_text() == before


def test_four_processes_build_one_entry(cache, logging_cc):
    args = [sys.executable, "-c", SCRIPT, kernel(5.0, "race"), CDEF]
    procs = [subprocess.Popen(args, env=child_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        results.append(json.loads(out))
    assert all(r["y"] == [5.0 * i for i in range(5)] for r in results)
    assert len({r["path"] for r in results}) == 1
    assert sorted(r["disk_hit"] for r in results) == [False, True, True, True]
    assert kernel_compiles(logging_cc) == 1  # the per-key lock held the others back
    assert len([p for p in cache.glob("??/*") if p.is_dir()]) == 1
    assert not list((cache / "tmp").iterdir())


def test_missing_compiler_names_cc(cache, monkeypatch):
    monkeypatch.setenv("CC", "/nonexistent/transpile-no-such-cc -O1")
    with pytest.raises(CompilerNotFoundError, match="CC") as info:
        build(kernel(), CDEF, name="scale", signature="f32[5]")
    assert "no C compiler found" in str(info.value)
    monkeypatch.delenv("CC")
    monkeypatch.setenv("PATH", str(cache))  # nothing on PATH at all
    with pytest.raises(CompilerNotFoundError, match="CC"):
        compiler_info()


def test_syntax_error_raises_with_stderr_and_kept_source(cache):
    bad = kernel() + "int broken( {\n"
    with pytest.raises(CompileError) as info:
        build(bad, CDEF, name="broken", signature="f32[5]")
    err = info.value
    kept = cache / "failed" / f"{err.source_path.stem}.c"
    assert err.source_path == kept and kept.read_text() == bad
    assert str(kept) in str(err) and "error" in str(err) and err.stderr in str(err)
    assert "broken" in str(err) and f"{kept}:" in err.stderr  # diagnostics name the kept file
    assert not [p for p in cache.glob("??/*")]  # nothing published


def test_cc_arguments_and_transpile_cflags(cache, monkeypatch):
    real = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    monkeypatch.setenv("CC", f"{real} -DFROM_CC=3")
    monkeypatch.setenv("TRANSPILE_CFLAGS", "-DEXTRA=4 -Wall")
    info = compiler_info()
    assert info.path == real and info.flags[0] == "-DFROM_CC=3"
    assert info.flags[-2:] == ("-DEXTRA=4", "-Wall") and "-shared" in info.flags
    assert any(f.startswith("-I") and f.endswith("runtime") for f in info.flags)
    assert info.version and "\n" not in info.version
    source = kernel(tag="flags").replace("2.0f", "(FROM_CC * 10 + EXTRA)")
    library = build(source, CDEF, name="scale", signature="f32[5]")
    np.testing.assert_array_equal(call(library), 34.0 * np.arange(5, dtype=np.float32))


def test_flags_the_compiler_refuses_are_dropped(cache, tmp_path, monkeypatch):
    real = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    picky = tmp_path / "no-openmp-cc"
    picky.write_text('#!/bin/sh\ncase "$*" in *-fopenmp*) '
                     'echo "unsupported option -fopenmp" >&2; exit 1;; esac\n'
                     f'exec "{real}" "$@"\n')
    picky.chmod(0o755)
    monkeypatch.setenv("CC", str(picky))
    info = compiler_info()
    assert "-fopenmp" not in info.flags and "-O3" in info.flags
    library = build(kernel(6.0), CDEF, name="scale", signature="f32[5]")
    np.testing.assert_array_equal(call(library), 6.0 * np.arange(5, dtype=np.float32))


def test_speed_flags_are_kept_only_where_the_compiler_accepts_them(cache, tmp_path,
                                                                   monkeypatch):
    real = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    version = subprocess.run([real, "--version"], capture_output=True, text=True).stdout
    if "clang" not in version:  # gcc takes the flag
        assert set(buildmod._SPEED_FLAGS) <= set(compiler_info().flags)
    picky = tmp_path / "no-param-cc"
    picky.write_text('#!/bin/sh\ncase "$*" in *--param*) '
                     'echo "unknown option --param" >&2; exit 1;; esac\n'
                     f'exec "{real}" "$@"\n')
    picky.chmod(0o755)
    monkeypatch.setenv("CC", str(picky))
    info = compiler_info()
    assert not any(f.startswith("--param") for f in info.flags) and "-O3" in info.flags
    library = build(kernel(7.0), CDEF, name="scale", signature="f32[5]")
    np.testing.assert_array_equal(call(library), 7.0 * np.arange(5, dtype=np.float32))


def test_closing_the_last_openmp_library_keeps_the_runtime_mapped():
    # A cleared jit closes its library; were it the last user of libgomp, the loader
    # would unmap libgomp under its idle worker threads, which then crash (segfault).
    script = textwrap.dedent("""
        import gc, time
        import numpy as np, transpile as jax, transpile.numpy as jnp
        x = np.ones((512, 1024), np.float32)
        got = jax.jit(lambda v: (jnp.sum(v, axis=1), v @ v.T))(x)
        assert float(np.asarray(got[0])[0]) == 1024.0
        del got
        gc.collect()
        time.sleep(0.3)
        print("ok")
    """)
    env = dict(os.environ, TRANSPILE_PAR_WIDTH="2", OMP_NUM_THREADS="2",
               PYTHONPATH=str(REPO))
    for _ in range(3):
        res = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                             text=True, timeout=600)
        assert res.returncode == 0 and res.stdout.strip() == "ok", (res.returncode,
                                                                     res.stderr[-2000:])
