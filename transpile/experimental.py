"""``transpile.experimental``: ``io_callback`` (``jax.experimental.io_callback``)."""
from .callbacks import io_callback  # noqa: F401

__all__ = ["io_callback"]
