"""``jax.example_libraries.optimizers``: first-order optimizers as
``(init_fun, update_fun, get_params)`` triples over pytrees of parameters.

An optimizer is written for one array (``init(x0) -> state``, ``update(i, g, state)
-> state``, ``get_params(state) -> x``); the ``optimizer`` decorator lifts it to
pytrees, keeping every parameter's state flattened in an ``OptimizerState``. Step sizes
are numbers or schedules ``i -> step size``.
"""
from __future__ import annotations

import functools
from collections import namedtuple

from .. import numpy as jnp
from ..tree_util import register_pytree_node, tree_flatten, tree_map, tree_unflatten

__all__ = ["OptimizerState", "Optimizer", "optimizer", "sgd", "momentum", "nesterov",
           "adagrad", "rmsprop", "rmsprop_momentum", "adam", "adamax", "sm3", "constant",
           "exponential_decay", "inverse_time_decay", "polynomial_decay",
           "piecewise_constant", "make_schedule", "l2_norm", "clip_grads", "JoinPoint",
           "pack_optimizer_state", "unpack_optimizer_state"]

OptimizerState = namedtuple("OptimizerState", ["packed_state", "tree_def", "subtree_defs"])
# The flat per-parameter states are the children; the two treedefs are static.
register_pytree_node(
    OptimizerState,
    lambda s: ((s.packed_state,), (s.tree_def, s.subtree_defs)),
    lambda aux, kids: OptimizerState(kids[0], aux[0], aux[1]))

Optimizer = namedtuple("Optimizer", ["init_fn", "update_fn", "params_fn"])


def _flatten_each(trees):
    pairs = [tree_flatten(t) for t in trees]
    return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)


def optimizer(opt_maker):
    """Decorator: lift an optimizer written for single arrays to pytrees of them.

    ``opt_maker(*args, **kwargs)`` returns ``(init, update, get_params)`` for one
    array; the decorated maker returns an ``Optimizer`` whose functions take pytrees
    and an ``OptimizerState``.

    Raises (from the lifted ``update_fn``)
    ------
    TypeError
        When the gradient tree's structure is not the parameters', or a state changes
        structure.
    """
    @functools.wraps(opt_maker)
    def tree_opt_maker(*args, **kwargs):
        init, update, get_params = opt_maker(*args, **kwargs)

        @functools.wraps(init)
        def tree_init(x0_tree):
            x0_flat, tree = tree_flatten(x0_tree)
            states_flat, subtrees = _flatten_each([init(x0) for x0 in x0_flat])
            return OptimizerState(states_flat, tree, subtrees)

        @functools.wraps(update)
        def tree_update(i, grad_tree, opt_state):
            states_flat, tree, subtrees = opt_state
            grad_flat, tree2 = tree_flatten(grad_tree)
            if tree2 != tree:
                raise TypeError("optimizer update function was passed a gradient tree that "
                                "did not match the parameter tree structure with which it "
                                f"was initialized: parameter tree {tree} and grad tree "
                                f"{tree2}.")
            states = [tree_unflatten(s, f) for s, f in zip(subtrees, states_flat,
                                                              strict=True)]
            new = [update(i, g, s) for g, s in zip(grad_flat, states, strict=True)]
            new_flat, subtrees2 = _flatten_each(new)
            for before, after in zip(subtrees, subtrees2, strict=True):
                if after != before:
                    raise TypeError("optimizer update function produced an output "
                                    "structure that did not match its input structure: "
                                    f"input {before} and output {after}.")
            return OptimizerState(new_flat, tree, subtrees)

        @functools.wraps(get_params)
        def tree_get_params(opt_state):
            states_flat, tree, subtrees = opt_state
            states = [tree_unflatten(s, f) for s, f in zip(subtrees, states_flat,
                                                              strict=True)]
            return tree_unflatten(tree, [get_params(s) for s in states])

        return Optimizer(tree_init, tree_update, tree_get_params)
    return tree_opt_maker


# ---------------------------------------------------------------------------------------
# optimizers

def _zeros_state(n: int):
    """``init``: the parameter followed by ``n`` zero buffers of its shape."""
    return lambda x0: (x0,) + tuple(jnp.zeros_like(x0) for _ in range(n))


def _param(state):
    """``get_params`` of a ``_zeros_state`` state."""
    return state[0]


@optimizer
def sgd(step_size):
    """Stochastic gradient descent: ``x -= step_size(i) * g``."""
    step_size = make_schedule(step_size)

    def update(i, g, x):
        return x - step_size(i) * g
    return (lambda x0: x0), update, (lambda x: x)


@optimizer
def momentum(step_size, mass: float):
    """Heavy-ball momentum: ``v = mass * v + g; x -= step_size(i) * v``."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * velocity, velocity
    return _zeros_state(1), update, _param


@optimizer
def nesterov(step_size, mass: float):
    """Nesterov momentum: the step looks ahead along the updated velocity."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * (mass * velocity + g), velocity
    return _zeros_state(1), update, _param


@optimizer
def adagrad(step_size, momentum=0.9):
    """Adagrad with momentum on the normalised gradient ``g / sqrt(sum g**2)``."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, g_sq, m = state
        g_sq = g_sq + jnp.square(g)
        inv = jnp.where(g_sq > 0, 1. / jnp.sqrt(g_sq), 0.0)
        m = (1. - momentum) * (g * inv) + momentum * m
        return x - step_size(i) * m, g_sq, m
    return _zeros_state(2), update, _param


@optimizer
def rmsprop(step_size, gamma=0.9, eps=1e-8):
    """RMSProp: the gradient divided by a running root mean square."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, avg_sq = state
        avg_sq = avg_sq * gamma + jnp.square(g) * (1. - gamma)
        return x - step_size(i) * g / jnp.sqrt(avg_sq + eps), avg_sq
    return _zeros_state(1), update, _param


@optimizer
def rmsprop_momentum(step_size, gamma=0.9, eps=1e-8, momentum=0.9):
    """RMSProp with momentum on the scaled steps."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, avg_sq, mom = state
        avg_sq = avg_sq * gamma + jnp.square(g) * (1. - gamma)
        mom = momentum * mom + step_size(i) * g / jnp.sqrt(avg_sq + eps)
        return x - mom, avg_sq, mom
    return _zeros_state(2), update, _param


@optimizer
def adam(step_size, b1=0.9, b2=0.999, eps=1e-8):
    """Adam: bias-corrected running first and second moments."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, m, v = state
        m = (1 - b1) * g + b1 * m
        v = (1 - b2) * jnp.square(g) + b2 * v
        dtype = jnp.asarray(m).dtype
        mhat = m / (1 - jnp.asarray(b1, dtype) ** (i + 1))
        vhat = v / (1 - jnp.asarray(b2, dtype) ** (i + 1))
        return x - step_size(i) * mhat / (jnp.sqrt(vhat) + eps), m, v
    return _zeros_state(2), update, _param


@optimizer
def adamax(step_size, b1=0.9, b2=0.999, eps=1e-8):
    """AdaMax: Adam with the infinity norm for the second moment."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, m, u = state
        m = (1 - b1) * g + b1 * m
        u = jnp.maximum(b2 * u, jnp.abs(g))
        return x - (step_size(i) / (1 - b1 ** (i + 1))) * m / (u + eps), m, u
    return _zeros_state(2), update, _param


def _splice(seq, i, x):
    out = list(seq)
    out[i:i + 1] = x
    return out


@optimizer
def sm3(step_size, momentum=0.9):
    """SM3: memory-efficient Adagrad keeping one accumulator per axis slice."""
    step_size = make_schedule(step_size)

    def init(x0):
        x_shape = jnp.shape(x0)
        x0 = jnp.atleast_1d(x0)
        vs = [jnp.zeros(n, dtype=x0.dtype) for n in x0.shape]
        return x0, jnp.zeros_like(x0), vs, x_shape

    def update(i, g, state):
        x, m, vs, x_shape = state
        ndim = jnp.ndim(g)
        vs = [v[tuple(_splice([None] * ndim, ax, [slice(None)]))]
              for ax, v in enumerate(vs)]
        accum = functools.reduce(jnp.minimum, vs) + jnp.square(g)
        inv = jnp.where(accum > 0, 1. / jnp.sqrt(accum), 0)
        m = (1. - momentum) * (g * inv) + momentum * m
        x = x - step_size(i) * m
        vs = [accum.max(tuple(_splice(range(x.ndim), j, []))) for j in range(x.ndim)]
        return x, m, vs, x_shape

    def get_params(state):
        x, _, _, x_shape = state
        return x.reshape(x_shape)
    return init, update, get_params


# ---------------------------------------------------------------------------------------
# schedules

def constant(step_size):
    """The schedule ``i -> step_size``."""
    return lambda i: step_size


def exponential_decay(step_size, decay_steps, decay_rate):
    """``i -> step_size * decay_rate ** (i / decay_steps)``."""
    return lambda i: step_size * decay_rate ** (i / decay_steps)


def inverse_time_decay(step_size, decay_steps, decay_rate, staircase=False):
    """``i -> step_size / (1 + decay_rate * i / decay_steps)`` (the quotient floored
    with ``staircase``)."""
    if staircase:
        return lambda i: step_size / (1 + decay_rate * jnp.floor(i / decay_steps))
    return lambda i: step_size / (1 + decay_rate * i / decay_steps)


def polynomial_decay(step_size, decay_steps, final_step_size, power=1.0):
    """From ``step_size`` to ``final_step_size`` over ``decay_steps`` steps along
    ``(1 - i / decay_steps) ** power``, then constant."""
    def schedule(step_num):
        step_num = jnp.minimum(step_num, decay_steps)
        mult = (1 - step_num / decay_steps) ** power
        return mult * (step_size - final_step_size) + final_step_size
    return schedule


def piecewise_constant(boundaries, values):
    """``values[k]`` for steps past ``k`` of the ``boundaries``.

    Raises
    ------
    ValueError
        Unless both are 1-D and there is one more value than boundaries.
    """
    boundaries, values = jnp.array(boundaries), jnp.array(values)
    if not boundaries.ndim == values.ndim == 1:
        raise ValueError("boundaries and values must be sequences")
    if not boundaries.shape[0] == values.shape[0] - 1:
        raise ValueError("boundaries length must be one shorter than values length")
    return lambda i: values[jnp.sum(i > boundaries)]


def make_schedule(scalar_or_schedule):
    """A schedule unchanged, a scalar as a constant schedule.

    Raises
    ------
    TypeError
        For anything else.
    """
    if callable(scalar_or_schedule):
        return scalar_or_schedule
    if jnp.ndim(scalar_or_schedule) == 0:
        return constant(scalar_or_schedule)
    raise TypeError(type(scalar_or_schedule))


# ---------------------------------------------------------------------------------------
# utilities

def l2_norm(tree):
    """The Euclidean norm of all the leaves of ``tree`` together."""
    leaves, _ = tree_flatten(tree)
    return jnp.sqrt(sum(jnp.vdot(x, x) for x in leaves))


def clip_grads(grad_tree, max_norm):
    """Scale ``grad_tree`` down to ``l2_norm`` ``max_norm`` if it is longer."""
    norm = l2_norm(grad_tree)
    return tree_map(lambda g: jnp.where(norm < max_norm, g, g * (max_norm / norm)),
                    grad_tree)


class JoinPoint:
    """Marks where a parameter's state subtree joins the parameter tree (so
    ``unpack_optimizer_state`` gives a pytree whose leaves are these markers)."""

    def __init__(self, subtree):
        self.subtree = subtree

    def __iter__(self):
        yield self.subtree


def unpack_optimizer_state(opt_state):
    """An ``OptimizerState`` as the parameter tree with a ``JoinPoint`` (holding that
    parameter's state) at each leaf, e.g. to pickle it."""
    states_flat, tree_def, subtree_defs = opt_state
    subtrees = [tree_unflatten(d, s) for d, s in zip(subtree_defs, states_flat, strict=True)]
    return tree_unflatten(tree_def, [JoinPoint(s) for s in subtrees])


def pack_optimizer_state(marked_pytree):
    """The inverse of ``unpack_optimizer_state``."""
    sentinels, tree_def = tree_flatten(marked_pytree)
    assert all(isinstance(s, JoinPoint) for s in sentinels)
    states_flat, subtree_defs = _flatten_each([s.subtree for s in sentinels])
    return OptimizerState(states_flat, tree_def, subtree_defs)
