"""mx.executor_manager: data-parallel executors over several CPU contexts, checked against a
single executor on the whole batch."""
import numpy as onp
import pytest

import mxnet as mx
from mxnet.executor_manager import (DataParallelExecutorManager, DataParallelExecutorGroup,
                                    _split_input_slice)


def _net():
    data = mx.sym.var('data')
    fc = mx.sym.FullyConnected(data, num_hidden=3, name='fc')
    return mx.sym.LinearRegressionOutput(fc, mx.sym.var('lro_label'), name='lro')


def test_split_input_slice():
    assert _split_input_slice(10, [1, 1]) == [slice(0, 5), slice(5, 10)]
    assert _split_input_slice(9, [2, 1]) == [slice(0, 6), slice(6, 9)]
    with pytest.raises(ValueError):
        _split_input_slice(2, [1, 1, 1])


def test_manager_matches_single_executor():
    rng = onp.random.RandomState(0)
    X = rng.uniform(-1, 1, (6, 4)).astype(onp.float32)
    Y = rng.uniform(-1, 1, (6, 3)).astype(onp.float32)
    it = mx.io.NDArrayIter(X, Y, batch_size=6, label_name='lro_label')
    sym = _net()
    args = sym.list_arguments()
    params = ['fc_weight', 'fc_bias']
    manager = DataParallelExecutorManager(sym, [mx.cpu(0), mx.cpu(1)], it, args, params, [],
                                          work_load_list=[2, 1])
    assert manager.slices == [slice(0, 4), slice(4, 6)]
    assert isinstance(manager.execgrp, DataParallelExecutorGroup)
    arg_params = {'fc_weight': mx.nd.array(rng.uniform(-1, 1, (3, 4))),
                  'fc_bias': mx.nd.array(rng.uniform(-1, 1, (3,)))}
    manager.set_params(arg_params, {})
    batch = next(iter(it))
    manager.load_data_batch(batch)
    manager.forward(is_train=True)
    manager.backward()
    single = sym.simple_bind(mx.cpu(), data=(6, 4), lro_label=(6, 3))
    single.copy_params_from(arg_params)
    single.arg_dict['data'][:] = X
    single.arg_dict['lro_label'][:] = Y
    single.forward(is_train=True)
    single.backward()
    for name, grads in zip(params, manager.grad_arrays):
        total = sum(g.asnumpy() for g in grads)
        onp.testing.assert_allclose(total, single.grad_dict[name].asnumpy(), rtol=1e-5,
                                    atol=1e-6)
    metric = mx.metric.MSE()
    manager.update_metric(metric, batch.label)
    ref = mx.metric.MSE()   # updated per device slice, as the manager does
    for piece in manager.slices:
        ref.update([batch.label[0][piece]], [single.outputs[0][piece]])
    assert abs(metric.get()[1] - ref.get()[1]) < 1e-6
    out_params = {k: mx.nd.zeros(v.shape) for k, v in arg_params.items()}
    manager.copy_to(out_params, {})
    onp.testing.assert_allclose(out_params['fc_weight'].asnumpy(),
                                arg_params['fc_weight'].asnumpy())
    with pytest.raises(ValueError):
        DataParallelExecutorManager(sym, [mx.cpu()], it, args, params, [], work_load_list=[1, 1])
