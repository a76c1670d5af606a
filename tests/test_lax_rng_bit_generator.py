"""``lax.rng_bit_generator`` and ``lax.RandomAlgorithm`` (``lax/rng_bits.py``,
``codegen/rng_kernels.py``, ``runtime/tp_philox.h``).

Reference: JAX 0.10.2's outputs on the CPU (``tests/data/rng_bit_generator.json``,
written by ``tools/record_rng_bit_generator.py``): new keys and bits, bit for bit, for
every algorithm, dtype and several shapes, eagerly and under ``jit`` (the cases sharing
a key compiled as one program), the ``vmap`` (JAX's rule: the first key draws for the
batch), jaxpr text, and errors word for word. Independently: Philox-4x32's published
known-answer vectors (Salmon et al., Random123 ``kat_vectors``).
"""
from __future__ import annotations

import json
import pathlib
import re
from collections import defaultdict

import numpy as np
import pytest

import transpile
from transpile import lax
from transpile.lax.rng_bits import philox4x32
from linalg_checks import x64_mode

DATA = json.loads((pathlib.Path(__file__).parent / "data" /
                   "rng_bit_generator.json").read_text())
CASES = DATA["cases"]


def _draw(c):
    return lambda k: lax.rng_bit_generator(
        k, tuple(c["shape"]), dtype=np.dtype(c["dtype"]),
        algorithm=getattr(lax.RandomAlgorithm, c["algorithm"]))


def _check(c, new_key, bits):
    assert np.asarray(new_key).dtype.name == c["key_dtype"]
    assert np.asarray(new_key).tolist() == c["new_key"]
    bits = np.asarray(bits)
    assert bits.dtype.name == c["bits_dtype"] and bits.shape == tuple(c["shape"])
    assert bits.ravel().tolist() == c["bits"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_eager(name):
    c = CASES[name]
    with x64_mode(c["x64"]):
        _check(c, *_draw(c)(np.array(c["key"], c["key_dtype"])))


def _groups():
    groups = defaultdict(list)
    for name, c in CASES.items():
        groups[(tuple(c["key"]), c["key_dtype"], c["x64"])].append(name)
    return sorted(groups.items())


@pytest.mark.parametrize("group", _groups(), ids=lambda g: f"{g[0][1]}-{len(g[1])}")
def test_jit_matches_jax_bit_for_bit(group):
    (key, key_dtype, x64), names = group
    with x64_mode(x64):
        outs = transpile.jit(lambda k: [_draw(CASES[n])(k) for n in names])(
            np.array(key, key_dtype))
    for name, (new_key, bits) in zip(names, outs, strict=True):
        _check(CASES[name], new_key, bits)


@pytest.mark.parametrize("jit", [False, True])
def test_vmap_draws_from_the_first_key(jit):
    v = DATA["vmap"]
    fn = transpile.vmap(lambda k: lax.rng_bit_generator(k, (2, 3)))
    new_keys, bits = (transpile.jit(fn) if jit else fn)(np.array(v["keys"], np.uint32))
    assert np.asarray(new_keys).tolist() == v["new_keys"]
    assert np.asarray(bits).tolist() == v["bits"]


def test_jaxpr_text():
    key = np.array([1, 2, 3, 4], np.uint32)
    assert str(transpile.make_jaxpr(lambda k: lax.rng_bit_generator(
        k, (3,), dtype=np.uint8, algorithm=lax.RandomAlgorithm.RNG_PHILOX))(key)) == \
        DATA["jaxpr"]["philox_uint8"]
    assert str(transpile.make_jaxpr(lambda k: lax.rng_bit_generator(k, (2, 3)))(key)) == \
        DATA["jaxpr"]["default"]


def test_random_algorithm_enum():
    assert [(a.name, int(a)) for a in lax.RandomAlgorithm] == [
        ("RNG_DEFAULT", 0), ("RNG_THREE_FRY", 1), ("RNG_PHILOX", 2)]


ERRORS = {
    "dtype_int32": lambda k: lax.rng_bit_generator(k, (3,), dtype=np.int32),
    "dtype_float32": lambda k: lax.rng_bit_generator(k, (3,), dtype=np.float32),
    "key_int32": lambda k: lax.rng_bit_generator(k.astype(np.int32), (3,)),
    "key_short": lambda k: lax.rng_bit_generator(k[:2], (3,)),
    "key_float": lambda k: lax.rng_bit_generator(k.astype(np.float32), (3,)),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors(name):
    rec = DATA["errors"][name]
    exc = {"TypeError": TypeError, "AssertionError": AssertionError}[rec["error"]]
    with pytest.raises(exc, match="^" + re.escape(rec["message"]) + "$"):
        ERRORS[name](np.array([1, 2, 3, 4], np.uint32))


def test_uint64_without_x64_is_truncated_with_jaxs_warning():
    with pytest.warns(UserWarning, match="uint64 requested in rng_bit_generator is not "
                                         "available"):
        _, bits = lax.rng_bit_generator(np.array([1, 2, 3, 4], np.uint32), (3,),
                                        dtype=np.uint64)
    assert bits.dtype == np.uint32


@pytest.mark.parametrize("counter, key, want", [
    # Random123's kat_vectors for philox4x32 with 10 rounds
    ([0, 0, 0, 0], [0, 0], [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
    ([0xFFFFFFFF] * 4, [0xFFFFFFFF] * 2, [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
    ([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0],
     [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]),
])
def test_philox_known_answers(counter, key, want):
    got = philox4x32([np.array([w], np.uint32) for w in counter], *key)
    assert [int(g[0]) for g in got] == want


def test_jvp_has_zero_tangents():
    key = np.array([1, 2, 3, 4], np.uint32)
    primal, tangent = transpile.jvp(lambda k: lax.rng_bit_generator(k, (3,)), (key,),
                                    (np.zeros(4, transpile.dtypes.float0),))
    assert np.asarray(primal[0]).tolist() == [1, 2, 4, 4]
    assert [np.asarray(t).dtype for t in tangent] == [transpile.dtypes.float0] * 2


def test_cuda_refuses_it():
    lowered = transpile.jit(lambda k: lax.rng_bit_generator(k, (3,)), backend="cuda")
    with pytest.raises(NotImplementedError, match="CUDA backend has no kernel for "
                                                  "rng_bit_generator"):
        lowered.lower(np.array([1, 2, 3, 4], np.uint32))
