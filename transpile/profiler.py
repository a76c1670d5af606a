"""``jax.profiler``: trace annotations and a trace file.

Between ``start_trace(log_dir)`` and ``stop_trace()`` (or inside ``with trace(log_dir)``),
every ``TraceAnnotation`` block, ``annotate_function`` call and compile (the
``/jax/core/compile/...`` durations of ``monitoring``) is recorded; ``stop_trace``
writes them as a Chrome/Perfetto trace, ``<log_dir>/plugins/profile/<run>/
perfetto_trace.json.gz``, where JAX writes its own profile. Outside a trace the
annotations cost a flag test. There is no profiler server.
"""
from __future__ import annotations

import contextlib
import functools
import gzip
import json
import os
import socket
import threading
import time
from pathlib import Path

from . import monitoring

__all__ = ["trace", "start_trace", "stop_trace", "TraceAnnotation", "StepTraceAnnotation",
           "annotate_function"]

_lock = threading.Lock()
_state: dict = {"log_dir": None, "events": None, "t0": 0.0}


def _now_us() -> float:
    return (time.perf_counter() - _state["t0"]) * 1e6


def _record(name: str, start_us: float, end_us: float, args: dict) -> None:
    with _lock:
        if _state["events"] is not None:
            _state["events"].append({"name": name, "ph": "X", "ts": start_us,
                                     "dur": max(end_us - start_us, 0.0), "pid": os.getpid(),
                                     "tid": threading.get_ident(), "args": args})


def _on_duration(event: str, duration: float, **kwargs) -> None:
    end = _now_us()
    _record(event, end - duration * 1e6, end, {k: str(v) for k, v in kwargs.items()})


def start_trace(log_dir, create_perfetto_link: bool = False,
                create_perfetto_trace: bool = False, profiler_options=None) -> None:
    """Start recording annotations and compiles for a trace written to ``log_dir``.

    Raises
    ------
    RuntimeError
        When a trace is already being recorded.
    """
    with _lock:
        if _state["events"] is not None:
            raise RuntimeError("Profile has already been started. Only one profile may be "
                               "run at a time.")
        _state.update(log_dir=os.fspath(log_dir), events=[], t0=time.perf_counter())
    monitoring.register_event_duration_secs_listener(_on_duration)


def stop_trace() -> Path:
    """Stop recording and write the trace file.

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    RuntimeError
        When no trace is being recorded.
    """
    with _lock:
        if _state["events"] is None:
            raise RuntimeError("No profile started")
        events, log_dir = _state["events"], _state["log_dir"]
        _state.update(log_dir=None, events=None)
    monitoring.unregister_event_duration_listener(_on_duration)
    run = Path(log_dir) / "plugins" / "profile" / time.strftime("%Y_%m_%d_%H_%M_%S")
    run.mkdir(parents=True, exist_ok=True)
    path = run / "perfetto_trace.json.gz"
    meta = {"name": "process_name", "ph": "M", "pid": os.getpid(),
            "args": {"name": f"transpile on {socket.gethostname()}"}}
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump({"traceEvents": [meta] + events, "displayTimeUnit": "ms"}, f)
    return path


@contextlib.contextmanager
def trace(log_dir, create_perfetto_link: bool = False, create_perfetto_trace: bool = False,
          profiler_options=None):
    """Context manager: ``start_trace(log_dir)`` on entry, ``stop_trace()`` on exit."""
    start_trace(log_dir, create_perfetto_link, create_perfetto_trace, profiler_options)
    try:
        yield
    finally:
        stop_trace()


class TraceAnnotation:
    """Context manager marking a named span of host time in the trace being recorded
    (if any); keyword arguments are kept as the span's arguments."""

    def __init__(self, name: str, **kwargs):
        self.name = name
        self.kwargs = kwargs
        self._start = None

    def __enter__(self):
        self._start = _now_us() if _state["events"] is not None else None
        return self

    def __exit__(self, *exc):
        if self._start is not None:
            _record(self.name, self._start, _now_us(),
                    {k: str(v) for k, v in self.kwargs.items()})
        return False


class StepTraceAnnotation(TraceAnnotation):
    """A ``TraceAnnotation`` of one training step (``step_num``)."""

    def __init__(self, name: str, **kwargs):
        super().__init__(name, **kwargs)


def annotate_function(func=None, name: str | None = None, **kwargs):
    """Decorator: each call of ``func`` is a ``TraceAnnotation`` named ``name`` (default:
    the function's name)."""
    if func is None:
        return functools.partial(annotate_function, name=name, **kwargs)
    label = name or getattr(func, "__qualname__", getattr(func, "__name__", "function"))

    @functools.wraps(func)
    def wrapper(*args, **kw):
        with TraceAnnotation(label, **kwargs):
            return func(*args, **kw)
    return wrapper
