"""Autograd: record imperative operations and differentiate them (MXNet 1.x ``mx.autograd``).

    x = mx.nd.array([1, 2, 3])
    x.attach_grad()
    with mx.autograd.record():
        y = x * x
    y.backward()
    x.grad            # [2, 4, 6]

Recording and training flags are per thread.
"""
import ctypes
import traceback
from threading import Lock

from .base import _LIB, check_call, c_handle_array, c_array, mx_uint, NDArrayHandle, SymbolHandle
from .base import MXCallbackList, c_array_buf, string_types  # noqa: F401
from ._enums import _GRAD_REQ_MAP
from .ndarray import NDArray
# Names MXNet 1.9.1's module also exposes (it imports them).
from array import array  # noqa: F401
from ctypes import CFUNCTYPE, POINTER, c_int, c_void_p, cast  # noqa: F401
from .symbol import Symbol  # noqa: F401

__all__ = ["set_recording", "set_training", "is_recording", "is_training", "record", "pause",
           "train_mode", "predict_mode", "mark_variables", "backward", "grad", "get_symbol",
           "Function"]


def set_recording(is_recording):
    """Set the recording state of this thread; returns the previous state."""
    prev = ctypes.c_int()
    check_call(_LIB.MXAutogradSetIsRecording(ctypes.c_int(is_recording), ctypes.byref(prev)))
    return bool(prev.value)


def set_training(train_mode):  # pylint: disable=redefined-outer-name
    """Set the training state of this thread (for ops like Dropout); returns the previous one."""
    prev = ctypes.c_int()
    check_call(_LIB.MXAutogradSetIsTraining(ctypes.c_int(train_mode), ctypes.byref(prev)))
    return bool(prev.value)


def is_recording():
    """Whether operations on this thread are being recorded."""
    curr = ctypes.c_bool()
    check_call(_LIB.MXAutogradIsRecording(ctypes.byref(curr)))
    return curr.value


def is_training():
    """Whether this thread is in training mode."""
    curr = ctypes.c_bool()
    check_call(_LIB.MXAutogradIsTraining(ctypes.byref(curr)))
    return curr.value


class _RecordingStateScope(object):
    """Sets the recording/training flags on enter and restores the previous ones on exit.
    None leaves a flag unchanged."""

    def __init__(self, is_record, train_mode):  # pylint: disable=redefined-outer-name
        self._enter_is_record = is_record
        self._enter_train_mode = train_mode
        self._prev_is_record = None
        self._prev_train_mode = None

    def __enter__(self):
        if self._enter_is_record is not None:
            self._prev_is_record = set_recording(self._enter_is_record)
        if self._enter_train_mode is not None:
            self._prev_train_mode = set_training(self._enter_train_mode)

    def __exit__(self, ptype, value, trace):
        if self._enter_is_record is not None and self._prev_is_record != self._enter_is_record:
            set_recording(self._prev_is_record)
        if self._enter_train_mode is not None and self._prev_train_mode != self._enter_train_mode:
            set_training(self._prev_train_mode)


def record(train_mode=True):  # pylint: disable=redefined-outer-name
    """Scope in which operations are recorded for differentiation (training mode by default)."""
    return _RecordingStateScope(True, train_mode)


def pause(train_mode=False):  # pylint: disable=redefined-outer-name
    """Scope in which nothing is recorded (prediction mode by default)."""
    return _RecordingStateScope(False, train_mode)


def train_mode():
    """Scope setting training mode without changing recording."""
    return _RecordingStateScope(None, True)


def predict_mode():
    """Scope setting prediction mode without changing recording."""
    return _RecordingStateScope(None, False)


def _as_array_list(arrays, what):
    if isinstance(arrays, NDArray):
        return [arrays], True
    arrays = list(arrays)
    for a in arrays:
        if not isinstance(a, NDArray):
            raise TypeError("%s must be NDArrays, got %s" % (what, type(a).__name__))
    return arrays, False


def mark_variables(variables, gradients, grad_reqs='write'):
    """Mark NDArrays as variables to compute gradients for; gradients are written to
    ``gradients`` according to ``grad_reqs`` ('write', 'add', 'null' or a list of them)."""
    variables, _ = _as_array_list(variables, "variables")
    gradients, _ = _as_array_list(gradients, "gradients")
    if len(variables) != len(gradients):
        raise ValueError("mark_variables: %d variables but %d gradients"
                         % (len(variables), len(gradients)))
    if isinstance(grad_reqs, str):
        grad_reqs = [_GRAD_REQ_MAP[grad_reqs]] * len(variables)
    else:
        grad_reqs = [_GRAD_REQ_MAP[r] for r in grad_reqs]
    check_call(_LIB.MXAutogradMarkVariables(
        mx_uint(len(variables)), c_handle_array(variables),
        c_array(mx_uint, grad_reqs), c_handle_array(gradients)))


def _parse_head(heads, head_grads):
    heads, _ = _as_array_list(heads, "heads")
    if head_grads is None:
        ograd_handles = ctypes.c_void_p(0)
    else:
        if isinstance(head_grads, NDArray):
            head_grads = [head_grads]
        head_grads = list(head_grads)
        if len(heads) != len(head_grads):
            raise ValueError("heads and head_grads must have the same length (%d vs %d)"
                             % (len(heads), len(head_grads)))
        ograd_handles = c_array(NDArrayHandle, [
            NDArrayHandle(0) if g is None else g.handle for g in head_grads])
    return heads, ograd_handles


def backward(heads, head_grads=None, retain_graph=False, train_mode=True):  # pylint: disable=redefined-outer-name
    """Compute the gradients of heads w.r.t. the marked variables (written to their buffers)."""
    heads, ograd_handles = _parse_head(heads, head_grads)
    check_call(_LIB.MXAutogradBackwardEx(
        mx_uint(len(heads)), c_handle_array(heads), ograd_handles,
        mx_uint(0), ctypes.c_void_p(0), ctypes.c_int(retain_graph), ctypes.c_int(0),
        ctypes.c_int(train_mode), ctypes.c_void_p(0), ctypes.c_void_p(0)))


def grad(heads, variables, head_grads=None, retain_graph=None, create_graph=False,
         train_mode=True):  # pylint: disable=redefined-outer-name
    """Return the gradients of heads w.r.t. variables as new arrays (not written to buffers).
    With create_graph=True the gradient computation is recorded (higher-order gradients)."""
    heads, ograd_handles = _parse_head(heads, head_grads)
    variables, single = _as_array_list(variables, "variables")
    if retain_graph is None:
        retain_graph = create_graph
    grad_vars = ctypes.POINTER(NDArrayHandle)()
    grad_stypes = ctypes.POINTER(ctypes.c_int)()
    check_call(_LIB.MXAutogradBackwardEx(
        mx_uint(len(heads)), c_handle_array(heads), ograd_handles,
        mx_uint(len(variables)), c_handle_array(variables), ctypes.c_int(retain_graph),
        ctypes.c_int(create_graph), ctypes.c_int(train_mode),
        ctypes.byref(grad_vars), ctypes.byref(grad_stypes)))
    ret = [NDArray(NDArrayHandle(grad_vars[i])) for i in range(len(variables))]
    if single:
        return ret[0]
    return ret


def get_symbol(x):
    """The recorded computation history of x as a Symbol."""
    from .symbol import Symbol
    hdl = SymbolHandle()
    check_call(_LIB.MXAutogradGetSymbol(x.handle, ctypes.byref(hdl)))
    return Symbol(hdl)


class Function(object):
    """A differentiable function with a user-defined backward.

        class sigmoid(mx.autograd.Function):
            def forward(self, x):
                y = 1 / (1 + mx.nd.exp(-x))
                self.save_for_backward(y)
                return y
            def backward(self, dy):
                y, = self.saved_tensors
                return dy * y * (1 - y)

    Each instance can be called once.
    """
    _bwd_functype = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                     ctypes.POINTER(ctypes.c_void_p),
                                     ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_void_p)
    _del_functype = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)

    class _Registry(object):
        """Keeps the ctypes callbacks alive until the library deletes them."""

        def __init__(self):
            self.ref_holder = {}
            self.counter = 0
            self.lock = Lock()

        def inc(self):
            with self.lock:
                self.counter += 1
                return self.counter

    _registry = _Registry()

    def __init__(self):
        self._used = False
        self.saved_tensors = ()

    def save_for_backward(self, *args):
        """Keep arrays for use in backward (as self.saved_tensors)."""
        self.saved_tensors = args

    def __call__(self, *inputs):
        assert not self._used, \
            "Each Function instance can only be called once. Please create another instance."
        self._used = True

        prev_recording = set_recording(False)
        try:
            outputs = self.forward(*inputs)
        finally:
            set_recording(prev_recording)

        if not prev_recording:
            return outputs

        ret_outputs = outputs
        if isinstance(outputs, NDArray):
            outputs = (outputs,)

        key = Function._registry.inc()

        def backward_entry(num_ograds, num_igrads, ptrs, reqs, is_train, _):
            # pylint: disable=broad-except
            try:
                output_grads = [NDArray(NDArrayHandle(ptrs[i]), writable=False)
                                for i in range(num_ograds)]
                input_grads = [NDArray(NDArrayHandle(ptrs[i]), writable=True)
                               for i in range(num_ograds, num_ograds + num_igrads)]
                reqs = [reqs[i] for i in range(num_igrads)]
                with _RecordingStateScope(None, bool(is_train)):
                    rets = self.backward(*output_grads)
                if isinstance(rets, NDArray):
                    rets = (rets,)
                assert len(rets) == len(input_grads), \
                    "%s.backward must return exactly the same number of NDArrays as the " \
                    "number of NDArrays arguments to forward. Expecting %d got %d" % (
                        self.__class__.__name__, len(input_grads), len(rets))
                for igrad, ret, req in zip(input_grads, rets, reqs):
                    assert isinstance(ret, NDArray), \
                        "autograd.Function.backward must return NDArrays, not %s" % type(ret)
                    if req == 0:  # null
                        continue
                    if req in (1, 2):  # write, inplace
                        igrad[:] = ret
                    elif req == 3:  # add
                        igrad[:] += ret
            except Exception:
                print("Error in Function.backward: %s" % traceback.format_exc())
                return False
            return True

        def delete_entry(_):
            try:
                del Function._registry.ref_holder[key]
            except Exception:  # pylint: disable=broad-except
                print("Error in autograd.Function.delete: %s" % traceback.format_exc())
                return False
            return True

        callbacks = [Function._bwd_functype(backward_entry),
                     Function._del_functype(delete_entry)]
        cb_ptrs = [ctypes.cast(c, ctypes.CFUNCTYPE(ctypes.c_int)) for c in callbacks]
        context = MXCallbackList(
            ctypes.c_int(len(callbacks)),
            ctypes.cast(c_array(ctypes.CFUNCTYPE(ctypes.c_int), cb_ptrs),
                        ctypes.POINTER(ctypes.CFUNCTYPE(ctypes.c_int))),
            ctypes.cast(c_array(ctypes.c_void_p, [None] * len(callbacks)),
                        ctypes.POINTER(ctypes.c_void_p)))
        # Registered before the call: the library may delete it at once (no input recorded).
        Function._registry.ref_holder[key] = (context, callbacks)
        check_call(_LIB.MXCustomFunctionRecord(
            ctypes.c_int(len(inputs)), c_handle_array(inputs),
            ctypes.c_int(len(outputs)), c_handle_array(outputs), ctypes.byref(context)))
        return ret_outputs

    def forward(self, *inputs):
        """Forward computation (override)."""
        raise NotImplementedError

    def backward(self, *output_grads):
        """Backward computation: gradients of the inputs, one per input (override)."""
        raise NotImplementedError
