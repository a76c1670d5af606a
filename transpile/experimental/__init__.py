"""``transpile.experimental``: ``io_callback`` (``jax.experimental.io_callback``) and
``multihost_utils`` (values across the processes of an MPI run)."""
from ..callbacks import io_callback  # noqa: F401
from . import multihost_utils  # noqa: F401

__all__ = ["io_callback", "multihost_utils"]
