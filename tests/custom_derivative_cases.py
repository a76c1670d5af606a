"""The idioms of JAX's "Custom derivative rules" tutorial as small programs, shared by
``tests/test_custom_derivatives_idioms.py`` and ``tools/record_custom_derivatives.py``
(which runs them in JAX 0.10.2 and writes ``tests/data/custom_derivatives.json``).

``cases(M)`` takes the library (``jax`` or ``transpile``: its ``numpy``, ``lax``,
``custom_jvp``, ``custom_vjp``, ``grad``, ``jit``, ``vmap``, ``jvp``, ``vjp``) and
returns ``name -> thunk``; a thunk runs one idiom and returns ``(outputs, log)``, the
log listing the side effects (which user functions ran, in order). ``encode`` turns
outputs into JSON: per leaf its kind (``Array``, Python ``float``/``int``/``bool``,
``ndarray``), value, dtype and weak type. Nothing here imports jax or transpile.
"""
from __future__ import annotations

from collections import namedtuple
from functools import partial

import numpy as np

Point = namedtuple("Point", ["x", "y"])


def encode_leaf(v):
    """One output leaf as JSON: what kind of object it is, and its value and type."""
    if isinstance(v, bool):
        return {"kind": "bool", "value": v}
    if isinstance(v, int):
        return {"kind": "int", "value": int(v)}
    if isinstance(v, float):
        return {"kind": "float", "value": float(v)}
    kind = "ndarray" if isinstance(v, np.ndarray) else "Array"
    a = np.asarray(v)
    return {"kind": kind, "value": a.tolist(), "dtype": a.dtype.name, "shape": list(a.shape),
            "weak_type": bool(getattr(v, "weak_type", False))}


def encode(tree_util, out):
    leaves, tree = tree_util.tree_flatten(out)
    return {"leaves": [encode_leaf(v) for v in leaves], "tree": str(tree)}


def cases(M):  # noqa: C901 - one flat table of small programs
    jnp, lax = M.numpy, M.lax
    custom_jvp, custom_vjp = M.custom_jvp, M.custom_vjp
    grad, jit, vmap, jvp, vjp = M.grad, M.jit, M.vmap, M.jvp, M.vjp
    out = {}

    def case(fn):
        out[fn.__name__] = fn
        return fn

    # -- numerical stability: log1pexp -------------------------------------------------
    def make_log1pexp(log, defjvps=False):
        @custom_jvp
        def log1pexp(x):
            log.append("log1pexp")
            return jnp.log(1. + jnp.exp(x))

        if defjvps:
            log1pexp.defjvps(lambda t, ans, x: (1 - 1 / (1 + jnp.exp(x))) * t)
        else:
            @log1pexp.defjvp
            def log1pexp_jvp(primals, tangents):
                log.append("log1pexp_jvp")
                x, = primals
                x_dot, = tangents
                ans = log1pexp(x)
                return ans, (1 - 1 / (1 + jnp.exp(x))) * x_dot
        return log1pexp

    @case
    def log1pexp_grad_100():
        log = []
        return grad(make_log1pexp(log))(100.), log

    @case
    def log1pexp_jit_and_vmap():
        log = []
        f = make_log1pexp(log)
        return (jit(f)(3.), jit(grad(f))(3.), vmap(jit(grad(f)))(jnp.arange(3.))), log

    @case
    def log1pexp_defjvps():
        log = []
        f = make_log1pexp(log, defjvps=True)
        return (f(3.), grad(f)(100.), jvp(f, (3.,), (1.,))), log

    # -- enforcing a differentiation convention ----------------------------------------
    @case
    def convention_sqrt_at_zero():
        @custom_jvp
        def f(x):
            return x / (1 + jnp.sqrt(x))

        @f.defjvp
        def f_jvp(primals, tangents):
            x, = primals
            x_dot, = tangents
            ans = f(x)
            return ans, ((jnp.sqrt(x) + 2) / (2 * (jnp.sqrt(x) + 1) ** 2)) * x_dot
        return (grad(f)(0.), f(0.), f(4.)), []

    # -- side effects: how often each function runs ------------------------------------
    def make_sin_jvp(log):
        @custom_jvp
        def f(x):
            log.append("f")
            return jnp.sin(x)

        @f.defjvp
        def f_jvp(primals, tangents):
            log.append("f_jvp")
            x, = primals
            t, = tangents
            return f(x), jnp.cos(x) * t
        return f

    for label, run in [("eager", lambda f: f(3.)),
                       ("vmap", lambda f: vmap(f)(jnp.arange(3.))),
                       ("jit", lambda f: jit(f)(3.)),
                       ("jvp", lambda f: jvp(f, (3.,), (1.,))),
                       ("grad", lambda f: grad(f)(3.)),
                       ("jit_grad", lambda f: jit(grad(f))(3.)),
                       ("grad_grad", lambda f: grad(grad(f))(3.))]:
        def calls(run=run):
            log = []
            return run(make_sin_jvp(log)), log
        out[f"jvp_calls_{label}"] = calls

    def make_sin_vjp(log):
        @custom_vjp
        def f(x):
            log.append("f")
            return jnp.sin(x)

        def f_fwd(x):
            log.append("f_fwd")
            return f(x), jnp.cos(x)

        def f_bwd(cos_x, y_bar):
            log.append("f_bwd")
            return (cos_x * y_bar,)
        f.defvjp(f_fwd, f_bwd)
        return f

    for label, run in [("eager", lambda f: f(3.)),
                       ("grad", lambda f: grad(f)(3.)),
                       ("vjp", lambda f: vjp(f, 3.)[0]),
                       ("vjp_apply", lambda f: vjp(f, 3.)[1](1.)),
                       ("jit", lambda f: jit(f)(3.)),
                       ("jit_grad", lambda f: jit(grad(f))(3.)),
                       ("vmap", lambda f: vmap(f)(jnp.arange(3.))),
                       ("jvp", lambda f: jvp(f, (3.,), (1.,)))]:
        def vcalls(run=run):
            log = []
            return run(make_sin_vjp(log)), log
        out[f"vjp_calls_{label}"] = vcalls

    # -- Python control flow on the input ----------------------------------------------
    @case
    def jvp_python_control_flow():
        @custom_jvp
        def f(x):
            if x > 0:
                return jnp.sin(x)
            return jnp.cos(x)

        @f.defjvp
        def f_jvp(primals, tangents):
            x, = primals
            x_dot, = tangents
            ans = f(x)
            if x > 0:
                return ans, 2 * x_dot
            return ans, 3 * x_dot
        return (grad(f)(1.), grad(f)(-1.), f(1.), jvp(f, (-1.,), (1.,))), []

    @case
    def vjp_python_control_flow():
        @custom_vjp
        def f(x):
            if x > 0:
                return jnp.sin(x)
            return jnp.cos(x)

        def f_fwd(x):
            return f(x), x

        def f_bwd(x, g):
            if x > 0:
                return (2 * g,)
            return (3 * g,)
        f.defvjp(f_fwd, f_bwd)
        return (grad(f)(1.), grad(f)(-1.)), []

    # -- basic two-argument rules ------------------------------------------------------
    @case
    def jvp_two_args():
        @custom_jvp
        def f(x, y):
            return jnp.sin(x) * y

        @f.defjvp
        def f_jvp(primals, tangents):
            x, y = primals
            x_dot, y_dot = tangents
            return f(x, y), jnp.cos(x) * x_dot * y + jnp.sin(x) * y_dot
        return (f(2., 3.), jvp(f, (2., 3.), (1., 0.)), grad(f)(2., 3.),
                grad(f, argnums=(0, 1))(2., 3.)), []

    @case
    def jvp_two_args_defjvps():
        @custom_jvp
        def f(x, y):
            return jnp.sin(x) * y
        f.defjvps(lambda x_dot, primal_out, x, y: jnp.cos(x) * x_dot * y,
                  lambda y_dot, primal_out, x, y: jnp.sin(x) * y_dot)
        return (f(2., 3.), jvp(f, (2., 3.), (1., 0.)), grad(f)(2., 3.)), []

    @case
    def jvp_keyword_arguments():
        @custom_jvp
        def f(x, y=2.):
            return jnp.sin(x) * y

        @f.defjvp
        def f_jvp(primals, tangents):
            x, y = primals
            x_dot, y_dot = tangents
            return f(x, y), jnp.cos(x) * x_dot * y + jnp.sin(x) * y_dot
        return (f(x=2., y=3.), f(2.), grad(lambda x: f(x, y=3.))(2.),
                grad(lambda x: f(x))(2.)), []

    @case
    def vjp_two_args():
        @custom_vjp
        def f(x, y):
            return jnp.sin(x) * y

        def f_fwd(x, y):
            return f(x, y), (jnp.cos(x), jnp.sin(x), y)

        def f_bwd(res, g):
            cos_x, sin_x, y = res
            return (cos_x * g * y, sin_x * g)
        f.defvjp(f_fwd, f_bwd)
        return (f(2., 3.), grad(f)(2., 3.), grad(f, argnums=(0, 1))(2., 3.)), []

    # -- gradient clipping: bwd returns None for the bounds ----------------------------
    @case
    def vjp_clip_gradient_none():
        @custom_vjp
        def clip_gradient(lo, hi, x):
            return x

        def clip_gradient_fwd(lo, hi, x):
            return x, (lo, hi)

        def clip_gradient_bwd(res, g):
            lo, hi = res
            return (None, None, jnp.clip(g, lo, hi))
        clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)

        def clip_sin(x):
            return jnp.sin(clip_gradient(-0.75, 0.75, x))
        t = jnp.linspace(0., 10., 6)
        return (vmap(grad(clip_sin))(t), grad(clip_sin)(2.), jit(grad(clip_sin))(0.5),
                grad(lambda lo, x: clip_gradient(lo, 0.75, x), argnums=(0, 1))(-0.5, 1.)), []

    # -- non-differentiable arguments --------------------------------------------------
    @case
    def jvp_nondiff_function_arg():
        @partial(custom_jvp, nondiff_argnums=(0,))
        def app(f, x):
            return f(x)

        @app.defjvp
        def app_jvp(f, primals, tangents):
            x, = primals
            x_dot, = tangents
            return f(x), 2. * x_dot
        cube = lambda x: x ** 3  # noqa: E731
        return (app(cube, 3.), grad(app, 1)(cube, 3.), jit(app, static_argnums=0)(cube, 3.),
                jvp(partial(app, cube), (3.,), (1.,))), []

    @case
    def jvp_nondiff_two_functions():
        @partial(custom_jvp, nondiff_argnums=(0, 2))
        def app2(f, x, g):
            return f(g(x))

        @app2.defjvp
        def app2_jvp(f, g, primals, tangents):
            x, = primals
            x_dot, = tangents
            return f(g(x)), 3. * x_dot
        cube, five = (lambda x: x ** 3), (lambda y: 5 * y)
        return (app2(cube, 3., five), grad(app2, 1)(cube, 3., five)), []

    @case
    def vjp_nondiff_function_arg():
        @partial(custom_vjp, nondiff_argnums=(0,))
        def app(f, x):
            return f(x)

        def app_fwd(f, x):
            return f(x), x

        def app_bwd(f, x, g):
            return (5 * g,)
        app.defvjp(app_fwd, app_bwd)
        sq = lambda x: x ** 2  # noqa: E731
        return (app(sq, 4.), grad(app, 1)(sq, 4.)), []

    @case
    def jvp_nondiff_array_arg():
        @partial(custom_jvp, nondiff_argnums=(0,))
        def f(a, x):
            return a * x
        f.defjvp(lambda a, p, t: (f(a, p[0]), a * t[0]))
        # an array in nondiff_argnums gets no derivative (stop_gradient)
        return (grad(f, argnums=1)(2., 3.), grad(f, argnums=0)(2., 3.),
                jit(f)(2., 3.), jit(grad(f, argnums=1))(2., 3.)), []

    def make_vjp_nondiff_array():
        @partial(custom_vjp, nondiff_argnums=(0,))
        def g(a, x):
            return a * x
        g.defvjp(lambda a, x: (g(a, x), x), lambda a, r, ct: (a * ct,))
        return g

    @case
    def vjp_nondiff_array_concrete():
        return grad(make_vjp_nondiff_array(), argnums=1)(2., 3.), []

    @case
    def error_vjp_nondiff_tracer():
        return jit(make_vjp_nondiff_array())(2., 3.), []

    @case
    def error_vjp_nondiff_tracer_grad():
        return grad(make_vjp_nondiff_array(), argnums=0)(2., 3.), []

    @case
    def integer_arguments_get_float0_tangents():
        log = []

        @custom_jvp
        def f(x, n):
            return x * n

        @f.defjvp
        def f_jvp(p, t):
            (x, n), (xd, nd) = p, t
            log.append(f"{np.dtype(nd.dtype).name}{list(np.shape(nd))}")
            return f(x, n), xd * n

        @custom_vjp
        def g(x, n):
            return x * n
        g.defvjp(lambda x, n: (g(x, n), n), lambda n, ct: (ct * n, None))
        return (grad(f)(2., 3), jit(grad(f))(2., 3), grad(g)(2., 3), jit(grad(g))(2., 3)), log

    # -- implicit differentiation of a fixed point (nondiff function, while_loop) ------
    @case
    def vjp_fixed_point():
        @partial(custom_vjp, nondiff_argnums=(0,))
        def fixed_point(f, a, x_guess):
            def cond_fun(carry):
                x_prev, x = carry
                return jnp.abs(x_prev - x) > 1e-6

            def body_fun(carry):
                _, x = carry
                return x, f(a, x)
            _, x_star = lax.while_loop(cond_fun, body_fun, (x_guess, f(a, x_guess)))
            return x_star

        def fixed_point_fwd(f, a, x_init):
            x_star = fixed_point(f, a, x_init)
            return x_star, (a, x_star)

        def rev_iter(f, packed, u):
            a, x_star, x_star_bar = packed
            _, vjp_x = vjp(lambda x: f(a, x), x_star)
            return x_star_bar + vjp_x(u)[0]

        def fixed_point_rev(f, res, x_star_bar):
            a, x_star = res
            _, vjp_a = vjp(lambda a: f(a, x_star), a)
            a_bar, = vjp_a(fixed_point(partial(rev_iter, f), (a, x_star, x_star_bar),
                                       x_star_bar))
            return a_bar, jnp.zeros_like(x_star)
        fixed_point.defvjp(fixed_point_fwd, fixed_point_rev)

        def newton_sqrt(a):
            return fixed_point(lambda a, x: 0.5 * (x + a / x), a, a)
        return (newton_sqrt(2.), grad(newton_sqrt)(2.), jit(grad(newton_sqrt))(2.)), []

    # -- containers --------------------------------------------------------------------
    @case
    def jvp_containers():
        @custom_jvp
        def f(pt):
            x, y = pt.x, pt.y
            return {"a": x ** 2, "b": (jnp.sin(x), jnp.cos(y))}

        @f.defjvp
        def f_jvp(primals, tangents):
            pt, = primals
            pt_dot, = tangents
            ans = f(pt)
            ans_dot = {"a": 2 * pt.x * pt_dot.x,
                       "b": (jnp.cos(pt.x) * pt_dot.x, -jnp.sin(pt.y) * pt_dot.y)}
            return ans, ans_dot

        def fun(pt):
            dct = f(pt)
            return dct["a"] + dct["b"][0]
        pt = Point(1., 2.)
        return (f(pt), grad(fun)(pt)), []

    @case
    def vjp_containers():
        @custom_vjp
        def f(pt):
            x, y = pt.x, pt.y
            return {"a": x ** 2, "b": (jnp.sin(x), jnp.cos(y))}

        def f_fwd(pt):
            return f(pt), pt

        def f_bwd(pt, g):
            a_bar, (b0_bar, b1_bar) = g["a"], g["b"]
            x_bar = 2 * pt.x * a_bar + jnp.cos(pt.x) * b0_bar
            y_bar = -jnp.sin(pt.y) * b1_bar
            return (Point(x_bar, y_bar),)
        f.defvjp(f_fwd, f_bwd)

        def fun(pt):
            dct = f(pt)
            return dct["a"] + dct["b"][0]
        pt = Point(1., 2.)
        return (f(pt), grad(fun)(pt)), []

    # -- what comes back: Python scalars, NumPy arrays, weak types ---------------------
    @case
    def passthrough_types():
        @custom_jvp
        def ident(x):
            return x
        ident.defjvp(lambda p, t: (p[0], t[0]))

        @custom_jvp
        def cube(x):
            return x ** 3
        cube.defjvp(lambda p, t: (cube(p[0]), 3 * p[0] ** 2 * t[0]))
        return (cube(3.), cube(3), ident(np.float32(2.)), jit(ident)(2.), ident(jnp.asarray(2.)),
                jit(cube)(2.), jvp(ident, (2.,), (1.,)), grad(cube)(2.),
                jvp(cube, (jnp.float32(2.),), (jnp.float32(1.),))), []

    @case
    def weak_type_through_jvp_rule():
        @custom_jvp
        def f(x):
            return x * 2.

        @f.defjvp
        def f_jvp(primals, tangents):
            return f(primals[0]), tangents[0] * 2.
        return (f(1.), jit(f)(1.), grad(f)(1.), jit(grad(f))(1.), vmap(f)(jnp.ones(2)),
                jvp(f, (1.,), (1.,)), jit(lambda x: jvp(f, (x,), (1.,)))(1.)), []

    # -- errors ------------------------------------------------------------------------
    @case
    def error_jvp_of_custom_vjp():
        return jvp(make_sin_vjp([]), (3.,), (1.,)), []

    @case
    def error_bad_tangent_dtype():
        @custom_jvp
        def f(x):
            return x * 2.
        f.defjvp(lambda p, t: (f(p[0]), jnp.asarray(t[0], jnp.int32)))
        return grad(f)(1.), []

    @case
    def error_no_rule():
        @custom_jvp
        def f(x):
            return x
        return f(1.), []

    return out
