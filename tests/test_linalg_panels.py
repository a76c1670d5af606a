"""The column panels of ``runtime/tp_panels.h`` inside the real ``svd`` and ``eigh``
kernels: reflector products (svd's U and V, eigh's Q) accumulated by blocks of columns,
on one or two threads.

Sizes are past one block (256 bytes: 32 float64 or 64 float32 columns), with a partial
last block, tall and wide, reduced and full. Independent references: the residuals and
singular values / eigenvalues against NumPy in float64; the compiled kernel must agree
with the eager NumPy rule (which applies whole reflectors, one at a time) bit for bit,
and its bits must not depend on the number of threads.
"""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import transpile
from transpile import lax

from linalg_checks import same_bits, x64_mode

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: (rows, columns, dtype, full_matrices)
SVD_CASES = [(100, 100, np.float32, True), (130, 70, np.float64, True),
             (70, 130, np.float32, False), (96, 96, np.float64, False)]


def _ulp_bound(dtype, n):
    return 4 * np.finfo(dtype).eps * n


@pytest.mark.parametrize("m,n,dtype,full", SVD_CASES,
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_svd_panels_match_the_eager_rule(m, n, dtype, full):
    a = np.random.default_rng(m * n).standard_normal((m, n)).astype(dtype)
    with x64_mode(dtype == np.float64):
        u, s, vt = (np.asarray(t) for t in lax.linalg.svd(a, full_matrices=full))
        uc, sc, vtc = (np.asarray(t) for t in transpile.jit(
            lambda x: lax.linalg.svd(x, full_matrices=full))(a))
    for got, want in ((uc, u), (sc, s), (vtc, vt)):
        same_bits(got, want)
    k = min(m, n)
    bound = _ulp_bound(dtype, max(m, n))
    u64, vt64 = u.astype(np.float64), vt.astype(np.float64)
    recon = (u64[:, :k] * s.astype(np.float64)) @ vt64[:k]
    scale = np.abs(a).max()
    assert np.abs(recon - a).max() <= bound * scale
    assert np.abs(u64.T @ u64 - np.eye(u.shape[1])).max() <= bound
    assert np.abs(vt64 @ vt64.T - np.eye(vt.shape[0])).max() <= bound
    np.testing.assert_allclose(s, np.linalg.svd(a.astype(np.float64), compute_uv=False),
                               rtol=0, atol=bound * scale)


@pytest.mark.parametrize("n,dtype", [(100, np.float32), (97, np.float64)],
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_eigh_panels_match_the_eager_rule(n, dtype):
    m = np.random.default_rng(n).standard_normal((n, n))
    a = (m + m.T).astype(dtype)
    with x64_mode(dtype == np.float64):
        v, w = (np.asarray(t) for t in lax.linalg.eigh(a))
        vc, wc = (np.asarray(t) for t in transpile.jit(lax.linalg.eigh)(a))
    same_bits(vc, v)
    same_bits(wc, w)
    bound = _ulp_bound(dtype, n)
    a64, v64 = a.astype(np.float64), v.astype(np.float64)
    norm = np.abs(a).max() * n
    assert np.abs(a64 @ v64 - v64 * w.astype(np.float64)).max() <= 2 * bound * norm
    assert np.abs(v64.T @ v64 - np.eye(n)).max() <= 2 * bound
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a64), rtol=0, atol=2 * bound * norm)


# Big enough that the accumulations (rows^2 cols >= 2 TP_HACC_PAR_MIN) take two threads
# when the width is 2.
_WIDTH_PROGRAM = """
import numpy as np, transpile
from transpile import lax
from transpile.config import enable_x64
r = np.random.default_rng(5)
a = r.standard_normal((440, 420))
s = r.standard_normal((420, 420)).astype(np.float32)
with enable_x64(True):
    outs = list(transpile.jit(lambda x: lax.linalg.svd(x))(a))
outs += list(transpile.jit(lambda x: lax.linalg.eigh(x + x.T))(s))
print("".join(np.asarray(o).tobytes().hex() for o in outs))
"""


def _program_output(width: str) -> str:
    env = {**os.environ, "TRANSPILE_PAR_WIDTH": width, "OMP_NUM_THREADS": "2",
           "PYTHONPATH": REPO}
    res = subprocess.run([sys.executable, "-c", _WIDTH_PROGRAM], env=env,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_bits_do_not_depend_on_the_thread_count():
    one, two = _program_output("1"), _program_output("2")
    assert len(one) > 1000000 and one == two
