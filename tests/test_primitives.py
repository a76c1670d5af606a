"""Rule completeness: every primitive ever defined has the rules each rule table needs.

``transpile.core.primitives`` registers every primitive at definition. Each entry of
``RULE_TABLES`` names a table, says how to find a primitive's rule in it, and lists the
primitives exempt from it, each with the reason. A later issue that adds a table (JVP,
transpose, batching, C emission, ...) adds one entry here.
"""
from __future__ import annotations

import importlib

import pytest

from transpile import core
from transpile.codegen import lowering, plan  # noqa: F401  (plan fills the lowering table)
from transpile.interpreters import ad, batching

# Importing these defines their primitives. A module not written yet is skipped.
PRIMITIVE_MODULES = ["transpile.lax", "transpile.lax.elementwise", "transpile.lax.structural",
                     "transpile.lax.layout",
                     "transpile.lax.reduction", "transpile.lax.contraction", "transpile.lax.sorting",
                     "transpile.lax.control_flow", "transpile.lax.indexing",
                     "transpile.lax.linalg", "transpile.lax.convolution", "transpile.lax.fft",
                     "transpile.lax.prng", "transpile.lax.call", "transpile.lax.keys",
                     "transpile.lax.custom_derivatives", "transpile.lax.callbacks",
                     "transpile.lax.windowed", "transpile.lax.reduce_generic",
                     "transpile.jit", "transpile.random",
                     "transpile.custom_derivatives", "transpile.callbacks",
                     "transpile.lax.bits", "transpile.lax.extra",
                     "transpile.lax.custom_batching"]

for _name in PRIMITIVE_MODULES:
    try:
        importlib.import_module(_name)
    except ModuleNotFoundError as e:
        if e.name != _name:
            raise


def _has_attr(attr):
    return lambda prim: getattr(prim, attr, None) is not None


# (table name, does the primitive have its rule, exemptions {primitive name: reason})
RULE_TABLES = [
    ("abstract_eval", _has_attr("abstract_eval"), {
        # none yet
    }),
    ("impl", _has_attr("impl"), {
        # none yet
    }),
    ("jvp", lambda p: p in ad.jvp_rules, {
        # JAX 0.10.2 defines no derivative either: differentiating raises its error
        "nextafter", "zeta", "igamma_grad_a", "random_gamma_grad",
        "hessenberg", "householder_product", "schur",
        # only exists inside tangent jaxprs, which are transposed, never differentiated
        "custom_lin",
        # JAX 0.10.2 differentiates neither
        "pmax", "pmin",
    }),
    ("batching", lambda p: p in batching.primitive_batchers or p in batching.axis_batchers, {
        # takes no operands, so it is never batched
        "iota",
        # only in tangent jaxprs of reverse mode (vmap of grad batches before linearizing)
        "custom_lin",
    }),
    ("transpose", lambda p: p in ad.transpose_rules, {
        # not linear in any operand: never in a linear (tangent) jaxpr
        "abs", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil",
        "clamp", "cos", "cosh", "erf", "erf_inv", "exp", "exp2", "expm1", "floor", "fma",
        "integer_pow", "is_finite", "log", "log1p", "logistic", "max", "min", "nextafter",
        "pow", "rem", "round", "rsqrt", "sign", "sin", "sinh", "sqrt", "square", "tan",
        "tanh", "lgamma", "digamma", "erfc", "igamma", "igammac", "igamma_grad_a",
        "random_gamma_grad", "bessel_i0e", "bessel_i1e", "polygamma", "zeta",
        "regularized_incomplete_beta", "cholesky", "lu", "qr", "eigh", "eig", "svd",
        "hessenberg", "householder_product", "schur", "cummax", "cummin", "cumprod", "reduce_max", "reduce_min",
        "reduce_prod", "scatter-max", "scatter-min", "sort", "top_k", "argmax", "argmin",
        "approx_top_k",
        # integer or boolean results: their tangents are symbolic zeros, never transposed
        "and", "or", "xor", "not", "eq", "ne", "lt", "le", "gt", "ge", "shift_left",
        "shift_right_arithmetic", "shift_right_logical", "reduce_and", "reduce_or",
        "reduce_xor", "bitcast_convert_type", "iota", "threefry2x32", "random_bits",
        "rng_bit_generator",
        "random_clone", "random_fold_in", "random_seed", "random_split", "random_unwrap",
        "random_wrap", "random_gamma", "clz", "population_count", "mulhi", "eq_to", "le_to",
        "lt_to",
        # stop_gradient's tangent is zero; callbacks are not differentiated through
        "stop_gradient", "debug_callback", "debug_print", "io_callback", "pure_callback",
        # custom rules: replaced by their rule's jaxpr before transposing
        "custom_jvp_call", "custom_vjp_call", "remat2",
        # not linear (pooling's tangents are select_and_gather_add, which is); the
        # generic reductions' monoids are arbitrary (JAX has no transpose either)
        "reduce_window_max", "reduce_window_min", "reduce_window", "reduce",
        "cumlogsumexp",
        # its JVP is the body's JVP, so it never appears in a tangent jaxpr
        "custom_vmap_call",
        # collectives that are not linear
        "pmax", "pmin", "axis_index",
        # no operand, an integer result: never in a linear jaxpr
        "process_index",
    }),
    ("lowering (codegen)", lambda p: p in lowering.LOWERINGS, {
        # inlined by passes.inline before planning
        "jit", "custom_jvp_call", "custom_vjp_call", "remat2", "custom_linear_solve",
        # expanded by passes.inline (lax.call.EXPANSIONS), as JAX's lower_fun
        "random_gamma", "optimization_barrier", "unstack", "custom_vmap_call", "approx_top_k",
        "sharding_constraint",
        "psum", "pmax", "pmin", "pvary", "shard_map",
        # collectives run as the batching rules of their axis (one process): never compiled
        "psum_invariant", "all_gather", "reduce_scatter", "ppermute", "all_to_all",
        "axis_index", "pbroadcast",
        # only in the tangent jaxprs of reverse mode, which are transposed, never compiled
        "custom_lin",
    }),
]


def _all_primitives():
    return sorted(core.primitives.values(), key=lambda p: p.name)


def test_primitives_are_registered():
    names = {p.name for p in _all_primitives()}
    assert {"add", "sin", "select_n", "convert_element_type", "square"} <= names


@pytest.mark.parametrize("table, has_rule, exempt", RULE_TABLES,
                         ids=[t[0] for t in RULE_TABLES])
def test_every_primitive_has_a_rule(table, has_rule, exempt):
    missing = [p.name for p in _all_primitives() if not has_rule(p) and p.name not in exempt]
    assert not missing, f"primitives without a {table} rule: {missing}"


@pytest.mark.parametrize("table, has_rule, exempt", RULE_TABLES,
                         ids=[t[0] for t in RULE_TABLES])
def test_exemptions_are_current(table, has_rule, exempt):
    """An exemption for a primitive that no longer exists or now has the rule is stale."""
    prims = {p.name: p for p in _all_primitives()}
    stale = [n for n in exempt if n not in prims or has_rule(prims[n])]
    assert not stale, f"stale {table} exemptions: {stale}"


def test_registry_keys_match_names():
    for name, prim in core.primitives.items():
        assert prim.name == name
