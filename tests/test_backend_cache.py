"""The on-disk cache: keys, validation and rebuild of corrupt entries, fallbacks, the CLI."""
import dataclasses
import hashlib
import importlib
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from cache_checks import CDEF, call, scale_source
from transpile.__main__ import main
from transpile.backend import build, cache, compiler_info

buildmod = importlib.import_module("transpile.backend.build")

REPO = pathlib.Path(__file__).resolve().parent.parent
SOURCE = scale_source("7.0", "cache tests")


@pytest.fixture
def cache_path(tmp_path, monkeypatch):
    path = tmp_path / "cache"
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(path))
    return path


@pytest.fixture(scope="module")
def populated(tmp_path_factory):
    """A cache holding SOURCE, built by another process.

    This process must never map these files: the tests below corrupt them in place, and
    truncating a mapped library would crash it (SIGBUS). Tests copy this tree.
    """
    path = tmp_path_factory.mktemp("populated") / "cache"
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(path),
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO),
                                                        os.environ.get("PYTHONPATH")])))
    env.pop("CC", None)
    env.pop("TRANSPILE_CFLAGS", None)
    script = ("import sys; from transpile.backend import build; "
              "build(sys.argv[1], sys.argv[2], name='scale', signature='f32[4]')")
    subprocess.run([sys.executable, "-c", script, SOURCE, CDEF], env=env, check=True)
    return path


@pytest.fixture
def copied(populated, cache_path, monkeypatch):
    """This test's cache, a copy of ``populated``; returns the entry directory."""
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.delenv("TRANSPILE_CFLAGS", raising=False)
    shutil.copytree(populated, cache_path)
    (entry,) = [p for p in cache_path.glob("??/*") if p.is_dir()]
    return entry


def test_cache_key_covers_what_changes_the_binary(cache_path, tmp_path, monkeypatch):
    info = compiler_info()
    key = cache.cache_key(SOURCE, info)
    assert len(key) == 64 and int(key, 16) >= 0
    assert cache.cache_key(SOURCE, info) == key
    assert cache.cache_key(SOURCE + " ", info) != key
    assert cache.cache_key(SOURCE, info, extra="cdef") != key
    assert cache.cache_key(SOURCE, dataclasses.replace(info, version="gcc 99")) != key
    assert cache.cache_key(SOURCE, dataclasses.replace(info, path="/opt/cc")) != key
    assert cache.cache_key(SOURCE, dataclasses.replace(info, flags=info.flags[1:])) != key
    monkeypatch.setattr(cache, "CACHE_VERSION", cache.CACHE_VERSION + 1)
    assert cache.cache_key(SOURCE, info) != key
    monkeypatch.undo()
    # A changed runtime header changes every key, though the source text is the same.
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    (runtime / "macros.h").write_text("#define A 1\n")
    monkeypatch.setattr("transpile.resources.runtime_dir", lambda: runtime)
    with_header = cache.cache_key(SOURCE, info)
    (runtime / "macros.h").write_text("#define A 2\n")
    assert cache.cache_key(SOURCE, info) != with_header


def test_disk_hit_does_not_take_the_lock(copied, monkeypatch):
    def no_lock(key):
        raise AssertionError("a reader took the lock")

    monkeypatch.setattr(buildmod, "key_lock", no_lock)
    monkeypatch.setattr(buildmod.subprocess, "run", no_lock)
    library = build(SOURCE, CDEF, name="scale", signature="f32[4]")
    assert library.disk_hit and library.seconds == 0.0 and library.command
    assert call(library) == [0.0, 7.0, 14.0, 21.0]


def _truncate(entry):
    lib = entry / cache.lib_filename()
    lib.write_bytes(lib.read_bytes()[:100])


def _garbage_with_matching_meta(entry):
    # Passes the size and hash checks, so only dlopen can tell.
    garbage = b"\x7fELF not really a library" * 40
    (entry / cache.lib_filename()).write_bytes(garbage)
    meta = json.loads((entry / "meta.json").read_text())
    meta["files"][cache.lib_filename()] = [len(garbage), hashlib.sha256(garbage).hexdigest()]
    meta.update(size=len(garbage), digest=cache._meta_digest(meta))
    (entry / "meta.json").write_text(json.dumps(meta))


def _half_written_meta(entry):
    (entry / "meta.json").write_text('{"name": "sca')


def _missing_lib(entry):
    (entry / cache.lib_filename()).unlink()


@pytest.mark.parametrize("corrupt", [_truncate, _garbage_with_matching_meta,
                                     _half_written_meta, _missing_lib])
def test_corrupt_entry_is_rebuilt_with_a_warning(copied, corrupt):
    corrupt(copied)
    with pytest.warns(RuntimeWarning, match="corrupt cache entry"):
        library = build(SOURCE, CDEF, name="scale", signature="f32[4]")
    assert not library.disk_hit and library.path == str(copied / cache.lib_filename())
    assert call(library) == [0.0, 7.0, 14.0, 21.0]
    assert cache.lookup(library.key) is not None  # valid again
    assert not list(copied.parent.parent.joinpath("tmp").iterdir())  # nothing left aside


def test_publish_keeps_the_first_entry(cache_path):
    key = "ab" + "0" * 62
    paths = []
    for content in (b"first", b"second"):
        staged = cache.staging_dir()
        (staged / cache.lib_filename()).write_bytes(content)
        paths.append(cache.publish(key, staged, {"name": "f", "signature": "", "created": 0}))
        assert not staged.exists()
    assert paths[0] == paths[1] == cache_path / "ab" / key / cache.lib_filename()
    assert paths[0].read_bytes() == b"first"
    assert cache.lookup(key) == paths[0]


def test_uncreatable_cache_dir_falls_back_with_one_warning(tmp_path, monkeypatch):
    (tmp_path / "file.txt").write_text("a file, so no directory can be made under it")
    wanted = tmp_path / "file.txt" / "cache"
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(wanted))
    with pytest.warns(RuntimeWarning, match="cannot be created or written") as record:
        fallback = cache.cache_dir()
    assert str(wanted) in str(record[0].message)
    assert fallback.name.startswith("transpile-cache-") and fallback.is_dir()
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cache.cache_dir() == fallback  # warned once, same directory
    library = build(SOURCE.replace("7.0f", "7.0f + 0.0f"), CDEF, name="scale",
                    signature="f32[4]")
    assert library.path.startswith(str(fallback))


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root writes into read-only directories")
def test_read_only_cache_dir_falls_back(tmp_path, monkeypatch):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(ro))
    try:
        with pytest.warns(RuntimeWarning, match="cannot be created or written"):
            assert cache.cache_dir() != ro
    finally:
        ro.chmod(0o700)


def test_default_cache_dir_is_under_home(tmp_path, monkeypatch):
    monkeypatch.delenv("TRANSPILE_CACHE_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(cache, "_DIRS", {})
    assert cache.cache_dir() == tmp_path / ".cache" / "transpile"


def test_cli_info_and_clear(cache_path, capsys):
    build(SOURCE, CDEF, name="scale", signature="f32[4]")
    other = build(SOURCE.replace("7.0f", "8.0f"), CDEF, name="scale8", signature="f32[2,2]")
    (cache_path / "README.md").write_text("not ours")
    assert main(["cache", "info"]) == 0
    text = capsys.readouterr().out
    assert str(cache_path) in text and "total: 2 entries" in text
    line = next(ln for ln in text.splitlines() if ln.startswith("scale8"))
    assert "f32[2,2]" in line and other.key[:12] in line and "KiB" in line and " s" in line
    # The real command line, in a fresh process, honours TRANSPILE_CACHE_DIR too.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    out = subprocess.run([sys.executable, "-m", "transpile", "cache", "info"], env=env,
                         capture_output=True, text=True, check=True).stdout
    assert str(cache_path) in out and "total: 2 entries" in out
    assert main(["cache", "clear"]) == 0
    assert capsys.readouterr().out.startswith("removed 2 entries")
    assert (cache_path / "README.md").exists()  # only the cache's own files go
    assert not (cache_path / "locks").exists() and not list(cache_path.glob("??"))
    main(["cache", "info"])
    assert "total: 0 entries" in capsys.readouterr().out
