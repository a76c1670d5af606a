"""Epilogues of the conv kernel (``codegen/conv_epilogue.py``): the elementwise consumers
of a convolution (bias add, activation, a chain of them) computed inside its kernel.

Each case is checked three ways: the planner fused what it should (and only that), the
fused program's outputs are bit-identical to the unfused program's (the epilogue applies
the same operations to the same values), and they match the float64 NumPy rules."""
import numpy as np
import pytest
from conv_checks import x64_for

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.codegen import conv_epilogue
from transpile.codegen.plan import plan_program
from transpile.codegen.render import render_module
from transpile.passes import optimize

RNG = np.random.default_rng(7)
NCHW = ("NCHW", "OIHW", "NCHW")
NHWC = ("NHWC", "HWIO", "NHWC")


def _conv(x, w, dn, **kw):
    kw.setdefault("padding", "SAME")
    return lax.conv_general_dilated(x, w, (1, 1), dimension_numbers=dn, **kw)


def _np_conv(x, w, dn, **kw):
    """The float64 NumPy rule of the same convolution."""
    kw.setdefault("padding", "SAME")
    jaxpr = jax.make_jaxpr(lambda a, b: lax.conv_general_dilated(
        a, b, (1, 1), dimension_numbers=dn, **kw))(x, w)
    return lax.conv_general_dilated_p.impl(x.astype(np.float64), w.astype(np.float64),
                                           **jaxpr.jaxpr.eqns[0].params)


def _bias_relu(dn, feature_axis, **kw):
    def f(x, w, b):
        shape = [1, 1, 1, 1]
        shape[feature_axis] = -1
        return jnp.maximum(_conv(x, w, dn, **kw) + b.reshape(shape), 0.0)

    def ref(x, w, b):
        shape = [1, 1, 1, 1]
        shape[feature_axis] = -1
        return np.maximum(_np_conv(x, w, dn, **kw) + b.reshape(shape), 0.0)
    return f, ref


def _pre_and_post(x, w, b):
    """Both the pre-activation and the activation are outputs: two stores per element."""
    z = _conv(x, w, NCHW) + b[None, :, None, None]
    return z, jnp.tanh(z) * 0.5


def _pre_and_post_ref(x, w, b):
    z = _np_conv(x, w, NCHW) + b[None, :, None, None]
    return z, np.tanh(z) * 0.5


def _read_elsewhere(x, w, b):
    """The output is also read by a reduction: it keeps a buffer of its own (otherwise
    it is computed in the first epilogue root's buffer, then overwritten there)."""
    y = _conv(x, w, NCHW)
    return jnp.maximum(y + b[None, :, None, None], 0.0), jnp.sum(y, axis=0)


def _read_elsewhere_ref(x, w, b):
    y = _np_conv(x, w, NCHW)
    return np.maximum(y + b[None, :, None, None], 0.0), np.sum(y, axis=0)


def _two_convs(x, w, b):
    """conv1 + conv2: the sum reads conv2's output, made after conv1, so it can only be
    conv2's epilogue."""
    return _conv(x, w, NCHW) + _conv(x, w[::-1], NCHW) * b[None, :, None, None]


def _two_convs_ref(x, w, b):
    return _np_conv(x, w, NCHW) + _np_conv(x, w[::-1], NCHW) * b[None, :, None, None]


def _transposed_reader(x, w, b):
    """A consumer reading the output at another index is not an epilogue."""
    y = _conv(x, w, NCHW)
    return y + jnp.flip(y, axis=3) + b[None, :, None, None]


def _transposed_reader_ref(x, w, b):
    y = _np_conv(x, w, NCHW)
    return y + np.flip(y, axis=3) + b[None, :, None, None]


_gemm_nchw = _bias_relu(NCHW, 1)
_gemm_nhwc = _bias_relu(NHWC, 3)
_direct = _bias_relu(("NCHW", "OIHW", "HNWC"), 3)
_direct_groups = _bias_relu(NCHW, 1, feature_group_count=2)

# name, function, float64 reference, lhs shape, rhs shape, bias size, dtype,
# conv kernels expected to carry an epilogue, kernels saved by fusing
CASES = [
    ("gemm_nchw_bias_relu", _gemm_nchw[0], _gemm_nchw[1], (2, 4, 12, 12), (8, 4, 3, 3), 8,
     np.float32, 1, 1),
    ("gemm_nhwc_bias_relu", _gemm_nhwc[0], _gemm_nhwc[1], (2, 12, 12, 4), (3, 3, 4, 8), 8,
     np.float32, 1, 1),
    ("direct_odd_layout", _direct[0], _direct[1], (2, 3, 6, 6), (5, 3, 3, 3), 5,
     np.float32, 1, 1),
    ("float64_groups", _direct_groups[0], _direct_groups[1], (2, 4, 7, 7), (6, 2, 3, 3), 6,
     np.float64, 1, 1),
    ("pre_and_post_outputs", _pre_and_post, _pre_and_post_ref, (2, 3, 8, 8), (4, 3, 3, 3),
     4, np.float32, 1, 2),
    ("read_elsewhere", _read_elsewhere, _read_elsewhere_ref, (2, 4, 12, 12), (8, 4, 3, 3),
     8, np.float32, 1, 1),
    ("two_convs", _two_convs, _two_convs_ref, (1, 4, 8, 8), (4, 4, 3, 3), 4, np.float32,
     1, 1),
    ("transposed_reader", _transposed_reader, _transposed_reader_ref, (1, 3, 8, 8),
     (4, 3, 3, 3), 4, np.float32, 0, 0),
]


def _compiled(f, args, enabled, monkeypatch):
    monkeypatch.setattr(conv_epilogue, "ENABLED", enabled)
    lowered = jax.jit(f).lower(*args)
    return lowered.as_text(), lowered.compile()


def _leaves(out):
    return [np.asarray(o) for o in (out if isinstance(out, tuple) else (out,))]


@pytest.mark.parametrize("name,f,ref,ls,rs,nb,dtype,fused,saved", CASES,
                         ids=[c[0] for c in CASES])
def test_epilogue_is_the_unfused_program(name, f, ref, ls, rs, nb, dtype, fused, saved,
                                         monkeypatch):
    x = RNG.standard_normal(ls).astype(dtype)
    w = RNG.standard_normal(rs).astype(dtype)
    b = RNG.standard_normal(nb).astype(dtype)
    with x64_for(np.dtype(dtype).name):
        src, fused_fn = _compiled(f, (x, w, b), True, monkeypatch)
        plain_src, plain_fn = _compiled(f, (x, w, b), False, monkeypatch)
        got, plain = _leaves(fused_fn(x, w, b)), _leaves(plain_fn(x, w, b))
    with_epilogue = [line for line in src.splitlines()
                     if line.startswith("/* ") and "; epilogue: " in line]
    assert len(with_epilogue) == fused
    assert "epilogue:" not in plain_src
    if name.startswith(("gemm", "direct")):
        assert ("tp_gemm_f" in src) == name.startswith("gemm")
    count = src.count("\nstatic void ")
    assert plain_src.count("\nstatic void ") - count == saved
    want = ref(x, w, b)
    want = list(want) if isinstance(want, tuple) else [want]
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for g, p, r in zip(got, plain, want, strict=True):
        assert g.dtype == dtype and g.shape == r.shape
        np.testing.assert_array_equal(g, p)
        np.testing.assert_allclose(g, r, rtol=tol, atol=tol * float(np.abs(r).max()))


def _cnn_loss(params, x, y):
    w1, b1, w2 = params
    h = jnp.maximum(_conv(x, w1, NCHW) + b1[None, :, None, None], 0.0)
    h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
    z = h.reshape(h.shape[0], -1) @ w2
    return jnp.mean((z - y) ** 2)


def test_cnn_train_step_is_bit_identical(monkeypatch):
    """The benchmark's pattern, small: conv + bias + relu + pool + dense under
    ``value_and_grad`` and an SGD update; the loss also against float64 NumPy."""
    params = (RNG.standard_normal((4, 1, 3, 3)).astype(np.float32),
              RNG.standard_normal(4).astype(np.float32) * 0.1,
              RNG.standard_normal((4 * 3 * 3, 2)).astype(np.float32))
    x = RNG.standard_normal((3, 1, 6, 6)).astype(np.float32)
    y = RNG.standard_normal((3, 2)).astype(np.float32)

    def step(params, x, y):
        loss, g = jax.value_and_grad(_cnn_loss)(params, x, y)
        return loss, tuple(p - 0.1 * d for p, d in zip(params, g))
    src, fused_fn = _compiled(step, (params, x, y), True, monkeypatch)
    _, plain_fn = _compiled(step, (params, x, y), False, monkeypatch)
    assert "; epilogue: " in src
    got = jax.tree_util.tree_leaves(fused_fn(params, x, y))
    plain = jax.tree_util.tree_leaves(plain_fn(params, x, y))
    for g, p in zip(got, plain, strict=True):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(p))
    h = np.maximum(_np_conv(x, params[0], NCHW) + params[1][None, :, None, None], 0.0)
    h = h.reshape(3, 4, 3, 2, 3, 2).max(axis=(3, 5))
    want = np.mean((h.reshape(3, -1) @ params[2].astype(np.float64) - y) ** 2)
    np.testing.assert_allclose(float(got[0]), want, rtol=1e-5)


def test_cuda_program_has_no_epilogue():
    """The CUDA conv template has no epilogue: the bias and activation stay loops."""
    x = np.ones((1, 2, 5, 5), np.float32)
    w = np.ones((3, 2, 3, 3), np.float32)
    b = np.ones(3, np.float32)
    f, _ = _bias_relu(NCHW, 1)
    opt = optimize(jax.make_jaxpr(f)(x, w, b))
    program = plan_program(opt, "convepi", fuse_rows=False)
    assert [k.template for k in program.kernels][0] == "kernel_conv.j2"
    assert len(program.kernels) == 2
    source, _ = render_module([(program, str(opt))], target="cuda")
    assert "tp_at" not in source
