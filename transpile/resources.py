"""Where the shipped ``templates/`` and ``runtime/`` folders are.

In a wheel they are the subpackages ``transpile.templates`` and ``transpile.runtime``;
in a source checkout (or an editable install) they are the top-level folders.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

__all__ = ["templates_dir", "runtime_dir"]

_REPO_ROOT = Path(__file__).resolve().parent.parent


def _locate(subpackage: str, folder: str) -> Path:
    local = _REPO_ROOT / folder
    if (_REPO_ROOT / "pyproject.toml").is_file() and local.is_dir():
        # a source checkout: its own folders, even where an editable install of another
        # checkout maps the subpackage elsewhere
        return local
    try:
        spec = importlib.util.find_spec(f"transpile.{subpackage}")
    except ModuleNotFoundError:
        spec = None
    if spec is not None and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    local = _REPO_ROOT / folder
    if local.is_dir():
        return local
    raise FileNotFoundError(f"transpile's {folder}/ folder is missing from this installation")


def templates_dir() -> Path:
    """The folder of jinja2 templates."""
    return _locate("templates", "templates")


def runtime_dir() -> Path:
    """The folder of C/CUDA runtime headers."""
    return _locate("runtime", "runtime")
