"""The project installs with ``pip install .`` and ships templates/ and runtime/."""
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_resources_found_in_checkout():
    from transpile.resources import runtime_dir, templates_dir
    assert (runtime_dir() / "transpile_macros.h").is_file()
    assert templates_dir().is_dir()


@pytest.mark.slow
def test_wheel_ships_templates_and_runtime_and_installs(tmp_path):
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(ROOT)], check=True, env=env,
                   cwd=tmp_path)
    wheel = next((tmp_path / "dist").glob("transpile-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "transpile/runtime/transpile_macros.h" in names
    assert any(n.startswith("transpile/templates/") for n in names)
    # the templates compiled ahead of time (codegen/template_cache.py)
    assert {"transpile/templates/compiled-c.zip", "transpile/templates/compiled-cuda.zip"} \
        <= set(names)
    assert "transpile/numpy/__init__.py" in names and "transpile/lax/__init__.py" in names

    # Install into a fresh virtualenv (reusing this interpreter's numpy etc.) and import it
    # from outside the checkout, so the source tree cannot be picked up by accident.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall",
                    str(wheel)], check=True, env=env, cwd=tmp_path)
    code = ("import transpile, transpile.numpy as jnp; from transpile.resources import "
            "runtime_dir, templates_dir; assert 'site-packages' in transpile.__file__, "
            "transpile.__file__; assert (runtime_dir() / 'transpile_macros.h').is_file(); "
            "assert templates_dir().is_dir(); print(jnp.sum(jnp.arange(4.0))); "
            "print(transpile.jit(lambda x: jnp.sum(jnp.exp(x) * 0 + x))(jnp.arange(4.0)))")
    run_env = {k: v for k, v in env.items() if k != "PYTHONPATH"}
    run_env["TRANSPILE_CACHE_DIR"] = str(tmp_path / "cache")  # compiles from the wheel
    out = subprocess.run([str(py), "-c", code], check=True, capture_output=True, text=True,
                         cwd=tmp_path, env=run_env)
    assert out.stdout.split() == ["6.0", "6.0"]
