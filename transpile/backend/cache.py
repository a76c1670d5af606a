"""The on-disk cache of compiled libraries: keys, layout, atomic publish, locks, validation.

Input: a cache key (from :func:`cache_key`) and a staged directory holding a freshly built
library. Output: entries under :func:`cache_dir` that any process can load without locking.

Layout::

    <cache>/CACHEDIR.TAG  marks the directory as a transpile cache (see cache_trust)
    <cache>/<key[:2]>/<key>/lib.so      the shared library (lib.dylib / lib.dll elsewhere)
                            source.c    the C source it was built from
                            cdef.h      the cffi declarations, kept as text (never Python)
                            meta.json   name, signature, compiler, the size and sha256 of
                                        every other file, its own digest (written last)
    <cache>/tmp/       staging directories, renamed into place when complete
    <cache>/locks/     one lock file per key, held while checking, compiling and publishing
    <cache>/failed/    sources that did not compile, kept for the error message
    <cache>/compilers/ remembered compiler probes (see build.compiler_info)

An entry becomes visible only through ``os.rename`` of a complete directory, so a reader
never sees a half-written library; readers therefore need no lock. Before use, every file
of an entry is checked: owned by this user and writable by no one else (``cache_trust``),
listed in ``meta.json`` with its size and sha256, and ``meta.json`` matches its own
digest; anything else is discarded and rebuilt. The cache is bounded
(``TRANSPILE_CACHE_MAX_BYTES``): publishing evicts the least recently used entries.
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
import uuid
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from .. import resources
from ..config import config
from ..version import __version__
from . import cache_trust as trust

if TYPE_CHECKING:  # build imports this module; the reverse import is for type hints only
    from .build import CompilerInfo

try:
    import fcntl
except ImportError:  # Windows: no flock; concurrent builds then merely duplicate work
    fcntl = None

__all__ = ["CACHE_VERSION", "cache_dir", "cache_key", "lib_filename",
           "entry_dir", "host_target", "lookup", "staging_dir", "publish", "remove_entry",
           "key_lock", "clear", "NotACacheError", "max_bytes",
           "configured_dir", "DEFAULT_MAX_BYTES", "evict", "entry_dirs", "entry_size"]

#: Bump when the layout, the metadata or the way a library is built changes.
CACHE_VERSION = 5  # 4: the entry ABI (meta "abi"); 5: cdef.h as text, every file
#                    checksummed, meta.json digested
#: The default of ``TRANSPILE_CACHE_MAX_BYTES``.
DEFAULT_MAX_BYTES = 2 << 30

_KEY_RE = re.compile(r"^[0-9a-f]{64}$")
_DIRS: dict[str, Path] = {}                           # TRANSPILE_CACHE_DIR value -> directory
_VERIFIED: dict[str, tuple[int, int, int]] = {}       # lib path -> stat of the hashed file
_HEADERS: dict[tuple, bytes] = {}                     # header stats -> digest of their content
_TOUCHED: set[str] = set()                            # entries marked as used by this process


class NotACacheError(RuntimeError):
    """A directory that ``cache clear`` was asked to empty is not a transpile cache."""


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
        trust.seal(path / "tmp")
        fd, name = tempfile.mkstemp(dir=path / "tmp", prefix="probe-")
        os.close(fd)
        os.unlink(name)
        return True
    except OSError:
        return False


def cache_dir() -> Path:
    """The cache directory, created if missing.

    ``jax_compilation_cache_dir`` or ``TRANSPILE_CACHE_DIR`` (``_configured_value``),
    else ``~/.cache/transpile``. The answer is remembered per configured value, so
    changing it (tests do) takes effect at once.

    Returns
    -------
    pathlib.Path
        An existing, writable directory. When the configured one cannot be created or
        written, a warning names it and a private temporary directory (removed at exit)
        stands in for it for the rest of the process.
    """
    env = _configured_value()
    found = _DIRS.get(env)
    if found is not None:
        return found
    path = configured_dir()
    reason = _adopt(path)
    if reason is not None:
        fallback = Path(tempfile.mkdtemp(prefix="transpile-cache-"))
        trust.write_marker(fallback)
        import atexit
        atexit.register(shutil.rmtree, fallback, True)
        warnings.warn(f"transpile: the cache directory {str(path)!r} {reason}; compiled "
                      f"libraries go to {str(fallback)!r} for this process and are not "
                      "kept. Set TRANSPILE_CACHE_DIR to a directory only you can write"
                      f" (or set {trust.SHARED_ENV}=group for a cache shared by a group).",
                      RuntimeWarning, stacklevel=2)
        path = fallback
    _DIRS[env] = path
    return path


def _configured_value() -> str:
    """The configured cache directory, "" for the default: JAX's
    ``jax_compilation_cache_dir`` when set by ``config.update``, else
    ``TRANSPILE_CACHE_DIR``, else the option's value from the environment
    (``JAX_COMPILATION_CACHE_DIR``)."""
    chosen = config.jax_compilation_cache_dir
    env = os.environ.get("TRANSPILE_CACHE_DIR", "")
    if chosen and (config.was_updated("jax_compilation_cache_dir") or not env):
        return str(chosen)
    return env


def configured_dir() -> Path:
    """The cache directory configured (``jax_compilation_cache_dir``,
    ``TRANSPILE_CACHE_DIR``, see ``_configured_value``; else ``~/.cache/transpile``),
    absolute, whether or not it exists or may be used."""
    env = _configured_value()
    # Absolute, so a later chdir does not move the cache under our feet.
    return (Path(env).expanduser() if env else Path.home() / ".cache" / "transpile").absolute()


def _adopt(path: Path) -> str | None:
    """Create, check and mark ``path`` as the cache; why it cannot be, or None."""
    try:
        created = not path.exists()
        path.mkdir(parents=True, exist_ok=True)
        if created:
            trust.seal(path)
    except OSError:
        return "cannot be created or written"
    if trust.is_marked(path) or trust.looks_unused(path):
        trust.seal(path)  # ours: one made under a umask of 002 loses its group write
    why = trust.problem(os.stat(path))
    if why is not None:
        return f"is not safe to load compiled code from: it {why}"
    if not trust.is_marked(path):
        if not trust.looks_unused(path):
            return (f"is not a transpile cache: it holds other files and no "
                    f"{trust.MARKER} written by transpile")
        try:
            trust.write_marker(path)
        except OSError:
            return "cannot be created or written"
    return None if _writable(path) else "cannot be created or written"


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


def _meta_digest(meta: dict) -> str:
    body = {k: v for k, v in meta.items() if k != "digest"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"))
                          .encode("utf-8")).hexdigest()


def _validate(key: str, entry: Path) -> str | None:
    """Why ``entry`` is not a valid entry for ``key``, or None when it is."""
    try:
        why = trust.problem(os.lstat(entry.parent))
    except OSError as e:
        why = f"cannot be inspected ({e})"
    why = f"{entry.parent} {why}" if why else trust.check_tree(entry)
    if why:
        return why
    try:
        return _check_files(key, entry)
    except (OSError, TypeError, ValueError) as e:
        return f"it cannot be checked ({e})"


def _check_files(key: str, entry: Path) -> str | None:
    try:
        meta = json.loads((entry / "meta.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "meta.json is missing"
    except (OSError, ValueError) as e:
        return f"meta.json does not parse ({e})"
    if not isinstance(meta, dict) or meta.get("digest") != _meta_digest(meta):
        return "meta.json does not match its digest"
    if meta.get("key") != key or meta.get("cache_version") != CACHE_VERSION:
        return "meta.json belongs to another key"
    files = meta.get("files")
    present = set(os.listdir(entry)) - {"meta.json"}
    if not isinstance(files, dict) or present != set(files) or lib_filename() not in files:
        return f"its files {sorted(present)} are not those meta.json lists"
    for name, (size, digest) in sorted(files.items()):
        st = os.lstat(entry / name)
        if st.st_size != size:
            return f"{name} has {st.st_size} bytes, meta.json says {size}"
        stamp = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        if _VERIFIED.get(str(entry / name)) != stamp:  # hash once per process
            if _sha256_file(entry / name) != digest:
                return f"{name} does not match the sha256 in meta.json"
            _VERIFIED[str(entry / name)] = stamp
    return None


def lookup(key: str) -> Path | None:
    """The library of a valid entry for ``key``, or None.

    An entry that exists but fails validation (a file not owned by this user or writable
    by others, unreadable or tampered metadata, a file missing, added, or not matching
    its size and sha256) is removed with a warning, so the caller rebuilds it. A valid
    entry is marked as used (its directory's modification time), for eviction.

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
        if key not in _TOUCHED:
            _TOUCHED.add(key)
            with contextlib.suppress(OSError):
                os.utime(entry)
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
    why = trust.problem(os.lstat(tmp))
    if why:  # whoever can write tmp/ could swap a staged library before it is published
        raise PermissionError(f"{tmp} {why}")
    return Path(tempfile.mkdtemp(dir=tmp, prefix="build-"))


def publish(key: str, staged: Path, meta: dict) -> Path:
    """Make a staged build the entry for ``key``, atomically.

    Parameters
    ----------
    key : str
        The cache key.
    staged : pathlib.Path
        A directory from :func:`staging_dir` holding the library, ``source.c`` and
        whatever else the entry needs (``cdef.h``); plain files only.
    meta : dict
        JSON-able metadata; ``key``, ``size`` (of the library), ``files`` (the size and
        sha256 of every file) and ``digest`` (of the metadata itself) are added.

    Returns
    -------
    pathlib.Path
        The path of the published library. If another process published the same key
        first, its entry is kept and ``staged`` is discarded. Least recently used
        entries are then evicted while the cache exceeds :func:`max_bytes`.

    Raises
    ------
    OSError
        When the entry cannot be written (a full disk) or the folder it goes into is
        not safe; the caller may then run from its staged build without publishing.
    """
    files = {}
    for item in sorted(staged.iterdir()):
        if item.name != "meta.json":
            trust.seal(item)
            files[item.name] = [item.stat().st_size, _sha256_file(item)]
    record = dict(meta, key=key, size=files[lib_filename()][0], files=files,
                  cache_version=CACHE_VERSION)
    record["digest"] = _meta_digest(record)
    # meta.json last: a directory without it is never valid, whatever happens to it.
    (staged / "meta.json").write_text(json.dumps(record, indent=1, sort_keys=True),
                                      encoding="utf-8")
    trust.seal(staged / "meta.json")
    trust.seal(staged)
    final = entry_dir(key)
    final.parent.mkdir(parents=True, exist_ok=True)
    trust.seal(final.parent)
    why = trust.problem(os.lstat(final.parent))
    if why:
        raise PermissionError(f"{final.parent} {why}")
    try:
        os.rename(staged, final)
    except OSError:
        if not final.is_dir():
            raise
        shutil.rmtree(staged, ignore_errors=True)  # another process won the race
    with contextlib.suppress(OSError):
        os.utime(final)  # the newest entry is the most recently used
    _TOUCHED.add(key)
    evict(keep=key)
    return final / lib_filename()


def max_bytes() -> int:
    """The cache's size bound: ``TRANSPILE_CACHE_MAX_BYTES`` (bytes; 0 for no bound),
    else :data:`DEFAULT_MAX_BYTES` (2 GiB). A value that is not a whole number warns and
    stands for the default."""
    text = os.environ.get("TRANSPILE_CACHE_MAX_BYTES", "").strip()
    if not text:
        return DEFAULT_MAX_BYTES
    try:
        value = int(text.replace("_", ""))
        if value < 0:
            raise ValueError
        return value
    except ValueError:
        warnings.warn(f"transpile: TRANSPILE_CACHE_MAX_BYTES={text!r} is not a number of "
                      f"bytes; using {DEFAULT_MAX_BYTES}", RuntimeWarning, stacklevel=2)
        return DEFAULT_MAX_BYTES


def entry_size(entry: Path) -> int:
    total = 0
    with contextlib.suppress(OSError), os.scandir(entry) as it:
        for item in it:
            with contextlib.suppress(OSError):
                total += item.stat(follow_symlinks=False).st_size
    return total


def evict(keep: str | None = None) -> int:
    """Remove least recently used entries (by their directory's modification time, which
    :func:`lookup` refreshes) until the cache holds at most :func:`max_bytes`.

    Parameters
    ----------
    keep : str, optional
        A key never evicted (the entry just published).

    Returns
    -------
    int
        The number of entries removed.
    """
    bound = max_bytes()
    if bound <= 0:
        return 0
    sized = []
    for entry in entry_dirs(cache_dir()):
        with contextlib.suppress(OSError):
            sized.append((entry.stat().st_mtime_ns, entry.name, entry_size(entry)))
    total = sum(size for _, _, size in sized)
    removed = 0
    for _, key, size in sorted(sized):
        if total <= bound:
            break
        if key != keep:
            remove_entry(key)
            _TOUCHED.discard(key)
            total -= size
            removed += 1
    return removed


@contextlib.contextmanager
def key_lock(key: str) -> Iterator[None]:
    """Hold ``<cache>/locks/<key>.lock`` exclusively (a no-op without ``fcntl``)."""
    if fcntl is None:
        yield
        return
    locks = cache_dir() / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    # O_NOFOLLOW: a planted symbolic link must not make us create or open another file.
    fd = os.open(locks / f"{key}.lock", os.O_WRONLY | os.O_CREAT | os.O_APPEND
                 | getattr(os, "O_NOFOLLOW", 0), 0o660 if trust.shared_mode() else 0o600)
    with open(fd, "a") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def entry_dirs(root: Path) -> Iterator[Path]:
    # Only two-hex-digit folders holding 64-hex-digit folders are entries: the cache dir
    # may also hold files that are not ours (build_cache/README.md), which stay untouched.
    for prefix in sorted(root.glob("[0-9a-f][0-9a-f]")):
        if prefix.is_dir():
            for entry in sorted(prefix.iterdir()):
                if _KEY_RE.match(entry.name) and entry.is_dir():
                    yield entry


def clear() -> int:
    """Remove every entry and the ``tmp``, ``failed``, ``locks``, ``compilers``, ``index``
    and ``runtime`` (the precompiled runtime objects) folders of the configured cache
    directory, which must carry transpile's
    marker (:mod:`cache_trust`); nothing else in it is touched.

    Libraries already loaded by a running process stay usable (the file system keeps an
    unlinked file alive while it is mapped).

    Returns
    -------
    int
        The number of entries removed.

    Raises
    ------
    NotACacheError
        When the directory exists but is not marked as a transpile cache.
    """
    root = configured_dir()
    if not root.is_dir():
        return 0
    if not trust.is_marked(root):
        raise NotACacheError(f"{root} is not a transpile cache (it has no {trust.MARKER} "
                             "written by transpile); nothing was removed")
    count = 0
    for entry in list(entry_dirs(root)):
        shutil.rmtree(entry, ignore_errors=True)
        count += 1
    for prefix in root.glob("[0-9a-f][0-9a-f]"):
        with contextlib.suppress(OSError):
            prefix.rmdir()  # only if now empty
    for sub in ("tmp", "failed", "locks", "compilers", "index", "runtime"):
        shutil.rmtree(root / sub, ignore_errors=True)
    _VERIFIED.clear()
    _TOUCHED.clear()
    return count


def index_get(fingerprint: str) -> str | None:
    """The entry key recorded for a lowering ``fingerprint`` (see ``stages``), or None.

    The index lets a fresh process go from a traced jaxpr straight to its library,
    without planning or rendering C; the entry itself is still validated on load.
    """
    path = cache_dir() / "index" / fingerprint[:2] / fingerprint
    try:
        if trust.problem(os.lstat(path.parent)) or trust.problem(os.lstat(path)):
            return None
        key, _, check = path.read_text("ascii").partition("\n")
    except (OSError, UnicodeDecodeError):
        return None
    # The check ties the record to its fingerprint: a record copied or pointed at another
    # entry does not pass, and the slow path rebuilds the right one.
    if not _KEY_RE.match(key) or check.strip() != _index_check(fingerprint, key):
        return None
    return key


def _index_check(fingerprint: str, key: str) -> str:
    return hashlib.sha256(f"transpile index\0{fingerprint}\0{key}".encode()).hexdigest()


def index_put(fingerprint: str, key: str) -> None:
    """Record that lowering ``fingerprint`` renders to the entry ``key`` (atomically)."""
    folder = cache_dir() / "index" / fingerprint[:2]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        trust.seal(folder.parent)
        trust.seal(folder)
        tmp = folder / f".{fingerprint}.{uuid.uuid4().hex}"
        tmp.write_text(f"{key}\n{_index_check(fingerprint, key)}\n", "ascii")
        trust.seal(tmp)
        os.replace(tmp, folder / fingerprint)
    except OSError:
        pass  # an index is an optimisation: without it the slow path still works
