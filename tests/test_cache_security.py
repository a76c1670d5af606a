"""Issue 18, the cache's items: the marker that `cache clear` requires (2), trust in the
owner and modes of every file (3), entries verified against their key (6), a full disk
(8), the size bound and unloading (9). Ownership is checked as data (an injected user
id, fabricated stat results), so these tests mean the same when run as root."""
import errno
import gc
import hashlib
import importlib
import json
import os
import pathlib
import shutil
import stat
import subprocess
import sys
import warnings

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from cache_checks import CDEF, call, scale_source
from transpile.__main__ import main
from transpile.backend import build, cache, compiler_info
from transpile.backend import cache_listing
from transpile.backend import cache_trust as trust

buildmod = importlib.import_module("transpile.backend.build")

REPO = pathlib.Path(__file__).resolve().parent.parent
SOURCE = scale_source("5.0", "security tests")


@pytest.fixture
def cache_path(tmp_path, monkeypatch):
    path = tmp_path / "cache"
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(path))
    monkeypatch.delenv(trust.SHARED_ENV, raising=False)
    return path


@pytest.fixture(scope="module")
def populated(tmp_path_factory):
    """A cache holding SOURCE, built by another process (this one never maps it)."""
    path = tmp_path_factory.mktemp("populated") / "cache"
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(path),
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO),
                                                        os.environ.get("PYTHONPATH")])))
    for var in ("CC", "TRANSPILE_CFLAGS", trust.SHARED_ENV):
        env.pop(var, None)
    script = ("import sys; from transpile.backend import build; "
              "build(sys.argv[1], sys.argv[2], name='scale', signature='f32[4]')")
    subprocess.run([sys.executable, "-c", script, SOURCE, CDEF], env=env, check=True)
    return path


@pytest.fixture
def copied(populated, cache_path, monkeypatch):
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.delenv("TRANSPILE_CFLAGS", raising=False)
    shutil.copytree(populated, cache_path, symlinks=True)
    (entry,) = [p for p in cache_path.glob("??/*") if p.is_dir()]
    return entry


def _rebuilt(match: str):
    with pytest.warns(RuntimeWarning, match=match):
        library = build(SOURCE, CDEF, name="scale", signature="f32[4]")
    assert not library.disk_hit and call(library) == [0.0, 5.0, 10.0, 15.0]
    return library


# -- item 2: cache clear deletes only a marked transpile cache -----------------------------

def test_item2_cache_clear_refuses_a_directory_that_is_not_a_transpile_cache(
        tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    (home / "tmp").mkdir(parents=True)
    (home / "tmp" / "precious.txt").write_text("mine")
    (home / "locks").mkdir()
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(home))
    assert main(["cache", "clear"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "is not a transpile cache" in err
    assert (home / "tmp" / "precious.txt").read_text() == "mine" and (home / "locks").exists()
    # Nor is it used as a cache: compiled code goes elsewhere, with a warning.
    with pytest.warns(RuntimeWarning, match="is not a transpile cache"):
        assert cache.cache_dir() != home
    assert not (home / trust.MARKER).exists()
    # A cache transpile creates carries the marker, with its format, and clear empties it.
    fresh = tmp_path / "fresh"
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(fresh))
    build(SOURCE, CDEF, name="scale", signature="f32[4]")
    tag = (fresh / trust.MARKER).read_text()
    assert tag.startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert f"format {trust.MARKER_FORMAT}" in tag
    assert main(["cache", "clear"]) == 0
    assert not list(fresh.glob("??")) and (fresh / trust.MARKER).exists()


# -- item 3: nothing is loaded that another user could have written -------------------------

def _st(mode, uid=1000, gid=1000):
    return os.stat_result((mode, 1, 1, 1, uid, gid, 10, 0, 0, 0))


def test_item3_ownership_and_modes_are_checked_as_data():
    reg = stat.S_IFREG
    assert trust.problem(_st(reg | 0o644), uid=1000, mode="") is None
    assert "owned by user 1001" in trust.problem(_st(reg | 0o644, uid=1001), uid=1000,
                                                 mode="")
    assert "writable by its group" in trust.problem(_st(reg | 0o664), uid=1000, mode="")
    assert "every user" in trust.problem(_st(reg | 0o646), uid=1000, mode="")
    assert "every user" in trust.problem(_st(reg | 0o666), uid=1000, mode="group",
                                         groups={1000})
    assert "symbolic link" in trust.problem(_st(stat.S_IFLNK | 0o777), uid=1000, mode="")
    # Shared by a group (explicitly): a group member's group-writable file is trusted.
    assert trust.problem(_st(reg | 0o664, uid=1001, gid=50), uid=1000, mode="group",
                         groups={50}) is None
    assert "neither yours" in trust.problem(_st(reg | 0o664, uid=1001, gid=51), uid=1000,
                                            mode="group", groups={50})


def test_item3_cache_of_another_user_is_refused_and_no_python_runs(copied, monkeypatch,
                                                                    tmp_path):
    # An entry with a planted Python module: it is not listed in meta.json, so the entry
    # is discarded and rebuilt, and nothing from it is executed.
    marker = tmp_path / "planted-ran"
    (copied / "ffi_module.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    library = _rebuilt("not those meta.json lists")
    assert not marker.exists()
    assert not list(pathlib.Path(library.path).parent.glob("*.py"))
    # A file of the entry writable by every user: discarded and rebuilt.
    buildmod._LOADED.clear()
    del library
    gc.collect()
    lib_file = copied / cache.lib_filename()
    os.chmod(lib_file, 0o666)
    _rebuilt("writable by every user")
    # The whole cache owned by another user (as root sees it, through an injected uid):
    # not used, with a warning that says how to share a cache on purpose.
    monkeypatch.setattr(cache, "_DIRS", {})
    monkeypatch.setattr(trust, "current_uid", lambda: os.geteuid() + 4242)
    with pytest.warns(RuntimeWarning, match="TRANSPILE_CACHE_SHARED=group") as record:
        assert cache.cache_dir() != copied.parent.parent
    assert "not safe to load compiled code from" in str(record[0].message)


def test_item3_own_cache_made_under_umask_002_is_tightened_not_refused(cache_path):
    cache_path.mkdir()
    trust.write_marker(cache_path)
    (cache_path / "ab").mkdir()
    os.chmod(cache_path, 0o775)
    os.chmod(cache_path / "ab", 0o775)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cache.cache_dir() == cache_path
    assert stat.S_IMODE(os.stat(cache_path).st_mode) == 0o755
    # Another user's group-writable folder inside is not ours to tighten: refused.
    assert "writable by its group" in trust.problem(_st(stat.S_IFDIR | 0o775), uid=1000,
                                                    mode="")


def test_item3_group_shared_cache_is_an_explicit_mode(cache_path, monkeypatch):
    monkeypatch.setenv(trust.SHARED_ENV, "everyone")
    with pytest.raises(ValueError, match="TRANSPILE_CACHE_SHARED='everyone'"):
        cache.cache_dir()
    monkeypatch.setenv(trust.SHARED_ENV, "group")
    library = build(SOURCE.replace("5.0f", "5.00f"), CDEF, name="scale",
                    signature="f32[4]")
    entry = pathlib.Path(library.path).parent
    assert os.stat(entry).st_mode & 0o2070 == 0o2070
    assert all(os.stat(f).st_mode & 0o060 == 0o060 for f in entry.iterdir())
    # The second user of the group (injected) loads it without rebuilding.
    buildmod._LOADED.clear()
    del library
    gc.collect()
    monkeypatch.setattr(trust, "current_uid", lambda: os.geteuid() + 4242)
    again = build(SOURCE.replace("5.0f", "5.00f"), CDEF, name="scale",
                  signature="f32[4]")
    assert again.disk_hit and call(again) == [0.0, 5.0, 10.0, 15.0]


# -- item 6: every piece of an entry verified against its key -------------------------------

def _rewrite_consistently(entry, name, data):
    """Replace one file and update meta.json's checksums and digest to match, as a
    corruption that slipped past the checksums would."""
    (entry / name).write_bytes(data)
    meta = json.loads((entry / "meta.json").read_text())
    meta["files"][name] = [len(data), hashlib.sha256(data).hexdigest()]
    meta["digest"] = cache._meta_digest(meta)
    (entry / "meta.json").write_text(json.dumps(meta))


def test_item6_corrupt_meta_cdef_or_index_rebuilds(copied, monkeypatch):
    # A flipped output shape in meta.json (valid JSON still): its digest fails.
    meta = json.loads((copied / "meta.json").read_text())
    meta["signature"] = "f32[5]"
    (copied / "meta.json").write_text(json.dumps(meta))
    _rebuilt("meta.json does not match its digest")
    buildmod._LOADED.clear()
    gc.collect()
    # One flipped byte of the cdef: its sha256 fails.
    cdef = bytearray((copied / "cdef.h").read_bytes())
    cdef[5] ^= 0x01
    (copied / "cdef.h").write_bytes(bytes(cdef))
    _rebuilt("cdef.h does not match the sha256")
    buildmod._LOADED.clear()
    gc.collect()
    # A wrong cdef with matching checksums: it no longer hashes to the entry's key.
    _rewrite_consistently(copied, "cdef.h", CDEF.replace("int64_t n", "int32_t n").encode())
    _rebuilt("do not hash to its key")
    # An index record pointed at another entry is ignored.
    key_a, key_b = "a" * 64, "b" * 64
    cache.index_put("f" * 64, key_a)
    assert cache.index_get("f" * 64) == key_a
    record = cache.cache_dir() / "index" / "ff" / ("f" * 64)
    record.write_text(record.read_text().replace(key_a, key_b))
    assert cache.index_get("f" * 64) is None


def test_item6_jit_through_a_corrupt_index_computes_the_right_function(cache_path):
    x = jnp.arange(4.0)
    f = jax.jit(lambda v: v * 3.0)
    g = jax.jit(lambda v: v - 1.0)
    np.testing.assert_array_equal(f(x), np.arange(4.0) * 3)
    np.testing.assert_array_equal(g(x), np.arange(4.0) - 1)
    records = sorted((cache_path / "index").rglob("*"), key=lambda p: p.stat().st_mtime_ns)
    records = [p for p in records if p.is_file()]
    f_rec, g_rec = records
    f_rec.write_text(g_rec.read_text())  # f's record now names g's entry
    np.testing.assert_array_equal(jax.jit(lambda v: v * 3.0)(x), np.arange(4.0) * 3)


# -- item 8: a full disk while publishing ------------------------------------------------

def test_item8_disk_full_while_publishing_runs_from_a_private_build(cache_path,
                                                                     monkeypatch):
    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cache, "publish", full)
    with pytest.warns(RuntimeWarning, match="No space left on device.*private temporary"):
        library = build(SOURCE.replace("5.0f", "5.0f * 1.0f"), CDEF, name="scale",
                        signature="f32[4]")
    assert call(library) == [0.0, 5.0, 10.0, 15.0]
    assert not library.path.startswith(str(cache_path))


# -- item 9: a size bound with LRU eviction; libraries closed when unused ------------------

def test_item9_cache_size_bound_evicts_least_recently_used(cache_path, monkeypatch, capsys):
    sources = [SOURCE.replace("5.0f", f"{k}.0f") for k in (11, 12, 13)]
    first = build(sources[0], CDEF, name="scale", signature="f32[4]")
    size = sum(f.stat().st_size for f in pathlib.Path(first.path).parent.iterdir())
    build(sources[1], CDEF, name="scale", signature="f32[4]")
    # Using the first entry again makes the second the least recently used.
    os.utime(pathlib.Path(first.path).parent, (1, 1))
    second_dir = cache.entry_dir(cache.cache_key(sources[1], compiler_info(), CDEF))
    os.utime(second_dir, (0, 0))
    monkeypatch.setattr(cache, "_TOUCHED", set())
    assert cache.lookup(first.key) is not None  # refreshes its time
    monkeypatch.setenv("TRANSPILE_CACHE_MAX_BYTES", str(int(2.5 * size)))
    build(sources[2], CDEF, name="scale", signature="f32[4]")
    assert not second_dir.exists() and pathlib.Path(first.path).exists()
    assert len(cache_listing.entries()) == 2
    assert main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    assert "size bound" in out and "TRANSPILE_CACHE_MAX_BYTES" in out
    monkeypatch.delenv("TRANSPILE_CACHE_MAX_BYTES")
    assert cache.max_bytes() == 2 << 30


def _mapped(path: str) -> bool:
    with open("/proc/self/maps") as f:
        return any(path in line for line in f)


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="needs /proc")
def test_item9_cleared_jit_releases_its_library(cache_path):
    f = jax.jit(lambda v: v * 7.0 + 2.0)
    np.testing.assert_array_equal(f(jnp.arange(3.0)), np.arange(3.0) * 7 + 2)
    (path,) = [str(p) for p in cache_path.glob(f"??/*/{cache.lib_filename()}")]
    assert _mapped(path)
    f.clear_cache()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gc.collect()
    assert not _mapped(path)
    # Calling again loads it again.
    np.testing.assert_array_equal(f(jnp.arange(3.0)), np.arange(3.0) * 7 + 2)


def test_item2_runtime_objects_are_the_caches_own(cache_path):
    # The precompiled runtime objects live in runtime/: a cache holding them (and no
    # marker yet) is still recognised as a transpile cache, and clear removes them.
    (cache_path / "runtime" / "k").mkdir(parents=True)
    (cache_path / "runtime" / "k" / "tp_math_lib.o").write_bytes(b"\0")
    (cache_path / "compilers").mkdir()
    assert trust.looks_unused(cache_path)
    library = build(SOURCE.replace("5.0f", "5.5f"), CDEF, name="scale", signature="f32[4]")
    assert call(library) == [0.0, 5.5, 11.0, 16.5]
    assert trust.is_marked(cache_path)
    cache.clear()
    assert not (cache_path / "runtime").exists()


def test_item2_another_process_writing_its_marker_leaves_the_directory_unused(tmp_path):
    # the race of four processes adopting one fresh directory: one of them sees the
    # others' marker being written (under its temporary name) and nothing else
    root = tmp_path / "fresh"
    root.mkdir()
    (root / f".{trust.MARKER}.4242.tmp").write_text("partial")
    assert trust.looks_unused(root)
    (root / "notes.txt").write_text("mine")
    assert not trust.looks_unused(root)
