"""Record JAX 0.10.2's ``lax.rng_bit_generator`` on the CPU into
``tests/data/rng_bit_generator.json``: new keys and bits for each algorithm
(``RNG_DEFAULT``, ``RNG_THREE_FRY``, ``RNG_PHILOX``), output dtype (uint8/16/32/64) and
a few shapes (scalar, odd, even, empty, counters that carry), ``uint64[2]`` keys, the
``vmap`` of it, jaxpr text, and the errors (class and message).

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_rng_bit_generator.py
"""
from __future__ import annotations

import json
from pathlib import Path

import jax
import numpy as np
from jax import lax

ROOT = Path(__file__).resolve().parent.parent
K = [1, 2, 3, 4]
CARRY = [0x89ABCDEF, 0x01234567, 0xFFFFFFFE, 0xFFFFFFFF]  # the counter wraps

#: name -> (key, shape, dtype, algorithm, x64)
CASES = {}
for alg in ("RNG_DEFAULT", "RNG_THREE_FRY", "RNG_PHILOX"):
    for dt in ("uint8", "uint16", "uint32", "uint64"):
        for shape in [(), (5,), (2, 3), (3, 5, 2)]:
            CASES[f"{alg}_{dt}_{'x'.join(map(str, shape)) or 'scalar'}"] = (
                K, shape, dt, alg, dt == "uint64")
    CASES[f"{alg}_carry"] = (CARRY, (7,), "uint32", alg, False)
    CASES[f"{alg}_carry64"] = (CARRY, (3,), "uint64", alg, True)
    CASES[f"{alg}_empty"] = (K, (2, 0), "uint32", alg, False)
    CASES[f"{alg}_odd"] = (K, (3, 5, 7), "uint32", alg, False)
    CASES[f"{alg}_key64"] = ("u64", (4,), "uint32", alg, True)


def _key(spec):
    if spec == "u64":
        return np.array([0x0123456789ABCDEF, 0xFFFFFFFFFFFFFFFE], np.uint64)
    return np.array(spec, np.uint32)


def record(key, shape, dtype, alg, x64) -> dict:
    jax.config.update("jax_enable_x64", x64)
    k = _key(key)
    new, bits = lax.rng_bit_generator(k, shape, dtype=np.dtype(dtype),
                                      algorithm=getattr(lax.RandomAlgorithm, alg))
    return {"key": k.tolist(), "key_dtype": k.dtype.name, "shape": list(shape),
            "dtype": dtype, "algorithm": alg, "x64": x64,
            "new_key": np.asarray(new).tolist(), "bits": np.asarray(bits).ravel().tolist(),
            "bits_dtype": np.asarray(bits).dtype.name}


def errors() -> dict:
    jax.config.update("jax_enable_x64", False)
    k = np.array(K, np.uint32)
    out = {}
    for name, fn in {
            "dtype_int32": lambda: lax.rng_bit_generator(k, (3,), dtype=np.int32),
            "dtype_float32": lambda: lax.rng_bit_generator(k, (3,), dtype=np.float32),
            "key_int32": lambda: lax.rng_bit_generator(k.astype(np.int32), (3,)),
            "key_short": lambda: lax.rng_bit_generator(k[:2], (3,)),
            "key_float": lambda: lax.rng_bit_generator(k.astype(np.float32), (3,)),
    }.items():
        try:
            fn()
            out[name] = {"error": None}
        except Exception as e:  # noqa: BLE001 (recording what JAX raises)
            out[name] = {"error": type(e).__name__, "message": str(e)}
    return out


def main() -> None:
    jax.config.update("jax_enable_x64", False)
    keys = np.array([K, [5, 6, 7, 8], [9, 10, 11, 12]], np.uint32)
    vnew, vbits = jax.vmap(lambda k: lax.rng_bit_generator(k, (2, 3)))(keys)
    jaxpr = str(jax.make_jaxpr(lambda k: lax.rng_bit_generator(
        k, (3,), dtype=np.uint8, algorithm=lax.RandomAlgorithm.RNG_PHILOX))(keys[0]))
    jaxpr_default = str(jax.make_jaxpr(lambda k: lax.rng_bit_generator(k, (2, 3)))(keys[0]))
    data = {"jax_version": jax.__version__,
            "cases": {n: record(*spec) for n, spec in CASES.items()},
            "vmap": {"keys": keys.tolist(), "new_keys": np.asarray(vnew).tolist(),
                     "bits": np.asarray(vbits).tolist()},
            "jaxpr": {"philox_uint8": jaxpr, "default": jaxpr_default},
            "errors": errors()}
    out = ROOT / "tests" / "data" / "rng_bit_generator.json"
    out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
