"""The ``random_gamma`` primitive: standard gamma draws, one per element of ``a``, from
a key array whose shape is a prefix of ``a``'s (JAX 0.10.2's ``random_gamma_p``).

Its computation is a jaxpr of other primitives (JAX's ``lower_fun`` of
``_gamma_impl``: per element, a key split off and a Marsaglia-Tsang ``while`` loop),
built by ``transpile.random.gamma_family``, which registers it in
``lax.call.EXPANSIONS``. The NumPy rule evaluates that jaxpr, ``passes.inline``
splices it in before compiling, and eager calls run compiled, like the loops they are.

Params: ``log_space`` (bool): return ``log`` of the draw, computed without underflow
for small ``a``.

The derivative in ``a`` is the implicit one JAX uses: ``random_gamma_grad(a, draw)``
(the draw's derivative along the inverse of the gamma CDF); in log space divided by the
draw, whose ``exp`` may underflow to 0 and is then taken as the smallest normal float.
"""
from __future__ import annotations

from .. import core, dtypes
from ..interpreters import ad
from ..interpreters import eval as eval_mod
from ..interpreters.batching import bdim_at_front, not_mapped, primitive_batchers
from ..interpreters.eval import eval_jaxpr_numpy
from .call import EXPANSIONS
from .elementwise import div, eq, exp, mul, select_n
from .special import random_gamma_grad
from .structural import full_like

__all__ = ["random_gamma_p"]

random_gamma_p = core.new_primitive("random_gamma")
random_gamma_p.cost = core.Cost.HASH


@random_gamma_p.def_abstract_eval
def _random_gamma_abstract(key, a, *, log_space):
    if not dtypes.is_key(key.dtype):
        raise TypeError(f"random_gamma requires a key array, got {key.str_short()}")
    if a.dtype.kind != "f":
        raise TypeError(f"random_gamma requires a floating a, got {a.str_short()}")
    if tuple(a.shape[:len(key.shape)]) != tuple(key.shape):
        raise TypeError(f"random_gamma: key shape {key.shape} is not a prefix of a's shape "
                        f"{a.shape}")
    return a


@random_gamma_p.def_impl
def _random_gamma_impl(key, a, *, log_space):
    expand = EXPANSIONS.get(random_gamma_p)
    if expand is None:
        raise RuntimeError("random_gamma has no expansion: import transpile.random")
    closed = expand([core.get_aval(key), core.get_aval(a)], log_space=log_space)
    return eval_jaxpr_numpy(closed.jaxpr, closed.consts, key, a)[0]


def _random_gamma_batch(vals, dims, *, log_space):
    # As JAX: both batch axes in front (the key's shape stays a prefix of a's).
    size = next(v.shape[d] for v, d in zip(vals, dims, strict=True) if d is not not_mapped)
    key, a = (bdim_at_front(v, d, size) for v, d in zip(vals, dims, strict=True))
    return random_gamma_p.bind(key, a, log_space=log_space), 0


primitive_batchers[random_gamma_p] = _random_gamma_batch


def _random_gamma_jvp_a(g, ans, key, a, *, log_space):
    if not log_space:
        return mul(g, random_gamma_grad(a, ans))
    draw = exp(ans)
    tiny = full_like(draw, float(dtypes.finfo(draw.dtype).tiny))
    draw = select_n(eq(draw, full_like(draw, 0.0)), draw, tiny)
    return mul(g, div(random_gamma_grad(a, draw), draw))


# The key has no tangent.
ad.defjvp2(random_gamma_p, None, _random_gamma_jvp_a)
# A loop: its NumPy rule is far slower than a build, as for ``while``.
eval_mod.compiled_eagerly[random_gamma_p] = lambda params: True
