"""``jax.monitoring``: listeners for named events, event durations, time spans and
scalars. ``jit`` records ``/jax/core/compile/jaxpr_trace_duration`` for each trace and
``stages`` ``/jax/core/compile/backend_compile_duration`` for each compile (JAX's event
names); user code may record its own.
"""
from __future__ import annotations

from typing import Callable

__all__ = ["record_event", "record_event_duration_secs", "record_event_time_span",
           "record_scalar", "register_event_listener",
           "register_event_duration_secs_listener", "register_event_time_span_listener",
           "register_scalar_listener", "unregister_event_listener",
           "unregister_event_duration_listener", "unregister_event_time_span_listener",
           "unregister_scalar_listener", "clear_event_listeners"]

_event: list = []
_duration: list = []
_span: list = []
_scalar: list = []


def record_event(event: str, **kwargs) -> None:
    """Call every event listener with ``event`` (and ``kwargs``)."""
    for fn in list(_event):
        fn(event, **kwargs)


def record_event_duration_secs(event: str, duration: float, **kwargs) -> None:
    """Call every duration listener with ``event`` and ``duration`` (seconds)."""
    for fn in list(_duration):
        fn(event, duration, **kwargs)


def record_event_time_span(event: str, start_time: float, end_time: float,
                           **kwargs) -> None:
    """Call every time-span listener with ``event`` and its start and end times."""
    for fn in list(_span):
        fn(event, start_time, end_time, **kwargs)


def record_scalar(key: str, value: float | int, **kwargs) -> None:
    """Call every scalar listener with ``key`` and ``value``."""
    for fn in list(_scalar):
        fn(key, value, **kwargs)


def register_event_listener(callback: Callable) -> None:
    """Add ``callback(event, **kwargs)``."""
    _event.append(callback)


def register_event_duration_secs_listener(callback: Callable) -> None:
    """Add ``callback(event, duration_secs, **kwargs)``."""
    _duration.append(callback)


def register_event_time_span_listener(callback: Callable) -> None:
    """Add ``callback(event, start_time, end_time, **kwargs)``."""
    _span.append(callback)


def register_scalar_listener(callback: Callable) -> None:
    """Add ``callback(key, value, **kwargs)``."""
    _scalar.append(callback)


def _remove(table: list, callback: Callable, kind: str) -> None:
    if callback not in table:
        raise AssertionError(f"{kind} listener {callback} is not registered")
    table.remove(callback)


def unregister_event_listener(callback: Callable) -> None:
    """Remove an event listener (AssertionError when it is not registered)."""
    _remove(_event, callback, "event")


def unregister_event_duration_listener(callback: Callable) -> None:
    """Remove a duration listener (AssertionError when it is not registered)."""
    _remove(_duration, callback, "duration")


def unregister_event_time_span_listener(callback: Callable) -> None:
    """Remove a time-span listener (AssertionError when it is not registered)."""
    _remove(_span, callback, "time span")


def unregister_scalar_listener(callback: Callable) -> None:
    """Remove a scalar listener (AssertionError when it is not registered)."""
    _remove(_scalar, callback, "scalar")


def clear_event_listeners() -> None:
    """Remove every listener."""
    for table in (_event, _duration, _span, _scalar):
        table.clear()
