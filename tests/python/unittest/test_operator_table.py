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


# ---- gradients: autograd vs central finite differences ----------------------------------------

# Per input at most this many coordinates are perturbed one at a time (plus one random direction
# over all coordinates), so large samples stay cheap.
_MAX_COORDS = 24


def _grad_cases():
    for entry in ENTRIES:
        if not entry.grad:
            continue
        for i, sample in enumerate(entry.samples):
            yield pytest.param(entry, sample, id="%s-%d" % (entry.name, i))


def _differentiable_inputs(inputs):
    """Float inputs that are not integer-valued (integer-valued float inputs are indices/labels
    drawn by the sample builders; perturbing them is meaningless)."""
    return [i for i, x in enumerate(inputs)
            if x.dtype.kind == "f" and x.size > 0 and not np.all(x == np.round(x))]


def _softmax_output_loss(x, label, multi_output=False, preserve_shape=False, grad_scale=1.0,
                         **_):
    # The loss whose gradient SoftmaxOutput's backward returns: cross-entropy of the softmax.
    if preserve_shape:
        axis = x.ndim - 1
    elif multi_output:
        axis = 1
    else:
        x = x.reshape(x.shape[0], -1)
        axis = 1
    z = x - x.max(axis=axis, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=axis, keepdims=True))
    picked = np.take_along_axis(logp, np.expand_dims(label.astype(np.int64), axis), axis)
    return -float(np.sum(picked)) * grad_scale


def _svm_loss(x, label, margin=1.0, regularization_coefficient=1.0, use_linear=False):
    # One-vs-rest hinge: the true class should be >= margin, the others <= -margin.
    x = x.reshape(x.shape[0], -1)
    sign = -np.ones_like(x)
    sign[np.arange(x.shape[0]), label.astype(np.int64)] = 1
    hinge = np.maximum(0.0, margin - sign * x)
    return regularization_coefficient * float(np.sum(hinge if use_linear else hinge ** 2))


def _regression_scale(label, grad_scale):
    return grad_scale / (label.size // label.shape[0])


# Loss heads ignore the incoming head gradient: their backward is the gradient of an implied
# loss of the data input (label gradients are zero by definition), checked against that loss.
_IMPLIED_LOSS = {
    "SoftmaxOutput": _softmax_output_loss,
    "LinearRegressionOutput": lambda x, label, grad_scale=1.0, **_: _regression_scale(
        label, grad_scale) * 0.5 * float(np.sum((x - label.reshape(x.shape)) ** 2)),
    "MAERegressionOutput": lambda x, label, grad_scale=1.0, **_: _regression_scale(
        label, grad_scale) * float(np.sum(np.abs(x - label.reshape(x.shape)))),
    "LogisticRegressionOutput": lambda x, label, grad_scale=1.0, **_: _regression_scale(
        label, grad_scale) * float(np.sum(np.logaddexp(0, x) - label.reshape(x.shape) * x)),
    "SVMOutput": lambda x, label, **kw: _svm_loss(x, label, **kw),
}


# Ops whose extra visible outputs (saved mean/std) carry no gradient in MXNet: their backward
# reads only the first output's head gradient.
_FIRST_OUTPUT_GRAD_ONLY = {"LayerNorm", "BatchNorm", "GroupNorm", "contrib.BatchNormWithReLU",
                           "contrib.SyncBatchNorm"}
# Auxiliary states (FMutateInputs): updated in place, never differentiated.
_AUX_INPUTS = {"BatchNorm": (3, 4), "IdentityAttachKLSparseReg": (1,),
               "contrib.BatchNormWithReLU": (3, 4), "contrib.SyncBatchNorm": (3, 4)}


def _weighted_sum(fn, arrays, kwargs, heads):
    # Same mode as autograd.record() (training): BatchNorm uses batch statistics.
    with mx.autograd.train_mode():
        outs = fn(*[mx.nd.array(a, dtype=a.dtype) for a in arrays], **kwargs)
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    total = 0.0
    for o, h in zip(outs, heads):
        if h is not None:
            total += float(np.sum(o.asnumpy().astype(np.float64) * h))
    return total


@pytest.mark.parametrize("entry,sample", list(_grad_cases()))
def test_autograd_gradient_matches_finite_differences(entry, sample):
    dtype = "float64" if "float64" in entry.dtypes else "float32"
    if dtype == "float64":
        eps, rtol, atol = 1e-5, 1e-4, 1e-6
    else:
        eps, rtol, atol = 1e-2, 2e-2, 2e-3
    rng = np.random.RandomState(0)
    inputs = draw_inputs(entry, sample, dtype, rng)
    diff = [i for i in _differentiable_inputs(inputs)
            if i not in _AUX_INPUTS.get(entry.name, ())]
    implied_loss = _IMPLIED_LOSS.get(entry.name)
    if implied_loss is not None:
        diff = [0]
    if not diff:
        pytest.skip("no float input to differentiate")
    fn = _resolve(entry.name)
    nd_inputs = [mx.nd.array(x, dtype=x.dtype) for x in inputs]
    for i in diff:
        nd_inputs[i].attach_grad()
    with mx.autograd.record():
        outs = fn(*nd_inputs, **sample.kwargs)
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    # Random head gradients for float outputs; integer outputs (indices) carry none.
    heads = [rng.uniform(-1, 1, size=o.shape) if np.dtype(o.dtype).kind == "f" else None
             for o in outs]
    if entry.name in _FIRST_OUTPUT_GRAD_ONLY:
        heads[1:] = [None] * (len(heads) - 1)
    # (mx.np.array keeps 0-d heads 0-d; mx.nd.array would make them shape (1,))
    mx.autograd.backward(outs, head_grads=[
        mx.np.array(h if h is not None else np.zeros(o.shape), dtype=o.dtype).as_nd_ndarray()
        for o, h in zip(outs, heads)])
    def objective(arrays):
        if implied_loss is not None:
            return implied_loss(*[a.astype(np.float64) for a in arrays], **sample.kwargs)
        return _weighted_sum(fn, arrays, sample.kwargs, heads)

    for i in diff:
        got = nd_inputs[i].grad.asnumpy().astype(np.float64)
        assert got.shape == inputs[i].shape
        x = inputs[i]
        coords = rng.permutation(x.size)[:_MAX_COORDS]
        for flat in coords:
            idx = np.unravel_index(flat, x.shape)
            plus = [a.copy() for a in inputs]
            minus = [a.copy() for a in inputs]
            plus[i][idx] += eps
            minus[i][idx] -= eps
            num = (objective(plus) - objective(minus)) / (2 * eps)
            assert abs(got[idx] - num) <= atol + rtol * abs(num), (
                "%s input %d at %s: autograd %r, finite difference %r (kwargs=%s)" % (
                    entry.name, i, idx, got[idx], num, sample.kwargs))
        # One random direction over all coordinates (a smaller step in float64: with many
        # coordinates some max/min/abs argument is likely within a step of a kink).
        direction = rng.uniform(-1, 1, size=x.shape)
        step = eps * 1e-2 if dtype == "float64" else eps
        plus = [a.copy() for a in inputs]
        minus = [a.copy() for a in inputs]
        plus[i] = (plus[i] + step * direction).astype(x.dtype)
        minus[i] = (minus[i] - step * direction).astype(x.dtype)
        num = (objective(plus) - objective(minus)) / (2 * step)
        analytic = float(np.sum(got * direction))
        assert abs(analytic - num) <= atol * x.size ** 0.5 + rtol * abs(num), (
            "%s input %d along a random direction: autograd %r, finite difference %r" % (
                entry.name, i, analytic, num))


# ---- gradients: graph executor vs autograd ---------------------------------------------------

@pytest.mark.parametrize("entry,sample", list(_grad_cases()))
def test_executor_gradient_matches_autograd(entry, sample):
    """backward through a bound symbol gives the gradients autograd gives (same head grads)."""
    sym_fn = _resolve_sym(entry.name)
    if sym_fn is None:
        pytest.skip("%s has no mx.sym counterpart (Python-level helper)" % entry.name)
    dtype = "float64" if "float64" in entry.dtypes else "float32"
    rng = np.random.RandomState(0)
    inputs = draw_inputs(entry, sample, dtype, rng)
    diff = [i for i in _differentiable_inputs(inputs)
            if i not in _AUX_INPUTS.get(entry.name, ())]
    if entry.name in _IMPLIED_LOSS:
        diff = [0]
    if not diff:
        pytest.skip("no float input to differentiate")
    # autograd
    nd_in = [mx.nd.array(x, dtype=x.dtype) for x in inputs]
    for i in diff:
        nd_in[i].attach_grad()
    with mx.autograd.record():
        outs = _resolve(entry.name)(*nd_in, **sample.kwargs)
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    heads = [mx.np.array(rng.uniform(-1, 1, size=o.shape) if np.dtype(o.dtype).kind == "f"
                         else np.zeros(o.shape), dtype=o.dtype).as_nd_ndarray() for o in outs]
    mx.autograd.backward(outs, head_grads=heads)
    # executor
    variables = [mx.sym.var("in%d" % i) for i in range(len(inputs))]
    net = sym_fn(*variables, **sample.kwargs)
    names = net.list_arguments()
    args = {"in%d" % i: mx.nd.array(x, dtype=x.dtype) for i, x in enumerate(inputs)
            if "in%d" % i in names}
    grads = {"in%d" % i: mx.nd.zeros(inputs[i].shape, dtype=inputs[i].dtype)
             for i in diff if "in%d" % i in names}
    req = {n: ("write" if n in grads else "null") for n in names}
    aux_names = net.list_auxiliary_states()
    aux = {"in%d" % i: mx.nd.array(x, dtype=x.dtype) for i, x in enumerate(inputs)
           if "in%d" % i in aux_names}
    ex = net.bind(mx.cpu(), args, args_grad=grads, grad_req=req, aux_states=aux)
    ex.forward(is_train=True)
    ex.backward(heads)
    for i in diff:
        name = "in%d" % i
        if name not in grads:
            continue
        np.testing.assert_allclose(
            grads[name].asnumpy(), nd_in[i].grad.asnumpy(), rtol=1e-10, atol=1e-12,
            err_msg="%s input %d: executor vs autograd gradient (kwargs=%s)" % (
                entry.name, i, sample.kwargs))


# ---- in-place reuse of dropped inputs -----------------------------------------------------------

def _donation_cases():
    for entry in ENTRIES:
        if entry.check is not None or entry.ref is None or "float32" not in entry.dtypes:
            continue
        for i, sample in enumerate(entry.samples):
            yield pytest.param(entry, sample, id="%s-%d" % (entry.name, i))


@pytest.mark.parametrize("entry,sample", list(_donation_cases()))
def test_forward_is_unchanged_when_dropped_inputs_are_overwritten(entry, sample):
    """Inputs made as temporaries that are dropped before the op runs (the op is queued behind a
    GEMM) may have their memory taken over by an output (FInplaceOption): every op must give
    exactly what it gives on inputs that stay alive."""
    rng = np.random.RandomState(0)
    inputs = draw_inputs(entry, sample, "float32", rng)
    if any(x.ndim == 0 or x.size == 0 for x in inputs):
        pytest.skip("scalar or empty input")
    fn = _resolve(entry.name)
    kept = [mx.nd.array(x, dtype=x.dtype) for x in inputs]
    want = fn(*kept, **sample.kwargs)
    want = [o.asnumpy() for o in (want if isinstance(want, (list, tuple)) else [want])]
    square = mx.nd.ones((384, 384))
    zero = mx.nd.dot(square, square)[0:1, 0:1] * 0  # ready only after the GEMM

    def dropped(x):
        base = mx.nd.array(x, dtype=x.dtype)
        return mx.nd.broadcast_add(base, zero.reshape((1,) * x.ndim).astype(x.dtype))

    got = fn(*[dropped(x) for x in inputs], **sample.kwargs)
    got = [o.asnumpy() for o in (got if isinstance(got, (list, tuple)) else [got])]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w, err_msg="%s kwargs=%s" % (entry.name, sample.kwargs))
