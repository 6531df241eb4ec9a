"""Op table: the node a recorded CachedOp call leaves on the autograd tape."""

ENTRIES = []

EXEMPT = {
    "_CachedOp": "records an mx.nd.CachedOp call under autograd (made by MXInvokeCachedOpEx, "
                 "not callable directly); tested in test_cached_op.py",
}
