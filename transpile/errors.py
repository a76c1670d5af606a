"""Error classes with JAX's names, hierarchy and key sentences.

The hierarchy mirrors ``jax.errors``: tracer conversion errors are ``TypeError``s,
``TracerBoolConversionError`` is a ``ConcretizationTypeError``, and the index error is
an ``IndexError``.
"""
from __future__ import annotations

__all__ = [
    "JAXTypeError", "JAXIndexError", "ConcretizationTypeError", "TracerBoolConversionError",
    "TracerIntegerConversionError", "TracerArrayConversionError", "UnexpectedTracerError",
    "NonConcreteBooleanIndexError", "KeyReuseError", "JaxRuntimeError", "JaxprTypeError",
    "InconclusiveDimensionOperation", "jax_array_error",
]

_DOCS = "https://docs.jax.dev/en/latest/errors.html#jax.errors."


class _JAXErrorMixin:
    """Appends the documentation link JAX's errors end with."""

    _error_page = _DOCS

    def __init__(self, message: str):
        name = type(self).__name__
        super().__init__(f"{message}\nSee {self._error_page}{name}")


class JAXTypeError(_JAXErrorMixin, TypeError):
    """Base class of the tracer conversion errors."""


class JAXIndexError(_JAXErrorMixin, IndexError):
    """Base class of indexing errors."""


def _describe(tracer) -> str:
    return tracer._origin_msg() if hasattr(tracer, "_origin_msg") else ""


class ConcretizationTypeError(JAXTypeError):
    """A traced value was used where a concrete Python value is needed."""

    def __init__(self, tracer, context: str = ""):
        aval = getattr(tracer, "aval", None)
        head = ("Abstract tracer value encountered where concrete value is expected: "
                f"traced array with shape {aval.str_long() if aval is not None else tracer}")
        parts = [head]
        if context:
            parts.append(context)
        origin = _describe(tracer)
        if origin:
            parts.append(origin)
        super().__init__("\n".join(parts) + "\n")


class TracerBoolConversionError(ConcretizationTypeError):
    """``bool()`` of a traced value (a Python ``if`` on a traced value)."""

    def __init__(self, tracer):
        msg = f"Attempted boolean conversion of traced array with shape {tracer.aval.str_long()}."
        origin = _describe(tracer)
        if origin:
            msg += "\n" + origin
            if "depends on the value" in origin:
                msg += ("\nIf the branch should depend on the argument's Python value, mark "
                        "it static with `static_argnums` or `static_argnames` in `jit`, or "
                        "use `lax.cond`/`jnp.where` to keep it traced.")
        JAXTypeError.__init__(self, msg)


class TracerIntegerConversionError(JAXTypeError):
    """``__index__`` of a traced value (``range(x)``, ``lst[x]``)."""

    def __init__(self, tracer):
        msg = ("The __index__() method was called on traced array with shape "
               f"{tracer.aval.str_long()}")
        origin = _describe(tracer)
        if origin:
            msg += "\n" + origin
        super().__init__(msg)


class TracerArrayConversionError(JAXTypeError):
    """``np.asarray`` of a traced value."""

    def __init__(self, tracer):
        msg = ("The numpy.ndarray conversion method __array__() was called on traced array "
               f"with shape {tracer.aval.str_long()}")
        origin = _describe(tracer)
        if origin:
            msg += "\n" + origin
        super().__init__(msg)


class UnexpectedTracerError(JAXTypeError):
    """A tracer escaped the transformation that created it and was used later."""

    def __init__(self, message: str):
        super().__init__(message)


class KeyReuseError(JAXTypeError):
    """A PRNG key was used twice where reuse checking is on."""

    def __init__(self, message: str):
        super().__init__(message)


class NonConcreteBooleanIndexError(JAXIndexError):
    """Boolean mask indexing with a traced mask."""

    def __init__(self, tracer):
        # JAX's first line, then the remedies its documentation gives (a jitted
        # function's output shapes cannot depend on how many elements a mask selects),
        # then, as in JAX, a blank line before the documentation link.
        super().__init__(f"Array boolean indices must be concrete; got "
                         f"{tracer.aval.str_short()}\n{BOOLEAN_INDEX_HINT}\n")


#: The line transpile adds to JAX's NonConcreteBooleanIndexError message.
BOOLEAN_INDEX_HINT = (
    "Under jit the number of True elements of a traced mask is unknown. Keep the shape "
    "instead: jnp.where(mask, x, 0) rather than x[mask], jnp.where(mask, v, x) rather "
    "than x.at[mask].set(v), or jnp.nonzero(mask, size=n) for at most n indices.")


class JaxRuntimeError(RuntimeError):
    """An error raised while running compiled code."""


class JaxprTypeError(TypeError):
    """A jaxpr failed its type check."""


class InconclusiveDimensionOperation(Exception):
    """Kept for name compatibility; transpile has no symbolic shapes."""


def jax_array_error() -> ValueError:
    """JAX's error for an object with ``__jax_array__`` where a value is abstracted (a
    ``jit`` or ``grad`` argument, a ``jnp`` function's operand): only ``jnp.asarray``,
    ``jnp.array`` and the operators of arrays convert it."""
    return ValueError("Triggering __jax_array__() during abstractification is no longer "
                      "supported. To avoid this error, either explicitly convert your object "
                      "using jax.numpy.array(), or register your object as a pytree.")
