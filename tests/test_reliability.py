"""Issue 18, the items outside the cache: export never overwrites what it did not write
(1), Python ints that do not fit raise as in JAX (4), an output that is an input does not
alias the caller's buffer (5), a forked child does not hang (7), host-callback errors
stay with their call (10), export names are checked up front (11), CLI mistakes are one
line and exit status 2 (12)."""
import json
import os
import pathlib
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.__main__ import main

REPO = pathlib.Path(__file__).resolve().parent.parent
DATA = pathlib.Path(__file__).resolve().parent / "data"
F8 = jax.ShapeDtypeStruct((8,), jnp.float32)


# -- item 1: export never overwrites a file it did not write ------------------------------

def test_item1_export_never_overwrites_a_file_it_did_not_write(tmp_path, monkeypatch):
    f = jax.jit(lambda x: x * 2.0)
    out = tmp_path / "out"
    out.mkdir()
    (out / "Makefile").write_text("the user's own Makefile\n")
    with pytest.raises(FileExistsError, match=r"refusing to overwrite .*Makefile.*--force"):
        jax.export_c(f, F8, name="twice", out_dir=out)
    assert (out / "Makefile").read_text() == "the user's own Makefile\n"
    assert sorted(p.name for p in out.iterdir()) == ["Makefile"]  # nothing else written
    # A symbolic link in a file's place is replaced, never written through.
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (out / "twice.c").symlink_to(victim)
    with pytest.raises(FileExistsError, match="twice.c"):
        jax.export_c(f, F8, name="twice", out_dir=out, force=False)
    exported = jax.export_c(f, F8, name="twice", out_dir=out, force=True)
    assert victim.read_text() == "precious"
    assert not (out / "twice.c").is_symlink() and "int twice(" in exported.source.read_text()
    assert "twice" in (out / "Makefile").read_text()
    # Exporting again over its own files needs no force; a file changed since does.
    jax.export_c(f, F8, name="twice", out_dir=out)
    (out / "twice.h").write_text("edited by hand")
    with pytest.raises(FileExistsError, match="twice.h"):
        jax.export_c(f, F8, name="twice", out_dir=out)
    # By default the files go to a new folder named after the function.
    monkeypatch.chdir(tmp_path)
    exported = jax.export_c(f, F8, name="halve")
    assert exported.out_dir == pathlib.Path("halve") and (tmp_path / "halve" / "halve.c").exists()
    assert not (tmp_path / "halve.c").exists() and not (tmp_path / "Makefile").exists()


# -- item 4: Python ints outside the traced dtype raise JAX's OverflowError ----------------

_OVERFLOW = json.loads((DATA / "overflow_errors.json").read_text())["cases"]


@pytest.mark.parametrize("name", sorted(_OVERFLOW))
def test_item4_python_int_overflow_raises_as_jax(name):
    case = _OVERFLOW[name]
    run = lambda: eval(case["code"], {"jax": jax, "jnp": jnp, "lax": lax})  # noqa: E731,S307
    if "error" in case:
        with pytest.raises(OverflowError) as info:
            run()
        assert type(info.value).__name__ == case["error"]
        assert str(info.value) == case["message"]
    else:
        assert np.asarray(run()).tolist() == case["value"]


# -- item 5: an output that is an input never aliases the caller's buffer ------------------

def test_item5_output_that_is_an_input_does_not_alias_the_callers_array():
    a = np.arange(4, dtype=np.float32)
    out, doubled = jax.jit(lambda x: (x, x * 2))(a)
    a[0] = 5.0  # the caller's array stays writable
    assert a.flags.writeable and a.tolist() == [5.0, 1.0, 2.0, 3.0]
    assert np.asarray(out).tolist() == [0.0, 1.0, 2.0, 3.0]  # the result never changes
    assert np.asarray(doubled).tolist() == [0.0, 2.0, 4.0, 6.0]
    # A closed-over NumPy constant returned as is stays the caller's, writable, too.
    c = np.ones(3, np.float32)
    res = jax.jit(lambda x: (c, x + 1))(np.zeros(3, np.float32))[0]
    c[1] = 7.0
    assert c.flags.writeable and np.asarray(res).tolist() == [1.0, 1.0, 1.0]


# -- item 7: a forked child works --------------------------------------------------------

_FORK_SCRIPT = textwrap.dedent("""
    import importlib, os, sys, threading, time, warnings
    import transpile as jax, transpile.numpy as jnp
    buildmod = importlib.import_module("transpile.backend.build")
    f = jax.jit(lambda x: jnp.sin(x) * 2 + 1)
    x = jnp.ones(2_000_000)
    want = float(f(x)[0])
    # Another thread holds the build lock at the moment of the fork.
    held, release = threading.Event(), threading.Event()
    def holder():
        with buildmod._BUILD_LOCK:
            held.set(); release.wait()
    t = threading.Thread(target=holder, daemon=True); t.start()
    assert held.wait(30)
    pid = os.fork()
    if pid == 0:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            ok = float(f(x)[0]) == want
            g = jax.jit(lambda v: jnp.cos(v) + 3)  # needs the build lock
            ok = ok and float(g(x)[0]) == float(jnp.cos(1.0) + 3)
        os._exit(0 if ok else 3)
    release.set(); t.join()
    deadline = time.time() + 60
    while time.time() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            sys.exit(os.waitstatus_to_exitcode(status))
        time.sleep(0.05)
    os.kill(pid, 9)
    sys.exit(4)
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_item7_forked_child_works_after_parallel_code_and_a_held_lock():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-c", _FORK_SCRIPT], env=env,
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])


# -- item 10: a host callback's exception belongs to its own call -------------------------

def test_item10_host_callback_errors_stay_with_their_call():
    def cb(v):
        if v[0] < 0:
            raise ValueError(f"negative {int(v[0])}")
        return v

    f = jax.jit(lambda x: jax.pure_callback(cb, jax.ShapeDtypeStruct((1,), jnp.int32), x)
                + 1)
    f(np.array([1], np.int32))
    mistakes = []
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)

    def worker(k):
        for i in range(400):
            v = -(k * 100 + i) - 1 if i % 2 else k * 100 + i
            try:
                r = f(np.array([v], np.int32))
                if v < 0 or int(r[0]) != v + 1:
                    mistakes.append((v, "no error"))
            except ValueError as e:
                if str(e) != f"negative {v}":
                    mistakes.append((v, str(e)))
            except Exception as e:  # noqa: BLE001 - a misreported error is the bug
                mistakes.append((v, repr(e)))

    try:
        threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert not mistakes


# -- item 11: bad export names are refused up front, with the reason ----------------------

@pytest.mark.parametrize("name, reason", [
    ("f\n", "letters, digits and underscores"), ("1f", "letters, digits"),
    ("while", "C keyword"), ("_Bool", "C keyword"), ("__f", "reserved"),
    ("_Foo", "reserved"), ("exp", "<math.h>"), ("size_t", "<stdint.h>"),
    ("memcpy", "<string.h>"), ("main", "entry point"), ("tp_add", "runtime"),
])
def test_item11_export_rejects_bad_names_up_front(tmp_path, name, reason):
    out = tmp_path / "never"
    with pytest.raises(ValueError, match="not a valid C identifier") as info:
        jax.export_c(jax.jit(lambda x: x + 1), F8, name=name, out_dir=out)
    assert reason in str(info.value)
    assert not out.exists()


# -- item 12: CLI mistakes print one line and exit 2 --------------------------------------

@pytest.mark.parametrize("argv, words", [
    (["export", "relmod_cli:nothing", "--arg", "f32[3]"], "has no function 'nothing'"),
    (["export", "no_such_module_xyz:f", "--arg", "f32[3]"], "cannot import module"),
    (["export", "relmod_cli", "--arg", "f32[3]"], "expected module:function"),
    (["export", "relmod_cli:two", "--arg", "float[3]"], "expected a type such as"),
    (["export", "relmod_cli:two", "--arg", "f32[3]"], "give one --arg per"),
    (["export", "relmod_cli:two", "--arg", "f32[3]", "--arg", "f32[3]", "--static", "x"],
     "expected NAME=VALUE"),
    (["export", "relmod_cli:two", "--arg", "f32[3]", "--arg", "f32[3]", "--name", "exp"],
     "<math.h>"),
    (["export", "relmod_cli:two", "--arg", "f32[3]", "--arg", "f32[4]"],
     "at the given --arg types: TypeError: add got incompatible shapes"),
])
def test_item12_cli_mistakes_print_one_line_and_exit_2(tmp_path, monkeypatch, capsys, argv,
                                                       words):
    (tmp_path / "relmod_cli.py").write_text("def two(x, y):\n    return x + y\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    assert main(argv) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in captured.err, err
    assert err.startswith("python -m transpile export: error:") and words in err
    assert not (tmp_path / "two").exists()
    # The existing-file refusal is a CLI mistake too; --force overrides it.
    (tmp_path / "two").mkdir()
    (tmp_path / "two" / "Makefile").write_text("mine")
    ok = ["export", "relmod_cli:two", "--arg", "f32[3]", "--arg", "f32[3]"]
    assert main(ok) == 2 and "Makefile" in capsys.readouterr().err
    assert main(ok + ["--force"]) == 0 and (tmp_path / "two" / "two.c").exists()
