"""Configuration: x64 switching through config.update and the environment."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp


@pytest.fixture
def x64():
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", False)


def test_defaults_are_32_bit():
    assert jnp.arange(1000000).dtype == np.int32
    assert jnp.ones(3).dtype == np.float32
    assert jnp.asarray(np.arange(3)).dtype == np.int32


def test_update_enables_64_bit(x64):
    assert jnp.arange(1000000).dtype == np.int64
    assert jnp.ones(3).dtype == np.float64
    assert str(jax.make_jaxpr(lambda x: x * 2.0)(1.0)) == \
        "{ lambda ; a:f64[]. let b:f64[] = mul a 2.0:f64[] in (b,) }"


@pytest.mark.parametrize("var", ["TRANSPILE_ENABLE_X64", "JAX_ENABLE_X64"])
def test_environment_variable(var):
    env = {k: v for k, v in os.environ.items() if not k.endswith("ENABLE_X64")}
    env[var] = "1"
    code = "import transpile.numpy as jnp; print(jnp.ones(2).dtype, jnp.arange(3).dtype)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True)
    assert out.stdout.split() == ["float64", "int64"]


def test_explicit_64_bit_request_warns_and_truncates():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        x = jnp.zeros(3, dtype=jnp.float64)
    assert x.dtype == np.float32
    assert any("Explicitly requested dtype float64" in str(m.message) and
               "will be truncated to dtype float32" in str(m.message) for m in w)


def test_unknown_option():
    with pytest.raises(AttributeError):
        jax.config.update("jax_no_such_thing", 1)
