"""Stage package: backend (stage 6, build: C text → cached shared library → loaded cffi lib).

``build`` compiles (or finds in the disk cache) and loads a library; ``cache`` owns the
on-disk layout, keys, locks and the ``python -m transpile cache`` listing.
"""
from .build import (CompileError, CompilerInfo, CompilerNotFoundError, Library, build,
                    compile_command, compiler_info, load_entry)
from .cache import CACHE_VERSION, cache_dir, cache_key
from . import forking  # noqa: F401,E402 - registers the os.fork handler

__all__ = ["CompileError", "CompilerInfo", "CompilerNotFoundError", "Library", "build",
           "load_entry",
           "compile_command", "compiler_info", "CACHE_VERSION", "cache_dir", "cache_key"]
