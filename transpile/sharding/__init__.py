"""``jax.sharding``: device meshes, partition specs and the shardings built on them."""
from .constraints import reshard
from .mesh import (AbstractMesh, AxisType, Mesh, get_abstract_mesh, get_mesh, make_mesh,
                   set_mesh, use_abstract_mesh)
from .named import NamedSharding, Sharding, SingleDeviceSharding
from .partition_spec import UNCONSTRAINED, PartitionSpec
from .shards import Shard

__all__ = ["AbstractMesh", "AxisType", "Mesh", "NamedSharding", "PartitionSpec", "Shard",
           "Sharding", "SingleDeviceSharding",
           "UNCONSTRAINED", "get_abstract_mesh", "get_mesh", "make_mesh", "reshard", "set_mesh",
           "use_abstract_mesh"]
