"""``jax.example_libraries.stax``: neural networks as ``(init_fun, apply_fun)`` pairs.

``init_fun(rng, input_shape) -> (output_shape, params)`` and
``apply_fun(params, inputs, **kwargs) -> outputs``; ``serial`` and ``parallel`` combine
layers.
"""
from __future__ import annotations

import functools

import numpy as np

from .. import lax
from .. import numpy as jnp
from .. import random
from ..nn import elu, gelu, leaky_relu, log_softmax, relu, selu, sigmoid, softmax, softplus
from ..nn import standardize
from ..nn.initializers import glorot_normal, normal, ones, zeros

__all__ = ["Dense", "Dropout", "Elu", "Exp", "FanInConcat", "FanInSum", "FanOut", "Gelu",
           "Identity", "LeakyRelu", "LogSoftmax", "Relu", "Selu", "Sigmoid", "Softmax",
           "Softplus", "Tanh", "elementwise", "parallel", "serial", "shape_dependent"]


def Dense(out_dim, W_init=glorot_normal(), b_init=normal()):  # noqa: N802,B008
    """A fully connected layer: ``inputs @ W + b``."""
    def init_fun(rng, input_shape):
        k1, k2 = random.split(rng)
        params = W_init(k1, (input_shape[-1], out_dim)), b_init(k2, (out_dim,))
        return tuple(input_shape[:-1]) + (out_dim,), params

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return jnp.dot(inputs, W) + b
    return init_fun, apply_fun


def _conv_layer(dimension_numbers, out_chan, filter_shape, strides, padding, W_init, b_init,
                shape_fn, apply):
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    strides = strides or (1,) * len(filter_shape)
    W_init = W_init or glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))

    def init_fun(rng, input_shape):
        spatial = iter(filter_shape)
        kernel_shape = [out_chan if c == "O" else input_shape[lhs_spec.index("C")]
                        if c == "I" else next(spatial) for c in rhs_spec]
        output_shape = shape_fn(input_shape, kernel_shape, strides, padding,
                                dimension_numbers)
        bias_shape = [out_chan if c == "C" else 1 for c in out_spec]
        k1, k2 = random.split(rng)
        return output_shape, (W_init(k1, kernel_shape), b_init(k2, bias_shape))

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return apply(inputs, W, strides, padding) + b
    return init_fun, apply_fun


def GeneralConv(dimension_numbers, out_chan, filter_shape, strides=None,  # noqa: N802
                padding="VALID", W_init=None, b_init=normal(1e-6)):  # noqa: B008
    """A convolution layer with a bias, its layouts named by ``dimension_numbers``."""
    one = (1,) * len(filter_shape)
    return _conv_layer(
        dimension_numbers, out_chan, filter_shape, strides, padding, W_init, b_init,
        lax.conv_general_shape_tuple,
        lambda x, W, s, p: lax.conv_general_dilated(x, W, s, p, one, one,
                                                    dimension_numbers=dimension_numbers))


def GeneralConvTranspose(dimension_numbers, out_chan, filter_shape, strides=None,  # noqa: N802
                         padding="VALID", W_init=None, b_init=normal(1e-6)):  # noqa: B008
    """A transposed convolution layer with a bias (``lax.conv_transpose``)."""
    return _conv_layer(
        dimension_numbers, out_chan, filter_shape, strides, padding, W_init, b_init,
        lax.conv_transpose_shape_tuple,
        lambda x, W, s, p: lax.conv_transpose(x, W, s, p,
                                              dimension_numbers=dimension_numbers))


Conv = functools.partial(GeneralConv, ("NHWC", "HWIO", "NHWC"))
Conv1DTranspose = functools.partial(GeneralConvTranspose, ("NHC", "HIO", "NHC"))
ConvTranspose = functools.partial(GeneralConvTranspose, ("NHWC", "HWIO", "NHWC"))
__all__ += ["Conv", "Conv1DTranspose", "ConvTranspose", "GeneralConv", "GeneralConvTranspose"]


def elementwise(fun, **fun_kwargs):
    """A parameterless layer applying ``fun(inputs, **fun_kwargs)``."""
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        return fun(inputs, **fun_kwargs)
    return init_fun, apply_fun


Tanh = elementwise(jnp.tanh)
Relu = elementwise(relu)
Exp = elementwise(jnp.exp)
LogSoftmax = elementwise(log_softmax, axis=-1)
Softmax = elementwise(softmax, axis=-1)
Softplus = elementwise(softplus)
Sigmoid = elementwise(sigmoid)
Elu = elementwise(elu)
LeakyRelu = elementwise(leaky_relu)
Selu = elementwise(selu)
Gelu = elementwise(gelu)


def _identity():
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        return inputs
    return init_fun, apply_fun


Identity = _identity()


def FanOut(num):  # noqa: N802
    """A layer giving ``num`` copies of its input (a list)."""
    def init_fun(rng, input_shape):
        return [input_shape] * num, ()

    def apply_fun(params, inputs, **kwargs):
        return [inputs] * num
    return init_fun, apply_fun


def _fan_in_sum():
    def init_fun(rng, input_shape):
        return input_shape[0], ()

    def apply_fun(params, inputs, **kwargs):
        return sum(inputs)
    return init_fun, apply_fun


FanInSum = _fan_in_sum()


def FanInConcat(axis=-1):  # noqa: N802
    """A layer concatenating a list of inputs along ``axis``."""
    def init_fun(rng, input_shape):
        ax = axis % len(input_shape[0])
        size = sum(shape[ax] for shape in input_shape)
        first = tuple(input_shape[0])
        return first[:ax] + (size,) + first[ax + 1:], ()

    def apply_fun(params, inputs, **kwargs):
        return jnp.concatenate(inputs, axis)
    return init_fun, apply_fun


def Dropout(rate, mode="train"):  # noqa: N802
    """Keep each input with probability ``rate`` (scaled by ``1 / rate``) in
    ``'train'`` mode; the identity otherwise. ``apply_fun`` needs ``rng=``.

    Raises
    ------
    ValueError
        When ``apply_fun`` is called without an ``rng``.
    """
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.get("rng", None)
        if rng is None:
            raise ValueError(
                "Dropout layer requires apply_fun to be called with a PRNG key argument. "
                "That is, instead of `apply_fun(params, inputs)`, call it like "
                "`apply_fun(params, inputs, rng)` where `rng` is a PRNG key (e.g. from "
                "`jax.random.key`).")
        if mode == "train":
            keep = random.bernoulli(rng, rate, jnp.shape(inputs))
            return jnp.where(keep, inputs / rate, 0)
        return inputs
    return init_fun, apply_fun


def _split_rngs(rng, n):
    return random.split(rng, n) if rng is not None else (None,) * n


def serial(*layers):
    """Layers applied one after another; each gets its own split of ``rng``."""
    init_funs, apply_funs = zip(*layers) if layers else ((), ())

    def init_fun(rng, input_shape):
        params = []
        for init in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, param = init(layer_rng, input_shape)
            params.append(param)
        return input_shape, params

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.pop("rng", None)
        for fun, param, r in zip(apply_funs, params, _split_rngs(rng, len(layers))):
            inputs = fun(param, inputs, rng=r, **kwargs)
        return inputs
    return init_fun, apply_fun


def parallel(*layers):
    """Layers applied side by side to a sequence of inputs (one each)."""
    init_funs, apply_funs = zip(*layers) if layers else ((), ())

    def init_fun(rng, input_shape):
        rngs = random.split(rng, len(layers))
        return tuple(zip(*[init(r, shape) for init, r, shape in
                           zip(init_funs, rngs, input_shape)]))

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.pop("rng", None)
        return [f(p, x, rng=r, **kwargs) for f, p, x, r in
                zip(apply_funs, params, inputs, _split_rngs(rng, len(layers)))]
    return init_fun, apply_fun


def shape_dependent(make_layer):
    """A layer built from the input shape: ``make_layer(shape) -> (init, apply)``."""
    def init_fun(rng, input_shape):
        return make_layer(input_shape)[0](rng, input_shape)

    def apply_fun(params, inputs, **kwargs):
        return make_layer(jnp.shape(inputs))[1](params, inputs, **kwargs)
    return init_fun, apply_fun


# ---------------------------------------------------------------------------------------
# Pooling, BatchNorm and Flatten (the windowed-reduction layers)

def _pooling(reducer, init_val, rescale_by_window=False):
    """A pooling layer constructor reducing windows with ``reducer`` from ``init_val``;
    average pooling divides by each window's count of real (unpadded) elements."""
    def layer(window_shape, strides=None, padding="VALID", spec=None):
        strides = tuple(strides or (1,) * len(window_shape))
        spatial_window, spatial_strides = tuple(window_shape), strides
        # the batch and channel axes get windows of one element
        batch_chan = (0, len(window_shape) + 1) if spec is None else \
            (spec.index("N"), spec.index("C"))
        window, steps = tuple(window_shape), strides
        for i in sorted(batch_chan):
            window = window[:i] + (1,) + window[i:]
            steps = steps[:i] + (1,) + steps[i:]

        def init_fun(rng, input_shape):
            pads = lax.padtype_to_pads(input_shape, window, steps, padding)
            ones = (1,) * len(window)
            return lax.reduce_window_shape_tuple(input_shape, window, steps, pads, ones,
                                                 ones), ()

        def apply_fun(params, inputs, **kwargs):
            out = lax.reduce_window(inputs, init_val, reducer, window, steps, padding)
            if not rescale_by_window:
                return out
            axes = (0, inputs.ndim - 1) if spec is None else (spec.index("N"),
                                                              spec.index("C"))
            spatial = tuple(n for i, n in enumerate(inputs.shape) if i not in axes)
            counts = lax.reduce_window(jnp.ones(spatial, inputs.dtype), 0., lax.add,
                                       spatial_window, spatial_strides, padding)
            for i in sorted(axes):
                counts = jnp.expand_dims(counts, i)
            return out / counts
        return init_fun, apply_fun
    return layer


MaxPool = _pooling(lax.max, -jnp.inf)
SumPool = _pooling(lax.add, 0.)
AvgPool = _pooling(lax.add, 0., rescale_by_window=True)


def BatchNorm(axis=(0, 1, 2), epsilon=1e-5, center=True, scale=True,  # noqa: N802
              beta_init=zeros, gamma_init=ones):
    """Normalise over ``axis`` (batch statistics), then scale by ``gamma`` and shift by
    ``beta`` (parameters over the other axes; either left out with ``center``/``scale``
    False, its parameter then ``()``)."""
    axis = (axis,) if np.isscalar(axis) else tuple(axis)

    def init_fun(rng, input_shape):
        shape = tuple(d for i, d in enumerate(input_shape) if i not in axis)
        k1, k2 = random.split(rng)
        beta = beta_init(k1, shape) if center else ()
        gamma = gamma_init(k2, shape) if scale else ()
        return input_shape, (beta, gamma)

    def apply_fun(params, x, **kwargs):
        beta, gamma = params
        expand = tuple(None if i in axis else slice(None) for i in range(jnp.ndim(x)))
        z = standardize(x, axis, epsilon=epsilon)
        if scale:
            z = gamma[expand] * z
        return z + beta[expand] if center else z
    return init_fun, apply_fun


def _flatten():
    def init_fun(rng, input_shape):
        return (input_shape[0], int(np.prod(input_shape[1:], dtype=np.int64))), ()

    def apply_fun(params, inputs, **kwargs):
        return jnp.reshape(inputs, (inputs.shape[0], -1))
    return init_fun, apply_fun


Flatten = _flatten()
__all__ += ["AvgPool", "BatchNorm", "Flatten", "MaxPool", "SumPool"]
