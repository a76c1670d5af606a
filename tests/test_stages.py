"""Ahead-of-time compilation: jit(f).lower(...).compile(), as in jax.stages."""
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


def test_lower_accepts_arrays_and_shape_dtype_structs():
    x = np.linspace(-2, 2, 8, dtype=np.float32)
    by_array = jax.jit(selu).lower(x)
    by_struct = jax.jit(selu).lower(jax.ShapeDtypeStruct((8,), jnp.float32))
    assert by_array.as_text() == by_struct.as_text()
    text = by_array.as_text()
    assert "int jit_selu(const float *restrict A, float *restrict" in text
    assert "tp_xla_exp_f32" in text and "#pragma omp simd" in text
    assert [a.str_short() for a in by_array.in_avals] == ["f32[8]"]


def test_compile_and_call_matches_eager():
    x = np.linspace(-2, 2, 8, dtype=np.float32)
    compiled = jax.jit(selu).lower(x).compile()
    np.testing.assert_allclose(np.asarray(compiled(x)), np.asarray(selu(x)), rtol=2e-7)
    text = compiled.as_text()
    assert text.startswith(jax.jit(selu).lower(x).as_text())
    assert "compiled with:" in text and "-fno-math-errno" in text and "-ffast-math" not in text


@pytest.mark.parametrize("bad", [np.zeros(9, np.float32), np.zeros(8, np.int32),
                                 np.zeros((8, 1), np.float32)])
def test_compiled_rejects_other_types(bad):
    compiled = jax.jit(selu).lower(np.zeros(8, np.float32)).compile()
    with pytest.raises(TypeError) as e:
        compiled(bad)
    # The text JAX 0.10.2 gives.
    assert str(e.value) == (
        "Argument types differ from the types for which this computation was compiled. "
        "Perhaps you are calling the compiled executable with a different enable_x64 mode "
        "than when it was AOT compiled? The mismatches are:\nArgument 'x' compiled with "
        f"float32[8] and called with {jax.core.get_aval(bad).str_long()}")


def test_compiled_rejects_other_pytrees():
    compiled = jax.jit(lambda a, b: a + b).lower(np.zeros(3, np.float32),
                                                 np.zeros(3, np.float32)).compile()
    with pytest.raises(TypeError) as e:
        compiled(np.zeros(3, np.float32))
    assert str(e.value) == (
        "Function compiled with input pytree does not match the input pytree it was called "
        "with. There are 1 mismatches, including:\n    * at args, seen tuple of length 2 "
        "but now given tuple of length 1, so the lengths do not match")


def test_static_arguments_are_baked_in():
    f = jax.jit(lambda x, n: x * n, static_argnums=1)
    compiled = f.lower(np.ones(3, np.float32), 4).compile()
    np.testing.assert_array_equal(np.asarray(compiled(np.ones(3, np.float32), 4)), 4.0)


def test_cost_analysis_counts_flops_and_bytes():
    a = jax.ShapeDtypeStruct((64, 32), jnp.float32)
    b = jax.ShapeDtypeStruct((32, 16), jnp.float32)
    cost = jax.jit(jnp.dot).lower(a, b).compile().cost_analysis()
    assert cost["flops"] == 2 * 64 * 32 * 16
    assert cost["bytes accessed"] >= 4 * (64 * 32 + 32 * 16 + 64 * 16)
    ew = jax.jit(selu).lower(jax.ShapeDtypeStruct((100,), jnp.float32)).cost_analysis()
    assert ew["transcendentals"] == 100 and ew["flops"] >= 400


def test_trace_gives_the_jaxpr():
    traced = jax.jit(selu).trace(np.ones(3, np.float32))
    assert str(traced.jaxpr) == str(jax.make_jaxpr(selu)(np.ones(3, np.float32)))
