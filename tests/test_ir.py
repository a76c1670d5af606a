"""The jaxpr printer's layout rules, on jaxprs built by hand (independent of tracing)."""
import numpy as np
import pytest

from transpile import ir, lax
from transpile import pretty as pp
from transpile.core import ShapedArray
from transpile.errors import JaxprTypeError
from transpile.ir import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, _alpha, typecheck

F32 = ShapedArray((), np.float32)


@pytest.mark.parametrize("n,name", [(0, "a"), (25, "z"), (26, "ba"), (27, "bb"), (51, "bz"),
                                    (52, "ca"), (675, "zz"), (676, "baa")])
def test_base26_names(n, name):
    assert _alpha(n) == name


def _chain(n):
    x = Var(F32)
    eqns, cur = [], x
    for _ in range(n):
        out = Var(F32)
        eqns.append(JaxprEqn((cur,), (out,), lax.sin_p, {}))
        cur = out
    return Jaxpr((), (x,), (cur,), tuple(eqns))


def test_flat_when_it_fits():
    assert str(_chain(2)) == "{ lambda ; a:f32[]. let b:f32[] = sin a; c:f32[] = sin b in (c,) }"


def test_breaks_when_too_wide_and_names_pass_z():
    text = str(_chain(30))
    lines = text.splitlines()
    assert lines[0] == "{ lambda ; a:f32[]. let"
    assert lines[1] == "    b:f32[] = sin a"
    assert lines[-2] == "    be:f32[] = sin bd"
    assert lines[-1] == "  in (be,) }"


def test_empty_body_and_literal_outputs():
    x = Var(F32)
    j = Jaxpr((), (x,), (x, Literal(np.int32(3), ShapedArray((), np.int32, True))), ())
    assert str(j) == "{ lambda ; a:f32[]. let  in (a, 3:i32[]) }"
    assert str(Jaxpr((), (), (), ())) == "{ lambda ; . let  in () }"


def test_unused_outputs_print_as_underscore():
    x = Var(F32)
    dead, live = Var(F32), Var(F32)
    j = Jaxpr((), (x,), (live,), (JaxprEqn((x,), (dead,), lax.sin_p, {}),
                                  JaxprEqn((x,), (live,), lax.cos_p, {})))
    assert str(j) == "{ lambda ; a:f32[]. let _:f32[] = sin a; b:f32[] = cos a in (b,) }"


def test_binder_list_wraps_at_80_columns():
    # Recorded from JAX 0.10.2: make_jaxpr(lambda *a: a[0])(*[1.0] * 12), trailing
    # spaces of the empty body line included.
    xs = [Var(F32) for _ in range(12)]
    j = Jaxpr((), tuple(xs), (xs[0],), ())
    assert str(j) == ("{ lambda ; a:f32[] b:f32[] c:f32[] d:f32[] e:f32[] f:f32[] g:f32[] "
                      "h:f32[] i:f32[]\n    j:f32[] k:f32[] l:f32[]. let\n    \n  in (a,) }")


@pytest.mark.parametrize("widths", [(1,), (3, 40), (70, 70)])
def test_one_line_equations_print_as_their_documents(widths):
    # The printer writes an equation that fits on its line as one text; the document
    # path (the layout engine) must give the same text, equations too wide included.
    x = Var(ShapedArray((2,) * 1, np.float32))
    eqns, cur = [], x
    for w in widths * 3:
        out = Var(ShapedArray((2,) * w, np.float32))
        eqns.append(JaxprEqn((cur,), (out,), lax.broadcast_in_dim_p,
                             {"shape": (2,) * w, "broadcast_dimensions": (0,),
                              "sharding": None}))
        dead = Var(F32)
        eqns.append(JaxprEqn((cur, cur), (dead,), lax.add_p, {}))
        cur = out
    j = Jaxpr((), (x,), (cur,), tuple(eqns))
    ctx = ir._PpContext(ir._unused_outvars(j))
    assert str(j) == pp.render(ir._pp_jaxpr(j, ctx, None), 80)
    # with 40 or 70 dimensions, equations are too wide for a line: their groups break
    broken = len(str(j).splitlines()) > len(eqns) + 2
    assert broken == (max(widths) >= 40)


def test_typecheck_catches_bad_types_and_scoping():
    x, y = Var(F32), Var(ShapedArray((3,), np.float32))
    bad = Jaxpr((), (x,), (y,), (JaxprEqn((x,), (y,), lax.sin_p, {}),))
    with pytest.raises(JaxprTypeError, match="sin"):
        typecheck(bad)
    z = Var(F32)
    unbound = Jaxpr((), (x,), (z,), (JaxprEqn((Var(F32),), (z,), lax.sin_p, {}),))
    with pytest.raises(JaxprTypeError, match="not defined"):
        typecheck(unbound)
    typecheck(ClosedJaxpr(_chain(3), []))
