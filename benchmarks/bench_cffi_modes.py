"""cffi ABI mode versus API mode for one tiny kernel: compile latency and call overhead.

transpile compiles generated C straight into a shared library with the C compiler and
opens it with ``ffi.dlopen`` (ABI mode, ``transpile/backend/build.py``). cffi's API mode
instead generates a CPython extension wrapping the source and builds it with setuptools
(``Python.h``, the interpreter's compile flags). This script re-measures that choice:

* compile: the same source, built each way into a fresh directory (median of N builds,
  after one untimed warm-up that pays the one-off imports);
* load: ``ffi.dlopen`` versus importing the extension module;
* call: one foreign call with two pointer arguments, passed as pre-made
  ``ffi.from_buffer`` cdata, as ``intptr_t`` Python ints, and with ``from_buffer`` done
  in the call (what marshalling costs when nothing is cached).

API mode lives only here. Usage::

    python benchmarks/bench_cffi_modes.py [--builds 7] [--number 100000] [--repeat 15]
"""
from __future__ import annotations

import argparse
import importlib.util
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

import cffi
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from transpile.backend.build import compile_command, compiler_info  # noqa: E402

SOURCE = """\
#include <stdint.h>
void kern(const float *x, float *y) { y[0] = 2.0f * x[0]; }
void kern_i(intptr_t x, intptr_t y) { kern((const float *)x, (float *)y); }
"""
CDEF = "void kern(const float *x, float *y);\nvoid kern_i(intptr_t x, intptr_t y);"


def build_abi(d: Path):
    """Compile SOURCE as transpile does; return (seconds, loader)."""
    src, out = d / "kern.c", d / "kern.so"
    src.write_text(SOURCE)
    argv = compile_command(compiler_info(), src, out)
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True)
    seconds = time.perf_counter() - t0

    ffi = cffi.FFI()
    ffi.cdef(CDEF)  # parsed outside the timed load: API mode parsed it at build time

    def load():
        return ffi, ffi.dlopen(str(out))
    return seconds, load


def build_api(d: Path, i: int):
    """Compile SOURCE with cffi's API mode (setuptools); return (seconds, loader)."""
    name = f"_bench_api_{i}"
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    ffi.set_source(name, SOURCE)
    t0 = time.perf_counter()
    path = ffi.compile(tmpdir=str(d), verbose=False)
    seconds = time.perf_counter() - t0

    def load():
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.ffi, module.lib
    return seconds, load


def measure_builds(builds: int) -> dict:
    """Median compile and load seconds per mode, and the last library loaded.

    Rounds alternate the modes so that a busy machine slows both alike; the first round
    is not timed, as it pays one-off imports (setuptools) and a cold compiler.
    """
    makers = {"ABI": lambda d, i: build_abi(d), "API": build_api}
    compiles = {m: [] for m in makers}
    loads = {m: [] for m in makers}
    loaded = {}
    with tempfile.TemporaryDirectory(prefix="bench-cffi-") as root:
        for i in range(builds + 1):
            for mode, make in makers.items():
                d = Path(root) / f"{mode}{i}"
                d.mkdir()
                seconds, load = make(d, i)
                t0 = time.perf_counter()
                loaded[mode] = load()
                if i:
                    compiles[mode].append(seconds)
                    loads[mode].append(time.perf_counter() - t0)
    return {m: (statistics.median(compiles[m]), statistics.median(loads[m]), loaded[m])
            for m in makers}


def per_call_ns(stmts: dict, envs: dict, number: int, repeat: int) -> dict:
    """Median ns per call of each (mode, statement); the rounds interleave the modes so
    that a busy machine slows both alike."""
    timers = {(mode, what): timeit.Timer(stmt, globals=envs[mode])
              for mode in envs for what, stmt in stmts.items()}
    times = {k: [] for k in timers}
    for _ in range(repeat):
        for k, timer in timers.items():
            times[k].append(timer.timeit(number) / number * 1e9)
    return {k: statistics.median(v) for k, v in times.items()}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builds", type=int, default=7, help="timed builds per mode")
    parser.add_argument("--number", type=int, default=100_000, help="calls per timing")
    parser.add_argument("--repeat", type=int, default=15, help="timings per median")
    args = parser.parse_args(argv)

    info = compiler_info()
    rows = measure_builds(args.builds)
    x = np.ones(1, dtype=np.float32)
    y = np.zeros(1, dtype=np.float32)
    envs = {}
    for mode, (_, _, (ffi, lib)) in rows.items():
        envs[mode] = {"lib": lib, "ffi": ffi, "x": x, "y": y,
                      "xc": ffi.from_buffer("float[]", x), "yc": ffi.from_buffer("float[]", y),
                      "xi": x.ctypes.data, "yi": y.ctypes.data}
        y[0] = 0.0
        lib.kern_i(envs[mode]["xi"], envs[mode]["yi"])
        assert y[0] == 2.0, "the kernel did not run"
    stmts = {"cdata (pre-made from_buffer)": "lib.kern(xc, yc)",
             "intptr_t ints": "lib.kern_i(xi, yi)",
             "from_buffer in the call":
                 'lib.kern(ffi.from_buffer("float[]", x), ffi.from_buffer("float[]", y))'}
    calls = per_call_ns(stmts, envs, args.number, args.repeat)

    def noop(a, b):
        return None
    baseline = per_call_ns({"noop": "noop(1, 2)"}, {"py": {"noop": noop}}, args.number,
                           args.repeat)[("py", "noop")]
    cdef_us = statistics.median(timeit.Timer("cffi.FFI().cdef(CDEF)", globals={
        "cffi": cffi, "CDEF": CDEF}).repeat(repeat=args.repeat, number=20)) / 20 * 1e6

    print(f"cffi {cffi.__version__}, Python {platform.python_version()}, "
          f"{platform.machine()}; compiler: {info.version}")
    print(f"ABI flags: {' '.join(info.flags)}\n")
    print(f"build of one tiny kernel (median of {args.builds})")
    print(f"{'mode':<6}{'compile ms':>12}{'load us':>10}")
    for mode, (compile_s, load_s, _) in rows.items():
        print(f"{mode:<6}{compile_s * 1e3:>12.1f}{load_s * 1e6:>10.1f}")
    ratio = rows["API"][0] / rows["ABI"][0]
    print(f"API/ABI compile ratio: {ratio:.1f}x; ABI mode also parses the cdef when "
          f"loading: {cdef_us:.0f} us\n")
    print(f"per-call overhead, 2 pointer args (ns, median of {args.repeat} x {args.number})")
    print(f"{'arguments':<30}{'ABI':>8}{'API':>8}{'API-ABI':>9}")
    for what in stmts:
        abi, api = calls[("ABI", what)], calls[("API", what)]
        print(f"{what:<30}{abi:>8.0f}{api:>8.0f}{api - abi:>+9.0f}")
    print(f"{'python no-op call (baseline)':<30}{baseline:>8.0f}")


if __name__ == "__main__":
    main()
