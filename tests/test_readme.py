"""Every code example in README.md runs as written: the ``>>>`` examples as doctests
(one shared namespace, in order, output compared), the other Python blocks executed in
a fresh folder (a block that needs a GPU only where one is present)."""
import doctest
import os
import pathlib
import re
import sys

import pytest

import transpile
import transpile.numpy as jnp

from mpi_launch import mpirun_prefix, run

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _blocks() -> list:
    return _BLOCK.findall(README.read_text(encoding="utf-8"))


def _has_gpu() -> bool:
    try:
        return bool(transpile.devices("cuda"))
    except RuntimeError:
        return False


def _run_as_processes(code: str, folder: pathlib.Path) -> None:
    """A program of several devices: alone with two CPU devices, then under ``mpirun -n
    2`` (where present); both print what the README says they print."""
    (folder / "prog.py").write_text(code)
    env = dict(os.environ, PYTHONPATH=str(README.parent), JAX_NUM_CPU_DEVICES="2")
    alone = run([sys.executable, "prog.py"], cwd=folder, env=env)
    printed = [line for line in alone.splitlines() if line.strip()]
    assert printed and all(f"`{line}`" in README.read_text() for line in printed), alone
    env["JAX_NUM_CPU_DEVICES"] = "1"
    assert run(mpirun_prefix(2) + [sys.executable, "-m", "mpi4py", "prog.py"], cwd=folder,
               env=env) == alone


def test_readme_has_examples():
    blocks = _blocks()
    assert sum(b.lstrip().startswith(">>>") for b in blocks) >= 3
    assert sum(not b.lstrip().startswith(">>>") for b in blocks) >= 2


def test_doctest_examples_give_their_output():
    text = "\n".join(b for b in _blocks() if b.lstrip().startswith(">>>"))
    test = doctest.DocTestParser().get_doctest(
        text, {"jax": transpile, "jnp": jnp}, "README", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
    assert runner.tries >= 5


@pytest.mark.parametrize("index", [i for i, b in enumerate(_blocks())
                                   if not b.lstrip().startswith(">>>")])
def test_script_example_runs(index, tmp_path, monkeypatch, capsys):
    code = _blocks()[index]
    if 'devices("cuda")' in code and not _has_gpu():
        pytest.skip("needs an NVIDIA GPU")
    monkeypatch.chdir(tmp_path)
    if "mpirun -n 2" in code:  # a program of several processes: run as the block says
        _run_as_processes(code, tmp_path)
        return
    exec(compile(code, f"README.md block {index}", "exec"), {"__name__": "__readme__"})
    if "export_c" in code:   # the export wrote its files where the example says
        assert any(p.suffix == ".h" for p in tmp_path.rglob("*")), os.listdir(tmp_path)
