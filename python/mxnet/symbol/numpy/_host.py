"""Host operators: graph nodes computed with NumPy on the host through the Custom operator.

Functions of mx.sym.np that depend on the input shapes (stacking, padding, editing) or that
no registered operator computes (integer bit operations, order statistics, some linear
algebra) are built with `host_op`: when the graph is bound the node's shape function sees
the input shapes, and when it runs its forward function sees the input values. A backward
function makes the node differentiable; without one the input gradients are zero (integer
and order-statistic results), or, with `backward=NOT_DIFFERENTIABLE`, asking for them is an
error.
"""
import json

import numpy as _onp

NOT_DIFFERENTIABLE = 'not differentiable'
_REGISTERED = set()


def _write(dst, req, value):
    if req == 'null':
        return
    value = _onp.asarray(value)
    if req == 'add':
        value = dst.asnumpy() + value
    dst._sync_copyfrom(_onp.array(value, dtype=_onp.dtype(dst.dtype), order='C'))  # pylint: disable=protected-access


def host_op(name, forward, infer_shape, infer_type=None, backward=None, num_outputs=1):
    """A function making Symbols of the host operator `name`.

    forward(arrays, **params) -> output arrays; infer_shape(shapes, **params) -> output
    shapes; infer_type(dtypes, **params) -> output dtypes (default: the first input's);
    backward(out_grads, arrays, **params) -> input gradients; num_outputs: a number or
    num_outputs(num_inputs, **params). The made function takes the input Symbols and the
    static parameters as keywords (JSON-serialisable)."""
    from ... import operator
    op_type = '_np_host_' + name

    def outputs_of(num_inputs, params):
        return num_outputs(num_inputs, **params) if callable(num_outputs) else num_outputs

    if op_type not in _REGISTERED:
        class _Op(operator.CustomOp):
            def __init__(self, params):
                super(_Op, self).__init__()
                self._params = params

            def forward(self, is_train, req, in_data, out_data, aux):
                results = forward([x.asnumpy() for x in in_data], **self._params)
                for dst, r, value in zip(out_data, req, results):
                    _write(dst, r, value)

            def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
                if all(r == 'null' for r in req):
                    return
                if backward == NOT_DIFFERENTIABLE:
                    raise NotImplementedError('mx.sym.np: %s has no gradient' % name)
                if backward is None:
                    grads = [_onp.zeros(g.shape) for g in in_grad]
                else:
                    grads = backward([g.asnumpy() for g in out_grad],
                                     [x.asnumpy() for x in in_data], **self._params)
                for dst, r, value in zip(in_grad, req, grads):
                    _write(dst, r, value)

        @operator.register(op_type)
        class _Prop(operator.CustomOpProp):  # pylint: disable=unused-variable
            def __init__(self, params='{}', num_inputs='1'):
                super(_Prop, self).__init__(need_top_grad=backward not in (None,
                                                                           NOT_DIFFERENTIABLE))
                self._params = json.loads(params)
                self._num_inputs = int(num_inputs)

            def list_arguments(self):
                return ['data%d' % i for i in range(self._num_inputs)]

            def list_outputs(self):
                return ['output%d' % i for i in range(outputs_of(self._num_inputs,
                                                                 self._params))]

            def infer_shape(self, in_shape):
                shapes = [tuple(int(d) for d in s) for s in in_shape]
                return in_shape, [tuple(s) for s in infer_shape(shapes, **self._params)], []

            def infer_type(self, in_type):
                count = len(self.list_outputs())
                out = infer_type(in_type, **self._params) if infer_type else \
                    [in_type[0]] * count
                return in_type, out, []

            def create_operator(self, ctx, in_shapes, in_dtypes):
                return _Op(self._params)

        _REGISTERED.add(op_type)

    def make(*inputs, **params):
        from .. import Custom
        return Custom(*inputs, op_type=op_type, params=json.dumps(params),
                      num_inputs=str(len(inputs)))
    make.__name__ = name
    return make


def as_list(sym, count):
    """The outputs of a multi-output Symbol as a list."""
    return [sym[i] for i in range(count)]
