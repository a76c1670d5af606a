"""Every code example in README.md runs as written: the ``>>>`` examples as doctests
(one shared namespace, in order, output compared), the other Python blocks executed in
a fresh folder (a block that needs a GPU only where one is present)."""
import doctest
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

import transpile
import transpile.numpy as jnp

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _blocks() -> list:
    return _BLOCK.findall(README.read_text(encoding="utf-8"))


def _has_gpu() -> bool:
    try:
        return bool(transpile.devices("cuda"))
    except RuntimeError:
        return False


def _run_under_mpirun(code: str, folder: pathlib.Path) -> None:
    mpirun = shutil.which("mpirun")
    if mpirun is None or importlib.util.find_spec("mpi4py") is None:
        pytest.skip("needs mpirun and mpi4py (pip install 'transpile[mpi]')")
    (folder / "prog.py").write_text(code)
    flags = ["--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else []) \
        if "Open MPI" in subprocess.run([mpirun, "--version"], capture_output=True,
                                        text=True).stdout else []
    env = dict(os.environ, PYTHONPATH=str(README.parent))
    proc = subprocess.run([mpirun, "-n", "2", *flags, sys.executable, "-m", "mpi4py",
                           "prog.py"], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


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
        _run_under_mpirun(code, tmp_path)
        return
    exec(compile(code, f"README.md block {index}", "exec"), {"__name__": "__readme__"})
    if "export_c" in code:   # the export wrote its files where the example says
        assert any(p.suffix == ".h" for p in tmp_path.rglob("*")), os.listdir(tmp_path)
