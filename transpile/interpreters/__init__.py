"""Interpreters of the IR: tracing (stage 1), NumPy evaluation, and later ad/batching."""
