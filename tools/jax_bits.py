"""Shared by the recording scripts that keep JAX's results as bits: each case run eagerly
and under ``jax.jit``, with ``jax_enable_x64`` on."""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def record_bits(out: Path, cases) -> None:
    """``cases(jax)`` yields ``(key, fn, x)``; writes ``{key/eager, key/jit: {dtype,
    bits}}`` to ``out``. ``tests/`` is importable from ``cases``."""
    import jax
    jax.config.update("jax_enable_x64", True)
    import numpy as np
    sys.path.insert(0, str(ROOT / "tests"))
    data = {}
    for key, fn, x in cases(jax):
        for how, f in (("eager", fn), ("jit", jax.jit(fn))):
            r = np.asarray(f(x))
            data[f"{key}/{how}"] = {
                "dtype": str(r.dtype),
                "bits": r.view(f"u{r.dtype.itemsize}").reshape(-1).tolist()}
    out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {out} ({len(data)} results)")
