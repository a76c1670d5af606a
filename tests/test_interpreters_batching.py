"""The vmap machinery and API (interpreters/batching.py, vmapping.py): axes
specifications, sizes, nesting, tracers, errors (texts of JAX 0.10.2). The rules of
each primitive family have test files of their own (test_lax_*_batching.py)."""
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp

X = np.arange(12.0, dtype=np.float32).reshape(4, 3)
Y = np.array([1.5, -2.0, 0.25], np.float32)


def _loop(f, *args, axes):
    n = next(a.shape[ax] for a, ax in zip(args, axes) if ax is not None)
    outs = [f(*[a if ax is None else np.take(a, i, ax) for a, ax in zip(args, axes)])
            for i in range(n)]
    return np.stack([np.asarray(o) for o in outs])


@pytest.mark.parametrize("in_axes", [(0, None), (1, None), (-1, None), (0, 0), (None, 0)])
def test_in_axes_match_a_loop(in_axes):
    args = [X, Y] if in_axes != (0, 0) else [X, X]
    if in_axes[0] in (1, -1):
        args = [X.T, Y]
    if in_axes == (None, 0):
        args = [Y, X]

    def f(a, b):
        return jnp.maximum(jnp.sin(a) * b, 0.1)  # no multiply-add: jit would fuse it
    got = jax.vmap(f, in_axes=in_axes)(*args)
    np.testing.assert_array_equal(np.asarray(got), _loop(f, *args, axes=in_axes))
    np.testing.assert_array_equal(np.asarray(jax.jit(jax.vmap(f, in_axes=in_axes))(*args)),
                                  np.asarray(got))


def test_out_axes_pytrees_and_nesting():
    def f(a):
        return {"s": a * 2, "t": (a + 1, 3.0)}
    out = jax.vmap(f, out_axes={"s": 1, "t": (0, None)})(X)
    np.testing.assert_array_equal(out["s"], (X * 2).T)
    np.testing.assert_array_equal(out["t"][0], X + 1)
    assert float(out["t"][1]) == 3.0
    nested = jax.vmap(jax.vmap(lambda a, b: a * b), in_axes=(0, None))(X, Y)
    np.testing.assert_array_equal(nested, X * Y)
    assert jax.vmap(lambda a: 1.0, in_axes=None, axis_size=3)(Y).shape == (3,)
    assert jax.make_jaxpr(jax.vmap(lambda x: 1.0 * x, out_axes=-1))(X).out_avals[0].shape \
        == (3, 4)


def test_tracer_repr():
    seen = []
    jax.vmap(lambda a: seen.append(repr(a)) or a)(X)
    assert seen == ["VmapTracer(aval=float32[3], batched=float32[4,3])"]


def test_jaxpr_text():
    assert str(jax.make_jaxpr(jax.vmap(lambda x: x * 2))(X)) == \
        "{ lambda ; a:f32[4,3]. let b:f32[4,3] = mul a 2.0:f32[] in (b,) }"
    assert str(jax.make_jaxpr(jax.vmap(jnp.sin, out_axes=1))(X)) == """{ lambda ; a:f32[4,3]. let
    b:f32[4,3] = sin a
    c:f32[3,4] = transpose[permutation=(1, 0)] b
  in (c,) }"""


@pytest.mark.parametrize("call,match", [
    (lambda: jax.vmap(lambda a, b: a + b)(np.ones(3), np.ones(4)),
     "vmap got inconsistent sizes for array axes to be mapped:\n  \\* one axis had size 3: "
     "axis 0 of argument a of type float32\\[3\\];\n  \\* one axis had size 4: axis 0 of "
     "argument b of type float32\\[4\\]"),
    (lambda: jax.vmap(lambda x: x, in_axes=(0, 0))(np.ones(3)),
     "vmap in_axes must be an int, None, or a tuple of entries corresponding to the "
     "positional arguments passed to the function, but got len\\(in_axes\\)=2, "
     "len\\(args\\)=1"),
    (lambda: jax.vmap(lambda x: x, in_axes=2)(np.ones(3)),
     "vmap was requested to map its argument along axis 2, which implies that its rank "
     "should be at least 3, but is only 1 \\(its shape is \\(3,\\)\\)"),
    (lambda: jax.vmap(lambda x: x, in_axes=None)(np.ones(3)),
     "vmap must have at least one non-None value in in_axes or axis_size must be "
     "specified"),
    (lambda: jax.vmap(lambda x: x, out_axes=None)(np.ones(3)),
     "at vmap out_axes, got axis spec None but output was batched on axis 0"),
])
def test_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()
