"""Generic forward tests driven by the operator table (optable/)."""
import numpy as np
import pytest

import mxnet as mx

from optable import all_entries, draw_inputs

ENTRIES = all_entries()


def _resolve(path):
    obj = mx.nd
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _tolerance(entry, dtype):
    if dtype == "float16":
        return max(entry.rtol, 1e-2), max(entry.atol, 1e-2)
    if dtype == "float32":
        return max(entry.rtol, 1e-5), max(entry.atol, 1e-6)
    return entry.rtol, entry.atol


def _cases():
    for entry in ENTRIES:
        for dtype in entry.dtypes:
            for i, sample in enumerate(entry.samples):
                yield pytest.param(entry, dtype, sample, id="%s-%s-%d" % (entry.name, dtype, i))


def _resolve_sym(path):
    obj = mx.sym
    for part in path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def _sym_cases():
    for entry in ENTRIES:
        if entry.check is not None or entry.ref is None:
            continue        # random samplers: outputs are checked statistically, not equal
        dtype = "float32" if "float32" in entry.dtypes else entry.dtypes[0]
        for i, sample in enumerate(entry.samples):
            yield pytest.param(entry, dtype, sample, id="%s-%s-%d" % (entry.name, dtype, i))


@pytest.mark.parametrize("entry,dtype,sample", list(_sym_cases()))
def test_symbolic_forward_matches_imperative(entry, dtype, sample):
    """The same op through mx.sym + an executor gives what mx.nd gives."""
    sym_fn = _resolve_sym(entry.name)
    if sym_fn is None:
        pytest.skip("%s has no mx.sym counterpart (Python-level helper)" % entry.name)
    rng = np.random.RandomState(0)
    inputs = draw_inputs(entry, sample, dtype, rng)
    nd_in = [mx.nd.array(x, dtype=x.dtype) for x in inputs]
    nd_out = _resolve(entry.name)(*[a.copy() for a in nd_in], **sample.kwargs)
    nd_out = nd_out if isinstance(nd_out, (list, tuple)) else [nd_out]
    variables = [mx.sym.var("in%d" % i) for i in range(len(inputs))]
    net = sym_fn(*variables, **sample.kwargs)
    feed = {"in%d" % i: a.copy() for i, a in enumerate(nd_in)}
    args = {k: v for k, v in feed.items() if k in net.list_arguments()}
    aux = {k: v for k, v in feed.items() if k in net.list_auxiliary_states()}
    ex = net.bind(mx.cpu(), args, grad_req="null", aux_states=aux)
    sym_out = ex.forward(is_train=False)
    assert len(sym_out) == len(nd_out), "%s: %d symbolic outputs, %d imperative" % (
        entry.name, len(sym_out), len(nd_out))
    for s, n in zip(sym_out, nd_out):
        assert s.shape == n.shape and s.dtype == n.dtype
        np.testing.assert_array_equal(s.asnumpy(), n.asnumpy(),
                                      err_msg="%s kwargs=%s" % (entry.name, sample.kwargs))


@pytest.mark.parametrize("entry,dtype,sample", list(_cases()))
def test_forward_matches_numpy(entry, dtype, sample):
    rng = np.random.RandomState(0)
    inputs = draw_inputs(entry, sample, dtype, rng)
    fn = _resolve(entry.name)
    outs = fn(*[mx.nd.array(x, dtype=x.dtype) for x in inputs], **sample.kwargs)
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    got = [o.asnumpy() for o in outs]
    if entry.check is not None:
        entry.check(got, inputs, sample.kwargs, dtype)
        return
    expected = entry.ref(*inputs, **sample.kwargs)
    expected = list(expected) if isinstance(expected, (list, tuple)) else [expected]
    assert len(got) == len(expected), "%s: %d outputs, reference has %d" % (
        entry.name, len(got), len(expected))
    rtol, atol = _tolerance(entry, dtype)
    for g, e in zip(got, expected):
        e = np.asarray(e)
        assert g.shape == e.shape, "%s: shape %s, reference %s" % (entry.name, g.shape, e.shape)
        np.testing.assert_allclose(g.astype("float64"), e.astype("float64"), rtol=rtol, atol=atol,
                                   err_msg="%s dtype=%s kwargs=%s" % (entry.name, dtype, sample.kwargs))

