"""Record JAX 0.10.2's extrema of operands holding subnormals (eager and jit), as bits,
into tests/data/subnormal_extrema.json. Run with the scratch JAX interpreter:

    $JAX_PYTHON tools/record_subnormal_extrema.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "subnormal_extrema.json"


def main() -> None:
    import jax
    jax.config.update("jax_enable_x64", True)
    import numpy as np
    sys.path.insert(0, str(ROOT / "tests"))
    from subnormal_extrema_cases import cases, operands
    data = {}
    for dname, x in operands().items():
        for name, fn in cases(jax.lax).items():
            for how, f in (("eager", fn), ("jit", jax.jit(fn))):
                r = np.asarray(f(x))
                data[f"{name}/{dname}/{how}"] = {
                    "dtype": str(r.dtype),
                    "bits": r.view(f"u{r.dtype.itemsize}").reshape(-1).tolist()}
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(data)} results)")


if __name__ == "__main__":
    main()
