"""The server role of a distributed job (DMLC_ROLE=server), as in MXNet 1.x.

A process started as a server runs ``KVStoreServer(kv).run()`` when it imports mxnet and exits
when every worker has finished. Servers receive the workers' commands (command 0: a pickled
optimizer). The synchronous stores sum on the workers, so servers only hold the job's shape;
``tools/launch.py`` starts none unless asked (``-s N``).
"""
import ctypes
import logging
import pickle
import sys

from ..base import _LIB, check_call

__all__ = ["KVStoreServer"]


class KVStoreServer(object):
    """Runs the server loop of `kvstore` (a dist_* KVStore) in this process."""

    def __init__(self, kvstore):
        self.kvstore = kvstore
        self.handle = kvstore.handle
        self.init_logging = False

    def _controller(self):
        """The command handler: 0 sets the optimizer; others are logged."""
        def server_controller(cmd_id, cmd_body, _):
            if not self.init_logging:
                head = '%(asctime)-15s Server[' + str(self.kvstore.rank) + '] %(message)s'
                logging.basicConfig(level=logging.DEBUG, format=head)
                self.init_logging = True
            if cmd_id == 0:
                body = cmd_body if isinstance(cmd_body, bytes) else cmd_body.encode()
                try:
                    optimizer = pickle.loads(body)
                except Exception:  # pylint: disable=broad-except
                    optimizer = pickle.loads(body.decode('latin-1').encode('latin-1'))
                self.kvstore.set_optimizer(optimizer)
            else:
                logging.info("server received command %d: %s", cmd_id, cmd_body)
        return server_controller

    def run(self):
        """Serve until every worker has finished."""
        _ctrl_proto = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)
        self._ctrl = _ctrl_proto(self._controller())
        check_call(_LIB.MXKVStoreRunServer(self.handle, self._ctrl, None))


def _init_kvstore_server_module(create):
    """Start the server loop if this process was launched as a server (`create` is mx.kv.create)."""
    is_worker = ctypes.c_int()
    check_call(_LIB.MXKVStoreIsWorkerNode(ctypes.byref(is_worker)))
    if is_worker.value == 0:
        kvstore = create('dist')
        server = KVStoreServer(kvstore)
        server.run()
        sys.exit()

