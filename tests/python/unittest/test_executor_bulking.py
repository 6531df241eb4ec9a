"""Executor op bulking (MXNET_EXEC_BULK_EXEC_*): consecutive synchronous nodes run as one engine
operator. The oracle is the same executor run unbulked: every result must be identical."""
import re

import numpy as np
import pytest

import mxnet as mx
from mxnet.test_utils import environment

BULK_VARS = ('MXNET_EXEC_BULK_EXEC_TRAIN', 'MXNET_EXEC_BULK_EXEC_INFERENCE',
             'MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN', 'MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN_FWD',
             'MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN_BWD')


def bulk_env(**values):
    """Bulking settings are read at bind: set them around the bind only (unset: the defaults)."""
    return environment({k: values.get(k) for k in BULK_VARS})


UNBULKED = dict(MXNET_EXEC_BULK_EXEC_TRAIN=0, MXNET_EXEC_BULK_EXEC_INFERENCE=0)
SETTINGS = [dict(), dict(MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN=2),
            dict(MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN_FWD=3, MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN_BWD=4)]


def mlp():
    x = mx.sym.Variable('data')
    for i in range(3):
        x = mx.sym.FullyConnected(x, num_hidden=16, name='fc%d' % i)
        x = mx.sym.Activation(x, act_type='tanh', name='act%d' % i)
    x = mx.sym.FullyConnected(x, num_hidden=5, name='out')
    return mx.sym.SoftmaxOutput(x, name='softmax'), {'data': (8, 12), 'softmax_label': (8,)}


def branchy():
    # Two branches joined by Concat, BatchNorm with auxiliary states, elementwise tails.
    x = mx.sym.Variable('data')
    a = mx.sym.Convolution(x, kernel=(3, 3), num_filter=4, pad=(1, 1), name='ca')
    a = mx.sym.BatchNorm(a, name='bn')
    b = mx.sym.Pooling(x, kernel=(3, 3), stride=(1, 1), pad=(1, 1), pool_type='avg', name='pool')
    y = mx.sym.Concat(mx.sym.relu(a), b * 2 + 1, dim=1, name='cat')
    y = mx.sym.sum(mx.sym.square(y - 0.5), axis=(2, 3))
    return mx.sym.make_loss(mx.sym.mean(y), name='loss'), {'data': (2, 3, 6, 6)}


def run(sym_fn, env, grad_req='write', steps=2, is_train=True):
    sym, shapes = sym_fn()
    with bulk_env(**env):
        ex = sym.simple_bind(mx.cpu(), grad_req=grad_req, **shapes)
    rs = np.random.RandomState(3)
    for name, arr in sorted(ex.arg_dict.items()):
        if name == 'softmax_label':
            arr[:] = rs.randint(0, 5, arr.shape)
        else:
            arr[:] = rs.uniform(-1, 1, arr.shape)
    for name, arr in sorted(ex.aux_dict.items()):
        arr[:] = rs.uniform(0.5, 1.5, arr.shape)
    for _ in range(steps):
        ex.forward(is_train=is_train)
        if is_train:
            ex.backward()
    result = {'out%d' % i: o.asnumpy() for i, o in enumerate(ex.outputs)}
    if is_train:
        result.update({'grad_' + k: v.asnumpy() for k, v in ex.grad_dict.items() if v is not None})
        result.update({'aux_' + k: v.asnumpy() for k, v in ex.aux_dict.items()})
    return result, ex


def assert_same(a, b):
    assert sorted(a) == sorted(b)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


@pytest.mark.parametrize('sym_fn', [mlp, branchy])
@pytest.mark.parametrize('env', SETTINGS)
@pytest.mark.parametrize('grad_req', ['write', 'add'])
def test_bulked_training_equals_unbulked(sym_fn, env, grad_req):
    expected, _ = run(sym_fn, UNBULKED, grad_req)
    got, ex = run(sym_fn, env, grad_req)
    assert_same(expected, got)
    assert 'Bulk segment (backward)' in ex.debug_str()


@pytest.mark.parametrize('sym_fn', [mlp, branchy])
def test_bulked_inference_equals_unbulked(sym_fn):
    expected, _ = run(sym_fn, UNBULKED, is_train=False)
    got, ex = run(sym_fn, dict(), is_train=False)
    assert_same(expected, got)
    # Inference bulks the whole forward pass into one segment.
    assert len(re.findall(r'Bulk segment \(inference\)', ex.debug_str())) == 1


def segments(ex, kind):
    return [line.split(':', 1)[1].split() for line in ex.debug_str().splitlines()
            if line.startswith('Bulk segment (%s)' % kind)]


def test_segment_sizes_follow_settings():
    _, ex = run(mlp, dict(MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN_FWD=3,
                          MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN_BWD=2), steps=1)
    fwd = segments(ex, 'training forward')
    bwd = segments(ex, 'backward')
    # 8 forward nodes in segments of 3, 3, 2.
    assert [len(s) for s in fwd] == [3, 3, 2]
    assert fwd[0] == ['fc0', 'act0', 'fc1']
    assert all(len(s) == 2 for s in bwd)
    _, off = run(mlp, UNBULKED, steps=1)
    assert segments(off, 'training forward') == [] and segments(off, 'backward') == []
    _, single = run(mlp, dict(MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN=1), steps=1)
    assert segments(single, 'training forward') == []


def test_monitor_sees_every_node_when_bulking_is_on():
    sym, shapes = mlp()
    with bulk_env():
        ex = sym.simple_bind(mx.cpu(), **shapes)
    seen = []

    def monitor(name, handle):
        # The handle is a new array the callback owns (MXNet 1.x's protocol): wrap it to free it.
        mx.nd.NDArray(mx.base.NDArrayHandle(handle))
        seen.append(mx.base.py_str(name))
    ex.set_monitor_callback(monitor)
    ex.forward(is_train=True)
    mx.nd.waitall()
    assert [n for n in seen if n.endswith('_output')] == \
        ['fc0_output', 'act0_output', 'fc1_output', 'act1_output', 'fc2_output', 'act2_output',
         'out_output', 'softmax_output']


def test_error_in_a_bulked_node_names_its_operator():
    a = mx.sym.Variable('a')
    sym = mx.sym.linalg.potrf(mx.sym.relu(a) - 1) * 2 + 1
    messages = []
    for env in (UNBULKED, dict()):
        with bulk_env(**env):
            ex = sym.bind(mx.cpu(), {'a': mx.nd.array(np.eye(3) * 0.5)})
        with pytest.raises(mx.MXNetError) as info:
            ex.forward()
            ex.outputs[0].asnumpy()
        messages.append(str(info.value))
    assert '_linalg_potrf' in messages[1] and 'positive definite' in messages[1]
    assert messages[0] == messages[1]
    # The executor still runs after the failure, with valid input.
    ex.arg_dict['a'][:] = np.eye(3) * 5 + 1  # relu(a) - 1 = 5 I
    ex.forward()
    np.testing.assert_allclose(ex.outputs[0].asnumpy(), np.linalg.cholesky(np.eye(3) * 5) * 2 + 1,
                               rtol=1e-6)


class Scale(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * 3)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * 3)


@mx.operator.register('bulk_test_scale')
class ScaleProp(mx.operator.CustomOpProp):
    def __init__(self):
        super(ScaleProp, self).__init__(need_top_grad=True)

    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        return Scale()


def custom_in_the_middle():
    x = mx.sym.Variable('data')
    y = mx.sym.FullyConnected(x, num_hidden=6, name='fc_a')
    y = mx.sym.tanh(y)
    y = mx.sym.Custom(y, op_type='bulk_test_scale', name='scale')
    y = mx.sym.FullyConnected(mx.sym.sigmoid(y), num_hidden=3, name='fc_b')
    return mx.sym.make_loss(mx.sym.sum(y * y)), {'data': (4, 5)}


def test_async_custom_operator_splits_segments():
    expected, _ = run(custom_in_the_middle, UNBULKED)
    got, ex = run(custom_in_the_middle, dict())
    assert_same(expected, got)
    for seg in segments(ex, 'training forward') + segments(ex, 'inference'):
        assert 'scale' not in seg


@pytest.mark.parametrize('flags', [dict(forward_bulk_size=1, backward_bulk_size=1),
                                   dict(forward_bulk_size=3, backward_bulk_size=2), dict()])
def test_cached_op_bulk_flags_give_the_unbulked_result(flags):
    sym, shapes = mlp()
    sym = mx.sym.FullyConnected(sym.get_internals()['act2_output'], num_hidden=5, name='head')
    names = sym.list_arguments()
    rs = np.random.RandomState(0)
    values = [mx.nd.array(rs.uniform(-1, 1, s)) for s in sym.infer_shape(data=(8, 12))[0]]

    def run_cached(env, flags):
        with bulk_env(**env):
            op = mx.nd.CachedOp(sym, flags=sorted(flags.items()))
            inputs = [v.copy() for v in values]
            for v in inputs:
                v.attach_grad()
            with mx.autograd.record():
                out = op(*inputs)
                loss = (out * out).sum()
            loss.backward()
        return [out.asnumpy()] + [v.grad.asnumpy() for v in inputs]

    expected = run_cached(UNBULKED, {})
    got = run_cached({}, flags)
    assert len(got) == len(names) + 1
    for a, b in zip(expected, got):
        np.testing.assert_array_equal(a, b)
