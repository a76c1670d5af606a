"""Programs for the API-surface tests (pytrees, ``jax.nn`` additions, initializers,
``jax.ops``, ``flatten_util``, ``example_libraries``, top-level functions).

Each function takes the library modules as arguments, so ``tools/record_api_data.py``
runs them with JAX 0.10.2 and the tests with transpile; ``tests/data/api.json`` holds
JAX's answers. Pure Python and NumPy here: no jax or transpile import.
"""
from __future__ import annotations

import collections
import dataclasses
import operator

import numpy as np

P = collections.namedtuple("P", "x y")
Q = collections.namedtuple("Q", "x y")


def tree_namespace(jax):
    """Names the tree expressions below see: the module, helpers and registered
    classes (registered anew for each ``jax``)."""
    tu = jax.tree_util

    @tu.register_dataclass
    @dataclasses.dataclass
    class DC:
        a: object
        b: object
        c: int = dataclasses.field(default=3, metadata=dict(static=True))

    class Meta:
        def __init__(self, a, m):
            self.a, self.m = a, m

    tu.register_dataclass(Meta, data_fields=["a"], meta_fields=["m"])

    class Keyed:
        def __init__(self, a, b):
            self.a, self.b = a, b

    tu.register_pytree_with_keys(
        Keyed, lambda k: (((tu.GetAttrKey("a"), k.a), (tu.DictKey("b"), k.b)), "aux"),
        lambda aux, ch: Keyed(*ch))

    class Plain:
        def __init__(self, a, b):
            self.a, self.b = a, b

    tu.register_pytree_node(Plain, lambda k: ((k.a, k.b), None), lambda aux, ch: Plain(*ch))

    @tu.register_static
    class Static:
        def __init__(self, v):
            self.v = v

        def __hash__(self):
            return hash(self.v)

        def __eq__(self, other):
            return isinstance(other, Static) and other.v == self.v

        def __repr__(self):
            return f"Static({self.v})"

    return dict(tu=tu, tree=jax.tree, P=P, Q=Q, OD=collections.OrderedDict,
                DD=collections.defaultdict, DC=DC, Meta=Meta, Keyed=Keyed, Plain=Plain,
                Static=Static, add=operator.add, dataclasses=dataclasses)


def evaluate(expr: str, namespace: dict) -> dict:
    """``{"repr": ...}`` of the expression's value, or its exception's type and message
    (how the recorder stores answers and the tests compare them)."""
    try:
        return {"repr": repr(eval(expr, dict(namespace)))}
    except Exception as e:  # noqa: BLE001  (compared with what the library raised)
        return {"error": type(e).__name__, "message": str(e)}


#: Expressions over ``tree_namespace``; each is recorded as ``repr`` of its value, or
#: the type and message of the exception it raises.
TREE_EXPRS = [
    "tu.tree_flatten(OD([('b', 1), ('a', 2)]))",
    "tu.tree_flatten(DD(list, {'b': 1, 'a': 2}))",
    "tu.tree_flatten({'a': OD([('b', 1), ('a', 2)]), 'b': [DD(list, {'b': 1, 'a': 2})]})",
    "tu.tree_flatten_with_path({'a': OD([('b', 1), ('a', 2)]), 'b': [DD(list, {'z': 1})]})",
    "tu.tree_flatten_with_path(P(1, (2, 3)))",
    "tu.tree_flatten(OD())",
    "tu.tree_unflatten(tu.tree_structure(OD([('b', 1), ('a', 2)])), [5, 6])",
    "tu.tree_unflatten(tu.tree_structure(DD(int, {'b': 1})), [7]).default_factory",
    "(repr(tu.DictKey('a')), str(tu.DictKey('a')), repr(tu.SequenceKey(0)), "
    "str(tu.SequenceKey(0)), repr(tu.GetAttrKey('x')), str(tu.GetAttrKey('x')), "
    "repr(tu.FlattenedIndexKey(2)), str(tu.FlattenedIndexKey(2)))",
    "tu.keystr((tu.DictKey('a'), tu.SequenceKey(0), tu.GetAttrKey('x'), "
    "tu.FlattenedIndexKey(2)))",
    "tu.keystr((tu.DictKey('a'), tu.SequenceKey(0), tu.GetAttrKey('x'), "
    "tu.FlattenedIndexKey(2)), simple=True, separator='/')",
    "tu.keystr(())",
    "tu.SequenceKey(1) == tu.SequenceKey(1), tu.DictKey('a') == tu.DictKey('b')",
    "tu.tree_flatten(DC(1, 2))",
    "tu.tree_flatten_with_path(DC(1, [2]))",
    "tu.tree_unflatten(tu.tree_structure(DC(1, 2, 5)), [8, 9])",
    "tu.tree_flatten_with_path(Meta(1, 'z'))",
    "tu.tree_flatten_with_path(Keyed(1, [2]))",
    "tu.tree_flatten_with_path(Plain(1, [2]))",
    "tu.tree_flatten([Static(1), 2])",
    "tu.tree_flatten_with_path(tu.Partial(add, 1, b=2))",
    "tu.tree_leaves_with_path([1, (2,)], is_leaf=lambda p, x: len(p) == 1, "
    "is_leaf_takes_path=True)",
    "tu.tree_map_with_path(lambda p, a, b: (tu.keystr(p), a + b), {'x': 1, 'y': [2]}, "
    "{'x': 10, 'y': [20]})",
    "tu.tree_map(lambda a, b: (a, b), (1, 2), (1, (2,)))",
    "tu.tree_map(lambda a, b: a, [1, 2], [1, None])",
    "tu.tree_map(lambda a, b: a, (1, 2), [1, 2])",
    "tu.tree_map(lambda a, b: a, (1, 2), (1, 2, 3))",
    "tu.tree_map(lambda a, b: a, {'a': 1}, {'b': 1})",
    "tu.tree_map(lambda a, b: a, {'a': 1}, {'a': 1, 'b': 2})",
    "tu.tree_map(lambda a, b: a, (1, (2,)), (1, 2))",
    "tu.tree_map(lambda a, b: a, P(1, 2), Q(1, 2))",
    "tu.tree_map(lambda a, b: a, [1, None], [1, 2])",
    "tu.tree_map(lambda a, b, c: a, [1, 2], [1, 2], [1])",
    "tu.tree_map(lambda a, b: a, OD(a=1), OD(b=1))",
    "tu.tree_map(lambda a, b: a, DC(1, 2), DC(1, 2, 4))",
    "tu.tree_reduce(add, [1, 2, 3])",
    "tu.tree_reduce(add, [1, 2, 3], 10)",
    "tu.tree_reduce(add, [])",
    "tu.tree_reduce_associative(lambda a, b: f'({a}+{b})', ['a', 'b', 'c', 'd', 'e'])",
    "tu.tree_reduce_associative(add, [])",
    "tu.tree_reduce_associative(add, [], identity=0)",
    "tu.tree_all([1, True, (0,)]), tu.tree_all([]), tu.tree_all([1, (2,)])",
    "tu.tree_transpose(tu.tree_structure([0, 0]), tu.tree_structure((0, 0)), "
    "[(1, 2), (3, 4)])",
    "tu.tree_transpose(tu.tree_structure([0, 0]), None, [(1, 2), (3, 4)])",
    "tu.tree_transpose(tu.tree_structure([0, 0]), tu.tree_structure((0, 0, 0)), "
    "[(1, 2), (3, 4)])",
    "tu.tree_broadcast([1, {'a': 2}], [(3, 4), {'a': [5, 6]}])",
    "tu.tree_broadcast([1, 2], [(3, 4), {'a': [5, 6]}, 3])",
    "tu.flatten_one_level({'a': 1, 'b': (2,)})",
    "tu.flatten_one_level_with_keys([1, 2])",
    "tu.flatten_one_level_with_keys({'b': 1, 'a': 2})",
    "tu.flatten_one_level(None)",
    "tu.flatten_one_level(1)",
    "tu.treedef_tuple([tu.tree_structure(1), tu.tree_structure((1, 2))])",
    "[tu.treedef_is_leaf(tu.tree_structure(x)) for x in (1, None, (), (1,))]",
    "[tu.is_tree_node(t) for t in (int, type(None), list, tuple, dict, OD, P, DC)]",
    "tu.all_leaves([1, None]), tu.all_leaves([1, (2,)], is_leaf=lambda x: "
    "isinstance(x, tuple)), tu.all_leaves([1, 2])",
    "tu.treedef_children(tu.tree_structure([1, (2, 3), {'a': 4}]))",
    "tu.tree_structure(tu.SequenceKey(1))",
    "tu.tree_unflatten(tu.tree_structure((1, 2)), [1, 2, 3])",
    "tu.tree_unflatten(tu.tree_structure((1, 2)), [1])",
    "tu.register_pytree_node(list, lambda x: x, lambda x: x)",
    "tu.register_dataclass(int)",
    "tu.register_dataclass(P, data_fields=['x'], meta_fields=None)",
    "tu.register_dataclass(dataclasses.make_dataclass('E', ['a', 'b']), "
    "data_fields=['a'], meta_fields=[])",
    "tu.register_dataclass(dataclasses.make_dataclass('E2', ['a']), data_fields=['a'], "
    "meta_fields=['a'])",
    "tree.map(lambda x: x * 2, {'a': 1, 'b': (2, 3)})",
    "tree.leaves({'b': 1, 'a': [2, None, 3]})",
    "tree.structure({'b': 1, 'a': [2, None, 3]})",
    "tree.unflatten(tree.structure([1, (2,)]), 'xy')",
    "tree.reduce(add, {'a': 1, 'b': (2, 3)})",
    "tree.all([1, 0]), tree.all([1, 2])",
    "tree.transpose(tree.structure([0, 0, 0]), tree.structure({'a': 0, 'b': 0}), "
    "[{'a': 1, 'b': 2}, {'a': 3, 'b': 4}, {'a': 5, 'b': 6}])",
    "tree.flatten_with_path({'a': (1,), 'b': OD(z=2)})",
    "tree.leaves_with_path([1, {'c': 2}])",
    "tree.map_with_path(lambda p, x: len(p) * x, [1, (2, [3])])",
    "tree.broadcast(5, [1, (2, 3)])",
    "tree.reduce_associative(add, [1, 2, 3, 4])",
    "tu.tree_flatten(tree.static(default=3).metadata)",
]


# ---------------------------------------------------------------------------------------
# jax.nn

#: name -> expression over ``nn`` and ``x`` (a float32 vector with both signs).
NN_EXPRS = {
    "hard_sigmoid": "nn.hard_sigmoid(x)", "hard_silu": "nn.hard_silu(x)",
    "hard_swish": "nn.hard_swish(x)", "hard_tanh": "nn.hard_tanh(x)",
    "identity": "nn.identity(x)", "log1mexp": "nn.log1mexp(abs(x) + 0.1)",
    "mish": "nn.mish(x)", "soft_sign": "nn.soft_sign(x)",
    "sparse_plus": "nn.sparse_plus(x)", "sparse_sigmoid": "nn.sparse_sigmoid(x)",
    "squareplus": "nn.squareplus(x)", "squareplus b": "nn.squareplus(x, 1.5)",
    "tanh": "nn.tanh(x)", "glu": "nn.glu(x)", "glu 2d": "nn.glu(x.reshape(2, 4), axis=0)",
    "logmeanexp": "nn.logmeanexp(x)",
    "logmeanexp axis": "nn.logmeanexp(x.reshape(2, 4), axis=1, keepdims=True)",
    "logmeanexp where": "nn.logmeanexp(x.reshape(2, 4), axis=1, where=x.reshape(2, 4) > -1)",
    "hard_tanh int": "nn.hard_tanh(3)", "soft_sign scalar": "nn.soft_sign(2.0)",
}
NN_X = np.array([-2.5, -1.0, -0.4, 0.0, 0.3, 1.0, 2.2, 4.0], np.float32)
#: The ones whose gradient of the sum is recorded too.
NN_GRAD = ["hard_sigmoid", "hard_silu", "hard_tanh", "log1mexp", "mish", "soft_sign",
           "sparse_plus", "sparse_sigmoid", "squareplus", "glu", "logmeanexp"]
NN_ERRORS = ["nn.glu(np.ones(3, np.float32))", "nn.mish([1.0])",
             "nn.dot_product_attention(q, k, v, implementation='foo')",
             "nn.dot_product_attention(q, k[..., :2], v)",
             "nn.dot_product_attention(q, k, v, mask=np.ones((1, 1, 3, 5)))",
             "nn.dot_product_attention(q[:, :, :3], k, v)"]


def attention_inputs():
    """query (2, 3, 4, 8), key/value (2, 5, 2, 8) (grouped heads), bias, mask and
    sequence lengths, from a fixed NumPy seed."""
    rng = np.random.RandomState(0)
    q = rng.randn(2, 3, 4, 8).astype(np.float32)
    k = rng.randn(2, 5, 2, 8).astype(np.float32)
    v = rng.randn(2, 5, 2, 8).astype(np.float32)
    bias = rng.randn(1, 4, 3, 5).astype(np.float32)
    mask = rng.rand(2, 1, 3, 5) > 0.3
    return dict(q=q, k=k, v=v, bias=bias, mask=mask, ql=np.array([2, 3], np.int32),
                kvl=np.array([4, 2], np.int32))


ATTENTION_EXPRS = {
    "plain": "nn.dot_product_attention(q, k, v)",
    "3d": "nn.dot_product_attention(q[0], k[0], v[0])",
    "bias": "nn.dot_product_attention(q, k, v, bias)",
    "mask": "nn.dot_product_attention(q, k, v, mask=mask)",
    "causal": "nn.dot_product_attention(q, k, v, is_causal=True, scale=0.5)",
    "lengths": "nn.dot_product_attention(q, k, v, query_seq_lengths=ql, "
               "key_value_seq_lengths=kvl)",
    "window": "nn.dot_product_attention(q, k, v, local_window_size=(1, 0), "
              "implementation='xla')",
    "residual": "nn.dot_product_attention(q, k, v, bias, is_causal=True, "
                "return_residual=True)",
    "mha": "nn.dot_product_attention(q[:, :, :2], k, v, mask=mask[:, :, :, :])",
}


# ---------------------------------------------------------------------------------------
# initializers: (factory expression over ``I``, shape, dtype name or None)

INIT_CASES = [
    ("I.zeros", (2, 3), None), ("I.ones", (2, 3), "float16"),
    ("I.constant(2.5)", (3,), None), ("I.constant(7, 'int32')", (2,), None),
    ("I.uniform()", (2, 3), None), ("I.uniform(2.0)", (4,), "float64"),
    ("I.normal()", (2, 3), None), ("I.normal(0.5, 'float64')", (3,), None),
    ("I.truncated_normal()", (2, 3), None),
    ("I.truncated_normal(1.0, lower=-1.0, upper=0.5)", (5,), None),
    ("I.glorot_uniform()", (3, 4), None), ("I.glorot_normal()", (3, 4), None),
    ("I.xavier_uniform()", (3, 4), None), ("I.xavier_normal()", (3, 4), None),
    ("I.lecun_uniform()", (3, 4), None), ("I.lecun_normal()", (3, 4), None),
    ("I.he_uniform()", (3, 4), None), ("I.he_normal()", (3, 4), None),
    ("I.kaiming_uniform()", (3, 4), None), ("I.kaiming_normal()", (3, 4), None),
    ("I.variance_scaling(2.0, 'fan_out', 'normal')", (2, 3, 4), None),
    ("I.variance_scaling(1.0, 'fan_geo_avg', 'uniform', in_axis=0, out_axis=(1, 2))",
     (2, 3, 4), None),
    ("I.variance_scaling(0.5, 'fan_avg', 'truncated_normal', batch_axis=0)", (2, 3, 4),
     "float64"),
    ("I.variance_scaling(1.0, 'fan_in', 'uniform', in_axis=0, out_axis=())", (5,),
     None),
    ("I.variance_scaling(1.0, 'fan_in', 'normal')", (2, 2), "complex64"),
    ("I.variance_scaling(1.0, 'fan_in', 'truncated_normal')", (2, 2), "complex64"),
    ("I.variance_scaling(1.0, 'fan_in', 'uniform')", (2, 2), "complex64"),
    ("I.orthogonal()", (3, 4), None), ("I.orthogonal(2.0, column_axis=0)", (3, 2, 2),
                                       None),
    ("I.orthogonal()", (4, 2), "float64"), ("I.orthogonal()", (0, 2), None),
    ("I.delta_orthogonal()", (3, 2, 3), None), ("I.delta_orthogonal()", (3, 3, 2, 2),
                                                None),
]
INIT_ERRORS = [
    ("I.glorot_uniform()", (5,)), ("I.variance_scaling(1.0, 'fan_x', 'normal')", (2, 2)),
    ("I.variance_scaling(1.0, 'fan_in', 'cauchy')", (2, 2)), ("I.orthogonal()", (3,)),
    ("I.delta_orthogonal()", (3, 3)), ("I.delta_orthogonal()", (3, 3, 2)),
]


# ---------------------------------------------------------------------------------------
# jax.ops, flatten_util, top level

OPS_EXPRS = [
    "ops.segment_sum(d, ids, 3)", "ops.segment_prod(d, ids, 3)",
    "ops.segment_max(d, ids, 3)", "ops.segment_min(d, ids, 3)",
    "ops.segment_sum(d, ids, 3, bucket_size=2)", "ops.segment_max(d, ids, 3, bucket_size=3)",
    "ops.segment_sum(d, ids, 3, mode='clip')", "ops.segment_min(d, ids, 4, mode='drop')",
    "ops.segment_sum(d2, np.array([1, 1, 0]))", "ops.segment_max(di, ids2, 3)",
    "ops.segment_min(di, ids2, 3)", "ops.segment_max(db, ids2, 3)",
    "ops.segment_min(db, ids2, 3)", "ops.segment_sum(d, sorted_ids, 3, "
    "indices_are_sorted=True)", "ops.segment_prod(di, ids2, 4, unique_indices=False)",
    "ops.segment_sum(d, ids, 0)",
]
OPS_ERRORS = ["ops.segment_sum(d, ids, -1)", "ops.segment_sum([1.0], ids)"]


def ops_inputs():
    return dict(d=np.array([1., 2., 3., 4., 5.], np.float32),
                ids=np.array([0, 2, 0, -1, 5], np.int32),
                sorted_ids=np.array([0, 0, 1, 2, 2], np.int32),
                d2=np.arange(6, dtype=np.int32).reshape(3, 2),
                di=np.array([3, -1, 4, 2], np.int32), ids2=np.array([0, 2, 2, 0], np.int32),
                db=np.array([True, False, False, False]))


RAVEL_EXPRS = [
    "{'a': np.ones((2, 2), np.float32), 'b': (np.float32(2), np.arange(3, dtype=np.float32))}",
    "{'a': np.ones((2, 2), np.float32), 'b': (1.0, np.arange(3, dtype=np.int32))}",
    "[np.arange(3, dtype=np.int32), np.int32(4)]",
    "[]", "(np.ones(2, np.float16), np.ones(1, np.float32))", "[2.5, 3]",
]


def training_losses(jax, jnp, optimizers, stax, steps=3):
    """Loss per step of the classic stax MLP trained by ``sgd``, ``momentum`` and
    ``adam`` (one jitted function steps all three)."""
    init, apply = stax.serial(stax.Dense(8), stax.Relu, stax.Dense(8), stax.Tanh,
                              stax.Dense(3), stax.LogSoftmax)
    _, params = init(jax.random.PRNGKey(0), (-1, 4))
    x = jax.random.normal(jax.random.PRNGKey(1), (16, 4))
    y = jax.nn.one_hot(jnp.arange(16) % 3, 3)

    def loss(p, x, y):
        return -jnp.mean(jnp.sum(apply(p, x) * y, axis=1))

    opts = {"sgd": optimizers.sgd(0.1), "momentum": optimizers.momentum(0.1, 0.9),
            "adam": optimizers.adam(1e-2)}

    def step_all(i, states, x, y):
        losses, new = {}, {}
        for name, (_, opt_update, get_params) in opts.items():
            losses[name], g = jax.value_and_grad(loss)(get_params(states[name]), x, y)
            new[name] = opt_update(i, g, states[name])
        return losses, new

    step_all = jax.jit(step_all)
    states = {name: opt[0](params) for name, opt in opts.items()}
    out = {name: [] for name in opts}
    for i in range(steps):
        losses, states = step_all(i, states, x, y)
        for name in opts:
            out[name].append(float(losses[name]))
    return out


def optimizer_paths(jax, jnp, optimizers, steps=3):
    """Parameters (flattened) after each of ``steps`` updates of every optimizer and
    schedule on a small quadratic, the gradient ``2 p - 0.3``: one jitted program for
    all, ``sm3`` eagerly (JAX's cannot run under ``jit``)."""
    params = {"w": jnp.arange(6.0).reshape(2, 3) / 5 - 0.4, "b": (jnp.array([1.0, -2.0]),)}
    grad = lambda p: jax.tree.map(lambda v: 2 * v - 0.3, p)  # noqa: E731
    opts = {
        "sgd": optimizers.sgd(0.1), "momentum": optimizers.momentum(0.1, 0.9),
        "nesterov": optimizers.nesterov(0.1, 0.9), "adagrad": optimizers.adagrad(0.1),
        "rmsprop": optimizers.rmsprop(1e-2), "rmsprop_momentum":
        optimizers.rmsprop_momentum(1e-2), "adam": optimizers.adam(1e-2),
        "adamax": optimizers.adamax(1e-2),
        "adam exponential_decay": optimizers.adam(optimizers.exponential_decay(1e-2, 2, .5)),
        "sgd inverse_time_decay": optimizers.sgd(optimizers.inverse_time_decay(
            0.1, 1, 0.5, staircase=True)),
        "sgd polynomial_decay": optimizers.sgd(optimizers.polynomial_decay(0.1, 2, 0.01)),
        "momentum piecewise_constant": optimizers.momentum(
            optimizers.piecewise_constant([1], [0.1, 0.01]), 0.5),
    }

    def run(params):
        out = {}
        for name, (opt_init, opt_update, get_params) in opts.items():
            state, path = opt_init(params), []
            for i in range(steps):
                state = opt_update(i, grad(get_params(state)), state)
                path.append(jax.tree.leaves(get_params(state)))
            out[name] = path
        return out

    out = jax.tree.map(lambda v: np.asarray(v).ravel().tolist(), jax.jit(run)(params))
    opt_init, opt_update, get_params = optimizers.sm3(0.1)
    state, path = opt_init(params), []
    for i in range(steps):
        state = opt_update(i, grad(get_params(state)), state)
        path.append([np.asarray(v).ravel().tolist() for v in jax.tree.leaves(
            get_params(state))])
    out["sm3"] = path
    return out


def stax_outputs(jax, jnp, stax):
    """Output shapes and values of the parameterless and combinator layers."""
    key = jax.random.PRNGKey(3)
    x = jnp.arange(6.0).reshape(2, 3) / 4 - 0.5
    out = {}
    for name in ("Relu", "Elu", "Gelu", "LogSoftmax", "Softmax", "Softplus", "Sigmoid",
                 "Tanh", "Exp", "Identity", "LeakyRelu", "Selu"):
        init, apply = getattr(stax, name)
        shape, params = init(key, x.shape)
        out[name] = (list(shape), np.asarray(apply(params, x)).ravel().tolist())
    init, apply = stax.serial(stax.FanOut(2), stax.parallel(stax.Dense(2), stax.Identity),
                              stax.FanInConcat())
    shape, params = init(key, (2, 3))
    out["fan concat"] = (list(shape), np.asarray(apply(params, x)).ravel().tolist())
    init, apply = stax.serial(stax.FanOut(3), stax.parallel(stax.Tanh, stax.Exp,
                                                            stax.Identity), stax.FanInSum)
    shape, params = init(key, (2, 3))
    out["fan sum"] = (list(shape), np.asarray(apply(params, x)).ravel().tolist())
    init, apply = stax.Dropout(0.5)
    shape, params = init(key, (2, 3))
    out["dropout"] = (list(shape), np.asarray(apply(params, x, rng=key)).ravel().tolist())
    init, apply = stax.serial(stax.Dense(4), stax.Dropout(0.7), stax.Dense(2))
    shape, params = init(key, (2, 3))
    out["serial dropout"] = (list(shape),
                             np.asarray(apply(params, x, rng=key)).ravel().tolist())
    init, apply = stax.shape_dependent(lambda s: stax.Dense(s[-1] * 2))
    shape, params = init(key, (2, 3))
    out["shape_dependent"] = (list(shape), np.asarray(apply(params, x)).ravel().tolist())
    return out


def assert_matches(x, entry: dict, rtol: float = 0.0, atol: float = 0.0) -> None:
    """``x`` has the recorded dtype, shape and weak type, and its values agree with the
    recorded ones to ``rtol``/``atol`` (exactly by default; NaN matches NaN)."""
    a = np.asarray(x)
    assert str(a.dtype) == entry["dtype"], (a.dtype, entry["dtype"])
    assert list(a.shape) == entry["shape"], (a.shape, entry["shape"])
    assert bool(getattr(x, "weak_type", False)) == entry["weak_type"]
    parts = [("real", a.real), ("imag", a.imag)] if "real" in entry else [("value", a)]
    for key, got in parts:
        want = np.array([float(v) for v in entry[key]], np.float64).reshape(a.shape)
        np.testing.assert_allclose(got.astype(np.float64), want, rtol=rtol, atol=atol)
