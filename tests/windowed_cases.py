"""Cases of ``tests/test_lax_windowed.py``, recorded from JAX 0.10.2 by
``tools/record_windowed.py`` into ``tests/data/windowed.json``.

Each case is ``(name, source, inputs, jaxpr)``: ``source`` is a Python expression of a
function (``lax``, ``jnp`` and ``jax`` in scope) applied to the arrays ``inputs`` names
(``make_input``); ``jaxpr`` says whether ``make_jaxpr``'s text is compared too.
"""
from __future__ import annotations

import numpy as np

#: name -> (shape, dtype, kind): "randn", "arange", "ties" (few distinct values)
INPUTS = {
    "x": ((2, 3, 4), "float32", "randn"),
    "img": ((2, 5, 6, 3), "float32", "randn"),
    "ties": ((1, 4, 4, 1), "float32", "ties"),
    "xi": ((2, 5), "int32", "arange"),
    "v": ((6,), "float32", "randn"),
    "x64": ((3, 5), "float64", "randn"),
    "h": ((2, 6), "float16", "randn"),
}


def make_input(name: str) -> np.ndarray:
    shape, dtype, kind = INPUTS[name]
    rng = np.random.RandomState(sum(map(ord, name)))
    n = int(np.prod(shape))
    if kind == "arange":
        a = np.arange(n) - n // 3
    elif kind == "ties":
        a = rng.randint(0, 3, n)
    else:
        a = rng.randn(n)
    return a.reshape(shape).astype(dtype)


MAXPOOL = "lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), 'SAME')"
AVGPOOL = ("lambda x: lax.reduce_window(x, 0., lax.add, (1, 2, 2, 1), (1, 2, 1, 1), "
           "'VALID') / 4.")

CASES = [
    ("sum_same", "lambda x: lax.reduce_window(x, 0., lax.add, (1, 2, 2), (1, 1, 2), 'SAME')",
     ["x"], True),
    ("max_valid", "lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2), (1, 1, 2), 'VALID')",
     ["x"], True),
    ("min_pads", "lambda x: lax.reduce_window(x, jnp.inf, lax.min, (2, 2, 3), (1, 2, 1), "
     "((1, 0), (0, 2), (1, 1)))", ["x"], True),
    ("sum_dilated", "lambda x: lax.reduce_window(x, 0., lax.add, (1, 2, 2), (1, 1, 2), "
     "((0, 0), (1, 0), (0, 1)), base_dilation=(1, 2, 1), window_dilation=(1, 1, 2))",
     ["x"], True),
    ("max_dilated", "lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2), (1, 2, 1), "
     "'SAME', base_dilation=(1, 2, 2), window_dilation=(1, 2, 1))", ["x"], False),
    ("same_lower", "lambda x: lax.reduce_window(x, 0., lax.add, (1, 2, 3), (1, 2, 2), "
     "'SAME_LOWER')", ["x"], False),
    ("sum_int", "lambda x: lax.reduce_window(x, 0, lax.add, (2, 2), (1, 2), 'SAME')",
     ["xi"], True),
    ("max_int", "lambda x: lax.reduce_window(x, jnp.iinfo(jnp.int32).min, lax.max, (1, 3), "
     "(1, 1), 'VALID')", ["xi"], False),
    ("mul_generic", "lambda x: lax.reduce_window(x, 1., lax.mul, (1, 2, 2), (1, 1, 2), 'SAME')",
     ["x"], True),
    ("pair_generic", "lambda x: lax.reduce_window((x, 2 * x), (0., -jnp.inf), lambda a, b: "
     "(a[0] + b[0], lax.max(a[1], b[1])), (1, 2, 2), (1, 1, 1), 'VALID')", ["x"], False),
    ("mul_generic_jvp", "lambda x: jax.jvp(lambda x: lax.reduce_window(x, 1., lax.mul, "
     "(1, 2, 2), (1, 1, 1), 'VALID'), (x,), (jnp.cos(x),))", ["x"], True),
    ("pair_generic_vmap", "jax.vmap(lambda x: lax.reduce_window((x, x), (0., 1.), "
     "lambda a, b: (a[0] + b[0], a[1] * b[1]), (2, 2), (1, 2), 'SAME'))", ["x"], False),
    ("sum_f64", "lambda x: lax.reduce_window(x, 0., lax.add, (2, 2), (1, 1), 'VALID')",
     ["x64"], False),
    ("max_f16", "lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2), (1, 2), 'VALID')",
     ["h"], False),
    ("maxpool", MAXPOOL, ["img"], False),
    ("maxpool_grad", f"jax.grad(lambda x: jnp.sum(({MAXPOOL})(x) ** 2))", ["img"], True),
    ("maxpool_grad_ties", f"jax.grad(lambda x: jnp.sum(({MAXPOOL})(x)))", ["ties"], False),
    ("maxpool_jvp", f"lambda x: jax.jvp({MAXPOOL}, (x,), (jnp.cos(x),))", ["img"], True),
    ("minpool_grad", "jax.grad(lambda x: jnp.sum(lax.reduce_window(x, jnp.inf, lax.min, "
     "(1, 2, 2, 1), (1, 1, 1, 1), 'VALID') * x[:, :4, :5]))", ["img"], False),
    ("avgpool_grad", f"jax.grad(lambda x: jnp.sum(jnp.sin(({AVGPOOL})(x))))", ["img"], True),
    ("sum_dilated_grad", "jax.grad(lambda x: jnp.sum(lax.reduce_window(x, 0., lax.add, "
     "(1, 2, 2), (1, 2, 1), ((0, 0), (1, 0), (0, 1)), base_dilation=(1, 2, 1), "
     "window_dilation=(1, 1, 2)) ** 2))", ["x"], False),
    ("max_base_dilated_grad", "jax.grad(lambda x: jnp.sum(lax.reduce_window(x, -jnp.inf, "
     "lax.max, (1, 2, 2), (1, 1, 1), 'VALID', base_dilation=(1, 2, 1)) ** 2))", ["x"], False),
    ("maxpool_vmap", "jax.vmap(lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (2, 2, 1), "
     "(2, 2, 1), 'SAME'))", ["img"], True),
    ("maxpool_grad_vmap", f"jax.vmap(jax.grad(lambda x: jnp.sum(({MAXPOOL})(x[None]))))",
     ["img"], False),
    ("sum_vmap_axis1", "jax.vmap(lambda x: lax.reduce_window(x, 0., lax.add, (2, 2), (1, 1), "
     "'SAME'), in_axes=1, out_axes=1)", ["x"], True),
    ("reduce_monoid", "lambda x: lax.reduce(x, 0., lax.add, (1,))", ["x"], True),
    ("reduce_max_monoid", "lambda x: lax.reduce(x, -jnp.inf, lax.max, (0, 2))", ["x"], True),
    ("reduce_generic", "lambda x: lax.reduce(x, 0., lambda a, b: a + 2. * b, (1,))", ["x"],
     False),
    ("reduce_pair", "lambda x: lax.reduce((x, x * x), (0., 1.), lambda a, b: "
     "(a[0] + b[0], a[1] * b[1]), (0, 2))", ["x"], False),
    ("reduce_generic_grad", "jax.grad(lambda x: jnp.sum(lax.reduce(x, 1., "
     "lambda a, b: a * b + 0. * a, (1,))))", ["x"], False),
    ("reduce_generic_vmap", "jax.vmap(lambda x: lax.reduce(x, 0., lambda a, b: a + 2. * b, "
     "(0,)))", ["x"], False),
    ("scan_add", "lambda x: lax.associative_scan(lax.add, x, axis=1)", ["x"], True),
    ("scan_pair_rev", "lambda x: lax.associative_scan(lambda a, b: (a[0] + b[0], "
     "a[1] * b[1]), (x, jnp.cos(x)), reverse=True, axis=2)", ["x"], False),
    ("scan_max_axis0", "lambda v: lax.associative_scan(lax.max, v)", ["v"], True),
    ("cumlogsumexp", "lambda x: lax.cumlogsumexp(x, axis=1)", ["x"], True),
    ("cumlogsumexp_rev", "lambda x: lax.cumlogsumexp(x, axis=2, reverse=True)", ["x"], True),
    ("cumlogsumexp_grad", "jax.grad(lambda x: jnp.sum(jnp.sin(lax.cumlogsumexp(x, axis=1))))",
     ["x"], False),
    ("cumlogsumexp_vmap", "jax.vmap(lambda x: lax.cumlogsumexp(x, axis=1, reverse=True))",
     ["x"], True),
    ("cumsum_rev", "lambda x: lax.cumsum(x, axis=1, reverse=True)", ["x"], True),
    ("cummax_rev", "lambda x: lax.cummax(x, axis=2, reverse=True)", ["x"], True),
    ("cumprod_rev_grad", "jax.grad(lambda x: jnp.sum(lax.cumprod(x, axis=1, reverse=True)))",
     ["x"], False),
]


def _layer(make: str) -> str:
    """A stax layer applied to ``x`` with the parameters its ``init_fun`` makes, and the
    output shape ``init_fun`` reports (as an array, so that it is recorded too)."""
    return (f"lambda x: (lambda l: (lambda s, p: (l[1](p, x), jnp.array(s)))"
            f"(*l[0](jax.random.PRNGKey(0), x.shape)))({make})")


CASES += [
    ("stax_maxpool", _layer("stax.MaxPool((3, 3), (2, 2), 'SAME')"), ["img"], False),
    ("stax_avgpool", _layer("stax.AvgPool((2, 3), (1, 2), 'SAME')"), ["img"], False),
    ("stax_sumpool", _layer("stax.SumPool((2, 2))"), ["img"], False),
    ("stax_avgpool_spec", _layer("stax.AvgPool((2, 2), (2, 1), 'SAME', spec='NCHW')"),
     ["img"], False),
    ("stax_batchnorm", _layer("stax.BatchNorm()"), ["img"], False),
    ("stax_batchnorm_axis", _layer("stax.BatchNorm(axis=0, center=False)"), ["x"], False),
    ("stax_flatten", _layer("stax.Flatten"), ["img"], False),
    ("stax_pool_grad", "jax.grad(lambda x: jnp.sum(stax.AvgPool((2, 2), padding='SAME')[1]"
     "((), jnp.sin(stax.MaxPool((2, 2), (1, 1), 'SAME')[1]((), x)))))", ["img"], False),
]

#: Plain-Python helpers: (name, source of a call) -> recorded value or error
HELPERS = [
    ("pads_same", "lax.padtype_to_pads((5, 6), (2, 3), (1, 2), 'SAME')"),
    ("pads_same_lower", "lax.padtype_to_pads((5, 6, 7), (2, 3, 4), (2, 2, 3), 'SAME_LOWER')"),
    ("pads_valid", "lax.padtype_to_pads((5, 6), (2, 3), (1, 2), 'valid')"),
    ("pads_bad", "lax.padtype_to_pads((5, 6), (2, 3), (1, 2), 'FULL')"),
    ("shape_tuple", "lax.reduce_window_shape_tuple((5, 6), (2, 3), (1, 2), ((0, 1), (1, 1)))"),
    ("shape_tuple_dil", "lax.reduce_window_shape_tuple((5, 6), (2, 3), (2, 1), ((0, 1), (1, 1)), "
     "(2, 1), (1, 2))"),
]

#: Bad input: (name, source, inputs) -> recorded error type and message
ERRORS = [
    ("wrong_rank", "lambda x: lax.reduce_window(x, 0., lax.add, (2, 2), (1, 1), 'VALID')",
     ["x"]),
    ("strides_len", "lambda x: lax.reduce_window(x, 0., lax.add, (1, 2, 2), (1, 1), 'VALID')",
     ["x"]),
    ("zero_window", "lambda x: lax.reduce_window(x, 0., lax.add, (1, 0, 2), (1, 1, 1), 'VALID')",
     ["x"]),
    ("bad_padding", "lambda x: lax.reduce_window(x, 0., lax.add, (1, 2, 2), (1, 1, 1), 'FULL')",
     ["x"]),
    ("cumlogsumexp_int", "lambda x: lax.cumlogsumexp(x, axis=1)", ["xi"]),
    ("cumlogsumexp_axis", "lambda x: lax.cumlogsumexp(x, axis=3)", ["x"]),
    ("scan_not_callable", "lambda x: lax.associative_scan(3, x)", ["x"]),
    ("scan_lengths", "lambda x: lax.associative_scan(lax.add, (x, x[:, :2]), axis=1)", ["x"]),
]

#: ``jax.image`` (``tests/test_image.py``): (name, source, inputs, jaxpr), as CASES
IMAGE_CASES = [
    (f"{m}_{'up' if up else 'down'}_{'aa' if aa else 'noaa'}",
     f"lambda x: jax.image.resize(x, {(1, 8, 4, 2) if up else (1, 3, 9, 2)}, '{m}', "
     f"antialias={aa})", ["pic"], False)
    for m in ("nearest", "linear", "cubic", "lanczos3", "lanczos5")
    for up in (True, False) for aa in (True, False)
    if aa or not (up or m == "nearest")  # antialiasing changes downsampling only
] + [
    ("alias_bilinear", "lambda x: jax.image.resize(x, (1, 7, 7, 2), 'bilinear')", ["pic"],
     False),
    ("method_enum", "lambda x: jax.image.resize(x, (1, 4, 4, 2), "
     "jax.image.ResizeMethod.CUBIC)", ["pic"], False),
    ("int_linear", "lambda x: jax.image.resize(x, (8,), 'linear')", ["xi1"], False),
    ("int_nearest", "lambda x: jax.image.resize(x, (8,), 'nearest')", ["xi1"], False),
    ("same_shape", "lambda x: jax.image.resize(x, x.shape, 'lanczos3')", ["pic"], False),
    ("scale_translate", "lambda x: jax.image.scale_and_translate(x, (1, 7, 4, 2), (1, 2), "
     "jnp.array([1.3, 0.7]), jnp.array([0.4, -0.2]), 'linear')", ["pic"], False),
    ("scale_translate_noaa", "lambda x: jax.image.scale_and_translate(x, (1, 3, 5, 2), "
     "(1, 2), jnp.array([0.5, 0.9]), jnp.array([1.0, 0.0]), 'lanczos5', antialias=False)",
     ["pic"], False),
    ("resize_grad", "jax.grad(lambda x: jnp.sum(jax.image.resize(x, (1, 8, 3, 2), "
     "'cubic') ** 2))", ["pic"], False),
    ("resize_jaxpr", "lambda x: jax.image.resize(x, (6,), 'linear')", ["v"], False),
]
IMAGE_ERRORS = [
    ("bad_method", "lambda x: jax.image.resize(x, (1, 4, 4, 2), 'foo')", ["pic"]),
    ("bad_rank", "lambda x: jax.image.resize(x, (4, 4), 'linear')", ["pic"]),
    ("nearest_translate", "lambda x: jax.image.scale_and_translate(x, (1, 4, 4, 2), (1, 2), "
     "jnp.ones(2), jnp.zeros(2), 'nearest')", ["pic"]),
]
INPUTS["pic"] = ((1, 5, 6, 2), "float32", "randn")
INPUTS["xi1"] = ((5,), "int32", "arange")
