"""bfloat16 against JAX 0.10.2's recorded answers (``tests/data/bfloat16.json``).

Values are compared bit for bit (uint16 patterns), eagerly and under ``jit``; each
table is jitted as one program (one compile) returning every case's result. The few
elements where XLA expands an operation in bfloat16 in a way not matched yet are listed
in ``KNOWN_GAPS`` (element indices of the recorded operands) and left out of the
comparison; the test fails if such an element starts to match, so the list stays exact.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile import dtypes

DATA = json.loads((Path(__file__).parent / "data" / "bfloat16.json").read_text())
BF16 = np.dtype(jnp.bfloat16)
MODES = ["eager", "jit"]

#: (table, name, mode) -> element indices not matched yet: float16 erf_inv of NaN, whose NaN XLA takes from either operand of its last
#: product depending on the element's place in the vector (observed: 0x7fc00000 or
#: 0x7fffffff in float32 for one operand NaN).
KNOWN_GAPS = {
    ("f16_unary", "erf_inv", "eager"): {24}, ("f16_unary", "erf_inv", "jit"): {24},
}

#: Results whose summation order (or accumulation dtype) differs from XLA's: compared to
#: the recording within a tolerance (relative, absolute) instead of bit for bit.
#: The float32 dot differs in the order of its float32 sums.
APPROXIMATE = {"pref_f32": (1e-6, 1e-6)}


def _values(bits: list, dtype: str) -> np.ndarray:
    raw = np.asarray(bits, np.uint32 if dtype == "float32" else np.uint16)
    return raw.view(np.float32 if dtype == "float32" else BF16).astype(np.float64)


def bf(bits) -> jax.Array:
    return jnp.asarray(np.asarray(bits, np.uint16).view(BF16))


def bits_of(r) -> list:
    a = np.asarray(r)
    if a.dtype in (BF16, np.float16):
        return a.view(np.uint16).ravel().tolist()
    if a.dtype == np.float32:
        return a.view(np.uint32).ravel().tolist()
    return a.ravel().tolist()


def run(fns: dict, args, mode: str) -> dict:
    """Every function of ``fns`` on ``args``; under jit, all of them in one program."""
    names = list(fns)
    if mode == "eager":
        return {n: fns[n](*args) for n in names}
    outs = jax.jit(lambda *a: tuple(fns[n](*a) for n in names))(*args)
    return dict(zip(names, outs, strict=True))


def check(table: str, name: str, mode: str, got, want: dict) -> None:
    assert str(got.dtype) == want["dtype"], name
    assert bool(got.weak_type) == want["weak_type"], name
    assert list(got.shape) == want["shape"], name
    tol = APPROXIMATE.get(name.rpartition("_")[0] or name, APPROXIMATE.get(name))
    if tol is not None:
        np.testing.assert_allclose(np.asarray(got).astype(np.float64).ravel(),
                                   _values(want["bits"], want["dtype"]), rtol=tol[0],
                                   atol=tol[1], err_msg=f"{table}/{name} ({mode})")
        return
    g, w = bits_of(got), want["bits"]
    gaps = KNOWN_GAPS.get((table, name, mode), set())
    wrong = {i for i, (a, b) in enumerate(zip(g, w, strict=True)) if a != b}
    assert wrong == gaps, f"{table}/{name} ({mode}): differs at {sorted(wrong)}, " \
                          f"known gaps {sorted(gaps)}"


def _unary_fns() -> dict:
    fns = {n: getattr(lax, n) for n in DATA["unary"] if not n.startswith("integer_pow")}
    fns["integer_pow_3"] = lambda a: lax.integer_pow(a, 3)
    fns["integer_pow_-2"] = lambda a: lax.integer_pow(a, -2)
    return fns


@pytest.mark.parametrize("mode", MODES)
def test_unary(mode):
    got = run(_unary_fns(), (bf(DATA["values"]),), mode)
    for name, want in DATA["unary"].items():
        check("unary", name, mode, got[name], want)


@pytest.mark.parametrize("mode", MODES)
def test_binary(mode):
    fns = {n: getattr(lax, n) for n in DATA["binary"]}
    got = run(fns, (bf(DATA["values"]), bf(DATA["values2"])), mode)
    for name, want in DATA["binary"].items():
        check("binary", name, mode, got[name], want)


def _f16(bits) -> jax.Array:
    return jnp.asarray(np.asarray(bits, np.uint16).view(np.float16))


@pytest.mark.parametrize("mode", MODES)
def test_float16_unary_and_binary(mode):
    # float16, computed in float32 by XLA:CPU like bfloat16, against the same tables
    f16 = DATA["float16"]
    got = run(_unary_fns(), (_f16(f16["values"]),), mode)
    for name, want in f16["unary"].items():
        check("f16_unary", name, mode, got[name], want)
    fns = {n: getattr(lax, n) for n in f16["binary"]}
    got = run(fns, (_f16(f16["values"]), _f16(f16["values2"])), mode)
    for name, want in f16["binary"].items():
        check("f16_binary", name, mode, got[name], want)


CHAINS = {
    "exp_mul_add": lambda a, b, c: jnp.exp(a) * b + c,
    "sin_div": lambda a, b, c: jnp.sin(a) / (b + 1.0) - c * c,
    "weak_scalars": lambda a, b, c: (a * 0.1 + 3) * b - 2.5 * c,
}


@pytest.mark.parametrize("mode", MODES)
def test_fused_chains_round_every_step(mode):
    got = run(CHAINS, [bf(b) for b in DATA["chain_operands"]], mode)
    for name, want in DATA["chains"].items():
        check("chains", name, mode, got[name], want)


def _reduction_fns() -> dict:
    fns = {}
    for key in DATA["reductions"]:
        name, _, axis = key.rpartition("_")
        ax = None if axis == "None" else int(axis)
        if name == "jnp_cumsum":
            fns[key] = lambda a, ax=ax: jnp.cumsum(a, axis=ax)
        elif name.startswith("cum"):
            fns[key] = lambda a, n=name, ax=ax: getattr(lax, n)(a, axis=ax)
        else:
            fns[key] = lambda a, n=name, ax=ax: getattr(jnp, n)(a, axis=ax)
    return fns


@pytest.mark.parametrize("mode", MODES)
def test_reductions_and_cumulative(mode):
    m = bf(DATA["matrix"]).reshape(4, 6)
    got = run(_reduction_fns(), (m,), mode)
    for name, want in DATA["reductions"].items():
        check("reductions", name, mode, got[name], want)
    v = bf(DATA["long_vector"])
    got = run({"sum": jnp.sum, "cumsum": jnp.cumsum}, (v,), mode)
    check("long", "sum", mode, got["sum"], DATA["long_sum"])
    check("long", "cumsum", mode, got["cumsum"], DATA["long_cumsum"])


#: Scans longer than XLA's block of 16 (each block, then the blocks' totals, recursively),
#: forward and reverse, and means/variances (accumulated in float32, as the jaxpr says).
SCANS = {
    "cumsum_wide_1": ("wide", lambda a: lax.cumsum(a, axis=1)),
    "cumsum_wide_1_rev": ("wide", lambda a: lax.cumsum(a, axis=1, reverse=True)),
    "cumsum_tall_0": ("tall", lambda a: lax.cumsum(a, axis=0)),
    "cumsum_tall_0_rev": ("tall", lambda a: lax.cumsum(a, axis=0, reverse=True)),
    "cumsum_17": ("wide", lambda a: lax.cumsum(a[0, :17], axis=0)),
    "cumsum_16": ("wide", lambda a: lax.cumsum(a[0, :16], axis=0)),
    "cumprod_near1_1": ("near1", lambda a: lax.cumprod(a, axis=1)),
    "cumprod_near1_1_rev": ("near1", lambda a: lax.cumprod(a, axis=1, reverse=True)),
    "jnp_cumsum_tall": ("tall", jnp.cumsum),
    "mean_wide_1": ("wide", lambda a: jnp.mean(a, axis=1)),
    "mean_tall_0": ("tall", lambda a: jnp.mean(a, axis=0)),
    "mean_tall": ("tall", jnp.mean),
    "var_tall_0": ("tall", lambda a: jnp.var(a, axis=0)),
}
SCAN_SHAPES = {"wide": (3, 40), "near1": (3, 40), "tall": (300, 2)}


@pytest.mark.parametrize("mode", MODES)
def test_long_scans_and_means(mode):
    ops = {k: bf(v).reshape(SCAN_SHAPES[k]) for k, v in DATA["scan_operands"].items()}
    fns = {name: (lambda w, t, n, f=f, key=key: f({"wide": w, "tall": t, "near1": n}[key]))
           for name, (key, f) in SCANS.items()}
    got = run(fns, (ops["wide"], ops["tall"], ops["near1"]), mode)
    for name, want in DATA["scans"].items():
        check("scans", name, mode, got[name], want)


def test_mean_jaxpr_accumulates_in_float32():
    wide = bf(DATA["scan_operands"]["wide"]).reshape(3, 40)
    assert str(jax.make_jaxpr(lambda u: jnp.mean(u, axis=1))(wide)) == DATA["jaxpr_mean"]


@pytest.mark.parametrize("mode", MODES)
def test_sort(mode):
    got = run({"sort": jnp.sort, "argsort": jnp.argsort}, (bf(DATA["sort_operand"]),), mode)
    for name, want in DATA["sort"].items():
        check("sort", name, mode, got[name], want)


@pytest.mark.parametrize("mode", MODES)
def test_dot_accumulates_in_float32(mode):
    a = bf(DATA["dot_operands"][0]).reshape(3, 40)
    b = bf(DATA["dot_operands"][1]).reshape(40, 5)
    fns = {"matmul": jnp.matmul,
           "pref_f32": lambda u, v: lax.dot_general(u, v, (((1,), (0,)), ((), ())),
                                                    preferred_element_type=jnp.float32),
           "vecdot": lambda u, v: jnp.dot(u[0], u[1])}
    got = run(fns, (a, b), mode)
    got["vecdot"] = run({"v": lambda u: jnp.dot(u[0], u[1])}, (a,), mode)["v"]
    for name, want in DATA["dot"].items():
        check("dot", name, mode, got[name], want)


def _convert_cases() -> dict:
    x = bf(DATA["values"])
    f32 = jnp.asarray(np.asarray(DATA["convert_operands"]["f32"], np.uint32).view(np.float32))
    ints = jnp.asarray(np.array([1, 257, 259, -65535, 2 ** 30 + 1, 7], np.int32))
    i16 = jnp.asarray(np.array([0x3F80, -0x4080, 0x7FC1, 1, -1], np.int16))
    return {
        "f32_to_bf16": (lambda u: u.astype(jnp.bfloat16), f32),
        "bf16_to_f32": (lambda u: u.astype(jnp.float32), x),
        "bf16_to_f16": (lambda u: u.astype(jnp.float16), x),
        "f16_to_bf16": (lambda u: u.astype(jnp.bfloat16), x.astype(jnp.float16)),
        "bf16_to_i32": (lambda u: u.astype(jnp.int32), x),
        "bf16_to_u8": (lambda u: u.astype(jnp.uint8), x),
        "bf16_to_bool": (lambda u: u.astype(jnp.bool_), x),
        "i32_to_bf16": (lambda u: u.astype(jnp.bfloat16), ints),
        "bitcast_u16": (lambda u: lax.bitcast_convert_type(u, jnp.uint16), x),
        "bitcast_from_i16": (lambda u: lax.bitcast_convert_type(u, jnp.bfloat16), i16),
    }


@pytest.mark.parametrize("mode", MODES)
def test_convert_and_bitcast(mode):
    cases = _convert_cases()
    names = list(cases)
    args = [cases[n][1] for n in names]
    fns = {n: (lambda *a, i=i, n=n: cases[n][0](a[i])) for i, n in enumerate(names)}
    got = run(fns, args, mode)
    for name in names:
        check("convert", name, mode, got[name], DATA["convert"][name])


def test_float64_to_bfloat16_rounds_through_float32():
    with jax.enable_x64(True):
        x = jnp.asarray(np.asarray(DATA["convert_operands"]["f64"], np.float64))
        for mode in MODES:
            got = run({"c": lambda u: u.astype(jnp.bfloat16)}, (x,), mode)["c"]
            check("convert", "f64_to_bf16", mode, got, DATA["convert"]["f64_to_bf16"])


@pytest.mark.parametrize("mode", MODES)
def test_random_samplers(mode):
    key = jax.random.key(0)
    fns = {"uniform": lambda k: jax.random.uniform(k, (12,), jnp.bfloat16),
           "uniform_range": lambda k: jax.random.uniform(k, (12,), jnp.bfloat16, -2.0, 3.0),
           "normal": lambda k: jax.random.normal(k, (12,), jnp.bfloat16)}
    got = run(fns, (key,), mode)
    for name, want in DATA["random"].items():
        check("random", name, mode, got[name], want)


@pytest.mark.parametrize("mode", MODES)
def test_grad(mode):
    g = jax.grad(lambda u: jnp.sum(jnp.sin(u) * u))
    got = run({"g": g}, (bf(DATA["grad_operand"]),), mode)["g"]
    check("grad", "grad", mode, got, DATA["grad"])


def test_finfo_and_dtype_queries():
    fi = jnp.finfo(jnp.bfloat16)
    for name, want in DATA["finfo"].items():
        got = getattr(fi, name)
        assert (str(got) if name == "dtype" else float(got)) == want, name
    assert jnp.finfo("bfloat16").eps == DATA["finfo"]["eps"]
    assert jnp.finfo(jnp.ones(2, jnp.bfloat16)).bits == 16
    assert jnp.issubdtype(jnp.bfloat16, jnp.floating)
    assert jnp.issubdtype(jnp.bfloat16, jnp.inexact)
    assert not jnp.issubdtype(jnp.bfloat16, jnp.integer)
    assert jnp.isdtype(jnp.bfloat16, "real floating")
    assert jnp.promote_types(jnp.bfloat16, jnp.float16) == np.float32
    assert dtypes.short_dtype_name(BF16) == "bf16"


def test_scalar_type_array_and_astype():
    s = jnp.bfloat16(3.3)
    assert s.dtype == BF16 and not s.weak_type and s.shape == ()
    assert bits_of(s) == [0x4053]  # 3.3 rounded to nearest even: 3.296875
    x = jnp.array([1.5, 2.25], dtype=jnp.bfloat16)
    assert repr(x) == "Array([1.5, 2.25], dtype=bfloat16)"
    assert (x * 2.0).dtype == BF16 and (x * 2).dtype == BF16
    assert x.astype(jnp.float32).dtype == np.float32
    assert jnp.zeros(2, jnp.bfloat16).dtype == BF16
    assert jnp.arange(3, dtype=jnp.bfloat16).dtype == BF16


def test_jaxpr_text():
    x = bf(DATA["values"][:2])
    assert str(jax.make_jaxpr(lambda u: jnp.sin(u) * 2.0 + 1)(x)) == DATA["jaxpr"]
