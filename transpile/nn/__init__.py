"""``jax.nn``: activation functions, softmax and friends, ``one_hot``, attention, and
``transpile.nn.initializers``.

``functions`` holds the activations and softmax family JAX's jaxpr tests pin down,
``activations`` the rest of the elementwise units, ``attention`` the scaled
dot-product attention; ``initializers`` the weight initializers.
"""
from __future__ import annotations

from . import initializers  # noqa: F401
from .activations import (glu, hard_sigmoid, hard_silu, hard_swish,  # noqa: F401
                          hard_tanh, identity, log1mexp, logmeanexp, mish, soft_sign,
                          sparse_plus, sparse_sigmoid, squareplus, tanh)
from .attention import dot_product_attention  # noqa: F401
from .functions import (celu, elu, gelu, leaky_relu, log_sigmoid,  # noqa: F401
                        log_softmax, logsumexp, one_hot, relu, relu6, selu, sigmoid,
                        silu, softmax, softplus, standardize, swish)

__all__ = ["celu", "dot_product_attention", "elu", "gelu", "glu", "hard_sigmoid",
           "hard_silu", "hard_swish", "hard_tanh", "identity", "initializers",
           "leaky_relu", "log1mexp", "log_sigmoid", "log_softmax", "logmeanexp",
           "logsumexp", "mish", "one_hot", "relu", "relu6", "selu", "sigmoid", "silu",
           "soft_sign", "softmax", "softplus", "sparse_plus", "sparse_sigmoid",
           "squareplus", "standardize", "swish", "tanh"]
