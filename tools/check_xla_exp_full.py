"""Check ``runtime/tp_xla_math.h``'s float32 exp, tanh and logistic against JAX on all
2^32 float32 inputs: the SHA-256 of their result bits (under FTZ/DAZ and without) must
equal the checksums ``tools/record_xla_exp.py --full`` stored in
``tests/data/xla_exp.npz``. Needs gcc; no JAX. A few minutes per function::

    python tools/check_xla_exp_full.py [exp tanh logistic]
"""
from __future__ import annotations

import ctypes
import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "xla_exp.npz"
CHUNK = 1 << 24
SRC = """#include <stddef.h>
#include <xmmintrin.h>
#include "tp_xla_math.h"
#define RUN(f) void run_##f(const float *x, float *y, size_t n, int ftz) { \\
    unsigned int old = _mm_getcsr(); size_t i; \\
    if (ftz) _mm_setcsr(old | 0x8040); \\
    for (i = 0; i < n; i++) y[i] = tp_xla_##f##_f32(x[i]); \\
    _mm_setcsr(old); }
RUN(exp) RUN(tanh) RUN(logistic)
"""


def main(argv) -> int:
    names = argv or ["exp", "tanh", "logistic"]
    with np.load(DATA) as f:
        want = {n: str(f["sha256_" + n]) for n in names if "sha256_" + n in f.files}
    missing = set(names) - set(want)
    if missing:
        print(f"no checksum recorded for {sorted(missing)}: run record_xla_exp.py --full")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        src, lib_path = Path(tmp) / "full.c", Path(tmp) / "full.so"
        src.write_text(SRC)
        subprocess.run(["gcc", "-std=c99", "-O3", "-march=native", "-fno-math-errno",
                        "-fno-trapping-math", "-fPIC", "-shared", "-I", str(ROOT / "runtime"),
                        str(src), "-o", str(lib_path), "-lm"], check=True)
        lib = ctypes.CDLL(str(lib_path))
        ok = True
        for name in names:
            fn = getattr(lib, "run_" + name)
            hashes = [hashlib.sha256(), hashlib.sha256()]
            y = np.empty(CHUNK, np.float32)
            for k in range(2**32 // CHUNK):
                x = np.arange(k * CHUNK, (k + 1) * CHUNK, dtype=np.uint64).astype(np.uint32)
                for ftz, h in enumerate(hashes):
                    fn(x.ctypes.data_as(ctypes.c_void_p), y.ctypes.data_as(ctypes.c_void_p),
                       ctypes.c_size_t(CHUNK), ftz)
                    h.update(y.tobytes())
            for ftz, h in enumerate(hashes):
                same = h.hexdigest() == want[name]
                ok &= same
                print(f"{name} ftz={ftz}: {'matches JAX' if same else 'DIFFERS from JAX'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
