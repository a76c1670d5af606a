"""A big generated source compiled as several translation units at once.

Input: one rendered C module (``templates/c/module.c.j2``: the includes, then the
kernels as top-level functions, then the entry point). Output: the sources of
``parts`` translation units, each with a share of the kernels (the first also with
the entry point), every one starting with the module's includes and declaring every
kernel; compiled in parallel and linked, a program of a thousand kernels builds in
about 1/parts of the time on as many cores. Kernels lose ``static`` for hidden
visibility, so nothing new is exported from the library.

Anything unexpected in the module's shape gives None: the caller compiles it whole
(and does so as well when a split build fails).
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

__all__ = ["split_source", "compile_parts", "parts_for", "PART_CHARS"]

#: The least source (characters) a part is worth: gcc spends about 6 us a character on
#: kernels, and each part pays for another process and for reading the headers again
#: (30-40 ms), so a part below ~12k characters saves less than it costs.
PART_CHARS = 12_000

_FUNCTION = re.compile(r"^static ((?:void|int) \w+\([^)\n]*\))\n\{\n", re.M)
_HIDDEN = '__attribute__((visibility("hidden"))) '


def _start(source: str, pos: int) -> int:
    """Where a function's text starts: at its one-line comment when it has one."""
    line = source.rfind("\n", 0, pos - 1) + 1
    prev = source[line:pos].strip()
    return line if prev.startswith("/*") and prev.endswith("*/") else pos


def split_source(source: str, parts: int) -> list | None:
    """The translation units (entry point first) of ``source``, or None."""
    found = list(_FUNCTION.finditer(source))
    ws = re.search(r"^int64_t \w+_workspace_size\(void\)$", source, re.M)
    if parts < 2 or len(found) < 2 or ws is None:
        return None
    tail = source.rfind("\n}\n", 0, ws.start()) + 3  # after the last kernel
    if tail < found[-1].end():
        return None
    starts = [_start(source, m.start()) for m in found]
    prelude, entry = source[:starts[0]], source[tail:]
    bodies = [source[a:b] for a, b in zip(starts, starts[1:] + [tail], strict=True)]
    for body, m in zip(bodies, found, strict=True):
        # A function and nothing else at top level: it ends with its closing brace.
        if not body.rstrip().endswith("\n}"):
            return None
    declarations = "".join(f"{_HIDDEN}{m.group(1)};\n" for m in found)
    bodies = [b.replace(f"static {m.group(1)}", f"{_HIDDEN}{m.group(1)}", 1)
              for b, m in zip(bodies, found, strict=True)]
    total = sum(len(b) for b in bodies)
    units, chunk, size = [], [], 0
    for b in bodies:
        chunk.append(b)
        size += len(b)
        if size >= total / parts and len(units) < parts - 1:
            units.append(chunk)
            chunk, size = [], 0
    if chunk:
        units.append(chunk)
    # The first unit keeps the module's leading comment (the whole jaxpr) and the entry
    # point; the others start at the includes.
    bare = prelude.split("*/\n", 1)[1] if prelude.startswith("/*") else prelude
    return [prelude + declarations + "\n" + "".join(units[0]) + entry] + \
        [bare + declarations + "\n" + "".join(u) for u in units[1:]]


def compile_parts(argv_for, sources: list, folder: Path, output: Path, link_argv):
    """Compile ``sources`` to objects in ``folder`` at once, then link ``output``.

    ``argv_for(source_path, object_path)`` is a part's compile command;
    ``link_argv(objects, output)`` the link command. Returns ``(returncode, stderr)``.
    """
    procs, objects = [], []
    for i, text in enumerate(sources):
        src = folder / f"part{i}.c"
        src.write_text(text, encoding="utf-8")
        obj = folder / f"part{i}.o"
        objects.append(obj)
        procs.append(subprocess.Popen(argv_for(src, obj), stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, stdin=subprocess.DEVNULL))
    errors, code = [], 0
    for p in procs:
        _, err = p.communicate()
        code = code or p.returncode
        errors.append(err.decode("utf-8", "replace"))
    if code:
        return code, "".join(errors)
    link = subprocess.run(link_argv(objects, output), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    return link.returncode, "".join(errors) + link.stderr.decode("utf-8", "replace")


def parts_for(source: str) -> int:
    """How many translation units to make of ``source`` (1: do not split)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, 8, len(source) // PART_CHARS))
