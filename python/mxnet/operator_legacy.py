"""MXNet's first Python operator interface (PythonOp, NumpyOp, NDArrayOp), deprecated in
favour of CustomOp and run here through it: get_symbol registers a CustomOp adapter for the
operator instance and returns the Custom symbol."""
import itertools
import warnings

import numpy as np

__all__ = ['PythonOp', 'NumpyOp', 'NDArrayOp']

_COUNTER = itertools.count()


class PythonOp(object):
    """Base class of operators written in Python: override forward(in_data, out_data),
    backward(out_grad, in_data, out_data, in_grad), infer_shape, list_arguments and
    list_outputs; calling the instance (or get_symbol) with input Symbols gives the operator's
    Symbol. need_top_grad is what need_top_grad() returns (False for loss layers)."""

    def __init__(self, need_top_grad=True):
        self.info_ = None
        self.need_top_grad_ = need_top_grad
        warnings.warn('PythonOp has been deprecated. Please use CustomOp')

    def __call__(self, *args, **kwargs):
        return self.get_symbol(*args, **kwargs)

    def get_symbol(self, *args, **kwargs):
        """The Symbol of this operator applied to the input Symbols."""
        raise NotImplementedError('Must override this')

    def forward(self, in_data, out_data):
        """Compute out_data from in_data (default: copy the first input)."""
        out_data[0][:] = in_data[0]

    def backward(self, out_grad, in_data, out_data, in_grad):
        """Compute in_grad (default: ones)."""
        in_grad[0][:] = 1.0

    def infer_shape(self, in_shape):
        """(input shapes, output shapes); default: one output shaped like the first input."""
        return in_shape, [in_shape[0]]

    def list_outputs(self):
        return ['output']

    def list_arguments(self):
        return ['data']

    def need_top_grad(self):
        """Whether backward needs the gradients of the outputs."""
        return self.need_top_grad_

    def _custom_symbol(self, args, kwargs, numpy_arrays):
        """Register a CustomOp running this instance and return its Symbol."""
        from . import operator, symbol
        op_instance = self
        op_type = '_legacy_%s_%d' % (type(self).__name__.lower(), next(_COUNTER))

        class _Adapter(operator.CustomOp):
            def forward(self, is_train, req, in_data, out_data, aux):
                ins = [x.asnumpy() for x in in_data] if numpy_arrays else in_data
                outs = [np.zeros(y.shape, dtype=np.float32) for y in out_data] \
                    if numpy_arrays else out_data
                op_instance.forward(in_data=ins, out_data=outs)
                if numpy_arrays:
                    for dst, r, src in zip(out_data, req, outs):
                        self.assign(dst, r, src)

            def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
                if not numpy_arrays:
                    op_instance.backward(out_grad=out_grad, in_data=in_data,
                                         out_data=out_data, in_grad=in_grad)
                    return
                grads = [np.zeros(g.shape, dtype=np.float32) for g in in_grad]
                if op_instance.need_top_grad():
                    top = [g.asnumpy() for g in out_grad]
                else:   # not a backward dependency (a loss layer): zeros stand in
                    top = [np.zeros(y.shape, dtype=np.float32) for y in out_data]
                op_instance.backward(out_grad=top,
                                     in_data=[x.asnumpy() for x in in_data],
                                     out_data=[y.asnumpy() for y in out_data], in_grad=grads)
                for dst, r, src in zip(in_grad, req, grads):
                    self.assign(dst, r, src)

        @operator.register(op_type)
        class _AdapterProp(operator.CustomOpProp):  # pylint: disable=unused-variable
            def __init__(self):
                super(_AdapterProp, self).__init__(need_top_grad=op_instance.need_top_grad())

            def list_arguments(self):
                return op_instance.list_arguments()

            def list_outputs(self):
                return op_instance.list_outputs()

            def infer_shape(self, in_shape):
                ins, outs = op_instance.infer_shape(in_shape)[:2]
                return ins, outs, []

            def create_operator(self, ctx, in_shapes, in_dtypes):
                return _Adapter()

        return symbol.Custom(*args, op_type=op_type, **kwargs)


class NumpyOp(PythonOp):
    """A PythonOp whose forward and backward receive NumPy arrays (float32), for quickly
    writing non-performance-critical parts of a graph in NumPy; outputs and input gradients
    are written into the given arrays."""

    def get_symbol(self, *args, **kwargs):
        return self._custom_symbol(args, kwargs, numpy_arrays=True)


class NDArrayOp(PythonOp):
    """A PythonOp whose forward and backward receive NDArrays (write results with
    ``out[:] = ...``)."""

    def get_symbol(self, *args, **kwargs):
        return self._custom_symbol(args, kwargs, numpy_arrays=False)

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The arrays backward reads: output gradients (if needed), inputs and outputs."""
        deps = []
        if self.need_top_grad():
            deps.extend(out_grad)
        deps.extend(in_data)
        deps.extend(out_data)
        return deps
