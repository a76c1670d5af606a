"""What ``python -m transpile cache info`` shows: the entries of the cache, their sizes and
ages, and the cache's settings (size bound, private or group-shared).

Input: the cache directory (:func:`cache.cache_dir`). Output: :class:`CacheEntry` records
and the table :func:`info_text` prints.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import cache_trust as trust
from .cache import entry_dirs, entry_size, cache_dir, max_bytes

__all__ = ["CacheEntry", "entries", "info_text"]


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


def entries() -> list[CacheEntry]:
    """Every entry in the cache, newest first (unreadable ones listed as ``?``)."""
    found = []
    for entry in entry_dirs(cache_dir()):
        try:
            meta = json.loads((entry / "meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            meta = {}
        size = entry_size(entry)
        found.append(CacheEntry(key=entry.name, path=entry, name=str(meta.get("name", "?")),
                                signature=str(meta.get("signature", "?")), size=size,
                                created=float(meta.get("created", 0.0)), meta=meta))
    found.sort(key=lambda e: -e.created)
    return found


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
    bound = max_bytes()
    lines.append(f"total: {len(found)} entr{'y' if len(found) == 1 else 'ies'}, "
                 f"{_human_size(total)}; size bound "
                 f"{_human_size(bound) if bound else 'none'} (TRANSPILE_CACHE_MAX_BYTES); "
                 f"{trust.shared_mode() or 'private'} cache"
                 + (f"; {len(failed)} failed source(s) in {root / 'failed'}" if failed else ""))
    return "\n".join(lines)
