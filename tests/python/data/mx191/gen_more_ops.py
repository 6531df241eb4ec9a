"""Writes more_ops.npz: MXNet 1.9.1 forward outputs and input gradients of the operators tested
by tests/python/unittest/test_more_ops.py. Run it as refgen.py says.

For case <c> the file holds <c>/kwargs (JSON), <c>/op, <c>/in<i>, <c>/head<j>, <c>/out<j> and
<c>/grad<i> (gradients of the float inputs marked differentiable, with head gradients head<j>).
"""
import json

import mxnet as mx
import numpy as np

import refgen

rng = np.random.RandomState(20261122)


def u(*shape):
    return rng.uniform(-2, 2, size=shape).astype("float32")


# (case name, op path under mx.nd, inputs, kwargs, indices of inputs to differentiate)
CASES = [
    ("resize_size_align", "contrib.BilinearResize2D", [u(1, 2, 5, 6)],
     {"height": 3, "width": 8}, [0]),
    ("resize_size_noalign", "contrib.BilinearResize2D", [u(1, 2, 5, 6)],
     {"height": 9, "width": 4, "align_corners": False}, [0]),
    ("resize_scale_noalign", "contrib.BilinearResize2D", [u(2, 1, 5, 6)],
     {"scale_height": 1.7, "scale_width": 2.3, "align_corners": False}, [0]),
    ("resize_odd_scale", "contrib.BilinearResize2D", [u(1, 1, 5, 6)],
     {"mode": "odd_scale", "scale_height": 2.0, "scale_width": 0.5}, [0]),
    ("resize_to_odd_up", "contrib.BilinearResize2D", [u(1, 2, 4, 7)],
     {"mode": "to_odd_up"}, [0]),
    ("resize_to_even_down", "contrib.BilinearResize2D", [u(1, 2, 5, 7)],
     {"mode": "to_even_down", "align_corners": False}, [0]),
    ("resize_like", "contrib.BilinearResize2D", [u(1, 2, 3, 4), u(1, 1, 7, 5)],
     {"mode": "like"}, [0]),
    ("adaptive_pool_34", "contrib.AdaptiveAvgPooling2D", [u(2, 2, 5, 6)],
     {"output_size": (3, 4)}, [0]),
    ("adaptive_pool_1", "contrib.AdaptiveAvgPooling2D", [u(1, 3, 4, 5)], {}, [0]),
    ("adaptive_pool_up", "contrib.AdaptiveAvgPooling2D", [u(1, 1, 5, 6)],
     {"output_size": (7, 3)}, [0]),
    ("im2col_2d", "im2col", [u(2, 2, 5, 6)],
     {"kernel": (2, 3), "stride": (2, 1), "dilate": (1, 2), "pad": (1, 1)}, [0]),
    # 1.9.1's CPU im2col fails on 1-D and 3-D inputs: those are checked against NumPy only.
    ("col2im_2d", "col2im", [u(2, 12, 12)],
     {"output_size": (5, 6), "kernel": (2, 3), "stride": (2, 1), "dilate": (1, 2),
      "pad": (1, 1)}, [0]),
    ("group_norm", "GroupNorm", [u(2, 4, 3), u(2), u(2)],
     {"num_groups": 2, "output_mean_var": True}, [0, 1, 2]),
    ("pad_reflect", "Pad", [u(1, 2, 3, 4)],
     {"mode": "reflect", "pad_width": (0, 0, 0, 0, 2, 1, 3, 2)}, [0]),
    ("pad_edge5d", "Pad", [u(1, 1, 2, 3, 2)],
     {"mode": "edge", "pad_width": (0, 0, 0, 0, 1, 0, 0, 2, 2, 1)}, [0]),
    ("svm_l2", "SVMOutput", [u(3, 4), np.array([0, 3, 1], dtype="float32")],
     {"margin": 0.7, "regularization_coefficient": 0.4}, [0]),
    ("svm_l1", "SVMOutput", [u(3, 4), np.array([2, 0, 1], dtype="float32")],
     {"use_linear": True}, [0]),
    ("moments", "moments", [u(2, 3, 4)], {"axes": (0, 2), "keepdims": True}, [0]),
    ("crop_like", "Crop", [u(2, 1, 5, 6), u(1, 1, 3, 2)], {"center_crop": True}, [0]),
    ("reshape_like", "reshape_like", [u(30, 7), u(15, 2, 4)],
     {"lhs_begin": 0, "lhs_end": 1, "rhs_begin": 0, "rhs_end": 2}, [0]),
    ("index_copy", "contrib.index_copy",
     [u(5, 3), np.array([0, 4, 2], dtype="float32"), u(3, 3)], {}, [0, 2]),
    ("div_sqrt_dim", "contrib.div_sqrt_dim", [u(2, 3, 16)], {}, [0]),
    ("khatri_rao", "khatri_rao", [u(2, 3), u(4, 3), u(2, 3)], {}, []),
    ("unravel", "unravel_index", [np.array([5, 11, 13, 0], dtype="float32")],
     {"shape": (3, 4)}, []),
    ("ravel", "ravel_multi_index", [np.array([[1, 2, 0], [0, 3, 2]], dtype="float32")],
     {"shape": (3, 4)}, []),
    ("boolean_mask", "contrib.boolean_mask",
     [u(4, 3), np.array([1, 0, 1, 1], dtype="float32")], {}, [0]),
    # 1.9.1 supports only axis=0 (ours takes any axis; checked against NumPy).
    ("arange_like", "contrib.arange_like", [u(2, 3, 4)],
     {"start": 1.5, "step": 0.5, "repeat": 2, "axis": -1}, []),
]


def resolve(path):
    fn = mx.nd
    for part in path.split("."):
        fn = getattr(fn, part)
    return fn


def generate(out_dir):
    data = {}
    for name, op, inputs, kwargs, diff in CASES:
        nd_in, outs, heads = refgen.forward_backward(resolve(op), inputs, kwargs, rng, diff)
        data[name + "/op"] = np.array(op)
        data[name + "/kwargs"] = np.array(json.dumps(kwargs))
        for i, x in enumerate(inputs):
            data["%s/in%d" % (name, i)] = x
        for j, (o, h) in enumerate(zip(outs, heads)):
            data["%s/out%d" % (name, j)] = o.asnumpy()
            data["%s/head%d" % (name, j)] = h
        for i in diff:
            data["%s/grad%d" % (name, i)] = nd_in[i].grad.asnumpy()
    refgen.save_npz(out_dir, "more_ops.npz", data)


if __name__ == "__main__":
    refgen.main(generate)
