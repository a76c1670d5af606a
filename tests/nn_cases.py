"""The ``jax.nn`` programs shared by ``tools/record_nn_data.py`` (run under JAX) and
``tests/test_nn.py`` (run under transpile).

``programs(jax, jnp, np)`` returns ``{name: NnCase}``; each case has the function of one
array argument, the argument (built with ``np`` so both sides see the same input), the
x64 mode it runs in, a float64 NumPy reference (or None) and whether it is
differentiable (``grad(sum(f))`` is recorded and checked against finite differences).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np


@dataclass
class NnCase:
    fn: Callable
    arg: Any
    ref: Callable | None = None
    x64: bool = False
    diff: bool = True


_V = np.array([-2.5, -1.0, -0.5, 0.0, 0.25, 1.0, 3.0, 7.0])
_M = np.array([[0.5, -1.0, 2.0, 0.0], [3.0, 1.5, -2.0, 0.25], [-0.5, 0.0, 1.0, 4.0]])
_MASK = np.array([[True, False, True, True], [True, True, False, True],
                  [False, True, True, True]])


# float64 references -------------------------------------------------------------------

def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _softplus(x):
    return np.logaddexp(x, 0)


def _elu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


def _gelu_exact(x):
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


def _gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def _lse(x, axis=None, keepdims=False, b=None):
    bb = 1.0 if b is None else b
    return np.log(np.sum(bb * np.exp(x), axis=axis, keepdims=keepdims))


def _softmax(x, axis=-1, where=None):
    e = np.exp(x) if where is None else np.where(where, np.exp(x), 0)
    return e / e.sum(axis, keepdims=True)


def _log_softmax(x, axis=-1, where=None):
    if where is None:
        return x - _lse(x, axis, True)
    s = np.log(np.where(where, np.exp(x), 0).sum(axis, keepdims=True))
    return np.where(where, x - s, -np.inf)


_SELU_A, _SELU_S = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def programs(jax, jnp, np_) -> dict:
    nn = jax.nn
    f32 = lambda a: np_.asarray(a, np_.float32)  # noqa: E731
    f64 = lambda a: np_.asarray(a, np_.float64)  # noqa: E731
    c: dict = {}

    def add(name, fn, arg, ref=None, **kw):
        c[name] = NnCase(fn, arg, ref, **kw)

    unary = {
        "relu": (nn.relu, lambda x: np.maximum(x, 0)),
        "relu6": (nn.relu6, lambda x: np.clip(x, 0, 6)),
        "sigmoid": (nn.sigmoid, _sigmoid),
        "log_sigmoid": (nn.log_sigmoid, lambda x: -_softplus(-x)),
        "softplus": (nn.softplus, _softplus),
        "silu": (nn.silu, lambda x: x * _sigmoid(x)),
        "swish": (nn.swish, lambda x: x * _sigmoid(x)),
        "gelu": (nn.gelu, _gelu_tanh),
        "gelu exact": (lambda x: nn.gelu(x, approximate=False), _gelu_exact),
        "elu": (nn.elu, _elu),
        "elu alpha": (lambda x: nn.elu(x, 0.5), lambda x: _elu(x, 0.5)),
        "leaky_relu": (nn.leaky_relu, lambda x: np.where(x >= 0, x, 0.01 * x)),
        "leaky_relu slope": (lambda x: nn.leaky_relu(x, 0.2),
                             lambda x: np.where(x >= 0, x, 0.2 * x)),
        "celu": (nn.celu, lambda x: np.maximum(x, 0) + np.expm1(np.minimum(x, 0))),
        "celu alpha": (lambda x: nn.celu(x, 2.0),
                       lambda x: np.maximum(x, 0) + 2.0 * np.expm1(np.minimum(x, 0) / 2.0)),
        "selu": (nn.selu, lambda x: _SELU_S * _elu(x, _SELU_A)),
    }
    for name, (fn, ref) in unary.items():
        add(name, fn, f32(_V), ref)
        add(f"{name} x64", fn, f64(_V), ref, x64=True)
    add("relu scalar", nn.relu, 2.0, lambda x: np.maximum(x, 0))

    add("softmax", nn.softmax, f32(_M), _softmax)
    add("softmax axis0", lambda x: nn.softmax(x, axis=0), f32(_M),
        lambda x: _softmax(x, 0))
    add("softmax where", lambda x: nn.softmax(x, where=_MASK), f32(_M),
        lambda x: _softmax(x, -1, _MASK))
    add("softmax x64", nn.softmax, f64(_M), _softmax, x64=True)
    add("log_softmax", nn.log_softmax, f32(_M), _log_softmax)
    add("log_softmax axis0", lambda x: nn.log_softmax(x, axis=0), f32(_M),
        lambda x: _log_softmax(x, 0))
    add("log_softmax where", lambda x: nn.log_softmax(x, where=_MASK), f32(_M),
        lambda x: _log_softmax(x, -1, _MASK), diff=False)
    add("log_softmax x64", nn.log_softmax, f64(_M), _log_softmax, x64=True)
    add("logsumexp", nn.logsumexp, f32(_M), _lse)
    add("logsumexp axis1", lambda x: nn.logsumexp(x, axis=1), f32(_M),
        lambda x: _lse(x, 1))
    add("logsumexp keepdims", lambda x: nn.logsumexp(x, axis=0, keepdims=True), f32(_M),
        lambda x: _lse(x, 0, True))
    add("logsumexp b", lambda x: nn.logsumexp(x, axis=1, b=np_.asarray([1.0, 2.0, 0.5, 0.0])),
        f32(_M), lambda x: _lse(x, 1, b=np.array([1.0, 2.0, 0.5, 0.0])))
    add("logsumexp return_sign", lambda x: nn.logsumexp(x, axis=1, return_sign=True)[0],
        f32(_M), lambda x: _lse(x, 1))
    add("logsumexp x64", nn.logsumexp, f64(_M), _lse, x64=True)
    add("logsumexp int", nn.logsumexp, np_.asarray([1, 2, 3], np_.int32),
        lambda x: _lse(x.astype(np.float64)), diff=False)
    add("standardize", nn.standardize, f32(_M),
        lambda x: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5))
    ids = np_.asarray([0, 2, 1, 3], np_.int32)
    add("one_hot", lambda i: nn.one_hot(i, 3), ids,
        lambda i: (i[:, None] == np.arange(3)).astype(np.float64), diff=False)
    add("one_hot axis0", lambda i: nn.one_hot(i, 4, axis=0), ids,
        lambda i: (i[None, :] == np.arange(4)[:, None]).astype(np.float64), diff=False)
    add("one_hot int32", lambda i: nn.one_hot(i, 3, dtype=jnp.int32), ids,
        lambda i: (i[:, None] == np.arange(3)).astype(np.float64), diff=False)
    add("one_hot x64", lambda i: nn.one_hot(i, 3), np_.asarray([1, 0], np_.int64),
        lambda i: (i[:, None] == np.arange(3)).astype(np.float64), x64=True, diff=False)
    return c
