"""One process of a distributed test job (started by test_dist_kvstore.py through tools/launch.py).

    python3 tools/launch.py -n 3 --launcher local python3 dist_worker.py sync

Every worker knows what the others push (the values are functions of the rank), so each check
compares the store's result with a closed form NumPy computes here. A passing check prints
``CHECK <name> ok rank=<r>``; a failing one raises, which ends the whole job non-zero.
"""
import os
import signal
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', '..', 'python'))

import mxnet as mx  # noqa: E402


def ok(name, kv):
    print("CHECK %s ok rank=%d" % (name, kv.rank), flush=True)


def close(got, want, name, rtol=1e-6, atol=1e-6):
    got = got.asnumpy() if hasattr(got, 'asnumpy') else np.asarray(got)
    if got.shape != np.shape(want) or not np.allclose(got, want, rtol=rtol, atol=atol):
        raise AssertionError("%s: got %r, expected %r" % (name, got, want))


def exact(got, want, name):
    got = got.asnumpy() if hasattr(got, 'asnumpy') else np.asarray(got)
    if got.dtype != np.asarray(want).dtype or not np.array_equal(got, want):
        raise AssertionError("%s: got %r (%s), expected %r (%s)"
                             % (name, got, got.dtype, want, np.asarray(want).dtype))


def value(rank, shape, dtype='float32', salt=0):
    """Worker `rank`'s pushed value: small integers, so every sum is exact in any dtype."""
    n = int(np.prod(shape))
    return ((np.arange(n) % 7 + rank * 3 + salt + 1).reshape(shape)).astype(dtype)


# ---- synchronous stores ---------------------------------------------------------------------

def check_big(kv, name, ctx):
    """A 1.5e6-element array on ctx against the exact float32 sum (multiples of 1/4: the sum has
    no rounding)."""
    big_n = 1500000
    base = (np.arange(big_n) % 1000).astype(np.float32) * 0.25
    kv.init('big', mx.nd.zeros((big_n,), ctx=ctx))
    kv.push('big', mx.nd.array(base * (kv.rank + 1), ctx=ctx))
    ob = mx.nd.zeros((big_n,), ctx=ctx)
    kv.pull('big', out=ob)
    want_big = np.zeros(big_n, np.float32)
    for q in range(kv.num_workers):
        want_big += base * np.float32(q + 1)
    exact(ob, want_big, name + " big array")
    ok(name + ".big", kv)


def sync_semantics(kind):
    kv = mx.kv.create(kind)
    r, n = kv.rank, kv.num_workers
    name = kind
    if kv.type != kind or n != int(os.environ['DMLC_NUM_WORKER']) or not 0 <= r < n:
        raise AssertionError("%s: type %s rank %d num_workers %d" % (kind, kv.type, r, n))
    ok(name + ".rank_type", kv)
    ranks = range(n)
    shape = (2, 3)

    # init: rank 0's value wins.
    kv.init(3, mx.nd.array(value(r, shape)))
    out = mx.nd.zeros(shape)
    kv.pull(3, out=out)
    exact(out, value(0, shape), name + " init")
    ok(name + ".init", kv)

    # push from two devices: summed over the devices, then over the workers; pull into
    # several outputs.
    kv.push(3, [mx.nd.array(value(r, shape, salt=0), ctx=mx.cpu(0)),
                mx.nd.array(value(r, shape, salt=5), ctx=mx.cpu(1))])
    outs = [mx.nd.zeros(shape, ctx=mx.cpu(0)), mx.nd.zeros(shape, ctx=mx.cpu(1)),
            mx.nd.zeros(shape)]
    kv.pull(3, out=outs)
    want = sum(value(q, shape) + value(q, shape, salt=5) for q in ranks)
    for o in outs:
        exact(o, want, name + " push from two devices")
    ok(name + ".push_devices", kv)

    # pushpull in place, and into an output.
    v = mx.nd.array(value(r, shape, salt=2))
    kv.pushpull(3, v)
    exact(v, sum(value(q, shape, salt=2) for q in ranks), name + " pushpull in place")
    o2 = mx.nd.zeros(shape)
    kv.pushpull(3, mx.nd.array(value(r, shape, salt=4)), out=o2)
    exact(o2, sum(value(q, shape, salt=4) for q in ranks), name + " pushpull out")
    ok(name + ".pushpull", kv)

    # string keys
    kv.init('weight', mx.nd.array(value(r, (4,), salt=1)))
    ow = mx.nd.zeros((4,))
    kv.pull('weight', out=ow)
    exact(ow, value(0, (4,), salt=1), name + " str init")
    kv.push('weight', mx.nd.array(value(r, (4,), salt=3)))
    kv.pull('weight', out=ow)
    exact(ow, sum(value(q, (4,), salt=3) for q in ranks), name + " str push")
    ok(name + ".str_keys", kv)

    # dtypes
    for i, dt in enumerate(['float16', 'float32', 'float64', 'int32', 'int64']):
        key = 100 + i
        kv.init(key, mx.nd.array(value(r, shape, dt), dtype=dt))
        kv.push(key, mx.nd.array(value(r, shape, dt, salt=i), dtype=dt))
        od = mx.nd.zeros(shape, dtype=dt)
        kv.pull(key, out=od)
        exact(od, sum(value(q, shape, dt, salt=i) for q in ranks).astype(dt),
              "%s dtype %s" % (name, dt))
    ok(name + ".dtypes", kv)

    # broadcast: rank 0's value into every output
    bo = [mx.nd.zeros(shape), mx.nd.zeros(shape)]
    kv.broadcast('bcast', mx.nd.array(value(r, shape, salt=6)), out=bo)
    for o in bo:
        exact(o, value(0, shape, salt=6), name + " broadcast")
    ok(name + ".broadcast", kv)

    check_big(kv, name, mx.cpu())

    # row_sparse: the union of the rows, rows held by several workers summed; then
    # row_sparse_pull of some rows.
    rs_shape = (8, 2)
    kv.init('emb', mx.nd.zeros(rs_shape).tostype('row_sparse'))

    def rows_of(q):
        return sorted({q, q + 2, 7 - q})

    def rs_value(q):
        dense = np.zeros(rs_shape, np.float32)
        for row in rows_of(q):
            dense[row] = (q + 1) * 10 + row
        return dense
    kv.push('emb', mx.nd.array(rs_value(r)).tostype('row_sparse'))
    want_rs = sum(rs_value(q) for q in ranks)
    row_ids = mx.nd.array([1, 2, 6, 2], dtype='int64')
    rso = mx.nd.zeros(rs_shape).tostype('row_sparse')
    kv.row_sparse_pull('emb', out=rso, row_ids=row_ids)
    want_pulled = np.zeros(rs_shape, np.float32)
    want_pulled[[1, 2, 6]] = want_rs[[1, 2, 6]]
    exact(rso.tostype('default'), want_pulled, name + " row_sparse_pull")
    exact(rso.indices, np.array([1, 2, 6], np.int64), name + " row_sparse_pull indices")
    full = mx.nd.zeros(rs_shape).tostype('row_sparse')
    kv.row_sparse_pull('emb', out=full, row_ids=mx.nd.arange(8, dtype='int64'))
    exact(full.tostype('default'), want_rs, name + " row_sparse union sum")
    ok(name + ".row_sparse", kv)

    # barrier: no worker leaves before the last one (rank n-1, which sleeps first) arrived.
    if r == n - 1:
        time.sleep(0.3)
    arrived = time.time()
    kv._barrier()
    left = time.time()
    stamps = np.zeros(n, np.float64)
    stamps[r] = arrived
    stamps = mx.nd.array(stamps, dtype='float64')
    kv.init('barrier_times', mx.nd.zeros((n,), dtype='float64'))
    kv.pushpull('barrier_times', stamps)
    if left < stamps.asnumpy().max():
        raise AssertionError("%s: worker %d left the barrier at %.6f, before worker %d arrived "
                             "at %.6f" % (name, r, left, int(stamps.asnumpy().argmax()),
                                          stamps.asnumpy().max()))
    ok(name + ".barrier", kv)

    # one SGD step on the sum of the pushes (the optimizer runs after the all-reduce)
    kv.set_optimizer(mx.optimizer.SGD(learning_rate=0.1, rescale_grad=0.5))
    w0 = value(0, shape, salt=9)
    kv.init('w', mx.nd.array(value(r, shape, salt=9)))
    kv.push('w', mx.nd.array(value(r, shape, salt=1)))
    ow = mx.nd.zeros(shape)
    kv.pull('w', out=ow)
    grad = sum(value(q, shape, salt=1) for q in ranks)
    close(ow, w0 - np.float32(0.1) * (np.float32(0.5) * grad), name + " sgd step")
    ok(name + ".sgd", kv)


def horovod_semantics():
    kv = mx.kv.create('horovod')
    r, n = kv.rank, kv.num_workers
    if kv.type != 'horovod' or n != int(os.environ['DMLC_NUM_WORKER']):
        raise AssertionError("horovod: type %s num_workers %d" % (kv.type, n))
    shape = (3, 2)
    v = mx.nd.array(value(r, shape))
    kv.pushpull('g', v)
    exact(v, sum(value(q, shape) for q in range(n)), "horovod pushpull in place")
    out = mx.nd.zeros(shape, dtype='float64')
    kv.pushpull(7, mx.nd.array(value(r, shape, 'float64', salt=2), dtype='float64'), out=out)
    exact(out, sum(value(q, shape, 'float64', salt=2) for q in range(n)),
          "horovod pushpull out")
    ok("horovod.pushpull", kv)
    outs = [mx.nd.zeros(shape), mx.nd.zeros(shape)]
    kv.broadcast('b', mx.nd.array(value(r, shape, salt=4)), out=outs)
    for o in outs:
        exact(o, value(0, shape, salt=4), "horovod broadcast")
    ok("horovod.broadcast", kv)
    try:
        kv.init('x', mx.nd.zeros(shape))
    except (mx.MXNetError, NotImplementedError) as e:
        if 'not supported' not in str(e):
            raise
    else:
        raise AssertionError("horovod init should raise")
    ok("horovod.no_init", kv)


def two_bit_reference(grads_per_worker, threshold):
    """1.x's 2-bit rule per worker: residual += grad; send +t where residual >= t (residual -= t),
    -t where residual <= -t (residual += t), else 0. Returns per-step lists of what each worker
    sent."""
    sent = []
    for grads in grads_per_worker:
        residual = np.zeros_like(grads[0])
        mine = []
        for g in grads:
            residual = residual + g
            q = np.where(residual >= threshold, threshold,
                         np.where(residual <= -threshold, -threshold, 0)).astype(np.float32)
            residual = residual - q
            mine.append(q)
        sent.append(mine)
    return sent


def compression_grads(q, step, shape):
    rng = np.random.RandomState(100 * q + step)
    return (rng.uniform(-1, 1, shape)).astype(np.float32)


def two_bit_sync():
    kv = mx.kv.create('dist_sync')
    r, n = kv.rank, kv.num_workers
    t = 0.5
    kv.set_gradient_compression({'type': '2bit', 'threshold': t})
    shape = (5, 7)  # 35 elements: more than one 16-code word, and a partial one
    kv.init('c', mx.nd.zeros(shape))
    steps = 4
    sent = two_bit_reference([[compression_grads(q, s, shape) for s in range(steps)]
                              for q in range(n)], t)
    out = mx.nd.zeros(shape)
    for s in range(steps):
        kv.push('c', mx.nd.array(compression_grads(r, s, shape)))
        kv.pull('c', out=out)
        exact(out, sum(sent[q][s] for q in range(n)), "2bit dist_sync step %d" % s)
    ok("dist_sync.2bit", kv)


def case_sync():
    sync_semantics('dist_sync')
    sync_semantics('dist_device_sync')
    horovod_semantics()
    two_bit_sync()


def gpu_sync_semantics(kind):
    """dist_device_sync with GPU values: keys live on the GPU, the workers' sums are all-reduced
    there (NCCL, or host memory and MPI), the updater runs there (tests/python/gpu)."""
    kv = mx.kv.create(kind)
    r, n = kv.rank, kv.num_workers
    ranks = range(n)
    gpu = mx.gpu(0)
    shape = (2, 3)
    name = kind + ".gpu"

    kv.init(3, mx.nd.array(value(r, shape), ctx=gpu))
    out = mx.nd.zeros(shape, ctx=gpu)
    kv.pull(3, out=out)
    exact(out, value(0, shape), name + " init")
    ok(name + ".init", kv)

    # a GPU and a CPU value from each worker; pulled into GPU and CPU outputs
    kv.push(3, [mx.nd.array(value(r, shape), ctx=gpu),
                mx.nd.array(value(r, shape, salt=5), ctx=mx.cpu())])
    outs = [mx.nd.zeros(shape, ctx=gpu), mx.nd.zeros(shape)]
    kv.pull(3, out=outs)
    for o in outs:
        exact(o, sum(value(q, shape) + value(q, shape, salt=5) for q in ranks), name + " push")
    v = mx.nd.array(value(r, shape, salt=2), ctx=gpu)
    kv.pushpull(3, v)
    exact(v, sum(value(q, shape, salt=2) for q in ranks), name + " pushpull in place")
    ok(name + ".push", kv)

    for i, dt in enumerate(['float16', 'float32', 'float64', 'int32', 'int64', 'uint8']):
        key = 'dt%d' % i
        kv.init(key, mx.nd.array(value(r, shape, dt), dtype=dt, ctx=gpu))
        kv.push(key, mx.nd.array(value(r, shape, dt, salt=i), dtype=dt, ctx=gpu))
        od = mx.nd.zeros(shape, dtype=dt, ctx=gpu)
        kv.pull(key, out=od)
        exact(od, sum(value(q, shape, dt, salt=i) for q in ranks).astype(dt),
              "%s dtype %s" % (name, dt))
    ok(name + ".dtypes", kv)

    check_big(kv, name, gpu)

    # the updater sees the workers' sum and the stored value on the GPU
    seen = []

    def updater(key, grad, weight):
        seen.append((grad.context.device_type, weight.context.device_type))
        weight[:] -= 0.5 * grad
    kv._set_updater(updater)
    kv.init('u', mx.nd.ones(shape, ctx=gpu))
    kv.push('u', mx.nd.array(value(r, shape, salt=1), ctx=gpu))
    ou = mx.nd.zeros(shape, ctx=gpu)
    kv.pull('u', out=ou)
    close(ou, 1 - 0.5 * sum(value(q, shape, salt=1) for q in ranks), name + " updater")
    if seen != [('gpu', 'gpu')]:
        raise AssertionError("%s: the updater ran on %r, expected the GPU" % (name, seen))
    ok(name + ".updater", kv)


def two_bit_gpu():
    kv = mx.kv.create('dist_device_sync')
    r, n = kv.rank, kv.num_workers
    t = 0.5
    kv.set_gradient_compression({'type': '2bit', 'threshold': t})
    shape = (5, 7)
    kv.init('c', mx.nd.zeros(shape, ctx=mx.gpu(0)))
    steps = 3
    sent = two_bit_reference([[compression_grads(q, s, shape) for s in range(steps)]
                              for q in range(n)], t)
    out = mx.nd.zeros(shape, ctx=mx.gpu(0))
    for s in range(steps):
        kv.push('c', mx.nd.array(compression_grads(r, s, shape), ctx=mx.gpu(0)))
        kv.pull('c', out=out)
        exact(out, sum(sent[q][s] for q in range(n)), "2bit gpu step %d" % s)
    ok("dist_device_sync.gpu.2bit", kv)


def case_gpu_sync():
    gpu_sync_semantics('dist_device_sync')
    two_bit_gpu()


# ---- dist_async -----------------------------------------------------------------------------

def case_async():
    kv = mx.kv.create('dist_async')
    r, n = kv.rank, kv.num_workers
    if kv.type != 'dist_async' or n != int(os.environ['DMLC_NUM_WORKER']):
        raise AssertionError("dist_async: type %s num_workers %d" % (kv.type, n))
    shape = (3, 4)
    keys = [3, 'a', 'b', 11]  # several keys: with two servers they spread over both
    for i, key in enumerate(keys):
        kv.init(key, mx.nd.array(value(r, shape, salt=i)))
    for i, key in enumerate(keys):
        out = mx.nd.zeros(shape)
        kv.pull(key, out=out)
        exact(out, value(0, shape, salt=i), "dist_async init of %r" % (key,))
    ok("dist_async.init", kv)

    # no optimizer on the servers: a push is an error naming the cause
    try:
        kv.push(3, mx.nd.ones(shape))
        mx.nd.waitall()
    except mx.MXNetError as e:
        if 'no optimizer' not in str(e):
            raise
    else:
        raise AssertionError("dist_async push without an optimizer should raise")
    ok("dist_async.no_optimizer", kv)
    kv._barrier()  # every worker's failed push reached the servers before the optimizer does

    # SGD on the servers: after every worker pushed (a barrier), the value is w0 - lr * sum.
    lr = 0.25
    kv.set_optimizer(mx.optimizer.SGD(learning_rate=lr, rescale_grad=1.0))
    for i, key in enumerate(keys):
        kv.push(key, [mx.nd.array(value(r, shape, salt=10 + i), ctx=mx.cpu(0)),
                      mx.nd.array(value(r, shape, salt=20 + i), ctx=mx.cpu(1))])
    kv._barrier()
    for i, key in enumerate(keys):
        out = mx.nd.zeros(shape)
        kv.pull(key, out=out)
        grad = sum(value(q, shape, salt=10 + i) + value(q, shape, salt=20 + i)
                   for q in range(n))
        close(out, value(0, shape, salt=i) - lr * grad, "dist_async sgd of %r" % (key,))
    ok("dist_async.sgd", kv)
    kv._barrier()

    # A toy problem: least squares, each worker pushing gradients on its own data; the
    # servers' weights converge to the solution.
    rng = np.random.RandomState(0)
    w_true = rng.uniform(-1, 1, (5,)).astype(np.float32)
    x = np.random.RandomState(1 + r).uniform(-1, 1, (64, 5)).astype(np.float32)
    y = x.dot(w_true)
    kv.init('toy', mx.nd.zeros((5,)))
    w = mx.nd.zeros((5,))
    for _ in range(60):
        kv.pull('toy', out=w)
        wn = w.asnumpy()
        grad = x.T.dot(x.dot(wn) - y) / len(x)
        kv.push('toy', mx.nd.array(grad))
    kv._barrier()
    kv.pull('toy', out=w)
    close(w, w_true, "dist_async toy problem", rtol=0, atol=1e-2)
    ok("dist_async.converges", kv)

    async_row_sparse(kv, lr)
    kv._barrier()

    # 2-bit compression: the servers apply each worker's dequantized pushes.
    t = 0.5
    kv.set_gradient_compression({'type': '2bit', 'threshold': t})
    cshape = (5, 7)
    kv.init('c', mx.nd.zeros(cshape))
    steps = 4
    for s in range(steps):
        kv.push('c', mx.nd.array(compression_grads(r, s, cshape)))
    kv._barrier()
    sent = two_bit_reference([[compression_grads(q, s, cshape) for s in range(steps)]
                              for q in range(n)], t)
    out = mx.nd.zeros(cshape)
    kv.pull('c', out=out)
    close(out, -lr * sum(sum(sent[q]) for q in range(n)), "dist_async 2bit")
    # as 1.x: row subsets are not compressed
    try:
        kv.push('emb', mx.nd.ones((8, 3)).tostype('row_sparse'))
    except mx.MXNetError as e:
        if 'compression of row_sparse values is not supported' not in str(e):
            raise
    else:
        raise AssertionError("a compressed row_sparse push should raise")
    ok("dist_async.2bit", kv)



def async_row_sparse(kv, lr):
    """row_sparse values on the servers: init (rank 0's), row_sparse_pull of some rows, a dense
    pull, and SGD from row_sparse pushes into a row_sparse key and a dense one (the sparse_grad
    case)."""
    r, n = kv.rank, kv.num_workers
    shape = (8, 3)
    w0 = [value(q, shape, salt=30) for q in range(n)]  # every row stored
    kv.init('emb', mx.nd.array(w0[r]).tostype('row_sparse'))
    kv.init('dense_w', mx.nd.array(w0[r]))

    def pull_rows(key, rows):
        out = mx.nd.zeros(shape).tostype('row_sparse')
        kv.row_sparse_pull(key, out=out, row_ids=mx.nd.array(rows, dtype='int64'))
        return out

    got = pull_rows('emb', [5, 1, 5, 0])
    want = np.zeros(shape, np.float32)
    want[[0, 1, 5]] = w0[0][[0, 1, 5]]
    exact(got.tostype('default'), want, "dist_async row_sparse_pull after init")
    exact(got.indices, np.array([0, 1, 5], np.int64), "dist_async row_sparse_pull indices")
    dense = mx.nd.zeros(shape)
    kv.pull('emb', out=dense)
    exact(dense, w0[0], "dist_async dense pull of a row_sparse key")

    def grad(q):
        g = np.zeros(shape, np.float32)
        for row in sorted({q, 2 * q + 3, 7}):
            g[row] = value(q, (3,), salt=row)
        return g
    kv._barrier()  # asynchronous: every worker has read the initial value before any push
    for key in ('emb', 'dense_w'):
        kv.push(key, mx.nd.array(grad(r)).tostype('row_sparse'))
    kv._barrier()
    want = w0[0] - np.float32(lr) * sum(grad(q) for q in range(n))
    close(pull_rows('emb', list(range(8))).tostype('default'), want,
          "dist_async SGD from row_sparse pushes")
    dense = mx.nd.zeros(shape)
    kv.pull('dense_w', out=dense)
    close(dense, want, "dist_async dense key after row_sparse pushes")
    ok("dist_async.row_sparse", kv)


# ---- training: Gluon Trainer and Module ------------------------------------------------------

def _data(q, batch=4):
    rng = np.random.RandomState(10 + q)
    x = rng.uniform(-1, 1, (batch, 6)).astype(np.float32)
    y = rng.uniform(-1, 1, (batch, 3)).astype(np.float32)
    return x, y


def _gluon_train(kvstore, update_on_kvstore, xs, ys, batch_size, steps=3):
    """Trains a small Dense net with SGD+momentum on batches xs[k] (one per step) and returns
    the final weights. Every process builds the same initial weights (fixed seed)."""
    from mxnet import autograd, gluon
    mx.random.seed(42)
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(5, activation='tanh', in_units=6), gluon.nn.Dense(3, in_units=5))
    net.initialize(mx.init.Uniform(0.5))
    kwargs = {} if update_on_kvstore is None else {'update_on_kvstore': update_on_kvstore}
    trainer = gluon.Trainer(net.collect_params(), 'sgd',
                            {'learning_rate': 0.1, 'momentum': 0.9}, kvstore=kvstore, **kwargs)
    loss_fn = gluon.loss.L2Loss()
    for k in range(steps):
        x, y = xs[k], ys[k]
        with autograd.record():
            loss = loss_fn(net(mx.nd.array(x)), mx.nd.array(y))
        loss.backward()
        trainer.step(batch_size)  # the union's size: the gradients are summed over workers
    return [p.data().asnumpy() for p in net.collect_params().values()]


def case_train():
    n = int(os.environ['DMLC_NUM_WORKER'])
    steps = 3
    # batch k of worker q
    batches = [[_data(q * 10 + k) for k in range(steps)] for q in range(n)]
    union_x = [np.concatenate([batches[q][k][0] for q in range(n)]) for k in range(steps)]
    union_y = [np.concatenate([batches[q][k][1] for q in range(n)]) for k in range(steps)]
    union = len(union_x[0])
    ref = _gluon_train('local', None, union_x, union_y, union, steps)  # one process, the union
    for kvtype, uok in [('dist_sync', True), ('dist_sync', False), ('horovod', False)]:
        kv = mx.kv.create(kvtype)
        r = kv.rank
        mine = _gluon_train(kv, uok, [b[0] for b in batches[r]], [b[1] for b in batches[r]],
                            union, steps)
        for a, b in zip(mine, ref):
            close(a, b, "Trainer %s update_on_kvstore=%s" % (kvtype, uok), rtol=1e-4, atol=1e-5)
        ok("trainer.%s.%s" % (kvtype, 'uok' if uok else 'local_update'), kv)
    module_fit(batches, n)


def _module_fit(kvstore, x, y, batch_size):
    mx.random.seed(7)
    data = mx.sym.Variable('data')
    fc = mx.sym.FullyConnected(data, num_hidden=3, name='fc')
    out = mx.sym.LinearRegressionOutput(fc, name='lro')
    mod = mx.mod.Module(out, data_names=['data'], label_names=['lro_label'])
    it = mx.io.NDArrayIter(x, y, batch_size=batch_size, label_name='lro_label')
    mod.fit(it, num_epoch=2, kvstore=kvstore, optimizer='sgd',
            optimizer_params={'learning_rate': 0.05, 'momentum': 0.9},
            initializer=mx.init.Uniform(0.3))
    arg, _ = mod.get_params()
    return {k: v.asnumpy() for k, v in arg.items()}


def module_fit(batches, n):
    """Module.fit with dist_sync on each worker's shard equals Module.fit on the union, batch k
    of the union being the concatenation of the workers' batch k."""
    steps = len(batches[0])
    bs = len(batches[0][0][0])
    union_x = np.concatenate([np.concatenate([batches[q][k][0] for q in range(n)])
                              for k in range(steps)])
    union_y = np.concatenate([np.concatenate([batches[q][k][1] for q in range(n)])
                              for k in range(steps)])
    ref = _module_fit('local', union_x, union_y, bs * n)
    kv = mx.kv.create('dist_sync')
    r = kv.rank
    x = np.concatenate([batches[r][k][0] for k in range(steps)])
    y = np.concatenate([batches[r][k][1] for k in range(steps)])
    got = _module_fit(kv, x, y, bs)
    for k in ref:
        close(got[k], ref[k], "Module.fit dist_sync %s" % k, rtol=1e-4, atol=1e-5)
    ok("module.fit", kv)


# ---- asynchrony: a dist_sync push is an engine operation -------------------------------------

def case_overlap():
    """Worker 1 comes to its push DELAY seconds late. Worker 0's push must return at once (the
    sum runs later, in the engine), its engine must stay free for other work meanwhile, and
    only waiting on the pulled value takes the DELAY."""
    delay = 2.0
    kv = mx.kv.create('dist_sync')
    r, n = kv.rank, kv.num_workers
    shape = (1024, 1024)  # 4 MiB of float32
    kv.init('big', mx.nd.zeros(shape))
    grad = mx.nd.array(value(r, shape))
    a = mx.nd.ones((64, 64))
    mx.nd.waitall()
    kv._barrier()  # both workers start the clock together
    if r == 1:
        time.sleep(delay)
    start = time.time()
    kv.push('big', grad)
    pushed = time.time() - start
    out = mx.nd.zeros(shape)
    kv.pull('big', out=out)
    other = mx.nd.dot(a, a)  # unrelated engine work, while the sum waits for worker 1
    other.wait_to_read()
    computed = time.time() - start
    out.wait_to_read()
    waited = time.time() - start
    close(out, sum(value(q, shape) for q in range(n)), "overlap sum")
    close(other, np.full((64, 64), 64.0), "overlap dot")
    print("TIMES rank=%d push=%.4f compute=%.4f wait=%.4f" % (r, pushed, computed, waited),
          flush=True)
    if r == 0:
        if not waited > 0.5 * delay:
            raise AssertionError("the pull's wait took %.3f s; worker 1 was %.1f s late"
                                 % (waited, delay))
        if not pushed < 0.2 * delay:
            raise AssertionError("push took %.3f s: it waited for worker 1 (%.1f s late)"
                                 % (pushed, delay))
        if not computed < 0.4 * delay:
            raise AssertionError("unrelated engine work took %.3f s: the pending sum held the "
                                 "engine" % computed)
    ok("overlap.push_returns_early", kv)
    # Trainer-style: several pushes in a row, then pulls; results as with synchronous sums.
    for step in range(3):
        for k in range(4):
            if step == 0:
                kv.init('g%d' % k, mx.nd.zeros((3, 5)))
            kv.push('g%d' % k, mx.nd.array(value(r, (3, 5), salt=step + k)))
        outs = [mx.nd.zeros((3, 5)) for _ in range(4)]
        for k in range(4):
            kv.pull('g%d' % k, out=outs[k])
        for k in range(4):
            exact(outs[k], sum(value(q, (3, 5), salt=step + k) for q in range(n)),
                  "overlap step %d key %d" % (step, k))
    ok("overlap.in_order", kv)


# ---- failure modes: each must end the job non-zero, quickly, with a message ------------------

def case_fail_raise():
    kv = mx.kv.create('dist_sync')
    kv.init(0, mx.nd.zeros((4,)))
    if kv.rank == 1:
        raise RuntimeError("worker 1 fails on purpose")
    for _ in range(1000):
        kv.push(0, mx.nd.ones((4,)))


def case_fail_kill():
    kv = mx.kv.create('dist_sync')
    kv.init(0, mx.nd.zeros((4,)))
    for step in range(1000):
        if kv.rank == 1 and step == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        kv.push(0, mx.nd.ones((4,)))


def case_fail_uneven():
    kv = mx.kv.create('dist_sync')
    kv.init(0, mx.nd.zeros((4,)))
    for _ in range(3 + kv.rank * 2):  # worker 1 has more batches
        kv.push(0, mx.nd.ones((4,)))
        kv.pull(0, out=mx.nd.zeros((4,)))
    mx.nd.waitall()


def case_fail_key():
    kv = mx.kv.create('dist_sync')
    kv.init(0, mx.nd.zeros((4,)))
    kv.init(1, mx.nd.zeros((4,)))
    kv.push(kv.rank, mx.nd.ones((4,)))  # worker 0 pushes key 0, worker 1 key 1
    mx.nd.waitall()


def case_fail_stall():
    kv = mx.kv.create('dist_sync')
    kv.init(0, mx.nd.zeros((4,)))
    if kv.rank == 1:
        time.sleep(120)  # never comes to the push
    kv.push(0, mx.nd.ones((4,)))
    mx.nd.waitall()


CASES = {name[len('case_'):]: fn for name, fn in globals().items() if name.startswith('case_')}

if __name__ == '__main__':
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        sys.exit("usage: dist_worker.py {%s}" % "|".join(sorted(CASES)))
    CASES[sys.argv[1]]()
    print("DONE %s rank=%s" % (sys.argv[1], os.environ.get('OMPI_COMM_WORLD_RANK')), flush=True)
