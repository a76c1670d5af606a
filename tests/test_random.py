"""transpile.random: keys, key arrays, samplers eager and compiled, statistics, errors.

Known answers recorded from JAX 0.10.2 are replayed by test_random_known_answers.py;
this file checks what holds by construction: the published vectors of
JAX_BEHAVIOUR.md section 8.5, the split/fold_in identities, compiled == eager bit for
bit for every sampler, sample statistics, key arrays through compiled structural ops
and control flow, and the errors.
"""
import math
import shutil
import subprocess

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax, random


def _data(x):
    """Key data of typed keys, the array otherwise, as NumPy."""
    if jnp.issubdtype(x.dtype, jax.dtypes.prng_key):
        return np.asarray(random.key_data(x))
    return np.asarray(x)


def _same_bits(a, b):
    assert np.shape(a) == np.shape(b), (np.shape(a), np.shape(b))
    a, b = _data(a), _data(b)
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, a.shape, b.dtype, b.shape)
    assert np.array_equal(a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8)), \
        (a.ravel()[:8], b.ravel()[:8])


# ---------------------------------------------------------------------------------------
# Keys

def test_published_key_vectors():
    # JAX_BEHAVIOUR.md 8.5 (JAX 0.10.2, x64 off)
    np.testing.assert_array_equal(random.PRNGKey(1234), np.array([0, 1234], np.uint32))
    np.testing.assert_array_equal(random.split(random.PRNGKey(1234)),
                                  [[1264997412, 2518116175], [2877103387, 1697627890]])
    np.testing.assert_array_equal(random.split(random.PRNGKey(0), 3)[2],
                                  [4146024105, 2718843009])
    np.testing.assert_array_equal(random.fold_in(random.PRNGKey(1234), 42),
                                  [4103214025, 3168155992])
    np.testing.assert_array_equal(random.bits(random.PRNGKey(0), (2, 3)),
                                  [[4070199207, 4202968722, 1427181096],
                                   [2012915765, 2447653815, 710830403]])
    k, sub = random.split(random.key(123))
    np.testing.assert_array_equal(random.key_data(k), [969380169, 3408994049])
    np.testing.assert_array_equal(random.categorical(sub, jnp.arange(9.), shape=(10,)),
                                  [8, 7, 8, 8, 7, 8, 8, 7, 8, 8])


@pytest.mark.parametrize("seed,x64,want", [
    (0, False, [0, 0]), (-1, False, [0, 4294967295]), (2**32 + 5, False, [0, 5]),
    (-1, True, [4294967295, 4294967295]), (2**32 + 5, True, [1, 5])])
def test_seed_words(seed, x64, want):
    with jax.enable_x64(x64):
        np.testing.assert_array_equal(random.PRNGKey(seed), np.array(want, np.uint32))
        np.testing.assert_array_equal(random.key_data(random.key(seed)), want)
        arg = np.int64(seed) if x64 else np.int64(seed).astype(np.int32)
        _same_bits(jax.jit(random.PRNGKey)(arg), np.array(want, np.uint32))


def test_seed_overflow_is_pythons_error():
    with pytest.raises(OverflowError, match="Python int too large to convert to C long"):
        random.PRNGKey(2**64)


@pytest.mark.parametrize("typed", [False, True])
def test_split_equals_fold_in_and_trees(typed):
    k = random.key(42) if typed else random.PRNGKey(42)
    ks = random.split(k, 10)
    for i in range(10):
        _same_bits(ks[i], random.fold_in(k, i))
    # a tree: splitting a split key is splitting its data
    sub = random.split(ks[3], (2, 3))
    assert _data(sub).shape == (2, 3, 2)
    _same_bits(sub[1, 2], random.fold_in(ks[3], 5))
    # bits are the xor of the split words
    b = np.asarray(random.bits(k, (10,)))
    d = _data(ks)
    np.testing.assert_array_equal(b, d[:, 0] ^ d[:, 1])


def test_typed_key_array_surface():
    k = random.key(0)
    assert str(k.dtype) == repr(k.dtype) == k.dtype.name == "key<fry>"
    assert jnp.issubdtype(k.dtype, jax.dtypes.prng_key)
    assert not jnp.issubdtype(jnp.float32, jax.dtypes.prng_key)
    assert random.key_impl(k) == "threefry2x32"
    assert repr(random.split(k)) == ("Array((2,), dtype=key<fry>) overlaying:\n"
                                     "[[1797259609 2579123966]\n [ 928981903 3453687069]]")
    assert repr(k) == "Array((), dtype=key<fry>) overlaying:\n[0 0]"
    ks = random.split(k, 4)
    assert ks.shape == (4,) and len(ks) == 4 and ks.ndim == 1
    assert [tuple(_data(x)) for x in ks] == [tuple(r) for r in _data(ks)]
    _same_bits(random.wrap_key_data(random.key_data(ks)), ks)
    _same_bits(random.clone(k), k)
    with pytest.raises(TypeError, match="cannot be converted to a NumPy array"):
        np.asarray(k)
    with pytest.raises(TypeError, match="key<fry>"):
        k + 1
    with pytest.raises(ValueError, match="accepts a single key, but was given a key array "
                                         r"of shape \(4,\) != \(\)"):
        random.normal(ks)


def test_key_jaxprs():
    text = str(jax.make_jaxpr(lambda k: tuple(random.split(k)))(random.key(0)))
    assert text == """{ lambda ; a:key<fry>[]. let
    b:key<fry>[2] = random_split[shape=(2,)] a
    c:key<fry>[1] = slice[limit_indices=(1,) start_indices=(0,) strides=(1,)] b
    d:key<fry>[] = squeeze[dimensions=(0,)] c
    e:key<fry>[1] = slice[limit_indices=(2,) start_indices=(1,) strides=(1,)] b
    f:key<fry>[] = squeeze[dimensions=(0,)] e
  in (d, f) }"""
    assert str(jax.make_jaxpr(random.PRNGKey)(1)) == """{ lambda ; a:i32[]. let
    b:key<fry>[] = random_seed[impl=fry] a
    c:u32[2] = random_unwrap b
  in (c,) }"""


# ---------------------------------------------------------------------------------------
# Samplers: compiled == eager, bit for bit

SAMPLERS = {
    "bits_u8": lambda k: random.bits(k, (7, 5), jnp.uint8),
    "bits_u16": lambda k: random.bits(k, (33,), jnp.uint16),
    "bits_u32": lambda k: random.bits(k, (1000,)),
    "uniform": lambda k: random.uniform(k, (999,)),
    "uniform_f16": lambda k: random.uniform(k, (64,), jnp.float16),
    "uniform_bounds": lambda k: random.uniform(k, (3, 300), minval=-2., maxval=5.),
    "uniform_array_bounds": lambda k: random.uniform(
        k, (4, 3), minval=jnp.array([0., 1., 2.]), maxval=jnp.array([1., 3., 9.])),
    "normal": lambda k: random.normal(k, (2000,)),
    "normal_scalar": lambda k: random.normal(k),
    # long enough for the two-stage blocked sampler loop, with a partial last block
    "normal_blocked": lambda k: random.normal(k, (5001,)),
    "gumbel_blocked": lambda k: random.gumbel(k, (3, 1500)),
    "uniform_log_blocked": lambda k: jnp.log(random.uniform(k, (4097,)) + 0.5) * 2.0,
    "truncated_normal": lambda k: random.truncated_normal(k, -1.5, 0.5, (500,)),
    "exponential": lambda k: random.exponential(k, (500,)),
    "gumbel": lambda k: random.gumbel(k, (500,)),
    "gumbel_high": lambda k: random.gumbel(k, (100,), mode="high"),
    "laplace": lambda k: random.laplace(k, (500,)),
    "logistic": lambda k: random.logistic(k, (500,)),
    "randint": lambda k: random.randint(k, (500,), -7, 93),
    "randint_full": lambda k: random.randint(k, (100,), -2**31, 2**31 - 1),
    "randint_u8": lambda k: random.randint(k, (100,), 3, 300, jnp.uint8),
    "randint_empty_range": lambda k: random.randint(k, (10,), 5, 5),
    "bernoulli": lambda k: random.bernoulli(k, 0.3, (500,)),
    "bernoulli_array_p": lambda k: random.bernoulli(k, jnp.linspace(0., 1., 11)),
    "bernoulli_high": lambda k: random.bernoulli(k, 1e-3, (100,), mode="high"),
    "categorical": lambda k: random.categorical(k, jnp.log(jnp.arange(1., 6.)), shape=(40,)),
    "categorical_axis0": lambda k: random.categorical(k, jnp.ones((4, 3)), axis=0),
    "permutation": lambda k: random.permutation(k, 50),
    "permutation_rows": lambda k: random.permutation(k, jnp.arange(12.).reshape(4, 3)),
    "permutation_independent": lambda k: random.permutation(
        k, jnp.arange(12).reshape(3, 4), axis=1, independent=True),
    "choice": lambda k: random.choice(k, 10, (6,)),
    "choice_noreplace": lambda k: random.choice(k, jnp.arange(20.), (5,), replace=False),
    "split_many": lambda k: random.split(k, (3, 4)),
    "fold_in": lambda k: random.fold_in(k, 2**31 + 7),
}


@pytest.mark.parametrize("typed", [False, True], ids=["raw", "typed"])
@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_compiled_equals_eager(name, typed):
    f = SAMPLERS[name]
    k = random.key(1234) if typed else random.PRNGKey(1234)
    _same_bits(jax.jit(f)(k), f(k))


@pytest.mark.parametrize("name,f", [
    ("uniform_f64", lambda k: random.uniform(k, (300,), jnp.float64, -1., 3.)),
    ("normal_f64", lambda k: random.normal(k, (300,), jnp.float64)),
    ("bits_u64", lambda k: random.bits(k, (300,))),
    ("randint_i64", lambda k: random.randint(k, (300,), -10**12, 10**12)),
    ("exponential_f64", lambda k: random.exponential(k, (300,), jnp.float64)),
])
def test_compiled_equals_eager_x64(name, f):
    with jax.enable_x64():
        k = random.PRNGKey(99)
        _same_bits(jax.jit(f)(k), f(k))


def test_draws_are_prefix_stable():
    # partitionable threefry: element i depends only on i, not on the shape
    k = random.PRNGKey(5)
    np.testing.assert_array_equal(random.bits(k, (7,))[:5], random.bits(k, (5,)))
    np.testing.assert_array_equal(jax.jit(lambda k: random.uniform(k, (2, 4)))(k).ravel(),
                                  random.uniform(k, (8,)))


# ---------------------------------------------------------------------------------------
# Statistics (compiled, large samples)

N = 400_000


@pytest.mark.parametrize("name,f,mean,var", [
    ("uniform", lambda k: random.uniform(k, (N,)), 0.5, 1 / 12),
    ("uniform_bounds", lambda k: random.uniform(k, (N,), minval=-3., maxval=1.), -1., 16 / 12),
    ("normal", lambda k: random.normal(k, (N,)), 0., 1.),
    ("exponential", lambda k: random.exponential(k, (N,)), 1., 1.),
    ("laplace", lambda k: random.laplace(k, (N,)), 0., 2.),
    ("logistic", lambda k: random.logistic(k, (N,)), 0., math.pi ** 2 / 3),
    ("gumbel", lambda k: random.gumbel(k, (N,)), 0.5772156649, math.pi ** 2 / 6),
    ("bernoulli", lambda k: random.bernoulli(k, 0.3, (N,)).astype(jnp.float32), 0.3, 0.21),
    ("randint", lambda k: random.randint(k, (N,), 0, 10).astype(jnp.float32), 4.5, 8.25),
])
def test_sample_moments(name, f, mean, var):
    x = np.asarray(jax.jit(f)(random.PRNGKey(2024)), np.float64)
    se = math.sqrt(var / N)
    assert abs(x.mean() - mean) < 6 * se, (x.mean(), mean)
    assert abs(x.var() / var - 1) < 0.03, (x.var(), var)


def test_truncated_normal_bounds_and_categorical_frequencies():
    x = np.asarray(jax.jit(lambda k: random.truncated_normal(k, -0.5, 1.0, (N,)))(
        random.PRNGKey(1)))
    assert x.min() > -0.5 and x.max() < 1.0
    p = np.array([0.1, 0.2, 0.3, 0.4])
    c = np.asarray(jax.jit(lambda k: random.categorical(k, jnp.log(jnp.asarray(p)),
                                                         shape=(N,)))(random.PRNGKey(2)))
    freq = np.bincount(c, minlength=4) / N
    np.testing.assert_allclose(freq, p, atol=6 * math.sqrt(0.25 / N))


def test_permutation_and_choice_are_permutations():
    k = random.PRNGKey(3)
    perm = np.asarray(jax.jit(lambda k: random.permutation(k, 1000))(k))
    np.testing.assert_array_equal(np.sort(perm), np.arange(1000))
    assert (perm != np.arange(1000)).mean() > 0.9
    ch = np.asarray(random.choice(k, 30, (30,), replace=False))
    np.testing.assert_array_equal(np.sort(ch), np.arange(30))


# ---------------------------------------------------------------------------------------
# Key arrays through compiled structural ops and control flow

def test_keys_through_compiled_control_flow_and_indexing():
    k = random.key(7)

    def loop(k):
        def body(i, c):
            k, acc = c
            k, sub = random.split(k)
            return k, acc + random.uniform(sub, (4,))
        return lax.fori_loop(0, 5, body, (k, jnp.zeros(4)))

    def scan(k):
        return lax.scan(lambda c, kk: (c + random.uniform(kk), random.bits(kk, (2,))), 0.0,
                        random.split(k, 6))

    def shuffle_keys(ks, i, p):
        picked = jnp.concatenate([ks[::2], ks[1:2]])
        return picked, random.bits(ks[i], (3,)), jnp.where(p, ks, ks[0])

    for f, args in [(loop, (k,)), (scan, (k,)),
                    (shuffle_keys, (random.split(k, 5), 3,
                                    jnp.array([True, False, True, False, True])))]:
        want, got = f(*args), jax.jit(f)(*args)
        for w, g in zip(jax.tree_util.tree_leaves(want), jax.tree_util.tree_leaves(got),
                        strict=True):
            _same_bits(g, w)


def test_sampler_is_one_fused_kernel():
    low = jax.jit(lambda k: random.normal(k, (1 << 20,))).lower(random.PRNGKey(0))
    src = low.as_text()
    assert "tp_random_bits32(" in src and "tp_erf_inv" in src or "erf_inv" in src
    loops = [k for k in low._lowering.program.kernels if k.template.startswith("kernel_loop")]
    assert len(loops) == 1, [k.comment for k in low._lowering.program.kernels]
    # the cipher stage and the erf_inv stage run over blocks that stay in L1
    assert loops[0].template == "kernel_loop_blocked.j2"
    assert "omp parallel" in src  # split across threads by counter range
    small = jax.jit(lambda k: random.normal(k, (100,))).lower(random.PRNGKey(0))
    assert [k.template for k in small._lowering.program.kernels
            if k.template.startswith("kernel_loop")] == ["kernel_loop.j2"]


# ---------------------------------------------------------------------------------------
# Errors

def test_nonstatic_shape_under_jit_points_to_static_argnums():
    with pytest.raises(TypeError, match="(?s)Shapes must be 1D sequences of concrete values "
                                        "of integer type.*static_argnums"):
        jax.jit(lambda k, n: random.normal(k, (n,)))(random.PRNGKey(0), 3)
    out = jax.jit(lambda k, n: random.normal(k, (n,)), static_argnums=1)(
        random.PRNGKey(0), 3)
    assert out.shape == (3,)


@pytest.mark.parametrize("bad,match", [
    (np.zeros(3, np.uint32), r"expected key_data.shape to end with \(2,\)"),
    (np.zeros(2, np.float32), "expected key_data.dtype = uint32"),
    (np.zeros(2, np.int32), "expected key_data.dtype = uint32"),
    (np.uint32(0), "expected key_data.ndim >= 1"),
])
def test_bad_raw_keys(bad, match):
    with pytest.raises(TypeError, match=match):
        random.normal(bad, (2,))
    with pytest.raises(TypeError, match=match):
        random.wrap_key_data(bad)


@pytest.mark.parametrize("call,exc,match", [
    (lambda k: random.bernoulli(k, 1, (2,)), TypeError,
     "bernoulli probability `p` must have a floating dtype"),
    (lambda k: random.randint(k, (2,), 0, 5, jnp.float32), TypeError,
     "randint only accepts integer dtypes"),
    (lambda k: random.uniform(k, (2,), jnp.int32), ValueError,
     "dtype argument to `uniform` must be a float dtype"),
    (lambda k: random.bits(k, (2,), jnp.int32), ValueError,
     "dtype argument to `bits` must be an unsigned int dtype"),
    (lambda k: random.choice(k, 3, (5,), replace=False), ValueError,
     r"Cannot take a larger sample \(size 5\) than population \(size 3\)"),
    (lambda k: random.uniform(k, (2,), minval=jnp.zeros(3)), TypeError,
     r"mul got incompatible shapes for broadcasting: \(2,\), \(3,\)"),
    (lambda k: random.randint(k, (2,), jnp.zeros(3, int), 5), ValueError,
     r"Incompatible shapes for broadcasting: shapes=\[\(2,\), \(3,\), \(\)\]"),
    (lambda k: random.randint(k, (2,), jnp.zeros((3, 1), int), 5), ValueError,
     "randint parameter shapes must be broadcast-compatible"),
    (lambda k: random.fold_in(k, jnp.arange(2)), TypeError, "fold_in accepts a scalar"),
    (lambda k: random.key(jnp.arange(2)), TypeError, "key accepts a scalar seed"),
    (lambda k: random.PRNGKey(1.5), TypeError, "PRNG key seed must be an integer"),
    (lambda k: random.key(k), TypeError, "key accepts a scalar seed, but was given a PRNG"),
])
def test_argument_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call(random.key(0))


@pytest.mark.parametrize("option,value", [("jax_threefry_partitionable", False),
                                          ("jax_default_prng_impl", "rbg")])
def test_unimplemented_streams_are_refused(option, value):
    old = jax.config.read(option)
    jax.config.update(option, value)
    try:
        with pytest.raises(NotImplementedError, match="not available"):
            random.normal(random.PRNGKey(0), (2,))
        with pytest.raises(NotImplementedError, match="not available"):
            random.PRNGKey(0)
    finally:
        jax.config.update(option, old)


def test_key_reuse_gives_identical_draws():
    # documented: reusing a key is allowed and repeats the stream
    k = random.PRNGKey(11)
    np.testing.assert_array_equal(random.normal(k, (5,)), random.normal(k, (5,)))


# ---------------------------------------------------------------------------------------
# Programs for the AddressSanitizer run (test_memory_safety.py)

PROGRAMS = {
    "asan_normal_odd": (lambda k: random.normal(k, (1001,)), (random.PRNGKey(0),)),
    "asan_normal_blocked": (lambda k: random.normal(k, (3001,)), (random.PRNGKey(5),)),
    "asan_split_2d": (lambda k: random.split(k, (3, 5)), (random.PRNGKey(1),)),
    "asan_bits_keys": (lambda ks: random.bits(ks[2], (17, 3), jnp.uint8),
                       (random.split(random.PRNGKey(2), 4),)),
    "asan_randint": (lambda k: random.randint(k, (257,), -3, 2**31 - 1),
                     (random.PRNGKey(3),)),
    "asan_permutation": (lambda k: random.permutation(k, jnp.arange(77.)),
                         (random.PRNGKey(4),)),
    "asan_fold_seed": (lambda s: random.fold_in(random.PRNGKey(s), s), (np.int32(-9),)),
}


def test_asan_programs_compile_and_match():
    for name, (f, args) in PROGRAMS.items():
        _same_bits(jax.jit(f)(*args), f(*args))


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_sampler_stages_vectorise(tmp_path):
    """gcc reports both stages of the blocked normal loop (threefry, erf_inv) vectorised."""
    from transpile.resources import runtime_dir
    src = jax.jit(lambda k: random.normal(k, (1 << 20,))).lower(random.PRNGKey(0)).as_text()
    path = tmp_path / "normal.c"
    path.write_text(src)
    stages = [i for i, t in enumerate(src.splitlines(), 1) if "for (int64_t tp_j = 0" in t]
    assert len(stages) == 2
    proc = subprocess.run(
        ["gcc", "-std=c99", "-O3", "-march=native", "-fno-math-errno", "-fno-trapping-math",
         "-fopenmp", "-fPIC", "-shared", f"-I{runtime_dir()}", "-fopt-info-vec-optimized",
         "-o", str(tmp_path / "out.so"), str(path)], capture_output=True, text=True,
        check=True)  # never -o /dev/null: as root, a failed link replaces the device
    done = [ln for ln in proc.stderr.splitlines() if "loop vectorized" in ln]
    for line in stages:  # gcc names a loop by its `for` line or the next one
        assert any(f"normal.c:{line}:" in ln or f"normal.c:{line + 1}:" in ln
                   for ln in done), (line, proc.stderr)


def test_large_eager_draws_run_compiled(caplog):
    # as JAX runs them: compiled for a large draw (same bits), NumPy for a small one
    k = random.PRNGKey(31)
    old = jax.config.read("jax_log_compiles")
    jax.config.update("jax_log_compiles", True)
    try:
        with caplog.at_level("WARNING", logger="transpile"):
            small = random.uniform(k, (10,))
            assert not [r for r in caplog.records if "Compiling" in r.getMessage()]
            big = random.normal(k, (1 << 17,))
            assert [r for r in caplog.records if "Compiling" in r.getMessage()]
    finally:
        jax.config.update("jax_log_compiles", old)
    _same_bits(big, jax.jit(lambda k: random.normal(k, (1 << 17,)))(k))
    _same_bits(small, jax.jit(lambda k: random.uniform(k, (10,)))(k))


def test_jit_closing_over_a_typed_key_uses_it_as_a_constant():
    # The key becomes a constant of the compiled program: its key data is what is passed.
    key = random.key(0)
    fn = jax.jit(lambda: (random.normal(key, (3,)), random.split(key)))
    normal, keys = fn()
    assert np.asarray(normal).tobytes() == np.asarray(random.normal(key, (3,))).tobytes()
    assert np.array_equal(np.asarray(random.key_data(keys)),
                          np.asarray(random.key_data(random.split(key))))
