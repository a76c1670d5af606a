"""Where the CUDA runtime library (libcudart) is: the search ``cuda_runtime`` makes.

In order: the toolkit of the nvcc that ``build.py`` uses (``NVCC``, else on ``PATH``;
a shell-script wrapper is followed to the nvcc it runs), ``CUDA_HOME``, ``CUDA_PATH``,
``/usr/local/cuda`` and ``/usr/local/cuda-X.Y`` newest first, then what
``ctypes.util.find_library`` and the system loader know. Preferring nvcc's toolkit
keeps Python and the libraries nvcc links on one runtime. ``TRANSPILE_CUDART``, which
overrides all of this, is handled by ``cuda_runtime``.
"""
from __future__ import annotations

import ctypes.util
import glob
import os
import re
import shutil

__all__ = ["candidates", "toolkit_roots", "wrapped_nvcc", "loaded_path"]


def _version_key(path: str) -> tuple:
    return tuple(int(n) for n in re.findall(r"\d+", os.path.basename(path)))


def wrapped_nvcc(path: str) -> str | None:
    """The nvcc a small shell-script wrapper (``exec /x/bin/nvcc "$@"``) runs."""
    try:
        if os.path.getsize(path) > 4096:
            return None
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return None
    if not text.startswith("#!"):
        return None
    m = re.search(r"""(/[^\s"']+/bin/nvcc)\b""", text)
    return m.group(1) if m else None


def toolkit_roots() -> list[str]:
    """CUDA toolkit folders, most specific first: the nvcc build.py would use, then
    CUDA_HOME, CUDA_PATH, /usr/local/cuda and /usr/local/cuda-X.Y newest first."""
    roots = []
    nvccs = [os.environ.get("NVCC", "").strip() or None, shutil.which("nvcc")]
    for nvcc in nvccs:
        if not nvcc:
            continue
        nvcc = shutil.which(nvcc) or nvcc
        for prog in (wrapped_nvcc(nvcc), os.path.realpath(nvcc)):
            if prog:
                roots.append(os.path.dirname(os.path.dirname(prog)))
    roots += [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    roots += sorted(glob.glob("/usr/local/cuda-*"), key=_version_key, reverse=True)
    seen, out = set(), []
    for r in roots:
        if r and r not in seen:
            seen.add(r)
            out.append(r)
    return out


def candidates() -> list[str]:
    """Paths (or bare names, for the system loader) to try, in order."""
    out = []
    for root in toolkit_roots():
        for sub in ("lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"):
            d = os.path.join(root, sub)
            plain = os.path.join(d, "libcudart.so")
            versioned = sorted(glob.glob(os.path.join(d, "libcudart.so.*")),
                               key=_version_key, reverse=True)
            out += [p for p in [plain, *versioned] if os.path.isfile(p)]
    found = ctypes.util.find_library("cudart")
    if found:
        out.append(found)
    out += ["libcudart.so", "libcudart.so.13", "libcudart.so.12"]
    return list(dict.fromkeys(out))


def loaded_path(name: str) -> str:
    """The file the system loader opened for a bare library name (Linux)."""
    if os.sep in name:
        return name
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                if os.path.basename(path).startswith("libcudart.so"):
                    return path
    except OSError:
        pass
    return name
