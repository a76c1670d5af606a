"""Configuration options (``transpile/config.py``) against JAX 0.10.2's behaviour
recorded by ``tools/record_config_options.py`` in ``tests/data/config_options.json``:
defaults, refused values and unknown names, ``jax_debug_nans``/``jax_debug_infs``
(``transpile/float_checks.py``: errors and what is printed, eagerly and under ``jit``),
strict dtype promotion, the ``JAX_*`` environment variables read at import, and
``jax_compilation_cache_dir`` naming the disk cache.
"""
import ast
import json
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import transpile as jax
import transpile.numpy  # noqa: F401
from transpile.backend import cache

import config_option_cases

RECORD = json.loads((pathlib.Path(__file__).parent / "data" / "config_options.json")
                    .read_text())
DATA = RECORD["cases"]
CASES = config_option_cases.cases(jax)
_DTYPES = re.compile(r"Input dtypes (\(.*?\)) have")


def _normalise(error: str) -> str:
    # JAX names the dtypes of a set, in the set's (hash) order, which changes from one
    # process to the next: compare them sorted.
    m = _DTYPES.search(error)
    if m is None:
        return error
    names = tuple(sorted(ast.literal_eval(m.group(1))))
    return error[:m.start(1)] + repr(names) + error[m.end(1):]


def test_every_case_is_recorded():
    assert sorted(CASES) == sorted(DATA)


@pytest.mark.parametrize("name", sorted(DATA))
def test_option_matches_jax(name):
    got = config_option_cases.run(jax, CASES[name])
    want = DATA[name]
    assert got["stdout"] == want["stdout"]
    if "error" in want:
        assert _normalise(got.get("error", repr(got))) == _normalise(want["error"])
        return
    assert "error" not in got, got["error"]
    g, w = got["result"], want["result"]
    if isinstance(w, dict) and "dtype" in w:
        assert g["dtype"] == w["dtype"]
        np.testing.assert_allclose(np.asarray(g["value"], np.float64),
                                   np.asarray(w["value"], np.float64), rtol=1e-6)
    else:
        assert g == w


ENV_VALID = {k: v for k, v in RECORD["environment"].items()
             if not str(v).startswith("ValueError") and k != "JAX_DEBUG_NANS=off"}


def _in_child(env_pairs: dict, code: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("JAX_") or k.startswith("TRANSPILE_") and
                   k != "TRANSPILE_CACHE_DIR")}
    env.update(env_pairs)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=pathlib.Path(__file__).parent.parent)


def test_environment_variables_are_read_at_import():
    pairs = dict(k.split("=", 1) for k in ENV_VALID)
    options = {k: "jax_" + k.split("=")[0][4:].lower() for k in ENV_VALID}
    code = ("import json, transpile as jax; print(json.dumps({k: getattr(getattr(jax.config,"
            f" o), 'value', getattr(jax.config, o)) for k, o in {options!r}.items()}}))")
    got = _in_child(pairs, code)
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout) == ENV_VALID


def test_environment_refused_truth_value_and_transpile_prefix_first():
    want = RECORD["environment"]["JAX_DEBUG_NANS=maybe"]
    got = _in_child({"JAX_DEBUG_NANS": "maybe"}, "import transpile")
    assert got.returncode != 0 and got.stderr.strip().splitlines()[-1] == want
    got = _in_child({"JAX_DEBUG_NANS": "1", "TRANSPILE_DEBUG_NANS": "0"},
                    "import transpile as jax; print(jax.config.jax_debug_nans)")
    assert got.stdout.split() == ["False"]


def test_debug_nans_from_the_environment_raises():
    got = _in_child({"JAX_DEBUG_NANS": "1"},
                    "import transpile.numpy as jnp\ntry:\n jnp.log(-jnp.ones(2))\n"
                    "except FloatingPointError as e:\n print('raised', e)")
    assert got.stdout.splitlines()[-1] == "raised " + \
        DATA["nans_eager_log"]["error"].split(": ", 1)[1]


def test_compilation_cache_dir_names_the_disk_cache(tmp_path):
    before = cache.cache_dir()
    try:
        jax.config.update("jax_compilation_cache_dir", str(tmp_path / "c"))
        assert cache.cache_dir() == tmp_path / "c"
        assert jax.jit(lambda x: x * 3 + 1)(np.arange(3.0, dtype=np.float32)).tolist() \
            == [1.0, 4.0, 7.0]
        assert any((tmp_path / "c").iterdir())
    finally:
        jax.config.update("jax_compilation_cache_dir", None)
    assert cache.cache_dir() == before


def test_enable_checks_typechecks_traces():
    jax.config.update("jax_enable_checks", True)
    try:
        assert float(jax.jit(lambda x: jax.numpy.sin(x) * 2)(1.0)) == \
            pytest.approx(2 * np.sin(1.0), rel=1e-6)
    finally:
        jax.config.update("jax_enable_checks", False)


def test_platforms_names_the_default_device():
    jax.config.update("jax_platforms", "cpu")
    try:
        assert jax.devices()[0].platform == "cpu"
        assert jax.default_backend() == "cpu"
    finally:
        jax.config.update("jax_platforms", None)
