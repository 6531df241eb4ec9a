"""mx.base additions (error classes, data directories, with_metaclass, docstring file/line),
the indexing helpers of mx.nd.ndarray, and names 1.9.1's modules expose by importing them."""
import numpy as onp
import pytest

import mxnet as mx
from mxnet import base


def test_error_classes():
    def topk():
        pass
    err = base.NotImplementedForSymbol(topk, 'topk_op', 1.5)
    assert isinstance(err, base.MXNetError)
    assert str(err) == ("Function topk (namely operator \"topk_op\") with arguments "
                        "(<class 'float'>) is not implemented for Symbol and only available "
                        "in NDArray.")
    err = base.NotSupportedForSparseNDArray(topk, None)
    assert str(err) == 'Function topk is not supported for SparseNDArray and only available ' \
                       'in NDArray.'
    assert base.error_types['MXNetError'] is base.MXNetError


def test_data_dir(monkeypatch, tmp_path):
    monkeypatch.delenv('MXNET_HOME', raising=False)
    assert base.data_dir() == base.data_dir_default()
    assert base.data_dir_default().endswith('.mxnet')
    monkeypatch.setenv('MXNET_HOME', str(tmp_path))
    assert base.data_dir() == str(tmp_path)


def test_with_metaclass():
    class Meta(type):
        def __new__(mcs, name, bases, namespace):
            namespace['tagged'] = name
            return super(Meta, mcs).__new__(mcs, name, bases, namespace)

    class Base(object):
        def hello(self):
            return 'hi'

    class Child(base.with_metaclass(Meta, Base)):
        pass

    assert type(Child) is Meta and Child.tagged == 'Child' and Child().hello() == 'hi'
    assert Child.__mro__[1] is Base


def test_add_fileline_to_docstring():
    import types
    module = types.ModuleType('fileline_demo')
    exec('def f():\n    """Doc."""\n\nclass C:\n    def m(self):\n        """M."""\n',  # noqa: S102
         module.__dict__)
    base.add_fileline_to_docstring(module)
    assert module.f.__doc__.startswith('Doc.') and 'From:' in module.f.__doc__
    assert 'From:' in module.C.m.__doc__
    base.add_fileline_to_docstring(module)
    assert module.f.__doc__.count('From:') == 1


def test_callback_list_and_handles():
    assert [f[0] for f in base.MXCallbackList._fields_] == ['num_callbacks', 'callbacks',
                                                            'contexts']
    assert mx.operator.MXCallbackList is base.MXCallbackList
    assert base.mx_real_t is onp.float32 and base.basestring is str and base.long is int
    assert mx.operator.c_int_p(mx.operator.c_int(3)).contents.value == 3


def test_indexing_helpers():
    from mxnet.ndarray.ndarray import (indexing_key_expand_implicit_axes,
                                       get_indexing_dispatch_code, get_oshape_of_gather_nd_op,
                                       check_boolean_array_dimension)
    shape = (3, 4, 5)
    assert indexing_key_expand_implicit_axes(onp.s_[2, 1, 1], shape) == (2, 1, 1)
    assert indexing_key_expand_implicit_axes(onp.s_[0], shape) == \
        (0, slice(None), slice(None))
    assert indexing_key_expand_implicit_axes(onp.s_[0, ...], shape) == \
        (0, slice(None), slice(None))
    assert indexing_key_expand_implicit_axes(onp.s_[:2, None, 0, ...], shape) == \
        (slice(None, 2), None, 0, slice(None))
    mask = onp.array([[True, False, True, False], [False, True, False, True],
                      [True, False, True, False]])
    rows, cols, new, last = indexing_key_expand_implicit_axes(onp.s_[mask, None, 0:2], shape)
    onp.testing.assert_array_equal(rows, [0, 0, 1, 1, 2, 2])
    onp.testing.assert_array_equal(cols, [0, 2, 1, 3, 0, 2])
    assert new is None and last == slice(0, 2)
    with pytest.raises(IndexError):
        indexing_key_expand_implicit_axes(onp.s_[0, 0, 0, 0], shape)
    with pytest.raises(IndexError):
        check_boolean_array_dimension(shape, 1, (3,))
    assert get_indexing_dispatch_code((0, slice(None), None)) == 0
    assert get_indexing_dispatch_code((onp.array([0, 1]), 0)) == 1
    assert get_indexing_dispatch_code((mx.nd.array([0]),)) == 1
    assert get_indexing_dispatch_code(((),)) == 2
    with pytest.raises(ValueError):
        get_indexing_dispatch_code(('a',))
    data = onp.arange(60).reshape(shape)
    idx = onp.array([[0, 2], [1, 3]])
    expected = data[tuple(idx)].shape
    assert get_oshape_of_gather_nd_op(shape, idx.shape) == expected
    assert mx.nd.gather_nd(mx.nd.array(data), mx.nd.array(idx)).shape == expected
    assert mx.np.multiarray.get_oshape_of_gather_nd_op is get_oshape_of_gather_nd_op


def test_dlpack_structures_and_module_imports():
    from mxnet.ndarray import ndarray as ndmod
    assert [f[0] for f in ndmod.DLTensor._fields_][:3] == ['data', 'ctx', 'ndim']
    assert ndmod.DLManagedTensor._fields_[2][1] is ndmod.DeleterFunc
    from mxnet.gluon.rnn import rnn_layer
    assert mx.nd.ones(1).__class__ in rnn_layer.tensor_types
    assert mx.image.cv2 is mx.image.image.cv2 and mx.recordio.current_process is not None
    saved = {'w': mx.np.arange(3)}
    import tempfile, os
    with tempfile.TemporaryDirectory() as tmp:
        mx.npx.utils.save(os.path.join(tmp, 'a'), saved)
        loaded = mx.npx.load(os.path.join(tmp, 'a'))
    onp.testing.assert_array_equal(loaded['w'].asnumpy(), onp.arange(3))
