"""Stage 3 passes (inline, fold, cse, dce) and the ``optimize`` pipeline.

Every program of the table is traced, then run through each pass in pipeline order and
through ``optimize``; after each step the result must typecheck, keep the input and
output avals, and evaluate (NumPy oracle) bitwise to what the traced program gives.
Structural facts per program (primitive counts after ``optimize``) say the passes did
their job. The shared ``jaxpr_cases`` programs are run through ``optimize`` too.
"""
from __future__ import annotations

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import core, ir, lax
from transpile.interpreters.eval import eval_jaxpr_numpy
from transpile.passes import (eliminate_common_subexpressions, eliminate_dead_code,
                              hoist_loop_invariants, lift_consts,
                              fold_constants, inline_calls, optimize, used_inputs)
from transpile.passes.cse import params_key

try:
    import jaxpr_cases
except ImportError:  # collected as a package
    from tests import jaxpr_cases

# Operands with the values that break wrong rewrites: -0.0, NaN, inf, a float32 subnormal
# (arithmetic flushes it to zero, so ``x * 1.0`` is not ``x``), int32 extremes.
X = np.array([1.5, -0.0, np.nan, np.inf, -2.0, 1e-40, 3.0, 0.0], np.float32)
I = np.array([3, -7, 0, 2**31 - 1, -2**31, 5, 1, -1], np.int32)
H = np.array([1.5, -0.0, np.nan, np.inf, 1e-6, -3.0], np.float16)  # 1e-6: f16 subnormal
M = (np.arange(12, dtype=np.float32).reshape(3, 4) - 5) / 7
C = np.linspace(-1, 1, 8, dtype=np.float32)  # captured by closures


@jax.jit
def _ident(x):
    return x


@jax.jit
def _inner(x):
    return jnp.sin(x) * C


@jax.jit
def _middle(x):
    return _inner(x) + _ident(x), 2.0


@jax.jit
def _outer(x):
    a, b = _middle(x)
    return _inner(a) * b


def _bind(p, *args, **params):
    return p.bind(*args, **params)


CASES = {
    # name: (fn, args, {primitive: count after optimize})
    "tutorial": (lambda x: x / 2 + x / 2 + x / 2, (X,), {"div": 1, "add": 2}),
    "nested_jit_3_levels": (lambda x: _outer(x) - 1.0, (X,), {"jit": 0, "sin": 2}),
    "jit_of_jit_returns_input": (lambda x: jax.jit(_ident)(x), (X,), {"jit": 0}),
    "jit_returns_literals": (lambda x: jax.jit(lambda y: (y, 3.0, np.int32(4)))(x), (X,),
                             {"jit": 0}),
    "jit_returns_its_const": (lambda x: jax.jit(lambda y: (y + 1.0, C))(x), (X,),
                              {"jit": 0, "add": 1}),
    "same_jit_twice": (lambda x: _inner(x) + _inner(x), (X,), {"sin": 1, "mul": 1}),
    "jit_literal_operand": (lambda x: jax.jit(lambda a, b: a * b + b)(x, 2.0), (X,),
                            {"jit": 0, "convert_element_type": 0}),
    "repeated_subexpressions": (
        lambda x: (jnp.sum(x * x) + jnp.sum(x * x), jnp.exp(x) - jnp.exp(x)), (X,),
        {"reduce_sum": 1, "exp": 1, "mul": 1}),
    "dead_code": (lambda x: (jnp.sin(x), jnp.cos(x) * 2, x * 3.0)[2], (X,),
                  {"sin": 0, "cos": 0, "mul": 1}),
    "dead_code_in_jit": (lambda x: jax.jit(lambda y: (jnp.exp(y), y + 1.0))(x)[1], (X,),
                         {"exp": 0, "add": 1}),
    "literal_arith": (lambda x: jnp.float32(2) * 3 + x, (X,), {"mul": 0, "add": 1}),
    "literal_chain": (lambda x: (jnp.float32(2) * 3 - 1) / 5 * x + jnp.exp(jnp.float32(.5)),
                      (X,), {"sub": 0, "div": 0, "exp": 0, "mul": 0, "add": 0, "fma": 1}),
    "const_array_fold": (lambda x: lax.add(lax.mul(C, 2.0), x), (X,), {"mul": 0, "add": 1}),
    "generators_not_folded": (lambda x: jnp.arange(8.0) + x + jnp.zeros(8), (X,),
                              {"iota": 1, "broadcast_in_dim": 1}),
    "int_identities": (lambda i: lax.div(lax.sub(lax.add(lax.mul(i, 1), 0), 0), 1), (I,),
                       {"mul": 0, "add": 0, "sub": 0, "div": 0}),
    "f32_identities_kept": (lambda x: (x * 1.0, x - 0.0, x / 1.0, x + 0.0), (X,),
                            {"mul": 1, "sub": 1, "div": 1, "add": 1}),
    "f16_identities": (lambda h: (h * 1.0, h - 0.0, h / 1.0, h + 0.0, h + -0.0), (H,),
                       {"mul": 0, "sub": 0, "div": 0, "add": 1}),
    "signed_zero_literals_not_merged": (lambda x: (x * 0.0, x * -0.0), (X,), {"mul": 2}),
    "structural_noops": (lambda m: (
        _bind(lax.reshape_p, m, new_sizes=(3, 4), dimensions=None, sharding=None),
        _bind(lax.transpose_p, m, permutation=(0, 1)),
        _bind(lax.broadcast_in_dim_p, m, shape=(3, 4), broadcast_dimensions=(0, 1),
              sharding=None),
        _bind(lax.convert_element_type_p, m, new_dtype=np.dtype(np.float32), weak_type=False),
        _bind(lax.convert_element_type_p, m, new_dtype=np.dtype(np.float32), weak_type=True)),
        (M,), {"reshape": 0, "transpose": 0, "broadcast_in_dim": 0, "convert_element_type": 1}),
    "mixed_dtypes": (lambda x, i: (x + i.astype(jnp.float32) * 2, i.astype(jnp.float32) - x,
                                   i * 2, i.astype(jnp.int8)), (X, I),
                     {"convert_element_type": 2, "mul": 1, "fma": 1}),
    "weak_typed_operand": (lambda w: (w * 2 + w * 2, w + np.float32(1), w + 1.0), (1.5,),
                           {"mul": 1, "add": 3}),
    "multiple_and_repeated_outputs": (
        lambda x: (lambda y: (y, y, x, 2.0, y * 0.5))(jnp.tanh(x)), (X,), {"tanh": 1}),
    "output_is_input": (lambda x: x, (X,), {}),
    "dot_twice": (lambda m: jnp.dot(m, m.T) + jnp.dot(m, m.T), (M,),
                  {"dot_general": 1, "transpose": 1}),
    "where_twice": (lambda x: jnp.where(x > 0, x, 0.0) * jnp.where(x > 0, x, 0.0), (X,),
                    {"gt": 1, "select_n": 1}),
    "int_literal_only": (lambda i: i + (jnp.int32(7) * 6 - 2) // 3, (I,), {"add": 1}),
    "licm_fori": (lambda x: lax.fori_loop(0, 50, lambda i, c: c * 0.5 + jnp.exp(x), x),
                  (X,), {"exp": 1, "mul": 0, "fma": 1}),
    "licm_while_and_inner_scan": (lambda x: lax.while_loop(
        lambda c: c[0] < 3,
        lambda c: (c[0] + 1, lax.scan(lambda a, r: (a + jnp.sin(x) * r, a), c[1],
                                      np.stack([C, C * 2, C * 3]))[0]),
        (0, x)), (X,), {"sin": 1}),
    "licm_keeps_cond_and_broadcasts": (lambda x: lax.fori_loop(
        0, 4, lambda i, c: c + lax.cond(x[0] > 0, lambda: jnp.zeros(8), lambda: x)
        + jnp.ones(8), x), (X,), {"cond": 1, "broadcast_in_dim": 2}),
    "cond_branches_shared": (lambda x: lax.cond(x[0] > 0, jnp.sin, jnp.cos, x)
                             + lax.cond(x[0] > 0, jnp.sin, jnp.cos, x), (X,), {"cond": 1}),
}


# ---------------------------------------------------------------------------------------
# Helpers

def _count(closed, name) -> int:
    """Equations of primitive ``name``, sub-jaxprs included."""
    def walk(j):
        n = 0
        for e in j.eqns:
            n += e.primitive.name == name
            n += sum(walk(s) for s in ir.jaxprs_in_params(e.params))
        return n
    return walk(closed.jaxpr)


def _run(closed, args):
    vals = [core.to_numpy(a, av) for a, av in zip(args, closed.in_avals, strict=True)]
    return eval_jaxpr_numpy(closed.jaxpr, closed.consts, *vals)


def _assert_bitwise(got, want):
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), f"output {i}"
        assert g.tobytes() == w.tobytes(), f"output {i}: {g} != {w}"


def _check(result, original, args, want):
    ir.typecheck(result)
    assert result.in_avals == original.in_avals
    assert result.out_avals == original.out_avals
    _assert_bitwise(_run(result, args), want)


def _trace(name):
    fn, args, _ = CASES[name]
    return jax.make_jaxpr(fn)(*args), args


# ---------------------------------------------------------------------------------------
# The table

@pytest.mark.parametrize("name", sorted(CASES))
def test_each_pass_in_order(name):
    closed, args = _trace(name)
    text = str(closed)
    want = _run(closed, args)
    cur = closed
    for fn in (inline_calls, fold_constants, eliminate_common_subexpressions,
               eliminate_dead_code, hoist_loop_invariants, lift_consts):
        cur = fn(cur)
        _check(cur, closed, args, want)
        if fn is inline_calls:
            assert _count(cur, "jit") == 0
    assert str(closed) == text  # the input is never modified


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_pass_alone(name):
    """Each pass also works on jaxprs that still hold ``jit`` calls (it recurses)."""
    closed, args = _trace(name)
    want = _run(closed, args)
    for fn in (fold_constants, eliminate_common_subexpressions, eliminate_dead_code,
               hoist_loop_invariants, lift_consts):
        _check(fn(closed), closed, args, want)


@pytest.mark.parametrize("name", sorted(CASES))
def test_optimize(name):
    closed, args = _trace(name)
    want = _run(closed, args)
    opt = optimize(closed)
    _check(opt, closed, args, want)
    for prim, n in CASES[name][2].items():
        assert _count(opt, prim) == n, (prim, str(opt))
    assert _count(opt, "jit") == 0
    # A fixed point: nothing dead is left, and a second run changes nothing.
    assert eliminate_dead_code(opt) is opt
    assert optimize(opt) is opt
    assert len(opt.consts) == len(opt.jaxpr.constvars)


# ---------------------------------------------------------------------------------------
# Exact text

def test_tutorial_text():
    closed, _ = _trace("tutorial")
    assert str(optimize(closed)) == (
        "{ lambda ; a:f32[8]. let\n"
        "    b:f32[8] = div a 2.0:f32[]\n"
        "    c:f32[8] = add b b\n"
        "    d:f32[8] = add c b\n"
        "  in (d,) }")


def test_nested_jit_text():
    closed, _ = _trace("nested_jit_3_levels")
    assert str(optimize(closed)) == (
        "{ lambda a:f32[8]; b:f32[8]. let\n"
        "    c:f32[8] = sin b\n"
        "    d:f32[8] = fma c a b\n"
        "    e:f32[8] = sin d\n"
        "    f:f32[8] = mul e a\n"
        "    g:f32[8] = fma f 2.0:f32[] -1.0:f32[]\n"
        "  in (g,) }")


def test_folded_literals_text():
    closed, _ = _trace("literal_chain")
    assert str(optimize(closed)) == (
        "{ lambda ; a:f32[8]. let\n"
        "    b:f32[8] = fma 1.0:f32[] a 1.6487212181091309:f32[]\n"
        "  in (b,) }")
    closed, _ = _trace("jit_returns_literals")
    assert str(optimize(closed)) == "{ lambda ; a:f32[8]. let  in (a, 3.0:f32[], 4:i32[]) }"


# ---------------------------------------------------------------------------------------
# Details

def test_inline_shares_hoisted_consts():
    closed, _ = _trace("same_jit_twice")
    inlined = inline_calls(closed)
    assert len(inlined.consts) == 1 and inlined.consts[0] is C
    # CSE alone merges the two calls of the same jitted function.
    assert _count(eliminate_common_subexpressions(closed), "jit") == 1


def test_fold_makes_small_constants_only():
    closed, args = _trace("const_array_fold")
    folded = fold_constants(closed)
    assert _count(folded, "mul") == 0
    opt = optimize(closed)
    assert len(opt.consts) == 1
    assert opt.consts[0].tobytes() == (C * np.float32(2)).tobytes()
    kept = fold_constants(closed, max_const_size=4)
    assert kept is closed


def test_folded_weak_literal_keeps_python_scalar():
    closed = jax.make_jaxpr(lambda w: w + (2.0 * 3.0 + jnp.sqrt(4.0)))(1.5)
    opt = optimize(closed)
    lits = [a for e in opt.eqns for a in e.invars if isinstance(a, ir.Literal)]
    assert lits and all(type(a.val) is float and a.aval.weak_type for a in lits)


def test_used_inputs():
    closed = jax.make_jaxpr(lambda x, y, z: (x * 2, jnp.sin(y))[0] + z)(X, X, X)
    assert used_inputs(closed) == [True, False, True]
    assert used_inputs(optimize(closed)) == [True, False, True]
    assert optimize(closed).in_avals == closed.in_avals


def test_debug_printing(monkeypatch, capsys):
    closed, _ = _trace("tutorial")
    monkeypatch.setenv("TRANSPILE_DEBUG", "ir, passes")
    optimize(closed)
    err = capsys.readouterr().err
    for name in ("inline", "fold", "cse", "dce"):
        assert f"--- pass {name}" in err
    assert "c:f32[8] = add b b" in err
    monkeypatch.setenv("TRANSPILE_DEBUG", "plan")
    optimize(closed)
    assert capsys.readouterr().err == ""


# A call-like primitive holding a ClosedJaxpr, standing for future control flow: the
# passes must optimise its body without inlining it. Not registered in core.primitives.
_call_p = core.Primitive("test_call", multiple_results=True)
_call_p.def_abstract_eval(lambda *avals, body: list(body.out_avals))
_call_p.def_impl(lambda *args, body: eval_jaxpr_numpy(
    getattr(body, "jaxpr", body), getattr(body, "consts", []), *args))


def test_sub_jaxprs_are_optimised_not_inlined():
    def body(x):
        jnp.cos(x)  # dead
        return (jax.jit(lambda y: y / 2)(x) + x / 2) * (jnp.float32(3) - 1)

    inner = jax.make_jaxpr(body)(X)

    def f(x):
        a, = _call_p.bind(x, body=inner)
        b, = _call_p.bind(x, body=inner)
        return a + b

    closed = jax.make_jaxpr(f)(X)
    want = _run(closed, (X,))
    opt = optimize(closed)
    _check(opt, closed, (X,), want)
    assert _count(opt, "test_call") == 1  # the two calls are one after CSE
    sub = opt.eqns[0].params["body"]
    assert [e.primitive.name for e in sub.eqns] == ["div", "add", "mul"]
    assert str(closed.eqns[0].params["body"]) == str(inner)  # not mutated


def test_params_key_tells_types_apart():
    k = params_key
    assert k({"d": np.dtype(np.float32)}) != k({"d": np.dtype(np.float64)})
    assert k({"t": float}) != k({"t": int})
    assert k({"v": 0.0}) != k({"v": -0.0})
    assert k({"v": True}) != k({"v": 1})
    assert k({"v": (1, 2)}) != k({"v": [1, 2]})
    assert k({"a": np.zeros(2, np.float32)}) == k({"a": np.zeros(2, np.float32)})
    assert k({"a": np.zeros(2, np.float32)}) != k({"a": np.zeros(2, np.int32)})
    assert k({"v": float("nan")}) == k({"v": float("nan")})


def test_dropped_outputs_and_bare_jaxpr_params():
    f32 = core.ShapedArray((3,), np.float32)
    x, kept, dropped, y = ir.Var(f32), ir.Var(f32), ir.DropVar(f32), ir.Var(f32)
    # A body given as a bare Jaxpr with a duplicate: cse applies inside it.
    a, b, c, d = (ir.Var(f32) for _ in range(4))
    body = ir.Jaxpr((), (a,), (d,), (ir.JaxprEqn((a,), (b,), lax.sin_p, {}),
                                    ir.JaxprEqn((a,), (c,), lax.sin_p, {}),
                                    ir.JaxprEqn((b, c), (d,), lax.add_p, {})))
    eqns = (ir.JaxprEqn((x,), (dropped,), lax.exp_p, {}),
            ir.JaxprEqn((x,), (kept,), lax.exp_p, {}),
            ir.JaxprEqn((kept,), (y,), _call_p, {"body": body}))
    closed = ir.ClosedJaxpr(ir.Jaxpr((), (x,), (y, kept), eqns), [])
    want = _run(closed, (C[:3],))
    for fn in (inline_calls, fold_constants, eliminate_common_subexpressions,
               eliminate_dead_code, optimize):
        _check(fn(closed), closed, (C[:3],), want)
    opt = optimize(closed)
    assert _count(opt, "exp") == 1 and _count(opt, "sin") == 1
    assert isinstance(opt.eqns[-1].params["body"], ir.Jaxpr)


# ---------------------------------------------------------------------------------------
# The shared programs

def _shared_cases():
    return {c.name: c for c in jaxpr_cases.cases(jax, jnp, lax, np)}


@pytest.mark.parametrize("name", sorted(_shared_cases()))
def test_optimize_shared_programs(name):
    case = _shared_cases()[name]
    fn, args = case.build()
    closed = jax.make_jaxpr(fn, static_argnums=case.static_argnums)(*args)
    dyn = [a for i, a in enumerate(args) if i not in case.static_argnums]
    leaves = jax.tree_util.tree_leaves(dyn)
    try:
        want = _run(closed, leaves)
    except Exception:  # noqa: BLE001 - programs that fail to run test nothing here
        pytest.skip("the traced program does not evaluate")
    _check(optimize(closed), closed, leaves, want)


# ---------------------------------------------------------------------------------------
# Loops

def _top(closed) -> list:
    return [e.primitive.name for e in closed.jaxpr.eqns]


def test_licm_moves_invariants_in_front_of_the_loop():
    closed, args = _trace("licm_fori")
    opt = optimize(closed)
    assert _top(opt)[0] == "exp" and _top(opt)[-1] == "scan"
    body = opt.jaxpr.eqns[-1].params["jaxpr"].jaxpr
    assert "exp" not in [e.primitive.name for e in body.eqns]
    # x itself is no longer read in the body: dce drops it from the loop's consts
    assert opt.jaxpr.eqns[-1].params["num_consts"] == 1


def test_dce_drops_unread_loop_consts():
    def f(x, z):
        def body(c):
            _unused = jnp.sin(x)  # dead once the body is cleaned: x is no longer read
            return c[0] + 1, c[1] * 2
        return lax.while_loop(lambda c: c[0] < 3, body, (0, z))
    closed = jax.make_jaxpr(f)(X, X)
    assert closed.jaxpr.eqns[-1].params["body_nconsts"] == 1
    opt = eliminate_dead_code(closed)
    ir.typecheck(opt)
    e = opt.jaxpr.eqns[-1]
    assert e.primitive.name == "while" and e.params["body_nconsts"] == 0
    assert len(e.invars) == 2
    _assert_bitwise(_run(opt, (X, X)), _run(closed, (X, X)))


def test_licm_out_of_nested_loops():
    closed, args = _trace("licm_while_and_inner_scan")
    opt = optimize(closed)
    assert "sin" in _top(opt)  # out of the scan, then out of the while


def test_licm_keeps_what_must_stay():
    closed, args = _trace("licm_keeps_cond_and_broadcasts")
    opt = optimize(closed)
    assert "cond" not in _top(opt) and "broadcast_in_dim" not in _top(opt)


def test_licm_on_a_shared_body_gives_each_loop_its_own_variables():
    def body(i, c):
        return c * 0.5 + jnp.exp(X)
    closed = jax.make_jaxpr(lambda x: lax.fori_loop(0, 3, body, x)
                            + lax.fori_loop(0, 3, body, x * 2))(X)
    opt = hoist_loop_invariants(closed)
    ir.typecheck(opt)
    defined = [o for e in opt.jaxpr.eqns for o in e.outvars]
    assert len(defined) == len(set(defined))
    _assert_bitwise(_run(opt, (X,)), _run(closed, (X,)))


# ---------------------------------------------------------------------------------------
# contract: float multiply-adds fused as XLA:CPU fuses them

from transpile.passes import contract_multiply_add  # noqa: E402

_R = np.random.default_rng(7)
A3, B3, C3 = (_R.standard_normal(64).astype(np.float32) for _ in range(3))

# name -> (fn, fma equations expected, mul equations left)
CONTRACT_CASES = {
    "add": (lambda a, b, c: a * b + c, 1, 0),
    "add_product_second": (lambda a, b, c: c + a * b, 1, 0),
    "sub_product_first": (lambda a, b, c: a * b - c, 1, 0),
    "sub_product_second": (lambda a, b, c: c - a * b, 1, 0),
    "sub_literal": (lambda a, b, c: a * b - 1.5, 1, 0),
    "product_is_output": (lambda a, b, c: (a * b, a * b + c), 0, 1),
    "product_read_by_sqrt": (lambda a, b, c: a * b + jnp.sqrt(a * b), 0, 1),
    "product_read_by_two_adds": (lambda a, b, c: (a * b + c, a * b - c), 2, 0),
    "two_products_first_fused": (lambda a, b, c: a * b + c * c, 1, 1),
    "same_product_twice": (lambda a, b, c: a * b + a * b, 0, 1),
    "integers_untouched": (lambda a, b, c: (a.astype(jnp.int32) * 3 + 1).astype(jnp.float32),
                           0, 1),
    "float16_untouched": (lambda a, b, c: a.astype(jnp.float16) * 3 + 1, 0, 1),
    "inside_scan": (lambda a, b, c: lax.scan(lambda s, x: (s * 0.5 + x, s), c, a[:8, None]
                                             * b[:8, None])[0], 1, 1),
}


@pytest.mark.parametrize("name", sorted(CONTRACT_CASES))
def test_contract_cases(name):
    fn, n_fma, n_mul = CONTRACT_CASES[name]
    closed = jax.make_jaxpr(fn)(A3, B3, C3)
    out = optimize(closed)  # contract runs last, after cse has merged equal products
    ir.typecheck(out)
    assert out.out_avals == closed.out_avals
    assert (_count(out, "fma"), _count(out, "mul")) == (n_fma, n_mul), str(out)
    assert contract_multiply_add(out) is out  # a fixed point
    # compiled code computes exactly what the contracted jaxpr evaluates to
    want = eval_jaxpr_numpy(out.jaxpr, out.consts, A3, B3, C3)
    got = jax.jit(fn)(A3, B3, C3)
    for g, w in zip(jax.tree_util.tree_leaves(got), want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def test_contracted_values_are_fused_multiply_adds():
    # JAX 0.10.2 on CPU returns these bits: x*y+z rounded once.
    from transpile.lax.fma import fma_f32
    got = np.asarray(jax.jit(lambda a, b, c: (a * b + c, c - a * b))(A3, B3, C3)[1])
    np.testing.assert_array_equal(got, fma_f32(-A3, B3, C3))
    plain = (A3 * B3 + C3)
    assert (np.asarray(jax.jit(lambda a, b, c: a * b + c)(A3, B3, C3)) != plain).any()
    # op by op (eager) stays unfused, as JAX's eager arithmetic
    np.testing.assert_array_equal(np.asarray(jnp.asarray(A3) * B3 + C3), plain)
