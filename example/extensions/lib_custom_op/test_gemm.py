#!/usr/bin/env python3
"""Load the GEMM library and run my_gemm / state_gemm imperatively, with autograd and through
bound executors, comparing with mx.nd.dot.

    make && python3 test_gemm.py [path/to/libgemm_lib.so]
"""
import os
import sys

import numpy as np

import mxnet as mx

path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__),
                                                          "libgemm_lib.so")
mx.library.load(os.path.abspath(path))

a = mx.nd.array([[1, 2, 3], [4, 5, 6]])
b = mx.nd.array([[7], [8], [9]])

print("--------start ndarray compute---------")
print(mx.nd.my_gemm(a, b))
print(mx.nd.state_gemm(a, b, test_kw=100))
expected = mx.nd.dot(a, b)
assert np.allclose(mx.nd.my_gemm(a, b).asnumpy(), expected.asnumpy())
assert np.allclose(mx.nd.state_gemm(a, b, test_kw=100).asnumpy(), expected.asnumpy())

print("--------start backward compute--------")
dc = mx.nd.ones((2, 1))
da, db = mx.nd._internal._backward_my_gemm(dc, a, b, mx.nd.my_gemm(a, b))
print(da, db)
assert np.allclose(da.asnumpy(), np.ones((2, 1)) @ b.asnumpy().T)
assert np.allclose(db.asnumpy(), a.asnumpy().T @ np.ones((2, 1)))

if hasattr(mx, "autograd"):
    print("--------start autograd compute--------")
    for op in (mx.nd.my_gemm, mx.nd.state_gemm):
        x, y = a.copy(), b.copy()
        x.attach_grad()
        y.attach_grad()
        with mx.autograd.record():
            z = op(x, y)
        z.backward(dc)
        print(op.__name__, x.grad, y.grad)
        assert np.allclose(x.grad.asnumpy(), da.asnumpy())
        assert np.allclose(y.grad.asnumpy(), db.asnumpy())

if hasattr(mx, "sym") and hasattr(mx.sym, "my_gemm"):
    print("--------start symbolic compute--------")
    s = mx.sym.Variable("s")
    t = mx.sym.Variable("t")
    c = mx.sym.my_gemm(s, t)
    d = mx.sym.state_gemm(s, t, test_kw=200)
    in_grad = [mx.nd.empty((2, 3)), mx.nd.empty((3, 1))]
    in_grad2 = [mx.nd.empty((2, 3)), mx.nd.empty((3, 1))]
    exe = c.bind(ctx=mx.cpu(), args={"s": a, "t": b}, args_grad=in_grad)
    exe2 = d.bind(ctx=mx.cpu(), args={"s": a, "t": b}, args_grad=in_grad2)
    out = exe.forward()
    print(out)
    out2 = exe2.forward()
    out2 = exe2.forward()   # the state persists: the forward count goes on
    print(out2)
    exe.backward([dc])
    exe2.backward([dc])
    print(in_grad, in_grad2)
    assert np.allclose(in_grad[0].asnumpy(), da.asnumpy())
    assert np.allclose(in_grad2[1].asnumpy(), db.asnumpy())
print("test_gemm: all results match")
