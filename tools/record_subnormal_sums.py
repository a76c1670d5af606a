"""Record JAX 0.10.2's sums, products, means and cumulative sums/products of operands
holding subnormals (eager and jit), as bits, into tests/data/subnormal_sums.json. Run
with the scratch JAX interpreter:

    $JAX_PYTHON tools/record_subnormal_sums.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "subnormal_sums.json"


def main() -> None:
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import numpy as np
    sys.path.insert(0, str(ROOT / "tests"))
    from subnormal_sum_cases import all_cases
    data = {}
    for key, fn, x in all_cases(jax.lax, jnp):
        for how, f in (("eager", fn), ("jit", jax.jit(fn))):
            r = np.asarray(f(x))
            data[f"{key}/{how}"] = {
                "dtype": str(r.dtype),
                "bits": r.view(f"u{r.dtype.itemsize}").reshape(-1).tolist()}
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(data)} results)")


if __name__ == "__main__":
    main()
