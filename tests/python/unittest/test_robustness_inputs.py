"""Inputs that used to crash the process or give silent wrong answers (issue 19's list): each
probe runs in a child process, so a crash is observed (a signal), not suffered. Every probe must
end with a typed MXNetError naming what was wrong, and the process must still work after it."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))

PROBE = r'''
import ctypes, sys
import mxnet as mx
try:
    %s
except mx.base.MXNetError as err:
    print('RAISED %%s: %%s' %% (type(err).__name__, str(err).splitlines()[0][:300]))
else:
    print('NO ERROR')
print('AFTER', mx.nd.ones((2,)).sum().asscalar())  # the process still works
'''


def probe(code):
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join([os.path.join(ROOT, 'python'),
                                         env.get('PYTHONPATH', '')])
    proc = subprocess.run([sys.executable, '-c', PROBE % code], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, env=env, timeout=120, check=False)
    out = proc.stdout.decode(errors='replace')
    assert proc.returncode == 0, 'exit status %d (a signal is negative):\n%s' % (
        proc.returncode, out)
    assert 'AFTER 2.0' in out, out
    return out


CASES = [
    # zero-size and huge inputs of operators
    ("mx.nd.SequenceLast(mx.nd.zeros((0, 2, 3))).wait_to_read()", 'no steps along axis'),
    ("mx.nd.contrib.AdaptiveAvgPooling2D(mx.nd.zeros((1, 1, 4, 4)), "
     "output_size=(2**40, 2**40)).wait_to_read()", 'more bytes than an array can address'),
    # element counts that overflow 64 bits: refused, not wrapped around to an empty array
    ("mx.nd.ones((2**40, 2**40)).sum().asscalar()", '_ones: output 0 would have shape'),
    ("mx.nd.zeros((2**40, 2**40))", 'more bytes than an array can address'),
    ("mx.nd.full((2**40, 2**40), 3)", 'more bytes than an array can address'),
    ("mx.nd.eye(2**40)", 'more bytes than an array can address'),
    ("mx.nd.random.uniform(shape=(2**40, 2**40))", 'more bytes than an array can address'),
    ("mx.nd.tile(mx.nd.ones((2, 2)), reps=(2**40, 2**40))", 'tile: output 0 would have shape'),
    ("mx.nd.empty((2**40, 2**40))", 'more bytes than an array can address'),
    # symbol JSON that is wrong in structure
    ("mx.sym.load_json('{}')", 'no "nodes" field'),
    ("mx.sym.load_json('{\"nodes\": [{\"op\": \"null\", \"name\": \"x\", \"inputs\": []}], "
     "\"arg_nodes\": [0], \"heads\": [[0, 7, 0]]}')", 'names output 7 of node x'),
    ("mx.sym.load_json('{\"nodes\": [{\"op\": \"null\", \"name\": \"x\", \"inputs\": []}], "
     "\"arg_nodes\": [3], \"heads\": [[0, 0, 0]]}')", 'arg_nodes lists 3'),
    ("mx.sym.load_json('{\"nodes\": [{\"op\": \"null\", \"name\": \"x\", \"inputs\": []}], "
     "\"heads\": [[4, 0, 0]]}')", 'a head names node 4'),
    # a truncated extension library
    ("open('/tmp/_mx_trunc.so', 'wb').write(open(mx.base._LIB._name, 'rb').read()[:4096]); "
     "mx.library.load('/tmp/_mx_trunc.so')", 'truncated'),
    ("open('/tmp/_mx_text.so', 'w').write('not a library ' * 20); "
     "mx.library.load('/tmp/_mx_text.so')",
     'not an ELF file'),
    # NULL pointers given to the C API
    ("mx.base.check_call(mx.base._LIB.MXNDArrayCreateEx(None, 0, 1, 0, 0, 0, None))",
     "MXNDArrayCreateEx: argument 'out' is NULL"),
    ("mx.base.check_call(mx.base._LIB.MXNDArrayGetShapeEx(mx.nd.ones((2,)).handle, None, None))",
     "argument 'out_dim' is NULL"),
    ("mx.base.check_call(mx.base._LIB.MXNDArraySave(b'/tmp/_mx_x', 2, None, None))",
     "argument 'args' is NULL"),
    ("mx.base.check_call(mx.base._LIB.MXNDArrayLoad(None, ctypes.byref(ctypes.c_uint()), "
     "ctypes.byref(ctypes.c_void_p()), ctypes.byref(ctypes.c_uint()), "
     "ctypes.byref(ctypes.c_void_p())))", "argument 'fname' is NULL"),
    ("mx.base.check_call(mx.base._LIB.MXNDArraySyncCopyFromCPU(mx.nd.zeros((3,)).handle, None, 3))",
     "argument 'data' is NULL"),
    ("mx.base.check_call(mx.base._LIB.MXNDArraySyncCopyToCPU(mx.nd.zeros((3,)).handle, None, 3))",
     "argument 'data' is NULL"),
    ("mx.base.check_call(mx.base._LIB.MXAutogradBackward(1, None, None, 0))",
     "argument 'output_handles' is NULL"),
    ("h = ctypes.c_void_p(); mx.base.check_call(mx.base._LIB.NNGetOpHandle(b'_ones', "
     "ctypes.byref(h))); n = ctypes.c_int(0); o = ctypes.POINTER(ctypes.c_void_p)(); "
     "mx.base.check_call(mx.base._LIB.MXImperativeInvoke(h, 1, None, ctypes.byref(n), "
     "ctypes.byref(o), 0, None, None))", 'the inputs array is NULL'),
    ("h = ctypes.c_void_p(); mx.base.check_call(mx.base._LIB.NNGetOpHandle(b'_ones', "
     "ctypes.byref(h))); n = ctypes.c_int(0); o = ctypes.POINTER(ctypes.c_void_p)(); "
     "keys = (ctypes.c_char_p * 1)(None); vals = (ctypes.c_char_p * 1)(b'(2,)'); "
     "mx.base.check_call(mx.base._LIB.MXImperativeInvoke(h, 0, None, ctypes.byref(n), "
     "ctypes.byref(o), 1, keys, vals))", 'param_keys[0] is NULL'),
    # a zero dimension in unravel_index's shape divided by zero (SIGFPE)
    ("mx.nd.unravel_index(mx.nd.array([1, 2]), shape=(2, 0)).wait_to_read()",
     "_unravel_index: the argument 'shape' must have positive dimensions"),
    ("mx.nd.ravel_multi_index(mx.nd.array([[1, 2], [0, 1]]), shape=(-3, -3)).wait_to_read()",
     "_ravel_multi_index: the argument 'shape' must have positive dimensions"),
    # errors of shared inference and parsing helpers name the operator they were called for
    ("mx.nd._internal._backward_abs(mx.nd.ones((2, 3)), mx.nd.ones((4, 5)))",
     'Operator _backward_abs: '),
    ("mx.nd.sample_normal(mx.nd.ones((2,)), mx.nd.ones((2,)), shape=(-3, -3))",
     'Operator _sample_normal: '),
    ("mx.nd._internal._backward_CachedOp(mx.nd.ones((2,)))",
     '_backward_CachedOp belongs to a CachedOp'),
    ("mx.nd._internal._backward_CustomFunction(mx.nd.ones((2,)))",
     '_backward_CustomFunction is created by recording'),
    # bind names the node whose memory could not be had
    ("mx.sym.random.uniform(shape=(10**12, 3), name='big').bind(mx.cpu(), {}).forward()",
     "bind: output 0 of node 'big' (_random_uniform), shape [1000000000000,3]"),
]


@pytest.mark.parametrize('code, message', CASES, ids=[c[1][:40] for c in CASES])
def test_bad_input_raises_a_typed_error(code, message):
    out = probe(code)
    assert 'RAISED' in out and message in out, out


def test_zero_size_sequence_mask_is_a_no_op():
    out = probe("r = mx.nd.SequenceMask(mx.nd.zeros((0, 2, 3)), use_sequence_length=True, "
                "sequence_length=mx.nd.zeros((2,))); assert r.shape == (0, 2, 3)")
    assert 'NO ERROR' in out, out


def test_deprecated_from_dlpack_protocol_of_191():
    # Take the pointer out of a to_dlpack_for_read capsule, call MXNDArrayFromDLPack, rename the
    # capsule used_dltensor, drop its destructor, wrap the handle: works as on MXNet 1.9.1.
    out = probe(
        "from mxnet.base import _LIB, NDArrayHandle\n"
        "    a = mx.nd.arange(6).reshape((2, 3))\n"
        "    cap = a.to_dlpack_for_read()\n"
        "    api = ctypes.pythonapi\n"
        "    api.PyCapsule_GetPointer.restype = ctypes.c_void_p\n"
        "    api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]\n"
        "    api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]\n"
        "    api.PyCapsule_SetDestructor.argtypes = [ctypes.py_object, ctypes.c_void_p]\n"
        "    ptr = api.PyCapsule_GetPointer(cap, b'dltensor')\n"
        "    h = NDArrayHandle()\n"
        "    mx.base.check_call(_LIB.MXNDArrayFromDLPack(ctypes.c_void_p(ptr), ctypes.byref(h)))\n"
        "    api.PyCapsule_SetName(cap, b'used_dltensor')\n"
        "    api.PyCapsule_SetDestructor(cap, None)\n"
        "    b = mx.nd.NDArray(h)\n"
        "    del cap\n"
        "    assert b.asnumpy().tolist() == [[0, 1, 2], [3, 4, 5]]\n"
        "    del b\n"
        "    assert a.sum().asscalar() == 15")
    assert 'NO ERROR' in out, out


def test_trailing_bytes_in_a_params_file_are_an_error(tmp_path):
    import mxnet as mx
    path = str(tmp_path / 'p.params')
    mx.nd.save(path, {'a': mx.nd.ones((2, 3))})
    assert mx.nd.load(path)['a'].shape == (2, 3)
    with open(path, 'ab') as f:
        f.write(b'xyz')
    with pytest.raises(mx.base.MXNetError, match='unexpected bytes after the last array name'):
        mx.nd.load(path)


def test_malformed_recordio_index_lines_are_an_error(tmp_path):
    import mxnet as mx
    idx, rec = str(tmp_path / 'r.idx'), str(tmp_path / 'r.rec')
    writer = mx.recordio.MXIndexedRecordIO(idx, rec, 'w')
    for i in range(3):
        writer.write_idx(i, b'record %d' % i)
    writer.close()
    reader = mx.recordio.MXIndexedRecordIO(idx, rec, 'r')
    assert reader.keys == [0, 1, 2] and reader.read_idx(2) == b'record 2'
    reader.close()
    with open(idx, 'a') as f:
        f.write('garbage line\n')
    with pytest.raises(ValueError, match='line 4 is malformed'):
        mx.recordio.MXIndexedRecordIO(idx, rec, 'r')


def test_unknown_dtype_is_a_type_error_naming_the_operator():
    """As in MXNet 1.9.1 a dtype NumPy does not know is a TypeError; it also names the operator
    and the argument."""
    import mxnet as mx
    with pytest.raises(TypeError, match=r"Cast: argument 'dtype': data type 'nonsense'"):
        mx.nd.Cast(mx.nd.ones((2,)), dtype='nonsense')
    with pytest.raises(TypeError, match=r"_zeros: argument 'dtype'"):
        mx.nd.zeros((2,), dtype='foo')
    with pytest.raises(TypeError, match=r"Cast: argument 'dtype'"):
        mx.sym.Cast(mx.sym.var('x'), dtype=-1)
