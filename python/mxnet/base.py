"""ctypes plumbing: loading libmxnet, checking return codes, typed errors, C conversions."""
import ctypes
import os
import re
import sys

import numpy as np

from . import libinfo

__all__ = ["MXNetError", "check_call", "c_str", "py_str", "c_array", "c_array_buf",
           "c_str_array", "c_handle_array", "mx_uint", "mx_int64", "NDArrayHandle",
           "SymbolHandle", "OpHandle", "ExecutorHandle", "_LIB", "string_types",
           "numeric_types", "integer_types", "register_error", "get_last_ffi_error",
           "_Null", "_as_list", "classproperty", "lib_function", "list_op_names",
           "op_info", "build_param_doc", "_init_op_module"]

string_types = (str,)
numeric_types = (float, int, np.generic)
integer_types = (int, np.integer)

mx_uint = ctypes.c_uint
mx_int = ctypes.c_int
mx_int64 = ctypes.c_int64
mx_float = ctypes.c_float
mx_float_p = ctypes.POINTER(mx_float)
NDArrayHandle = ctypes.c_void_p
FunctionHandle = ctypes.c_void_p
OpHandle = ctypes.c_void_p
CachedOpHandle = ctypes.c_void_p
SymbolHandle = ctypes.c_void_p
ExecutorHandle = ctypes.c_void_p
DataIterCreatorHandle = ctypes.c_void_p
DataIterHandle = ctypes.c_void_p
KVStoreHandle = ctypes.c_void_p
RecordIOHandle = ctypes.c_void_p
RtcHandle = ctypes.c_void_p
CudaModuleHandle = ctypes.c_void_p
CudaKernelHandle = ctypes.c_void_p
ProfileHandle = ctypes.c_void_p
DLPackHandle = ctypes.c_void_p

# Python 2 names MXNet 1.9.1 still exports.
basestring = str
long = int

mx_real_t = np.float32
"""The default real type of arrays (float32)."""


class MXCallbackList(ctypes.Structure):
    """struct MXCallbackList of the C API: callbacks the library calls back into Python, each
    with its context pointer."""
    _fields_ = [
        ('num_callbacks', ctypes.c_int),
        ('callbacks', ctypes.POINTER(ctypes.CFUNCTYPE(ctypes.c_int))),
        ('contexts', ctypes.POINTER(ctypes.c_void_p)),
    ]


class MXNetError(RuntimeError):
    """Error raised by the mxnet library."""


class InternalError(MXNetError):
    """A broken invariant inside the library (a bug), not bad input."""


_ERROR_TYPES = {"MXNetError": MXNetError, "InternalError": InternalError}
error_types = _ERROR_TYPES
"""Registered error classes by the C++ error type name (see register_error)."""


class NotImplementedForSymbol(MXNetError):
    """A function (an NDArray operator of name `alias`) that Symbols do not offer."""

    def __init__(self, function, alias, *args):
        super(NotImplementedForSymbol, self).__init__()
        self.function = function.__name__
        self.alias = alias
        self.args = [str(type(a)) for a in args]

    def __str__(self):
        msg = 'Function {}'.format(self.function)
        if self.alias:
            msg += ' (namely operator "{}")'.format(self.alias)
        if self.args:
            msg += ' with arguments ({})'.format(', '.join(self.args))
        return msg + ' is not implemented for Symbol and only available in NDArray.'


class NotSupportedForSparseNDArray(MXNetError):
    """A function (an NDArray operator of name `alias`) that sparse NDArrays do not offer."""

    def __init__(self, function, alias, *args):
        super(NotSupportedForSparseNDArray, self).__init__()
        self.function = function.__name__
        self.alias = alias
        self.args = [str(type(a)) for a in args]

    def __str__(self):
        msg = 'Function {}'.format(self.function)
        if self.alias:
            msg += ' (namely operator "{}")'.format(self.alias)
        if self.args:
            msg += ' with arguments ({})'.format(', '.join(self.args))
        return msg + ' is not supported for SparseNDArray and only available in NDArray.'


def register_error(name, cls=None):
    """Register an error class so C++ errors of type `name` raise it (MXNet 1.x signature)."""
    def _register(mycls):
        _ERROR_TYPES[name] = mycls
        return mycls
    if cls is None:
        if isinstance(name, type):
            cls, name = name, name.__name__
            return _register(cls)
        return _register
    return _register(cls)


def _make_typed(builtin):
    cls = type(builtin.__name__, (MXNetError, builtin), {
        "__doc__": "MXNetError that is also a %s." % builtin.__name__,
        "__module__": __name__})
    _ERROR_TYPES[builtin.__name__] = cls
    return cls


ValueError = _make_typed(ValueError)             # noqa: A001  (MXNet's names)
TypeError = _make_typed(TypeError)               # noqa: A001
AttributeError = _make_typed(AttributeError)     # noqa: A001
IndexError = _make_typed(IndexError)             # noqa: A001
NotImplementedError = _make_typed(NotImplementedError)  # noqa: A001
MemoryError = _make_typed(MemoryError)           # noqa: A001

_TYPE_PREFIX = re.compile(r"^([A-Za-z0-9_.]+): ")


def c2pyerror(err_msg):
    """Split "<Type>: message" into (exception class, message)."""
    match = _TYPE_PREFIX.match(err_msg)
    if match and match.group(1) in _ERROR_TYPES:
        return _ERROR_TYPES[match.group(1)], err_msg
    return MXNetError, err_msg


def _default_openmp_wait_policy():
    """OpenMP threads sleep as soon as a parallel region ends, unless the user chose a policy.

    libgomp's default makes them spin first. When the cores are shared (with other processes, or
    with OpenBLAS's own threads between two GEMMs) the spinning threads take the CPU from the
    threads doing the work: on a 2-core machine under load, training and inference ran 5-50x
    slower. libgomp reads the setting once, when it is loaded, which happens with libmxnet.
    Set OMP_WAIT_POLICY=ACTIVE (or GOMP_SPINCOUNT) to keep libgomp's behaviour.
    """
    if 'OMP_WAIT_POLICY' not in os.environ and 'GOMP_SPINCOUNT' not in os.environ:
        os.environ['OMP_WAIT_POLICY'] = 'PASSIVE'


def _load_lib():
    _default_openmp_wait_policy()
    path = libinfo.find_lib_path()[0]
    lib = ctypes.CDLL(path, ctypes.RTLD_LOCAL)
    lib.MXGetLastError.restype = ctypes.c_char_p
    lib.NNGetLastError.restype = ctypes.c_char_p
    lib.MXGetLastErrorType.restype = ctypes.c_char_p
    return lib


_LIB = _load_lib()
__version__ = libinfo.__version__


def get_last_ffi_error():
    """The exception for the library's last error on this thread: the class registered for the
    type the library reports (MXGetLastErrorType), else MXNetError."""
    # A message may quote the bytes of a corrupt input file: never fail decoding it.
    msg = _LIB.MXGetLastError().decode('utf-8', errors='backslashreplace')
    type_name = _LIB.MXGetLastErrorType().decode('utf-8', errors='replace')
    return _ERROR_TYPES.get(type_name, MXNetError)(msg)


def check_call(ret):
    """Raise the library's last error when a C API call returned non-zero."""
    if ret != 0:
        raise get_last_ffi_error()


def c_str(string):
    """Python str -> const char*."""
    return ctypes.c_char_p(string.encode("utf-8"))


def py_str(x):
    """bytes -> str."""
    return x.decode("utf-8") if isinstance(x, bytes) else x


def c_str_array(strings):
    """list of str -> const char**."""
    arr = (ctypes.c_char_p * len(strings))()
    arr[:] = [s.encode("utf-8") for s in strings]
    return arr


def c_array(ctype, values):
    """Python sequence -> ctype array."""
    out = (ctype * len(values))()
    out[:] = values
    return out


def c_array_buf(ctype, buf):
    """Buffer -> ctype array sharing its memory."""
    return (ctype * len(buf)).from_buffer(buf)


def c_handle_array(objs):
    """Sequence of objects with .handle -> void* array."""
    arr = (ctypes.c_void_p * len(objs))()
    arr[:] = [o.handle for o in objs]
    return arr


def ctypes2buffer(cptr, length):
    """Copy `length` bytes from a char pointer into a bytearray."""
    if not isinstance(cptr, ctypes.POINTER(ctypes.c_char)):
        raise TypeError("expected char pointer")
    res = bytearray(length)
    rptr = (ctypes.c_char * length).from_buffer(res)
    if not ctypes.memmove(rptr, cptr, length):
        raise RuntimeError("memmove failed")
    return res


def ctypes2numpy_shared(cptr, shape):
    """A NumPy view over float memory owned by the library."""
    if not isinstance(cptr, ctypes.POINTER(mx_float)):
        raise RuntimeError("expected float pointer")
    size = 1
    for s in shape:
        size *= s
    dbuffer = (mx_float * size).from_address(ctypes.addressof(cptr.contents))
    return np.frombuffer(dbuffer, dtype=np.float32).reshape(shape)


class _NullType(object):
    """Placeholder for arguments a caller did not give (distinct from None, a valid value)."""
    __slots__ = ()

    def __repr__(self):
        return "_Null"

    def __reduce__(self):
        return "_Null"

    def __bool__(self):
        return False


_Null = _NullType()


def _as_list(obj):
    """A list holding `obj`, or `obj` itself when it is already a list or tuple."""
    if isinstance(obj, (list, tuple)):
        return obj
    return [obj]


class classproperty(object):  # noqa: N801  (MXNet's name)
    """A read-only property on the class itself."""

    def __init__(self, func):
        self.func = func

    def __get__(self, obj, owner):
        return self.func(owner)


def lib_function(name):
    """`_LIB.<name>`, or a stand-in raising MXNetError when this library does not export it.

    Used for functions bound once at import, so that a library without some optional function
    still imports and only the feature needing it fails, with the function's name.
    """
    try:
        return getattr(_LIB, name)
    except AttributeError:
        def missing(*args, **kwargs):
            raise MXNetError("This libmxnet does not export %s" % name)
        missing.__name__ = name
        return missing


# ---------------------------------------------------------------------------------------------
# Operator registry queries, shared by the ndarray and symbol code generators.

_OP_NAMES = None
_OP_INFO = {}
_OP_NAME_PREFIX_LIST = ["_contrib_", "_linalg_", "_sparse_", "_image_", "_random_"]


def list_op_names():
    """Names of every registered operator, aliases included (MXListAllOpNames)."""
    global _OP_NAMES
    if _OP_NAMES is None:
        plist = ctypes.POINTER(ctypes.c_char_p)()
        size = ctypes.c_uint()
        check_call(_LIB.MXListAllOpNames(ctypes.byref(size), ctypes.byref(plist)))
        _OP_NAMES = [py_str(plist[i]) for i in range(size.value)]
    return _OP_NAMES


def _refresh_op_names():
    """Forget the cached operator list (after a library registered new operators)."""
    global _OP_NAMES
    _OP_NAMES = None


def op_handle(name):
    """The creator handle of operator `name` (NNGetOpHandle), as a c_void_p."""
    hdl = OpHandle()
    check_call(_LIB.NNGetOpHandle(c_str(name), ctypes.byref(hdl)))
    return hdl


class OpInfo(object):
    """What MXSymbolGetAtomicSymbolInfo reports about one operator."""
    __slots__ = ("name", "description", "arg_names", "arg_types", "arg_descs",
                 "key_var_num_args", "return_type")

    def __init__(self, name, description, arg_names, arg_types, arg_descs, key_var_num_args,
                 return_type):
        self.name = name
        self.description = description
        self.arg_names = arg_names
        self.arg_types = arg_types
        self.arg_descs = arg_descs
        self.key_var_num_args = key_var_num_args
        self.return_type = return_type

    def __repr__(self):
        return "OpInfo(%r, args=%r)" % (self.name, self.arg_names)


def op_info(handle):
    """OpInfo for an operator handle; cached per handle (aliases share their canonical entry)."""
    key = handle.value if isinstance(handle, ctypes.c_void_p) else handle
    info = _OP_INFO.get(key)
    if info is None:
        real_name = ctypes.c_char_p()
        desc = ctypes.c_char_p()
        num_args = mx_uint()
        arg_names = ctypes.POINTER(ctypes.c_char_p)()
        arg_types = ctypes.POINTER(ctypes.c_char_p)()
        arg_descs = ctypes.POINTER(ctypes.c_char_p)()
        key_var_num_args = ctypes.c_char_p()
        ret_type = ctypes.c_char_p()
        check_call(_LIB.MXSymbolGetAtomicSymbolInfo(
            ctypes.c_void_p(key), ctypes.byref(real_name), ctypes.byref(desc),
            ctypes.byref(num_args), ctypes.byref(arg_names), ctypes.byref(arg_types),
            ctypes.byref(arg_descs), ctypes.byref(key_var_num_args), ctypes.byref(ret_type)))
        n = num_args.value
        info = OpInfo(py_str(real_name.value), py_str(desc.value or b""),
                      [py_str(arg_names[i]) for i in range(n)],
                      [py_str(arg_types[i]) for i in range(n)],
                      [py_str(arg_descs[i] or b"") for i in range(n)],
                      py_str(key_var_num_args.value or b""),
                      py_str(ret_type.value or b""))
        _OP_INFO[key] = info
    return info


def build_param_doc(arg_names, arg_types, arg_descs, remove_dup=True):
    """The numpydoc "Parameters" section for registered arguments (MXNet's format)."""
    param_keys = set()
    param_str = []
    for key, type_info, desc in zip(arg_names, arg_types, arg_descs):
        if key in param_keys and remove_dup:
            continue
        if key == "num_args":
            continue
        param_keys.add(key)
        ret = "%s : %s" % (key, type_info)
        if desc:
            ret += "\n    " + desc
        param_str.append(ret)
    return "Parameters\n----------\n%s\n" % "\n".join(param_str)


def _is_np_op(op_name):
    return op_name.startswith(("_np_", "_npi_", "_npx_"))


def _get_op_name_prefix(op_name):
    for prefix in _OP_NAME_PREFIX_LIST:
        if op_name.startswith(prefix):
            return prefix
    return ""


def _op_placement(name, root_namespace, module_name):
    """(submodule full name, function name) where operator `name` is installed (API.md §2.3)."""
    prefix = _get_op_name_prefix(name)
    base_mod = "%s.%s" % (root_namespace, module_name)
    if prefix and (prefix != "_random_" or name.endswith("_like")):
        return "%s.%s" % (base_mod, prefix[1:-1]), name[len(prefix):]
    if name.startswith("_"):
        return base_mod + "._internal", name
    return base_mod + ".op", name


def _init_op_module(root_namespace, module_name, make_op_func, names=None):
    """Generate a function per registered operator and install it in its submodule.

    `make_op_func(handle, op_name, func_name)` returns the function. Names are distributed as
    in MXNet 1.x: `_contrib_`/`_linalg_`/`_sparse_`/`_image_` (and `_random_*_like`) go to the
    matching submodule without the prefix, other `_`-names to `_internal`, the rest to `op`.
    `names` restricts the work to those operators (used after a library adds operators).
    """
    if names is None:
        names = list_op_names()
    for name in names:
        if _is_np_op(name):
            continue
        target, func_name = _op_placement(name, root_namespace, module_name)
        module = sys.modules[target]
        function = make_op_func(op_handle(name), name, func_name)
        function.__module__ = target
        setattr(module, func_name, function)
        if func_name not in module.__all__:
            module.__all__.append(func_name)


def _notify_shutdown():
    if hasattr(_LIB, "MXNotifyShutdown"):
        _LIB.MXNotifyShutdown()


if sys.version_info[0] < 3:
    raise ImportError("mxnet needs Python 3")


def data_dir_default():
    """Where MXNet keeps downloaded data by default: %APPDATA%\\mxnet on Windows, ~/.mxnet
    elsewhere."""
    import platform
    if platform.system() == 'Windows':
        return os.path.join(os.environ.get('APPDATA'), 'mxnet')
    return os.path.join(os.path.expanduser('~'), '.mxnet')


def data_dir():
    """Where MXNet keeps downloaded data: $MXNET_HOME, or data_dir_default()."""
    return os.getenv('MXNET_HOME', data_dir_default())


def with_metaclass(meta, *bases):
    """A base class whose subclasses are created by metaclass `meta` (and derive from
    `bases`): class Foo(with_metaclass(Meta, Base)): ..."""
    class _TemporaryMeta(type):
        def __new__(cls, name, this_bases, namespace):
            if this_bases is None or name == 'temporary_class':
                return type.__new__(cls, name, (), namespace)
            return meta(name, bases, namespace)

        @classmethod
        def __prepare__(cls, name, this_bases):
            return meta.__prepare__(name, bases)
    return type.__new__(_TemporaryMeta, 'temporary_class', (), {})


def add_fileline_to_docstring(module, incursive=True):
    """Append 'From:<file>:<line>' (where it is defined) to the docstring of each function and
    class of `module` (a module or its name), and of their methods when `incursive`."""
    import inspect

    def _add(obj):
        if not inspect.isfunction(obj) and not inspect.ismethod(obj):
            return
        func = obj.__func__ if inspect.ismethod(obj) else obj
        code = func.__code__
        if func.__doc__ is None or 'From:' in func.__doc__:
            return
        func.__doc__ = func.__doc__ + '\n\nFrom:%s:%d' % (code.co_filename,
                                                          code.co_firstlineno)

    if isinstance(module, str):
        module = sys.modules[module]
    for _, obj in list(module.__dict__.items()):
        if inspect.isfunction(obj) and obj.__module__ == module.__name__:
            _add(obj)
        if inspect.isclass(obj) and incursive and obj.__module__ == module.__name__:
            for _, member in obj.__dict__.items():
                _add(member)
