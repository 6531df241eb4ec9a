"""A NumPy stand-in for libmxnet.so, to develop and test the Python frontend without the C++ library.

    python tools/fake_libmxnet.py -m pytest tests/python/unittest/test_ndarray.py
    python tools/fake_libmxnet.py script.py

It implements the C functions the ndarray frontend calls (MXNet 1.9.1 signatures, API.md §1.3)
as real C callbacks (ctypes CFUNCTYPE), so pointers, out-parameters and thread-local return
buffers go through the same marshalling as with the real library. Arguments are checked the way
an undeclared (no argtypes) ctypes call would pass them: a plain Python int given for a pointer,
int64 or size_t parameter is refused, because the real call would truncate it to a C int.

Operators: a small NumPy-backed registry (element-wise, broadcast, scalar, reductions, shape,
indexing, creation, random, a few contrib/linalg/image ones) with MXNet's names, argument lists
and aliases. Semantics follow MXNet 1.x legacy mode (e.g. At on a 1-D array gives shape (1,)).
Save/load implement the real binary NDArray-list format (API.md §1.4), so files written here
load in MXNet 1.9.1 and vice versa. Not a reference for operator semantics beyond that.
"""
import ast
import ctypes
import os
import struct
import sys
import threading
import traceback

import numpy as np

# ---------------------------------------------------------------------------------------------
# Handles, thread-local return buffers, errors

_TL = threading.local()
_OBJECTS = {}            # handle value -> _ND
_NEXT = [0x10000]
_LOCK = threading.Lock()

_DTYPES = {0: np.float32, 1: np.float64, 2: np.float16, 3: np.uint8, 4: np.int32, 5: np.int8,
           6: np.int64, 7: np.bool_, 8: np.int16, 9: np.uint16, 10: np.uint32, 11: np.uint64}
_DTYPE_CODE = {np.dtype(v): k for k, v in _DTYPES.items()}
_DTYPE_NAMES = {np.dtype(v).name: k for k, v in _DTYPES.items()}


class FakeError(Exception):
    def __init__(self, kind, msg):
        super().__init__(msg)
        self.kind = kind


def _err(msg, kind="MXNetError"):
    raise FakeError(kind, msg)


class _ND(object):
    """A reference to an array: numpy data (possibly a view) plus a context; None = 'none'."""
    __slots__ = ("arr", "ctx", "dl_deleter")

    def __init__(self, arr, ctx=(1, 0)):
        self.arr = arr
        self.ctx = ctx
        self.dl_deleter = None


def _new_handle(nd):
    with _LOCK:
        _NEXT[0] += 16
        h = _NEXT[0]
    _OBJECTS[h] = nd
    return h


def _get(h):
    if h is None or h not in _OBJECTS:
        _err("invalid NDArray handle %r" % (h,))
    return _OBJECTS[h]


def _tl_buf(key, ctype, values):
    """Keep a per-thread ctypes array alive until the next call using `key`; return address."""
    arr = (ctype * max(len(values), 1))(*values)
    if not hasattr(_TL, "bufs"):
        _TL.bufs = {}
    _TL.bufs[key] = arr
    return ctypes.addressof(arr)


def _wr(addr, ctype, value):
    ctype.from_address(addr).value = value


def _rd(addr, ctype, n):
    if n == 0:
        return []
    return list((ctype * n).from_address(addr))


def _rd_str(addr):
    return ctypes.c_char_p(addr).value.decode()


# ---------------------------------------------------------------------------------------------
# The C function table

_CTYPES = {"p": ctypes.c_void_p, "i": ctypes.c_int, "I": ctypes.c_uint, "q": ctypes.c_int64,
           "z": ctypes.c_size_t, "b": ctypes.c_bool}
_FUNCS = {}


def _check_arg(fname, i, code, value):
    if code == "p":
        if isinstance(value, bool) or isinstance(value, int):
            raise TypeError("%s: argument %d is a pointer but a Python int was passed (the real "
                            "library would receive a truncated 32-bit value)" % (fname, i))
        if isinstance(value, (ctypes.c_int, ctypes.c_int64, ctypes.c_uint, ctypes.c_size_t)):
            raise TypeError("%s: argument %d is a pointer but got %r" % (fname, i, value))
        return value
    if code in "qz":
        if not isinstance(value, (ctypes.c_int64, ctypes.c_uint64, ctypes.c_size_t,
                                  ctypes.c_longlong, ctypes.c_ulonglong)):
            raise TypeError("%s: argument %d is 64-bit (int64/size_t) but got %r; pass a ctypes "
                            "c_int64/c_size_t" % (fname, i, value))
        return value.value
    # 32-bit ints and bools: Python ints are fine without argtypes.
    if isinstance(value, ctypes._SimpleCData):  # pylint: disable=protected-access
        value = value.value
    if not isinstance(value, (int, bool)):
        raise TypeError("%s: argument %d should be an int, got %r" % (fname, i, value))
    return value


def cfunc(sig):
    """Register an implementation taking (pointer addresses/ints) per signature string `sig`."""
    def deco(impl):
        name = impl.__name__
        proto = ctypes.CFUNCTYPE(ctypes.c_int, *[_CTYPES[c] for c in sig])

        def c_impl(*args):
            try:
                impl(*args)
                return 0
            except FakeError as e:
                _TL.last_error = "%s: %s" % (e.kind, e)
            except Exception as e:  # pylint: disable=broad-except
                _TL.last_error = "MXNetError: fake libmxnet: %s: %s\n%s" % (
                    type(e).__name__, e, traceback.format_exc())
            return -1
        cfn = proto(c_impl)

        def call(*args):
            if len(args) != len(sig):
                raise TypeError("%s takes %d arguments (%d given)" % (name, len(sig), len(args)))
            return cfn(*[_check_arg(name, i, c, a) for i, (c, a) in enumerate(zip(sig, args))])
        call.__name__ = name
        call._cfn = cfn
        _FUNCS[name] = call
        return impl
    return deco


# ---------------------------------------------------------------------------------------------
# Global


@cfunc("p")
def MXGetVersion(out):
    _wr(out, ctypes.c_int, 10901)


@cfunc("")
def MXNotifyShutdown():
    pass


@cfunc("p")
def MXGetGPUCount(out):
    _wr(out, ctypes.c_int, 0)


@cfunc("i")
def MXRandomSeed(seed):
    _TL.rng = np.random.RandomState(seed)
    _GLOBAL_RNG[0] = np.random.RandomState(seed)


@cfunc("iii")
def MXRandomSeedContext(seed, dev_type, dev_id):
    _GLOBAL_RNG[0] = np.random.RandomState(seed)


_GLOBAL_RNG = [np.random.RandomState(0)]


@cfunc("ip")
def MXEngineSetBulkSize(size, prev):
    old = getattr(_TL, "bulk", 0)
    _TL.bulk = size
    _wr(prev, ctypes.c_int, old)


@cfunc("ii")
def MXStorageEmptyCache(dev_type, dev_id):
    pass


class _LibFeature(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("enabled", ctypes.c_bool)]


_FEATURES = (_LibFeature * 4)(_LibFeature(b"TVM_OP", False), _LibFeature(b"INT64_TENSOR_SIZE", True),
                              _LibFeature(b"OPENMP", False), _LibFeature(b"BLAS_OPEN", False))


@cfunc("pp")
def MXLibInfoFeatures(out, size):
    _wr(out, ctypes.c_void_p, ctypes.addressof(_FEATURES))
    _wr(size, ctypes.c_size_t, len(_FEATURES))


# ---------------------------------------------------------------------------------------------
# NDArray basics


def _ctx_of(dev_type, dev_id):
    if dev_type not in (1, 2, 3, 5):
        _err("invalid device type %d" % dev_type)
    if dev_type == 2:
        _err("GPU is not enabled in this (fake) build")
    return (dev_type, dev_id)


@cfunc("p")
def MXNDArrayCreateNone(out):
    _wr(out, ctypes.c_void_p, _new_handle(_ND(None)))


@cfunc("piiiiip")
def MXNDArrayCreateEx64(shape, ndim, dev_type, dev_id, delay_alloc, dtype, out):
    dims = _rd(shape, ctypes.c_int64, ndim)
    if dtype not in _DTYPES:
        _err("unknown dtype code %d" % dtype)
    if any(d < 0 for d in dims):
        _err("negative dimension in shape %s" % (dims,), "ValueError")
    arr = np.zeros(dims, dtype=_DTYPES[dtype])
    _wr(out, ctypes.c_void_p, _new_handle(_ND(arr, _ctx_of(dev_type, dev_id))))


@cfunc("p")
def MXNDArrayFree(h):
    nd = _OBJECTS.pop(h, None)
    if nd is not None and nd.dl_deleter is not None:
        nd.dl_deleter()


@cfunc("ppp")
def MXNDArrayGetShapeEx64(h, out_dim, out_pdata):
    nd = _get(h)
    shape = () if nd.arr is None else nd.arr.shape
    _wr(out_dim, ctypes.c_int, len(shape))
    _wr(out_pdata, ctypes.c_void_p, _tl_buf("shape", ctypes.c_int64, shape))


@cfunc("pp")
def MXNDArrayGetDType(h, out):
    nd = _get(h)
    _wr(out, ctypes.c_int, -1 if nd.arr is None else _DTYPE_CODE[nd.arr.dtype])


@cfunc("ppp")
def MXNDArrayGetContext(h, out_type, out_id):
    nd = _get(h)
    t, i = (0, 0) if nd.arr is None else nd.ctx
    _wr(out_type, ctypes.c_int, t)
    _wr(out_id, ctypes.c_int, i)


@cfunc("pp")
def MXNDArrayGetStorageType(h, out):
    nd = _get(h)
    _wr(out, ctypes.c_int, -1 if nd.arr is None else 0)


def _host_view(addr, dtype, count):
    nbytes = count * np.dtype(dtype).itemsize
    if nbytes == 0:
        return np.zeros(0, dtype=dtype)
    buf = (ctypes.c_char * nbytes).from_address(addr)
    return np.frombuffer(buf, dtype=dtype, count=count)


@cfunc("ppz")
def MXNDArraySyncCopyFromCPU(h, data, size):
    nd = _get(h)
    if nd.arr.size != size:
        _err("Memory size do not match: array has %d elements, got %d" % (nd.arr.size, size))
    nd.arr[...] = _host_view(data, nd.arr.dtype, size).reshape(nd.arr.shape)


@cfunc("ppz")
def MXNDArraySyncCopyToCPU(h, data, size):
    nd = _get(h)
    if nd.arr.size != size:
        _err("Memory size do not match: array has %d elements, got %d" % (nd.arr.size, size))
    if size:
        _host_view(data, nd.arr.dtype, size)[...] = nd.arr.reshape(-1)


@cfunc("p")
def MXNDArrayWaitToRead(h):
    _get(h)


@cfunc("p")
def MXNDArrayWaitToWrite(h):
    _get(h)


@cfunc("")
def MXNDArrayWaitAll():
    pass


@cfunc("pqqp")
def MXNDArraySlice64(h, begin, end, out):
    nd = _get(h)
    n = nd.arr.shape[0] if nd.arr.ndim else 0
    if not 0 <= begin <= end <= n:
        _err("Invalid slicing range [%d, %d) for axis of size %d" % (begin, end, n),
             "IndexError")
    _wr(out, ctypes.c_void_p, _new_handle(_ND(nd.arr[begin:end], nd.ctx)))


@cfunc("pqp")
def MXNDArrayAt64(h, idx, out):
    nd = _get(h)
    n = nd.arr.shape[0] if nd.arr.ndim else 0
    if not 0 <= idx < n:
        _err("index %d out of range for axis of size %d" % (idx, n), "IndexError")
    view = nd.arr[idx:idx + 1]
    if nd.arr.ndim > 1:
        view = view.reshape(nd.arr.shape[1:])
    _wr(out, ctypes.c_void_p, _new_handle(_ND(view, nd.ctx)))


@cfunc("pipbp")
def MXNDArrayReshape64(h, ndim, dims, reverse, out):
    nd = _get(h)
    shape = _rd(dims, ctypes.c_int64, ndim)
    if any(d < 0 for d in shape) or int(np.prod(shape)) != nd.arr.size:
        _err("Reshape: target shape %s must have the same size as %s (fake supports explicit "
             "shapes only)" % (shape, nd.arr.shape))
    view = nd.arr.reshape(shape)
    assert np.shares_memory(view, nd.arr) or nd.arr.size == 0
    _wr(out, ctypes.c_void_p, _new_handle(_ND(view, nd.ctx)))


@cfunc("pp")
def MXNDArrayGetGrad(h, out):
    _wr(out, ctypes.c_void_p, None)


# ---------------------------------------------------------------------------------------------
# Serialization (API.md §1.4)

_LIST_MAGIC = 0x112
_V2 = 0xF993FAC9


def _save_array(nd):
    out = [struct.pack("<Ii", _V2, 0 if nd.arr is not None else -1)]
    if nd.arr is None:
        out.append(struct.pack("<i", 0))
        return b"".join(out)
    arr = nd.arr
    out.append(struct.pack("<i", arr.ndim) + struct.pack("<%dq" % arr.ndim, *arr.shape))
    out.append(struct.pack("<iii", nd.ctx[0], nd.ctx[1], _DTYPE_CODE[arr.dtype]))
    out.append(np.ascontiguousarray(arr).tobytes())
    return b"".join(out)


class _Reader(object):
    def __init__(self, buf):
        self.buf = buf
        self.pos = 0

    def take(self, n):
        if self.pos + n > len(self.buf):
            _err("Invalid NDArray file format: unexpected end of data")
        b = self.buf[self.pos:self.pos + n]
        self.pos += n
        return b

    def unpack(self, fmt):
        return struct.unpack("<" + fmt, self.take(struct.calcsize("<" + fmt)))


def _load_array(r):
    magic, = r.unpack("I")
    if magic != _V2:
        _err("Invalid NDArray serialization format (magic 0x%x)" % magic)
    stype, = r.unpack("i")
    if stype not in (0, -1):
        _err("sparse arrays are not supported by the fake library")
    ndim, = r.unpack("i")
    if ndim < 0 or ndim > 32:
        _err("Invalid NDArray serialization format: ndim %d" % ndim)
    shape = r.unpack("%dq" % ndim) if ndim else ()
    if ndim == 0:
        return _ND(None)
    dev_type, dev_id, dtype = r.unpack("iii")
    if dtype not in _DTYPES:
        _err("Invalid NDArray serialization format: dtype %d" % dtype)
    if any(d < 0 for d in shape):
        _err("Invalid NDArray serialization format: shape %s" % (shape,))
    count = int(np.prod(shape))
    data = r.take(count * np.dtype(_DTYPES[dtype]).itemsize)
    arr = np.frombuffer(data, dtype=_DTYPES[dtype]).reshape(shape).copy()
    return _ND(arr, (dev_type if dev_type in (1, 3, 5) else 1, dev_id))


def _save_list(nds, names):
    out = [struct.pack("<QQQ", _LIST_MAGIC, 0, len(nds))]
    out.extend(_save_array(nd) for nd in nds)
    out.append(struct.pack("<Q", len(names)))
    for n in names:
        b = n.encode()
        out.append(struct.pack("<Q", len(b)) + b)
    return b"".join(out)


def _load_list(buf):
    r = _Reader(buf)
    magic, _reserved = r.unpack("QQ")
    if magic != _LIST_MAGIC:
        _err("Invalid NDArray file format")
    n, = r.unpack("Q")
    if n > 1 << 24:
        _err("Invalid NDArray file format: %d arrays" % n)
    nds = [_load_array(r) for _ in range(n)]
    k, = r.unpack("Q")
    if k not in (0, n):
        _err("Invalid NDArray file format: %d names for %d arrays" % (k, n))
    names = []
    for _ in range(k):
        ln, = r.unpack("Q")
        names.append(r.take(ln).decode())
    return nds, names


def _return_list(nds, names, out_size, out_arr, out_name_size, out_names):
    handles = [_new_handle(nd) for nd in nds]
    _wr(out_size, ctypes.c_uint, len(handles))
    _wr(out_arr, ctypes.c_void_p, _tl_buf("load_h", ctypes.c_void_p, handles))
    _wr(out_name_size, ctypes.c_uint, len(names))
    _wr(out_names, ctypes.c_void_p, _tl_buf("load_n", ctypes.c_char_p,
                                              [n.encode() for n in names]))


@cfunc("pIpp")
def MXNDArraySave(fname, num, args, keys):
    handles = _rd(args, ctypes.c_void_p, num)
    names = [k.decode() for k in _rd(keys, ctypes.c_char_p, num)] if keys else []
    with open(_rd_str(fname), "wb") as f:
        f.write(_save_list([_get(h) for h in handles], names))


@cfunc("ppppp")
def MXNDArrayLoad(fname, out_size, out_arr, out_name_size, out_names):
    path = _rd_str(fname)
    try:
        with open(path, "rb") as f:
            buf = f.read()
    except OSError as e:
        _err("Check failed: fi: Cannot open %s: %s" % (path, e))
    nds, names = _load_list(buf)
    _return_list(nds, names, out_size, out_arr, out_name_size, out_names)


@cfunc("pzpppp")
def MXNDArrayLoadFromBuffer(buf, size, out_size, out_arr, out_name_size, out_names):
    nds, names = _load_list(ctypes.string_at(buf, size))
    _return_list(nds, names, out_size, out_arr, out_name_size, out_names)


@cfunc("ppp")
def MXNDArraySaveRawBytes(h, out_size, out_buf):
    data = _save_array(_get(h))
    _wr(out_size, ctypes.c_size_t, len(data))
    buf = ctypes.create_string_buffer(data, len(data))
    _TL.raw = buf
    _wr(out_buf, ctypes.c_void_p, ctypes.addressof(buf))


@cfunc("pzp")
def MXNDArrayLoadFromRawBytes(buf, size, out):
    r = _Reader(ctypes.string_at(buf, size))
    nd = _load_array(r)
    _wr(out, ctypes.c_void_p, _new_handle(nd))


# ---------------------------------------------------------------------------------------------
# DLPack


class _DLContext(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("ctx", _DLContext), ("ndim", ctypes.c_int),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManaged(ctypes.Structure):
    pass


_DLDeleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManaged))
_DLManaged._fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                       ("deleter", _DLDeleter)]
_DL_KEEP = {}     # address of a DLManagedTensor we made -> (struct, shape array, array ref)


def _dl_code(dtype):
    dt = np.dtype(dtype)
    code = {"f": 2, "i": 0, "u": 1, "b": 6}[dt.kind]
    return _DLDataType(code, dt.itemsize * 8, 1)


@_DLDeleter
def _our_dl_deleter(ptr):
    _DL_KEEP.pop(ctypes.addressof(ptr.contents), None)


@cfunc("pp")
def MXNDArrayToDLPack(h, out):
    nd = _get(h)
    arr = nd.arr
    m = _DLManaged()
    shape = (ctypes.c_int64 * max(arr.ndim, 1))(*arr.shape)
    m.dl_tensor.data = arr.ctypes.data
    m.dl_tensor.ctx = _DLContext(1, 0)
    m.dl_tensor.ndim = arr.ndim
    m.dl_tensor.dtype = _dl_code(arr.dtype)
    m.dl_tensor.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    m.dl_tensor.strides = None
    m.dl_tensor.byte_offset = 0
    m.deleter = _our_dl_deleter
    _DL_KEEP[ctypes.addressof(m)] = (m, shape, nd)
    _wr(out, ctypes.c_void_p, ctypes.addressof(m))


@cfunc("p")
def MXNDArrayCallDLPackDeleter(ptr):
    m = _DLManaged.from_address(ptr)
    if m.deleter:
        m.deleter(ctypes.pointer(m))


_DL_DTYPES = {(2, 16): np.float16, (2, 32): np.float32, (2, 64): np.float64, (0, 8): np.int8,
              (0, 16): np.int16, (0, 32): np.int32, (0, 64): np.int64, (1, 8): np.uint8,
              (1, 16): np.uint16, (1, 32): np.uint32, (1, 64): np.uint64, (6, 8): np.bool_,
              (1, 1): np.bool_}


@cfunc("pbp")
def MXNDArrayFromDLPackEx(ptr, transient, out):
    m = _DLManaged.from_address(ptr)
    t = m.dl_tensor
    shape = tuple(t.shape[i] for i in range(t.ndim))
    dtype = _DL_DTYPES[(t.dtype.code, t.dtype.bits)]
    count = int(np.prod(shape)) if shape else 1
    nbytes = count * np.dtype(dtype).itemsize
    if t.strides:
        strides = tuple(t.strides[i] for i in range(t.ndim))
        expect = tuple(int(np.prod(shape[i + 1:])) for i in range(t.ndim))
        if any(s != e for s, e, d in zip(strides, expect, shape) if d > 1):
            _err("DLPack tensor is not compact")
    base = (ctypes.c_char * max(nbytes, 1)).from_address(t.data + t.byte_offset)
    arr = np.frombuffer(base, dtype=dtype, count=count).reshape(shape)
    nd = _ND(arr, (1, 0))
    if transient:
        copy = _DLManaged()
        ctypes.pointer(copy)[0] = m
        keep = copy
    else:
        keep = m

    def deleter(keep=keep):
        if keep.deleter:
            keep.deleter(ctypes.pointer(keep))
    nd.dl_deleter = deleter
    _wr(out, ctypes.c_void_p, _new_handle(nd))


# ---------------------------------------------------------------------------------------------
# Operator registry


class _Op(object):
    def __init__(self, name, inputs, params, fn, doc="", variadic=None, key_var_num_args="",
                 visible=None):
        self.name = name
        self.inputs = inputs              # names
        self.params = params              # (name, type string, default python value or REQUIRED)
        self.fn = fn
        self.doc = doc or ("%s (fake NumPy implementation).\n\nDefined in fake_libmxnet.py" % name)
        self.variadic = variadic
        self.key_var_num_args = key_var_num_args
        self.visible = visible


_REQUIRED = object()
_OPS = {}
_OP_LIST = []            # registration order of names (aliases included)
_OP_HANDLE = {}          # name -> handle int
_HANDLE_OP = {}


def _register(op, aliases=()):
    for n in (op.name,) + tuple(aliases):
        _OPS[n] = op
        _OP_LIST.append(n)
    h = 0x7000000 + 16 * len(_HANDLE_OP)
    _HANDLE_OP[h] = op
    for n in (op.name,) + tuple(aliases):
        _OP_HANDLE[n] = h


def _parse(value, ptype):
    if ptype.startswith("string") or ptype.startswith("{"):
        return value
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return value


def _same_dtype(name, arrays):
    dts = {a.dtype for a in arrays}
    if len(dts) > 1:
        _err("%s: incompatible input dtypes %s" % (name, sorted(str(d) for d in dts)),
             "TypeError")


def _binary(name, f, cmp=False):
    def fn(ins, p):
        a, b = ins
        _same_dtype(name, ins)
        try:
            np.broadcast_shapes(a.shape, b.shape)
        except ValueError:
            _err("%s: operands could not be broadcast together with shapes %s %s"
                 % (name, a.shape, b.shape), "ValueError")
        with np.errstate(all="ignore"):
            r = f(a, b)
        return [np.asarray(r).astype(a.dtype)]
    return fn


def _scalar(f):
    def fn(ins, p):
        a, = ins
        with np.errstate(all="ignore"):
            r = f(a, p["scalar"])
        return [np.asarray(r).astype(a.dtype)]
    return fn


def _unary(f):
    def fn(ins, p):
        with np.errstate(all="ignore"):
            return [np.asarray(f(ins[0])).astype(ins[0].dtype)]
    return fn


def _axes(p, ndim):
    axis = p.get("axis")
    if axis is None or axis == ():
        axes = tuple(range(ndim))
    else:
        axes = tuple(a % ndim for a in (axis if isinstance(axis, tuple) else (axis,)))
    if p.get("exclude"):
        axes = tuple(i for i in range(ndim) if i not in axes)
    return axes


def _reduce(f):
    def fn(ins, p):
        a, = ins
        axes = _axes(p, a.ndim)
        r = f(a, axis=axes, keepdims=bool(p.get("keepdims")))
        r = np.asarray(r, dtype=a.dtype)
        return [r.reshape(1) if r.ndim == 0 else r]
    return fn


def _reduce_params():
    return [("axis", "Shape or None, optional, default=None", None),
            ("keepdims", "boolean, optional, default=0", False),
            ("exclude", "boolean, optional, default=0", False)]


_ARITH = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
          "mod": np.mod, "power": np.power, "maximum": np.maximum, "minimum": np.minimum,
          "equal": np.equal, "not_equal": np.not_equal, "greater": np.greater,
          "greater_equal": np.greater_equal, "lesser": np.less, "lesser_equal": np.less_equal,
          "logical_and": np.logical_and, "logical_or": np.logical_or,
          "logical_xor": np.logical_xor}


def _div(a, b):
    if np.issubdtype(np.asarray(a).dtype, np.integer):
        return np.floor_divide(a, b)
    return np.divide(a, b)


def _build_ops():
    for k, f in _ARITH.items():
        f2 = _div if k == "div" else f
        aliases = {"add": ("broadcast_plus",), "sub": ("broadcast_minus",)}.get(k, ())
        _register(_Op("broadcast_" + k, ["lhs", "rhs"], [], _binary("broadcast_" + k, f2),
                      doc="Returns element-wise %s of the input arrays with broadcasting.\n\n"
                          "Defined in fake_libmxnet.py:L1" % k), aliases)
    scal = {"_plus_scalar": np.add, "_minus_scalar": np.subtract,
            "_rminus_scalar": lambda a, s: s - a, "_mul_scalar": np.multiply,
            "_div_scalar": _div, "_rdiv_scalar": lambda a, s: _div(s, a),
            "_mod_scalar": np.mod, "_rmod_scalar": lambda a, s: np.mod(s, a),
            "_power_scalar": np.power, "_rpower_scalar": lambda a, s: np.power(s, a),
            "_maximum_scalar": np.maximum, "_minimum_scalar": np.minimum,
            "_equal_scalar": np.equal, "_not_equal_scalar": np.not_equal,
            "_greater_scalar": np.greater, "_greater_equal_scalar": np.greater_equal,
            "_lesser_scalar": np.less, "_lesser_equal_scalar": np.less_equal,
            "_logical_and_scalar": np.logical_and, "_logical_or_scalar": np.logical_or,
            "_logical_xor_scalar": np.logical_xor}
    for k, f in scal.items():
        _register(_Op(k, ["data"], [("scalar", "double, optional, default=1", 1.0),
                                    ("is_int", "boolean, optional, default=1", True)],
                      _scalar(f)))
    un = {"abs": np.abs, "exp": np.exp, "log": np.log, "sqrt": np.sqrt, "square": np.square,
          "relu": lambda x: np.maximum(x, 0), "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
          "tanh": np.tanh, "floor": np.floor, "ceil": np.ceil, "negative": np.negative,
          "sin": np.sin, "cos": np.cos, "sign": np.sign, "round": np.round,
          "reciprocal": lambda x: 1 / x, "log2": np.log2, "log10": np.log10,
          "zeros_like": np.zeros_like, "ones_like": np.ones_like}
    for k, f in un.items():
        _register(_Op(k, ["data"], [], _unary(f),
                      doc="Returns element-wise %s of the input.\n\nExample::\n\n   %s([1]) = ...\n"
                          "\n\nDefined in fake_libmxnet.py:L2" % (k, k)))
    _register(_Op("_copy", ["data"], [], lambda ins, p: [ins[0].copy()]), ("identity",))
    _register(_Op("_copyto", ["data"], [], lambda ins, p: [ins[0].copy()]))
    for k, f in {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min,
                 "prod": np.prod}.items():
        _register(_Op(k, ["data"], _reduce_params(), _reduce(f)),
                  {"sum": ("sum_axis",), "max": ("max_axis",), "min": ("min_axis",)}.get(k, ()))

    def norm(ins, p):
        a, = ins
        axes = _axes(p, a.ndim)
        o = p.get("ord", 2)
        r = np.sum(np.abs(a) ** o, axis=axes, keepdims=bool(p.get("keepdims"))) ** (1.0 / o)
        r = np.asarray(r, dtype=a.dtype)
        return [r.reshape(1) if r.ndim == 0 else r]
    _register(_Op("norm", ["data"], [("ord", "int, optional, default='2'", 2),
                                      ("axis", "Shape or None, optional, default=None", None),
                                      ("out_dtype", "{None, 'float16', 'float32', 'float64', "
                                       "'int32', 'int64', 'int8'},optional, default='None'", None),
                                      ("keepdims", "boolean, optional, default=0", False)], norm))

    def argm(f):
        def fn(ins, p):
            a, = ins
            ax = p.get("axis")
            if ax is None:
                return [np.asarray([f(a)], dtype=a.dtype)]
            r = f(a, axis=ax)
            if p.get("keepdims"):
                r = np.expand_dims(r, ax)
            return [np.asarray(r).astype(a.dtype)]
        return fn
    for k, f in {"argmax": np.argmax, "argmin": np.argmin}.items():
        _register(_Op(k, ["data"], [("axis", "int or None, optional, default='None'", None),
                                    ("keepdims", "boolean, optional, default=0", False)],
                      argm(f)))

    def transpose(ins, p):
        axes = p.get("axes") or None
        return [np.ascontiguousarray(np.transpose(ins[0], axes))]
    _register(_Op("transpose", ["data"], [("axes", "Shape(tuple), optional, default=[]", ())],
                  transpose))
    _register(_Op("Flatten", ["data"], [], lambda ins, p: [
        ins[0].reshape(ins[0].shape[0] if ins[0].ndim else 1, -1).copy()]), ("flatten",))

    def expand_dims(ins, p):
        return [np.expand_dims(ins[0], p["axis"]).copy()]
    _register(_Op("expand_dims", ["data"], [("axis", "int, required", _REQUIRED)], expand_dims))

    def squeeze(ins, p):
        a = ins[0]
        ax = p.get("axis")
        r = np.squeeze(a, axis=ax)
        return [(r.reshape(1) if r.ndim == 0 else r).copy()]
    _register(_Op("squeeze", ["data"], [("axis", "Shape or None, optional, default=None",
                                         None)], squeeze))

    def reshape(ins, p):
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
        from mxnet.ndarray._shape import infer_reshape
        shape = infer_reshape(ins[0].shape, p["shape"], p.get("reverse", False))
        return [ins[0].reshape(shape).copy()]
    _register(_Op("Reshape", ["data"], [("shape", "Shape(tuple), optional, default=[]", ()),
                                        ("reverse", "boolean, optional, default=0", False),
                                        ("target_shape", "Shape(tuple), optional, default=[]",
                                         ()),
                                        ("keep_highest", "boolean, optional, default=0",
                                         False)], reshape), ("reshape",))

    def slice_op(ins, p):
        a = ins[0]
        b, e = p["begin"], p["end"]
        s = p.get("step") or ()
        if len(b) != len(e) or len(b) > a.ndim:
            _err("slice: begin and end must have the same length <= ndim", "ValueError")
        key = []
        for i in range(len(b)):
            st = s[i] if i < len(s) and s[i] is not None else 1
            key.append(slice(b[i], e[i], st))
        return [np.ascontiguousarray(a[tuple(key)])]
    _register(_Op("slice", ["data"], [("begin", "Shape(tuple), required", _REQUIRED),
                                      ("end", "Shape(tuple), required", _REQUIRED),
                                      ("step", "Shape(tuple), optional, default=[]", ())],
                  slice_op), ("crop",))

    def slice_axis(ins, p):
        a = ins[0]
        key = [slice(None)] * a.ndim
        key[p["axis"]] = slice(p["begin"], p["end"])
        return [np.ascontiguousarray(a[tuple(key)])]
    _register(_Op("slice_axis", ["data"], [("axis", "int, required", _REQUIRED),
                                           ("begin", "int, required", _REQUIRED),
                                           ("end", "int or None, required", _REQUIRED)],
                  slice_axis))

    def slice_assign(ins, p):
        lhs, rhs = ins
        out = lhs.copy()
        key = _slice_key(p, lhs.ndim)
        if out[key].shape != rhs.shape:
            _err("_slice_assign: value shape %s does not match region %s"
                 % (rhs.shape, out[key].shape), "ValueError")
        out[key] = rhs
        return [out]

    def _slice_key(p, ndim):
        b, e = p["begin"], p["end"]
        s = p.get("step") or ()
        return tuple(slice(b[i], e[i], (s[i] if i < len(s) and s[i] is not None else 1))
                     for i in range(len(b)))

    def slice_assign_scalar(ins, p):
        out = ins[0].copy()
        out[_slice_key(p, out.ndim)] = p["scalar"]
        return [out]
    sp = [("begin", "Shape(tuple), required", _REQUIRED),
          ("end", "Shape(tuple), required", _REQUIRED),
          ("step", "Shape(tuple), optional, default=[]", ())]
    _register(_Op("_slice_assign", ["lhs", "rhs"], sp, slice_assign), ("_crop_assign",))
    _register(_Op("_slice_assign_scalar", ["data"],
                  [("scalar", "double, optional, default=0", 0.0)] + sp, slice_assign_scalar),
              ("_crop_assign_scalar",))

    def broadcast_to(ins, p):
        a = ins[0]
        shape = tuple(a.shape[i] if d == 0 else d for i, d in enumerate(p["shape"]))
        return [np.ascontiguousarray(np.broadcast_to(a, shape))]
    _register(_Op("broadcast_to", ["data"], [("shape", "Shape(tuple), optional, default=[]",
                                              ())], broadcast_to))
    _register(_Op("broadcast_like", ["lhs", "rhs"], [], lambda ins, p: [
        np.ascontiguousarray(np.broadcast_to(ins[0], ins[1].shape))]))
    _register(_Op("tile", ["data"], [("reps", "Shape(tuple), required", _REQUIRED)],
                  lambda ins, p: [np.tile(ins[0], p["reps"])]))
    _register(_Op("repeat", ["data"], [("repeats", "int, required", _REQUIRED),
                                       ("axis", "int or None, optional, default='None'", None)],
                  lambda ins, p: [np.repeat(ins[0], p["repeats"], axis=p.get("axis"))]))
    _register(_Op("reverse", ["data"], [("axis", "Shape(tuple), required", _REQUIRED)],
                  lambda ins, p: [np.ascontiguousarray(np.flip(ins[0], p["axis"]))]), ("flip",))
    _register(_Op("clip", ["data"], [("a_min", "float, required", _REQUIRED),
                                     ("a_max", "float, required", _REQUIRED)],
                  lambda ins, p: [np.clip(ins[0], p["a_min"], p["a_max"]).astype(ins[0].dtype)]))

    def concat(ins, p):
        _same_dtype("concat", ins)
        return [np.concatenate(ins, axis=p.get("dim", 1))]
    _register(_Op("Concat", [], [("num_args", "int, required", _REQUIRED),
                                 ("dim", "int, optional, default='1'", 1)], concat,
                  variadic="data", key_var_num_args="num_args"), ("concat",))
    _register(_Op("stack", [], [("axis", "int, optional, default='0'", 0),
                                ("num_args", "int, required", _REQUIRED)],
                  lambda ins, p: [np.stack(ins, axis=p.get("axis", 0))], variadic="data",
                  key_var_num_args="num_args"))
    _register(_Op("add_n", [], [("num_args", "int, required", _REQUIRED)],
                  lambda ins, p: [sum(ins[1:], ins[0].copy())], variadic="args",
                  key_var_num_args="num_args"), ("ElementWiseSum",))

    def split(ins, p):
        a = ins[0]
        ax = p.get("axis", 1)
        parts = np.split(a, p["num_outputs"], axis=ax)
        if p.get("squeeze_axis"):
            parts = [np.squeeze(x, axis=ax) for x in parts]
        return [np.ascontiguousarray(x) for x in parts]
    _register(_Op("SliceChannel", ["data"], [("num_outputs", "int, required", _REQUIRED),
                                             ("axis", "int, optional, default='1'", 1),
                                             ("squeeze_axis", "boolean, optional, default=0",
                                              False)], split), ("split",))

    def take(ins, p):
        a, idx = ins
        ax = p.get("axis", 0)
        mode = p.get("mode", "clip")
        n = a.shape[ax]
        i = idx.astype(np.int64)
        if mode == "raise" and ((i < 0) | (i >= n)).any():
            _err("take: index out of bounds for an axis of size %d (mode='raise')" % n,
                 "IndexError")
        i = np.mod(i, n) if mode == "wrap" else np.clip(i, 0, n - 1)
        return [np.take(a, i, axis=ax)]
    _register(_Op("take", ["a", "indices"], [("axis", "int, optional, default='0'", 0),
                                             ("mode", "{'clip', 'raise', 'wrap'},optional, "
                                              "default='clip'", "clip")], take))

    def gather_nd(ins, p):
        a, idx = ins
        idx = idx.astype(np.int64)
        return [a[tuple(idx[i] for i in range(idx.shape[0]))]]
    _register(_Op("gather_nd", ["data", "indices"], [], gather_nd))

    def scatter_set_nd(ins, p):
        lhs, rhs, idx = ins
        out = lhs.copy()
        idx = idx.astype(np.int64)
        out[tuple(idx[i] for i in range(idx.shape[0]))] = rhs
        return [out]
    _register(_Op("_scatter_set_nd", ["lhs", "rhs", "indices"],
                  [("shape", "Shape(tuple), required", _REQUIRED)], scatter_set_nd))

    def one_hot(ins, p):
        idx = ins[0].astype(np.int64)
        depth = p["depth"]
        out = np.full(idx.shape + (depth,), p.get("off_value", 0.0),
                      dtype=_dt(p.get("dtype", "float32")))
        valid = (idx >= 0) & (idx < depth)
        np.put_along_axis(out, np.where(valid, idx, 0)[..., None],
                          np.where(valid, p.get("on_value", 1.0), p.get("off_value", 0.0))[..., None],
                          axis=-1)
        return [out]
    _register(_Op("one_hot", ["indices"], [("depth", "int, required", _REQUIRED),
                                           ("on_value", "double, optional, default=1", 1.0),
                                           ("off_value", "double, optional, default=0", 0.0),
                                           ("dtype", "{'float16', 'float32', 'float64', 'int32',"
                                            " 'int64', 'int8', 'uint8'},optional, "
                                            "default='float32'", "float32")], one_hot))

    def dot(ins, p):
        a, b = ins
        if p.get("transpose_a"):
            a = a.T
        if p.get("transpose_b"):
            b = b.T
        r = np.dot(a, b) if a.ndim <= 2 and b.ndim <= 2 else np.tensordot(a, b, axes=1)
        r = np.asarray(r, dtype=a.dtype)
        return [r.reshape(1) if r.ndim == 0 else r]
    _register(_Op("dot", ["lhs", "rhs"], [("transpose_a", "boolean, optional, default=0", False),
                                          ("transpose_b", "boolean, optional, default=0", False),
                                          ("forward_stype", "{None, 'csr', 'default', "
                                           "'row_sparse'},optional, default='None'", None)], dot))

    def softmax(log):
        def fn(ins, p):
            a = ins[0]
            ax = p.get("axis", -1)
            t = p.get("temperature") or 1.0
            z = a / t
            z = z - z.max(axis=ax, keepdims=True)
            e = np.exp(z)
            s = e / e.sum(axis=ax, keepdims=True)
            return [(np.log(s) if log else s).astype(a.dtype)]
        return fn
    sm = [("axis", "int, optional, default='-1'", -1),
          ("temperature", "double or None, optional, default=None", None),
          ("dtype", "{None, 'float16', 'float32', 'float64'},optional, default='None'", None),
          ("use_length", "boolean or None, optional, default=0", False)]
    _register(_Op("softmax", ["data"], sm, softmax(False)))
    _register(_Op("log_softmax", ["data"], sm, softmax(True)))

    def cast(ins, p):
        return [ins[0].astype(_dt(p["dtype"]))]
    _register(_Op("Cast", ["data"], [("dtype", "{'bfloat16', 'bool', 'float16', 'float32', "
                                      "'float64', 'int32', 'int64', 'int8', 'uint8'}, required",
                                      _REQUIRED)], cast), ("cast",))

    def topk(ins, p):
        a = ins[0]
        ax = p.get("axis", -1)
        k = p.get("k", 1)
        order = np.argsort(a if p.get("is_ascend") else -a, axis=ax, kind="stable")
        idx = np.take(order, np.arange(k), axis=ax)
        ret = p.get("ret_typ", "indices")
        vals = np.take_along_axis(a, idx, axis=ax)
        if ret == "value":
            return [vals]
        if ret == "both":
            return [vals, idx.astype(np.float32)]
        return [idx.astype(np.float32)]
    _register(_Op("topk", ["data"], [("axis", "int or None, optional, default='-1'", -1),
                                     ("k", "int, optional, default='1'", 1),
                                     ("ret_typ", "{'both', 'indices', 'mask', 'value'},optional,"
                                      " default='indices'", "indices"),
                                     ("is_ascend", "boolean, optional, default=0", False),
                                     ("dtype", "{'float16', 'float32', 'float64', 'int32', "
                                      "'int64', 'uint8'},optional, default='float32'",
                                      "float32")], topk))

    # Creation: outputs only, context from `ctx`.
    cp = [("ctx", "string, optional, default=''", ""),
          ("dtype", "{'bfloat16', 'bool', 'float16', 'float32', 'float64', 'int32', 'int64', "
           "'int8', 'uint8'},optional, default='float32'", "float32")]
    shape_p = [("shape", "Shape(tuple), optional, default=[]", ())]
    _register(_Op("_zeros", [], shape_p + cp, lambda ins, p: [
        np.zeros(_shape(p["shape"]), dtype=_dt(p.get("dtype")))]))
    _register(_Op("_ones", [], shape_p + cp, lambda ins, p: [
        np.ones(_shape(p["shape"]), dtype=_dt(p.get("dtype")))]))
    _register(_Op("_full", [], shape_p + cp + [("value", "double, required", _REQUIRED)],
                  lambda ins, p: [np.full(_shape(p["shape"]), p["value"],
                                          dtype=_dt(p.get("dtype")))]))

    def arange(ins, p):
        start, stop, step = p["start"], p.get("stop"), p.get("step", 1.0)
        if stop is None:
            start, stop = 0, start
        r = np.arange(start, stop, step, dtype=np.float64)
        r = np.repeat(r, p.get("repeat", 1))
        return [r.astype(_dt(p.get("dtype")))]
    _register(_Op("_arange", [], [("start", "double, required", _REQUIRED),
                                  ("stop", "double or None, optional, default=None", None),
                                  ("step", "double, optional, default=1", 1.0),
                                  ("repeat", "int, optional, default='1'", 1),
                                  ("infer_range", "boolean, optional, default=0", False)] + cp,
                  arange))

    # Random.
    def rng():
        return _GLOBAL_RNG[0]

    def rand(f):
        def fn(ins, p):
            shape = _shape(p.get("shape", (1,)))
            return [np.asarray(f(rng(), p, shape), dtype=_dt(p.get("dtype") or "float32"))]
        return fn
    rp = [("shape", "Shape(tuple), optional, default=None", ()),
          ("ctx", "string, optional, default=''", ""),
          ("dtype", "{'None', 'float16', 'float32', 'float64'},optional, default='None'", None)]
    _register(_Op("_random_uniform", [], [("low", "float, optional, default=0", 0.0),
                                          ("high", "float, optional, default=1", 1.0)] + rp,
                  rand(lambda r, p, s: r.uniform(p.get("low", 0.0), p.get("high", 1.0), s))),
              ("uniform", "random_uniform"))
    _register(_Op("_random_normal", [], [("loc", "float, optional, default=0", 0.0),
                                         ("scale", "float, optional, default=1", 1.0)] + rp,
                  rand(lambda r, p, s: r.normal(p.get("loc", 0.0), p.get("scale", 1.0), s))),
              ("normal", "random_normal"))
    _register(_Op("_random_randint", [], [("low", "long, required", _REQUIRED),
                                          ("high", "long, required", _REQUIRED)] + rp,
                  rand(lambda r, p, s: r.randint(p["low"], p["high"], s))),
              ("random_randint",))
    _register(_Op("_random_uniform_like", ["data"], [("low", "float, optional, default=0", 0.0),
                                                     ("high", "float, optional, default=1", 1.0)],
                  lambda ins, p: [rng().uniform(p.get("low", 0.0), p.get("high", 1.0),
                                                ins[0].shape).astype(ins[0].dtype)]))

    def sample_uniform(ins, p):
        low, high = ins
        shape = _shape(p.get("shape", ()))
        r = rng().uniform(low[(...,) + (None,) * len(shape)], high[(...,) + (None,) * len(shape)],
                          low.shape + shape)
        return [r.astype(_dt(p.get("dtype") or "float32"))]
    _register(_Op("_sample_uniform", ["low", "high"],
                  [("shape", "Shape(tuple), optional, default=[]", ()),
                   ("dtype", "{'None', 'float16', 'float32', 'float64'},optional, "
                    "default='None'", None)], sample_uniform), ("sample_uniform",))
    _register(_Op("_shuffle", ["data"], [], lambda ins, p: [rng().permutation(ins[0])]),
              ("shuffle",))

    # A few prefixed ops, for module placement.
    _register(_Op("_contrib_allclose", ["a", "b"], [("rtol", "float, optional, default=1e-05",
                                                     1e-5),
                                                    ("atol", "float, optional, default=1e-08",
                                                     1e-8),
                                                    ("equal_nan", "boolean, optional, default=1",
                                                     True)],
                  lambda ins, p: [np.asarray([np.allclose(ins[0], ins[1], p.get("rtol", 1e-5),
                                                          p.get("atol", 1e-8),
                                                          p.get("equal_nan", True))],
                                             dtype=np.float32)]))
    _register(_Op("_linalg_det", ["A"], [], lambda ins, p: [
        np.asarray(np.linalg.det(ins[0])).reshape(-1).astype(ins[0].dtype)]), ("linalg_det",))

    def gelqf(ins, p):
        a = ins[0].astype(np.float64)
        q, r = np.linalg.qr(a.T)
        return [np.ascontiguousarray(q.T).astype(ins[0].dtype),
                np.ascontiguousarray(r.T).astype(ins[0].dtype)]
    _register(_Op("_linalg_gelqf", ["A"], [], gelqf), ("linalg_gelqf",))
    _register(_Op("_image_to_tensor", ["data"], [], lambda ins, p: [
        np.moveaxis(ins[0], -1, -3).astype(np.float32) / 255.0]))
    _register(_Op("_sparse_retain", ["data", "indices"], [], lambda ins, p: [ins[0].copy()]))
    _register(_Op("_npi_add", ["lhs", "rhs"], [], _binary("_npi_add", np.add)))
    _register(_Op("_backward_add", [], [], lambda ins, p: []))


def _dt(name):
    if name in (None, "None"):
        return np.float32
    return np.dtype(name).type


def _shape(s):
    if isinstance(s, int):
        return (s,)
    return tuple(s)


_build_ops()


@cfunc("pp")
def MXListAllOpNames(out_size, out_array):
    _wr(out_size, ctypes.c_uint, len(_OP_LIST))
    _wr(out_array, ctypes.c_void_p, _tl_buf("opnames", ctypes.c_char_p,
                                            [n.encode() for n in _OP_LIST]))


@cfunc("pp")
def NNGetOpHandle(name, out):
    n = _rd_str(name)
    if n not in _OP_HANDLE:
        _err("operator %s is not registered" % n)
    _wr(out, ctypes.c_void_p, _OP_HANDLE[n])


_STATIC = []


def _static_str(s):
    b = ctypes.create_string_buffer(s.encode())
    _STATIC.append(b)
    return ctypes.addressof(b)


@cfunc("ppppppppp")
def MXSymbolGetAtomicSymbolInfo(creator, name, desc, num_args, arg_names, arg_types, arg_descs,
                                key_var_num_args, return_type):
    op = _HANDLE_OP[creator]
    names, types, descs = [], [], []
    for i in op.inputs:
        names.append(i)
        types.append("NDArray-or-Symbol")
        descs.append("Input %s" % i)
    if op.variadic:
        names.append(op.variadic)
        types.append("NDArray-or-Symbol[]")
        descs.append("List of arrays")
    for pname, ptype, _ in op.params:
        names.append(pname)
        types.append(ptype)
        descs.append("The %s parameter." % pname)
    _wr(name, ctypes.c_void_p, _static_str(op.name))
    _wr(desc, ctypes.c_void_p, _static_str(op.doc))
    _wr(num_args, ctypes.c_uint, len(names))
    _wr(arg_names, ctypes.c_void_p, _tl_buf("ai_n", ctypes.c_char_p, [s.encode() for s in names]))
    _wr(arg_types, ctypes.c_void_p, _tl_buf("ai_t", ctypes.c_char_p, [s.encode() for s in types]))
    _wr(arg_descs, ctypes.c_void_p, _tl_buf("ai_d", ctypes.c_char_p, [s.encode() for s in descs]))
    _wr(key_var_num_args, ctypes.c_void_p, _static_str(op.key_var_num_args))
    if return_type:
        _wr(return_type, ctypes.c_void_p, None)


def _parse_ctx(s):
    if not s:
        return (1, 0)
    import re
    m = re.match(r"^(cpu|gpu|cpu_pinned|cpu_shared)\((\d+)\)$", s)
    if not m:
        _err("Invalid context string %r" % s)
    return _ctx_of({"cpu": 1, "gpu": 2, "cpu_pinned": 3, "cpu_shared": 5}[m.group(1)],
                   int(m.group(2)))


@cfunc("pipppippp")
def MXImperativeInvokeEx(creator, num_inputs, inputs, num_outputs, outputs, num_params,
                         param_keys, param_vals, out_stypes):
    op = _HANDLE_OP.get(creator)
    if op is None:
        _err("invalid operator handle")
    keys = [k.decode() for k in _rd(param_keys, ctypes.c_char_p, num_params)] if num_params else []
    vals = [v.decode() for v in _rd(param_vals, ctypes.c_char_p, num_params)] if num_params else []
    ptypes = {n: t for n, t, _ in op.params}
    params = {}
    for k, v in zip(keys, vals):
        if k not in ptypes:
            _err("Cannot find argument '%s', Possible Arguments:\n----------------\n%s, in "
                 "operator %s(name=\"\", %s)" % (k, "\n".join(ptypes), op.name, ", ".join(
                     "%s=\"%s\"" % kv for kv in zip(keys, vals))))
        params[k] = _parse(v, ptypes[k])
    if op.key_var_num_args and op.key_var_num_args not in params:
        params[op.key_var_num_args] = num_inputs
    for n, t, d in op.params:
        if d is _REQUIRED and n not in params:
            _err("Required parameter %s of %s is not presented, in operator %s(name=\"\")"
                 % (n, t.split(",")[0], op.name))
    in_handles = _rd(inputs, ctypes.c_void_p, num_inputs) if num_inputs else []
    nds = [_get(h) for h in in_handles]
    expected = len(op.inputs) if not op.variadic else params.get(op.key_var_num_args,
                                                                 num_inputs)
    if num_inputs != expected:
        _err("Operator %s expects %d inputs, but got %d" % (op.name, expected, num_inputs))
    ctxs = {nd.ctx for nd in nds}
    if len(ctxs) > 1:
        _err("operator %s: inputs are on different contexts %s" % (op.name, sorted(ctxs)))
    outs_ptr = ctypes.c_void_p.from_address(outputs).value
    given = None
    if outs_ptr:
        n_given = ctypes.c_int.from_address(num_outputs).value
        given = [_get(h) for h in _rd(outs_ptr, ctypes.c_void_p, n_given)]
    if nds:
        ctx = nds[0].ctx
    elif given and given[0].arr is not None:
        ctx = given[0].ctx
    else:
        ctx = _parse_ctx(params.get("ctx", ""))
    if given and "shape" in ptypes and "shape" not in params and given[0].arr is not None:
        params["shape"] = given[0].arr.shape          # shape inferred from out=
    results = op.fn([nd.arr for nd in nds], params)
    if given is not None:
        if len(given) != len(results):
            _err("operator %s has %d outputs, %d given" % (op.name, len(results), len(given)))
        for g, r in zip(given, results):
            if g.arr is None:
                g.arr = np.ascontiguousarray(r)
                g.ctx = ctx
                continue
            if g.arr.shape != r.shape:
                _err("Shape inconsistent: operator %s output has shape %s, out= array has %s"
                     % (op.name, r.shape, g.arr.shape), "ValueError")
            g.arr[...] = r.astype(g.arr.dtype, copy=False)
        _wr(out_stypes, ctypes.c_void_p, _tl_buf("stypes", ctypes.c_int, [0] * len(given)))
        return
    handles = [_new_handle(_ND(np.ascontiguousarray(r), ctx)) for r in results]
    _wr(num_outputs, ctypes.c_int, len(handles))
    _wr(outputs, ctypes.c_void_p, _tl_buf("outs", ctypes.c_void_p, handles))
    _wr(out_stypes, ctypes.c_void_p, _tl_buf("stypes", ctypes.c_int, [0] * len(handles)))


# ---------------------------------------------------------------------------------------------
# Library object and launcher


class FakeLib(object):
    """Attribute access like a ctypes.CDLL."""

    def __init__(self):
        for name, fn in _FUNCS.items():
            setattr(self, name, fn)

        def last_error():
            return getattr(_TL, "last_error", "").encode()
        self.MXGetLastError = last_error
        self.NNGetLastError = last_error

    def __getattr__(self, name):
        raise AttributeError("fake libmxnet does not implement %s" % name)


FAKE_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_libmxnet.py")


def install():
    """Make `import mxnet` load this fake library."""
    real_cdll = ctypes.CDLL

    def cdll(path, *args, **kwargs):
        if os.path.abspath(path) == FAKE_PATH:
            return FakeLib()
        return real_cdll(path, *args, **kwargs)
    ctypes.CDLL = cdll
    os.environ["MXNET_LIBRARY_PATH"] = FAKE_PATH
    os.environ["MXNET_FAKE_LIB"] = "1"
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "python"))


def main():
    install()
    args = sys.argv[1:]
    if args[:1] == ["-m"]:
        import runpy
        sys.argv = [args[1]] + args[2:]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    elif args:
        import runpy
        sys.argv = args
        runpy.run_path(args[0], run_name="__main__")


if __name__ == "__main__":
    main()
