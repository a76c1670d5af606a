"""vmap of conv_general_dilated against JAX 0.10.2: values and the jaxpr of the folded
convolution (the vmapped axis into the batch, the output features, or the groups)."""
import pytest

import transpile as jax
from transpile import lax
from conv_checks import DATA, check, kwargs
from convolution_cases import CASES, operand

BY_NAME = {c[0]: c for c in CASES}


@pytest.mark.parametrize("rec", DATA["vmap"],
                         ids=lambda r: f"{r['case']}-{r['lhs_batched']}-{r['rhs_batched']}")
def test_vmap(rec):
    _, lhs, rhs, dtype, kw = BY_NAME[rec["case"]]
    lb, rb = rec["lhs_batched"], rec["rhs_batched"]
    x = operand((3,) + lhs if lb else lhs, dtype, 1)
    w = operand((3,) + rhs if rb else rhs, dtype, 2)
    f = jax.vmap(lambda a, b: lax.conv_general_dilated(a, b, **kwargs(kw)),
                 in_axes=(0 if lb else None, 0 if rb else None))
    check(f(x, w), rec["out"], dtype)
    assert str(jax.make_jaxpr(f)(x, w)) == rec["jaxpr"]
