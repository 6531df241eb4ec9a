"""mx.kv.create('horovod'): a Horovod-style all-reduce store on the library's MPI job.

MXNet 1.x delegated this store to the horovod package; here the same interface runs on the
processes started by tools/launch.py or mpirun, with no package beyond the library:

    kv = mx.kv.create('horovod')
    kv.broadcast('w', w, out=w)     # rank 0's w on every worker
    kv.pushpull('g', g)             # g := sum of every worker's g, in place

It keeps no values (no init/push/pull) and runs no optimizer: the Trainer updates locally.
"""
import os

from .kvstore import KVStore

__all__ = ["Horovod"]


class Horovod(KVStore):
    """The all-reduce store: pushpull and broadcast over every worker."""

    _RUNS_OPTIMIZER = False

    def set_optimizer(self, optimizer):
        raise NotImplementedError("the horovod store runs no optimizer: update on the workers "
                                  "(Trainer(update_on_kvstore=False))")

    @property
    def local_rank(self):
        """This worker's rank among the workers on its machine."""
        for name in ('OMPI_COMM_WORLD_LOCAL_RANK', 'MPI_LOCALRANKID', 'MV2_COMM_WORLD_LOCAL_RANK'):
            if name in os.environ:
                return int(os.environ[name])
        return 0
