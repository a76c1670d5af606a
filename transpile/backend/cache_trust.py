"""Whether the cache may be trusted: ownership and modes, the cache marker, shared mode.

A cache entry is native code that this process maps and runs, so, as pip, ccache and
Python's bytecode cache reason, nothing is loaded from a directory or file that another
user could have written: it must be owned by the current user and writable by no one
else. ``TRANSPILE_CACHE_SHARED=group`` is the one explicit exception: members of the
cache directory's group trust each other, so group-owned, group-writable files are
accepted, and what this process creates is made group-readable and writable.

The cache directory carries a marker file (``CACHEDIR.TAG``, in the format backup tools
honour, plus a transpile line with a format number) written when transpile creates it;
``cache clear`` deletes only inside a directory that carries it.

Ownership and modes are judged from ``os.stat`` results by :func:`problem`, so tests can
check them as data (the current user is :func:`current_uid`, which tests may replace),
even when they run as root.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["MARKER", "MARKER_FORMAT", "SHARED_ENV", "current_uid", "shared_mode", "problem",
           "check_tree", "seal", "is_marked", "write_marker", "looks_unused"]

#: The marker file's name and its first line: the Cache Directory Tagging Specification.
MARKER = "CACHEDIR.TAG"
_TAG_SIGNATURE = "Signature: 8a477f597d28d172789f06886806bc55"
#: Bump when a marked directory's layout changes incompatibly.
MARKER_FORMAT = 1
_MARKER_LINE = "# transpile cache, format "
SHARED_ENV = "TRANSPILE_CACHE_SHARED"
# What a cache directory created by an earlier transpile (before the marker) holds; one
# holding only these is adopted, anything else is not a transpile cache.
_OWN_NAMES = {"tmp", "locks", "failed", "compilers", "index", "runtime", "README.md",
              ".gitignore"}


def current_uid() -> int | None:
    """The effective user id, or None where the platform has none (Windows)."""
    return os.geteuid() if hasattr(os, "geteuid") else None


def _groups() -> set[int]:
    return set(os.getgroups()) | {os.getegid()} if hasattr(os, "getegid") else set()


def shared_mode() -> str:
    """``""`` (a private cache) or ``"group"``, from ``TRANSPILE_CACHE_SHARED``.

    Raises
    ------
    ValueError
        For any other value, naming the variable and the accepted values.
    """
    value = os.environ.get(SHARED_ENV, "").strip().lower()
    if value in ("", "0", "no", "private"):
        return ""
    if value == "group":
        return "group"
    raise ValueError(f"{SHARED_ENV}={value!r} is not understood: use 'group' to share the "
                     "cache with the members of its directory's group, or leave it unset")


def problem(st: os.stat_result, uid: int | None = None, mode: str | None = None,
            groups: set[int] | None = None) -> str | None:
    """Why a file with status ``st`` must not be trusted, or None when it may be.

    Parameters
    ----------
    st : os.stat_result
        From ``os.lstat`` (a symbolic link is never trusted) or ``os.stat``.
    uid : int, optional
        The current user (default :func:`current_uid`); None disables the check.
    mode : str, optional
        ``""`` or ``"group"`` (default :func:`shared_mode`).
    groups : set of int, optional
        The current user's groups (default: the process's).
    """
    uid = current_uid() if uid is None else uid
    if uid is None:
        return None
    mode = shared_mode() if mode is None else mode
    if stat.S_ISLNK(st.st_mode):
        return "is a symbolic link"
    if st.st_mode & stat.S_IWOTH:
        return "is writable by every user"
    if mode == "group":
        groups = _groups() if groups is None else groups
        if st.st_uid != uid and st.st_gid not in groups:
            return (f"is owned by user {st.st_uid} and group {st.st_gid}, neither yours "
                    f"(user {uid})")
        return None
    if st.st_uid != uid:
        return (f"is owned by user {st.st_uid}, not by you (user {uid}); set "
                f"{SHARED_ENV}=group to share a cache between the users of a group")
    if st.st_mode & stat.S_IWGRP:
        return (f"is writable by its group; set {SHARED_ENV}=group to share a cache "
                "between the users of a group")
    return None


def check_tree(folder: Path) -> str | None:
    """Why ``folder`` or a file directly in it must not be trusted, or None."""
    try:
        why = problem(os.lstat(folder))
        if why:
            return f"{folder} {why}"
        with os.scandir(folder) as it:
            for item in it:
                st = item.stat(follow_symlinks=False)
                if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
                    return f"{item.path} is not a regular file"
                why = problem(st)
                if why:
                    return f"{item.path} {why}"
    except OSError as e:
        return f"{folder} cannot be inspected ({e})"
    return None


def seal(path: Path) -> None:
    """Give a file or directory this process created the mode its cache mode wants:
    writable by the owner only, or, shared by a group, group-writable (directories also
    set-group-id, so what is created inside keeps the group)."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode) or st.st_uid != current_uid():
            return
        bits = stat.S_IMODE(st.st_mode) & ~0o002
        if shared_mode() == "group":
            bits |= 0o2070 if stat.S_ISDIR(st.st_mode) else 0o060
        else:
            bits &= ~0o020
        if bits != stat.S_IMODE(st.st_mode):
            os.chmod(path, bits)
    except (OSError, ValueError):
        pass  # a mode we cannot set is then reported by problem() on load


def is_marked(root: Path) -> bool:
    """True when ``root`` carries transpile's marker."""
    try:
        text = (root / MARKER).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return text.startswith(_TAG_SIGNATURE) and _MARKER_LINE in text


def write_marker(root: Path) -> None:
    """Mark ``root`` as a transpile cache (atomically; an existing marker is kept)."""
    text = (f"{_TAG_SIGNATURE}\n# This file is a cache directory tag created by "
            "transpile.\n# For information about cache directory tags, see "
            f"https://bford.info/cachedir/\n{_MARKER_LINE}{MARKER_FORMAT}\n")
    tmp = root / f".{MARKER}.{os.getpid()}.tmp"
    tmp.write_text(text, encoding="utf-8")
    seal(tmp)
    os.replace(tmp, root / MARKER)


def looks_unused(root: Path) -> bool:
    """True when ``root`` is empty or looks like an unmarked transpile cache of an
    earlier version (so it may be marked and used): only the names such a cache holds,
    at least one of its own folders, and nothing foreign in ``tmp/``."""
    try:
        # another process's marker being written (its temporary name) is not content:
        # four processes starting on a fresh directory see each other's
        names = [n for n in os.listdir(root) if not n.startswith(f".{MARKER}.")]
        staged = os.listdir(root / "tmp") if "tmp" in names else []
    except OSError:
        return False
    ours = False
    for name in names:
        if len(name) == 2 and all(c in "0123456789abcdef" for c in name):
            ours = True
        elif name in ("compilers", "index"):
            ours = True
        elif name not in _OWN_NAMES:
            return False
    if not all(n.startswith(("build-", "trash-", "probe-")) for n in staged):
        return False
    # empty, or holding only a README and .gitignore (as a project's build_cache/ does in
    # a fresh clone)
    return ours or set(names) <= {"README.md", ".gitignore"}
