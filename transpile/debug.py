"""``transpile.debug``: ``print`` and ``callback`` (``jax.debug``), which see runtime
values under ``jit`` and ``vmap`` (see ``callbacks.py``)."""
from .callbacks import debug_callback as callback  # noqa: F401
from .callbacks import debug_print as print  # noqa: F401,A001
from .debugger import breakpoint  # noqa: F401,A004

from .sharding.visualize import (inspect_array_sharding,  # noqa: F401
                                 visualize_array_sharding, visualize_sharding)

__all__ = ["print", "callback", "breakpoint", "inspect_array_sharding",
           "visualize_array_sharding", "visualize_sharding"]
