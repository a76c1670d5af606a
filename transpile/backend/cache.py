"""The on-disk cache of compiled libraries: keys, layout, atomic publish, locks, validation.

Input: a cache key (from :func:`cache_key`) and a staged directory holding a freshly built
library. Output: entries under :func:`cache_dir` that any process can load without locking.

Layout::

    <cache>/<key[:2]>/<key>/lib.so      the shared library (lib.dylib / lib.dll elsewhere)
                            source.c    the C source it was built from
                            meta.json   name, signature, compiler, size, sha256 (written last)
    <cache>/tmp/       staging directories, renamed into place when complete
    <cache>/locks/     one lock file per key, held while checking, compiling and publishing
    <cache>/failed/    sources that did not compile, kept for the error message
    <cache>/compilers/ remembered compiler probes (see build.compiler_info)

An entry becomes visible only through ``os.rename`` of a complete directory, so a reader
never sees a half-written library; readers therefore need no lock.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
import uuid
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from .. import resources
from ..version import __version__

if TYPE_CHECKING:  # build imports this module; the reverse import is for type hints only
    from .build import CompilerInfo

try:
    import fcntl
except ImportError:  # Windows: no flock; concurrent builds then merely duplicate work
    fcntl = None

__all__ = ["CACHE_VERSION", "CacheEntry", "cache_dir", "cache_key", "lib_filename",
           "entry_dir", "host_target", "lookup", "staging_dir", "publish", "remove_entry",
           "key_lock", "entries", "clear", "info_text"]

#: Bump when the layout, the metadata or the way a library is built changes.
CACHE_VERSION = 4  # 3: call specs name key dtypes "key<fry>"; 4: the entry ABI (meta "abi")

_KEY_RE = re.compile(r"^[0-9a-f]{64}$")
_DIRS: dict[str, Path] = {}                           # TRANSPILE_CACHE_DIR value -> directory
_VERIFIED: dict[str, tuple[int, int, int]] = {}       # lib path -> stat of the hashed file
_HEADERS: dict[tuple, bytes] = {}                     # header stats -> digest of their content


def lib_filename() -> str:
    """The file name of an entry's shared library on this platform."""
    if sys.platform == "darwin":
        return "lib.dylib"
    if sys.platform in ("win32", "cygwin"):
        return "lib.dll"
    return "lib.so"


def _writable(path: Path) -> bool:
    # os.access lies for root and on some network file systems; really create a file.
    try:
        (path / "tmp").mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=path / "tmp", prefix="probe-")
        os.close(fd)
        os.unlink(name)
        return True
    except OSError:
        return False


def cache_dir() -> Path:
    """The cache directory, created if missing.

    ``TRANSPILE_CACHE_DIR`` if set, else ``~/.cache/transpile``. The answer is remembered
    per value of the environment variable, so changing it (tests do) takes effect at once.

    Returns
    -------
    pathlib.Path
        An existing, writable directory. When the configured one cannot be created or
        written, a warning names it and a private temporary directory (removed at exit)
        stands in for it for the rest of the process.
    """
    env = os.environ.get("TRANSPILE_CACHE_DIR", "")
    found = _DIRS.get(env)
    if found is not None:
        return found
    # Absolute, so a later chdir does not move the cache under our feet.
    path = (Path(env).expanduser() if env else Path.home() / ".cache" / "transpile").absolute()
    try:
        path.mkdir(parents=True, exist_ok=True)
        ok = _writable(path)
    except OSError:
        ok = False
    if not ok:
        fallback = Path(tempfile.mkdtemp(prefix="transpile-cache-"))
        import atexit
        atexit.register(shutil.rmtree, fallback, True)
        warnings.warn(f"transpile: the cache directory {str(path)!r} cannot be created or "
                      f"written; compiled libraries go to {str(fallback)!r} for this process "
                      "and are not kept. Set TRANSPILE_CACHE_DIR to a writable directory.",
                      RuntimeWarning, stacklevel=2)
        path = fallback
    _DIRS[env] = path
    return path


def host_target(flags) -> str:
    """The platform, machine and, with ``-march=native``, this CPU's identity."""
    # With -march=native the binary is only valid on CPUs like this one, so a cache shared
    # between machines (an NFS home) must not hand it to a different CPU.
    import platform
    parts = [sys.platform, platform.machine()]
    if "-march=native" in flags:
        try:
            with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
                for line in f:
                    if not line.strip():
                        break  # the first processor is enough
                    if line.split(":")[0].strip() in ("vendor_id", "model name", "flags",
                                                       "Features", "CPU part"):
                        parts.append(line.strip())
        except OSError:
            parts.append(platform.processor())
    return "\n".join(parts)


def _headers_digest() -> bytes:
    root = resources.runtime_dir()
    files = sorted(p for p in root.rglob("*") if p.suffix in (".h", ".cuh", ".hpp"))
    stats = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files)
    digest = _HEADERS.get(stats)
    if digest is None:
        h = hashlib.sha256()
        for p in files:
            _feed(h, p.relative_to(root).as_posix(), p.read_bytes())
        digest = _HEADERS[stats] = h.digest()
    return digest


def _feed(h, *parts) -> None:
    # Length-prefix every part so that ("ab", "c") and ("a", "bc") hash differently.
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode("utf-8")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)


def cache_key(source: str, compiler: "CompilerInfo", extra: str = "") -> str:
    """The cache key of a library: everything that changes the binary, hashed.

    Parameters
    ----------
    source : str
        The C source.
    compiler : CompilerInfo
        Compiler path, version and flags.
    extra : str, optional
        Anything else the caller wants to tell apart (``build`` passes the cdef).

    Returns
    -------
    str
        The sha256 hex digest of ``CACHE_VERSION``, ``transpile.__version__``, the
        compiler, the host target, the content of every runtime header (the source
        ``#include``s them), ``extra`` and ``source``.
    """
    h = hashlib.sha256()
    _feed(h, CACHE_VERSION, __version__, compiler.path, compiler.version,
          "\0".join(compiler.flags), host_target(compiler.flags), _headers_digest(),
          extra, source)
    return h.hexdigest()


def entry_dir(key: str) -> Path:
    """Where the entry for ``key`` lives (whether or not it exists)."""
    return cache_dir() / key[:2] / key


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _validate(key: str, entry: Path) -> str | None:
    """Why ``entry`` is not a valid entry for ``key``, or None when it is."""
    try:
        meta = json.loads((entry / "meta.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "meta.json is missing"
    except (OSError, ValueError) as e:
        return f"meta.json does not parse ({e})"
    if not isinstance(meta, dict) or meta.get("key", key) != key:
        return "meta.json belongs to another key"
    lib = entry / lib_filename()
    try:
        st = lib.stat()
    except OSError:
        return f"{lib.name} is missing"
    if st.st_size != meta.get("size"):
        return f"{lib.name} has {st.st_size} bytes, meta.json says {meta.get('size')}"
    stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
    if _VERIFIED.get(str(lib)) != stamp:  # hash once per process, unless the file changed
        if _sha256_file(lib) != meta.get("sha256"):
            return f"{lib.name} does not match the sha256 in meta.json"
        _VERIFIED[str(lib)] = stamp
    return None


def lookup(key: str) -> Path | None:
    """The library of a valid entry for ``key``, or None.

    An entry that exists but fails validation (unreadable metadata, missing library, size
    or sha256 mismatch) is removed with a warning, so the caller rebuilds it.

    Returns
    -------
    pathlib.Path or None
        The path of the entry's shared library.
    """
    entry = entry_dir(key)
    if not entry.is_dir():
        return None
    problem = _validate(key, entry)
    if problem is None:
        return entry / lib_filename()
    remove_entry(key, problem)
    return None


def remove_entry(key: str, reason: str | None = None) -> None:
    """Remove the entry for ``key``; with a ``reason``, warn that it was corrupt.

    The directory is first renamed aside, so other processes see it either whole or gone,
    and a concurrent removal by another process is not an error.
    """
    entry = entry_dir(key)
    if reason is not None:
        warnings.warn(f"transpile: discarding corrupt cache entry {entry} ({reason}); "
                      "rebuilding it", RuntimeWarning, stacklevel=3)
    _VERIFIED.pop(str(entry / lib_filename()), None)
    trash = cache_dir() / "tmp" / f"trash-{uuid.uuid4().hex}"
    try:
        trash.parent.mkdir(parents=True, exist_ok=True)
        os.rename(entry, trash)
    except FileNotFoundError:
        return  # someone else removed it first
    except OSError:
        trash = entry  # cannot rename (odd file system): delete in place
    shutil.rmtree(trash, ignore_errors=True)


def staging_dir() -> Path:
    """A fresh private directory under ``<cache>/tmp`` to build an entry in."""
    tmp = cache_dir() / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(dir=tmp, prefix="build-"))


def publish(key: str, staged: Path, meta: dict) -> Path:
    """Make a staged build the entry for ``key``, atomically.

    Parameters
    ----------
    key : str
        The cache key.
    staged : pathlib.Path
        A directory from :func:`staging_dir` holding the library and ``source.c``.
    meta : dict
        JSON-able metadata; ``key``, ``size`` and ``sha256`` of the library are added.

    Returns
    -------
    pathlib.Path
        The path of the published library. If another process published the same key
        first, its entry is kept and ``staged`` is discarded.
    """
    lib = staged / lib_filename()
    record = dict(meta, key=key, size=lib.stat().st_size, sha256=_sha256_file(lib),
                  cache_version=CACHE_VERSION)
    # meta.json last: a directory without it is never valid, whatever happens to it.
    (staged / "meta.json").write_text(json.dumps(record, indent=1, sort_keys=True),
                                      encoding="utf-8")
    final = entry_dir(key)
    final.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.rename(staged, final)
    except OSError:
        if not final.is_dir():
            raise
        shutil.rmtree(staged, ignore_errors=True)  # another process won the race
    return final / lib_filename()


@contextlib.contextmanager
def key_lock(key: str) -> Iterator[None]:
    """Hold ``<cache>/locks/<key>.lock`` exclusively (a no-op without ``fcntl``)."""
    if fcntl is None:
        yield
        return
    locks = cache_dir() / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    with open(locks / f"{key}.lock", "a") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


@dataclass(frozen=True)
class CacheEntry:
    """One entry of the cache, as ``cache info`` lists it."""
    key: str
    path: Path
    name: str
    signature: str
    size: int
    created: float
    meta: dict = field(default_factory=dict, compare=False, repr=False)


def _entry_dirs(root: Path) -> Iterator[Path]:
    # Only two-hex-digit folders holding 64-hex-digit folders are entries: the cache dir
    # may also hold files that are not ours (build_cache/README.md), which stay untouched.
    for prefix in sorted(root.glob("[0-9a-f][0-9a-f]")):
        if prefix.is_dir():
            for entry in sorted(prefix.iterdir()):
                if _KEY_RE.match(entry.name) and entry.is_dir():
                    yield entry


def entries() -> list[CacheEntry]:
    """Every entry in the cache, newest first (unreadable ones listed as ``?``)."""
    found = []
    for entry in _entry_dirs(cache_dir()):
        try:
            meta = json.loads((entry / "meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            meta = {}
        try:
            size = (entry / lib_filename()).stat().st_size
        except OSError:
            size = 0
        found.append(CacheEntry(key=entry.name, path=entry, name=str(meta.get("name", "?")),
                                signature=str(meta.get("signature", "?")), size=size,
                                created=float(meta.get("created", 0.0)), meta=meta))
    found.sort(key=lambda e: -e.created)
    return found


def clear() -> int:
    """Remove every entry and the ``tmp``, ``failed``, ``locks`` and ``compilers`` folders.

    Libraries already loaded by a running process stay usable (the file system keeps an
    unlinked file alive while it is mapped).

    Returns
    -------
    int
        The number of entries removed.
    """
    root = cache_dir()
    count = 0
    for entry in list(_entry_dirs(root)):
        shutil.rmtree(entry, ignore_errors=True)
        count += 1
    for prefix in root.glob("[0-9a-f][0-9a-f]"):
        with contextlib.suppress(OSError):
            prefix.rmdir()  # only if now empty
    for sub in ("tmp", "failed", "locks", "compilers", "index"):
        shutil.rmtree(root / sub, ignore_errors=True)
    _VERIFIED.clear()
    return count


def index_get(fingerprint: str) -> str | None:
    """The entry key recorded for a lowering ``fingerprint`` (see ``stages``), or None.

    The index lets a fresh process go from a traced jaxpr straight to its library,
    without planning or rendering C; the entry itself is still validated on load.
    """
    try:
        key = (cache_dir() / "index" / fingerprint[:2] / fingerprint).read_text("ascii")
    except (OSError, UnicodeDecodeError):
        return None
    key = key.strip()
    return key if re.fullmatch(r"[0-9a-f]{64}", key) else None


def index_put(fingerprint: str, key: str) -> None:
    """Record that lowering ``fingerprint`` renders to the entry ``key`` (atomically)."""
    folder = cache_dir() / "index" / fingerprint[:2]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{fingerprint}.{uuid.uuid4().hex}"
        tmp.write_text(key, "ascii")
        os.replace(tmp, folder / fingerprint)
    except OSError:
        pass  # an index is an optimisation: without it the slow path still works


def _human_size(n: float) -> str:
    if n < 1024:
        return f"{n:.0f} B"
    for unit in ("KiB", "MiB", "GiB"):
        n /= 1024
        if n < 1024 or unit == "GiB":
            break
    return f"{n:.1f} {unit}"


def _human_age(seconds: float) -> str:
    seconds = max(0.0, seconds)
    for limit, div, unit in ((60, 1, "s"), (3600, 60, "min"), (86400, 3600, "h")):
        if seconds < limit:
            return f"{seconds / div:.0f} {unit}"
    return f"{seconds / 86400:.0f} d"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def info_text() -> str:
    """What ``python -m transpile cache info`` prints: the directory, entries, totals."""
    root = cache_dir()
    found = entries()
    now = time.time()
    lines = [f"cache directory: {root}"]
    if found:
        rows = [(_clip(e.name, 32), _clip(e.signature, 40), _human_size(e.size),
                 _human_age(now - e.created) if e.created else "?", e.key[:12])
                for e in found]
        head = ("function", "signature", "size", "age", "key")
        widths = [max(len(r[i]) for r in rows + [head]) for i in range(5)]
        for row in [head] + rows:
            lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
                         .rstrip())
    failed = list((root / "failed").glob("*.c"))
    total = sum(e.size for e in found)
    lines.append(f"total: {len(found)} entr{'y' if len(found) == 1 else 'ies'}, "
                 f"{_human_size(total)}"
                 + (f"; {len(failed)} failed source(s) in {root / 'failed'}" if failed else ""))
    return "\n".join(lines)
