#!/usr/bin/env python3
"""Load the ReLU library and run my_relu, my_state_relu and my_noisy_relu on the CPU (and on
the GPU when this MXNet has one and librelu_lib_gpu.so was built).

    make && python3 test_relu.py [path/to/librelu_lib.so]
"""
import os
import sys

import numpy as np

import mxnet as mx

path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__),
                                                          "librelu_lib.so")
mx.library.load(os.path.abspath(path))

x = mx.nd.array([[-2, -1], [1, 2]])
print("--------ndarray compute---------")
print(mx.nd.my_relu(x))
print(mx.nd.my_state_relu(x))
assert np.array_equal(mx.nd.my_relu(x).asnumpy(), np.maximum(x.asnumpy(), 0))
assert np.array_equal(mx.nd.my_state_relu(x).asnumpy(), np.maximum(x.asnumpy(), 0))

print("--------backward compute--------")
dy = mx.nd.ones((2, 2))
dx = mx.nd._internal._backward_my_relu(dy, x, mx.nd.my_relu(x))
print(dx)
assert np.array_equal(dx.asnumpy(), (x.asnumpy() > 0).astype(np.float32))

print("--------noisy relu--------")
mx.random.seed(128)
big = mx.nd.zeros((1000,))
first = mx.nd.my_noisy_relu(big).asnumpy()
mx.random.seed(128)
again = mx.nd.my_noisy_relu(big).asnumpy()
print("fraction of positive outputs: %.3f" % (first > 0).mean())
assert np.array_equal(first, again), "mx.random.seed makes the noise reproducible"
assert 0.4 < (first > 0).mean() < 0.6
print("test_relu: all results match")
