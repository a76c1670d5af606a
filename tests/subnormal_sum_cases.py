"""Sums, products and their cumulative forms of operands holding subnormals, or whose
partial results land in the subnormal range, written once for JAX and transpile
(``tools/record_subnormal_sums.py`` records JAX 0.10.2's answers;
``tests/test_subnormal_sums.py`` checks ours). XLA:CPU reads float32/float64 subnormal
operands as zeros of their sign and flushes subnormal results to zeros of their sign
(bfloat16 goes through float32: its subnormals are float32's)."""
import ml_dtypes
import numpy as np


def _sum_rows(t):
    """Rows (in units of the smallest normal ``t``) each showing one effect."""
    return [
        [t / 4, t / 4, 0.0, 0.0, 0.0],          # subnormal operands read as 0
        [1.5 * t, -t, 0.0, 0.0, 0.0],           # a subnormal partial sum, flushed
        [-1.5 * t, t, 0.0, 0.0, 0.0],           # ... to -0
        [t, t / 2, -t / 2, t, 0.0],             # subnormals between normals
        [1.0, t / 4, -1.0, t / 8, 0.0],         # cancelling normals, subnormals after
        [3.0 * t, -t, t / 2, -t, 0.5 * t],      # normals and subnormals alternating
        [-t / 4, -t / 8, -0.0, -0.0, -t],       # negative subnormals and zeros
    ]


def _prod_rows(t):
    return [
        [t / 4, 1e30, 1.0, 1.0, 1.0],           # a subnormal operand reads as 0
        [-t / 4, 1e30, 1.0, 1.0, -1.0],         # ... of its sign
        [1.5 * t, 0.5, 1.0, 1.0, 1.0],          # a subnormal product, flushed
        [-1.5 * t, 0.5, 1.0, 1.0, 1.0],         # ... to -0
        [2.0, 4.0, 0.5, 0.25, 1.0],             # no subnormal anywhere
    ]


def operands(kind: str):
    """dtype name -> a 2-D operand: ``kind`` "sum" or "prod"."""
    out = {}
    for dt in (np.float32, np.float64, ml_dtypes.bfloat16):
        t = float(ml_dtypes.finfo(dt).tiny)
        rows = _sum_rows(t) if kind == "sum" else _prod_rows(t)
        if dt == np.float64 and kind == "prod":
            rows = [[1e300 if v == 1e30 else v for v in r] for r in rows]
        out[np.dtype(dt).name] = np.array(rows, np.float64).astype(dt)
    return out


def sum_cases(lax, jnp):
    """name -> fn(x) over the "sum" operands."""
    return {
        "reduce_sum": lambda x: lax.reduce_sum(x, (1,)),
        "reduce_sum_cols": lambda x: lax.reduce_sum(x, (0,)),
        "cumsum": lambda x: lax.cumsum(x, axis=1),
        "cumsum_reverse": lambda x: lax.cumsum(x, axis=1, reverse=True),
        "jnp_sum": lambda x: jnp.sum(x, axis=1),
        "jnp_mean": lambda x: jnp.mean(x, axis=1),
        "jnp_cumsum": lambda x: jnp.cumsum(x, axis=1),
        "cumlogsumexp": lambda x: lax.cumlogsumexp(x, axis=1),
    }


def prod_cases(lax, jnp):
    """name -> fn(x) over the "prod" operands."""
    return {
        "reduce_prod": lambda x: lax.reduce_prod(x, (1,)),
        "cumprod": lambda x: lax.cumprod(x, axis=1),
        "cumprod_reverse": lambda x: lax.cumprod(x, axis=1, reverse=True),
        "jnp_prod": lambda x: jnp.prod(x, axis=1),
    }


def all_cases(lax, jnp):
    """(key, fn, operand) for every case: key is ``name/dtype``."""
    out = []
    for kind, cases in (("sum", sum_cases), ("prod", prod_cases)):
        for dname, x in operands(kind).items():
            for name, fn in cases(lax, jnp).items():
                out.append((f"{name}/{dname}", fn, x))
    return out
