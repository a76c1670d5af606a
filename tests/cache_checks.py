"""What the cache tests share: a tiny C library to build and call, keyed by a factor and
a tag so that each test file builds entries of its own."""
import numpy as np

CDEF = "void scale(const float *x, float *y, int64_t n);"


def scale_source(factor: str, tag: str) -> str:
    """A C source defining ``scale`` (``y = factor * x``); ``tag`` makes the key unique."""
    return ('#include <stdint.h>\n#include "transpile_macros.h"\n'
            f"/* {tag} */\n"
            "void scale(const float *TP_RESTRICT x, float *TP_RESTRICT y, int64_t n) {\n"
            f"    for (int64_t i = 0; i < n; i++) y[i] = {factor}f * x[i];\n}}\n")


def call(library) -> list:
    """``scale`` of the library on [0, 1, 2, 3]."""
    x = np.arange(4, dtype=np.float32)
    y = np.zeros(4, dtype=np.float32)
    library.lib.scale(library.ffi.from_buffer("float[]", x),
                      library.ffi.from_buffer("float[]", y), 4)
    return y.tolist()
