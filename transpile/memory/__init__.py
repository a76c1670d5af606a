"""Where values live (layer 2, below every stage): the host buffer pool, arrays on a
CUDA device, and the ctypes binding of the CUDA runtime they are made with.

These were filed under ``backend/`` but ``Array``, ``devices`` and eager dispatch use
them, so they sit below the interpreters; ``backend/`` builds on them.
"""
