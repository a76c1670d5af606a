"""Generated kernels under AddressSanitizer: no read or write outside any buffer.

The programs of test_codegen_c.py (every kernel kind, broadcasts, pads, transposes,
zero-size arrays), 150 random chains of index maps, the dynamic-indexing programs of
test_codegen_indexing.py (out-of-bounds and extreme indices, every mode) and the
control-flow programs of test_codegen_control.py and the sampler programs of
test_random.py are built with
``-fsanitize=address`` and run in a subprocess that preloads the ASan runtime; any
invalid access aborts it with a report.
"""
import os
import subprocess
import sys
import textwrap

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_SCRIPT = textwrap.dedent("""
    import runpy, numpy as np
    import transpile as jax
    from transpile.stages import compile_many
    mod = runpy.run_path(%r)
    items = [(name, jax.make_jaxpr(fn)(*args), args)
             for name, (fn, args) in mod["PROGRAMS"].items()]
    for seed in range(150):
        f, x = mod["_random_chain"](seed)
        items.append((f"chain{seed}", jax.make_jaxpr(f)(x), (x,)))
    exes = compile_many([(f"asan_{n}", c) for n, c, _ in items])
    assert "-fsanitize=address" in exes[0].library.command
    for (name, closed, args), exe in zip(items, exes):
        exe(list(args))
    # gather, scatters, dynamic_(update_)slice at hostile indices (64-bit index dtypes)
    ix = runpy.run_path(%r)
    with jax.enable_x64():
        more = [(n, jax.make_jaxpr(f)(*a), a) for n, f, a in ix["indexing_cases"]()]
        exes = compile_many([(f"asan_{n}", c) for n, c, _ in more])
        for (name, closed, args), exe in zip(more, exes):
            exe(list(args))
    # compiled control flow: nested loops, carries, in-place updates
    cf = runpy.run_path(%r)
    flow = [(n, jax.make_jaxpr(f)(*a), a) for n, (f, a, _) in cf["PROGRAMS"].items()]
    exes = compile_many([(f"asan_{n}", c) for n, c, _ in flow])
    for (name, closed, args), exe in zip(flow, exes):
        exe(list(args))
    # samplers and key arrays: fused threefry sources, key copies, sorts by random keys
    rd = runpy.run_path(%r)
    rand = [(n, jax.make_jaxpr(f)(*a), a) for n, (f, a) in rd["PROGRAMS"].items()]
    exes = compile_many([(n, c) for n, c, _ in rand])
    for (name, closed, args), exe in zip(rand, exes):
        exe(list(args))
    print("ran", len(items) + len(more) + len(flow) + len(rand))
""")


def _libasan():
    try:
        path = subprocess.run(["cc", "-print-file-name=libasan.so"], capture_output=True,
                              text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return path if os.path.isabs(path) and os.path.exists(path) else None


def test_kernels_under_address_sanitizer(tmp_path):
    lib = _libasan()
    if lib is None:
        pytest.skip("the compiler has no AddressSanitizer runtime")
    env = dict(os.environ, PYTHONPATH=REPO, LD_PRELOAD=lib,
               ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
               TRANSPILE_CFLAGS="-fsanitize=address -fno-omit-frame-pointer",
               TRANSPILE_CACHE_DIR=str(tmp_path))
    script = _SCRIPT % (os.path.join(REPO, "tests", "test_codegen_c.py"),
                        os.path.join(REPO, "tests", "test_codegen_indexing.py"),
                        os.path.join(REPO, "tests", "test_codegen_control.py"),
                        os.path.join(REPO, "tests", "test_random.py"))
    res = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-4000:]
    assert res.stdout.startswith("ran ")
