"""Op table: miscellaneous contrib operators (src/operator/contrib/{group_adagrad,fft,
count_sketch,hawkes_ll,dgl_graph}.cc). The NumPy references are written from the operators'
definitions; test_contrib_misc_ops.py reuses them and compares with real MXNet 1.9.1."""
import numpy as np

from . import FLOATS, OpEntry, Sample


# ---- group AdaGrad ---------------------------------------------------------------------------

def group_adagrad_ref(weight, grad, history, lr, rescale_grad=1.0, clip_gradient=-1.0,
                      epsilon=1e-5, rows=None):
    """One step; returns (new weight, new history). `rows` limits the update to those rows
    (a row_sparse gradient's lazy update)."""
    w = weight.astype(np.float64).copy()
    h = history.astype(np.float64).copy().reshape(w.shape[0])
    g = rescale_grad * grad.astype(np.float64)
    if clip_gradient >= 0:
        g = np.clip(g, -clip_gradient, clip_gradient)
    for r in (range(w.shape[0]) if rows is None else rows):
        h[r] += np.mean(g[r] ** 2)
        w[r] -= lr * g[r] / np.sqrt(h[r] + epsilon)
    return w, h.reshape(history.shape)


def _group_adagrad_new_weight(weight, grad, history, **kw):
    return group_adagrad_ref(weight, grad, history, **kw)[0].astype(weight.dtype)


def _adagrad_arrays(shape):
    def make(rng, dtype):
        return [rng.uniform(-2, 2, shape).astype(dtype), rng.uniform(-2, 2, shape).astype(dtype),
                rng.uniform(0, 1, (shape[0], 1)).astype(dtype)]
    return make


# ---- FFT -------------------------------------------------------------------------------------

def fft_ref(data, compute_size=128):
    f = np.fft.fft(data.astype(np.float64), axis=-1)
    return np.stack([f.real, f.imag], axis=-1).reshape(data.shape[:-1] + (2 * data.shape[-1],))


def ifft_ref(data, compute_size=128):
    d = data.astype(np.float64)
    z = d[..., 0::2] + 1j * d[..., 1::2]
    return (np.fft.ifft(z, axis=-1) * z.shape[-1]).real  # unnormalised, as cuFFT


# ---- count sketch ----------------------------------------------------------------------------

def count_sketch_ref(data, h, s, out_dim, processing_batch_size=32):
    flat = data.astype(np.float64).reshape(-1, data.shape[-1])
    out = np.zeros((flat.shape[0], out_dim))
    for j in range(flat.shape[1]):
        out[:, int(h.flat[j])] += s.flat[j] * flat[:, j]
    return out.reshape(data.shape[:-1] + (out_dim,))


def _sketch_arrays(shape, out_dim):
    def make(rng, dtype):
        d = shape[-1]
        return [rng.uniform(-2, 2, shape).astype(dtype),
                rng.randint(0, out_dim, (1, d)).astype(dtype),
                rng.choice([-1.0, 1.0], (1, d)).astype(dtype)]
    return make


# ---- Hawkes log likelihood -------------------------------------------------------------------

def hawkesll_ref(lda, alpha, beta, state, lags, marks, valid_length, max_time):
    """Direct sums (no recursion): intensity at each event from all earlier events and the
    initial state, compensator integrated in closed form per event."""
    lda, alpha, beta, state, lags, max_time = [np.asarray(a, np.float64) for a in (
        lda, alpha, beta, state, lags, max_time)]
    n, k = lda.shape
    ll = np.zeros(n)
    out_state = np.zeros((n, k))
    for i in range(n):
        m = int(valid_length[i])
        times = np.cumsum(lags[i, :m])
        ys = marks[i, :m].astype(np.int64)
        big_t = max_time[i]
        for j in range(m):
            y, t = ys[j], times[j]
            earlier = [t - times[q] for q in range(j) if ys[q] == y]
            mem = state[i, y] * np.exp(-beta[y] * t) + sum(np.exp(-beta[y] * dt) for dt in earlier)
            ll[i] += np.log(lda[i, y] + alpha[y] * beta[y] * mem)
        for y in range(k):
            own = times[ys == y]
            integral = lda[i, y] * big_t + alpha[y] * (
                state[i, y] * (1 - np.exp(-beta[y] * big_t)) +
                np.sum(1 - np.exp(-beta[y] * (big_t - own))))
            ll[i] -= integral
            out_state[i, y] = state[i, y] * np.exp(-beta[y] * big_t) + \
                np.sum(np.exp(-beta[y] * (big_t - own)))
    return ll, out_state


def hawkes_arrays(n=3, t=5, k=2, seed=None):
    """lda, alpha, beta, state random; lags, valid_length and max_time integer-valued (data,
    not differentiated by the generic gradient test); marks int32."""
    def make(rng, dtype):
        rng = rng if seed is None else np.random.RandomState(seed)
        lags = rng.randint(1, 3, (n, t)).astype(dtype)
        valid = np.array([(i * 2 + 1) % (t + 1) for i in range(n)], dtype=dtype)
        valid[-1] = t
        return [rng.uniform(0.5, 2.0, (n, k)).astype(dtype),
                rng.uniform(0.1, 0.9, k).astype(dtype),
                rng.uniform(0.2, 1.5, k).astype(dtype),
                rng.uniform(0.0, 1.0, (n, k)).astype(dtype),
                lags,
                rng.randint(0, k, (n, t)).astype(np.int32),
                valid,
                (lags.sum(axis=1) + 2).astype(dtype)]
    return make


ENTRIES = [
    OpEntry("contrib.group_adagrad_update", ref=_group_adagrad_new_weight, dtypes=FLOATS,
            grad=False, rtol=1e-5, atol=1e-6,
            samples=[Sample(kwargs={"lr": 0.1}, arrays=_adagrad_arrays((4, 3))),
                     Sample(kwargs={"lr": 0.5, "rescale_grad": 2.0, "clip_gradient": 1.5,
                                    "epsilon": 0.1}, arrays=_adagrad_arrays((3, 2, 4)))]),
    OpEntry("contrib.fft", ref=fft_ref, dtypes=FLOATS, rtol=1e-4, atol=1e-4,
            samples=[Sample([(3, 4)]), Sample([(2, 5)]),
                     Sample([(2, 1, 3, 8)], {"compute_size": 2})]),
    OpEntry("contrib.ifft", ref=ifft_ref, dtypes=FLOATS, rtol=1e-4, atol=1e-4,
            samples=[Sample([(3, 8)]), Sample([(2, 6)]),
                     Sample([(2, 1, 3, 4)], {"compute_size": 1})]),
    OpEntry("contrib.count_sketch", ref=count_sketch_ref, dtypes=FLOATS,
            samples=[Sample(kwargs={"out_dim": 5}, arrays=_sketch_arrays((4, 7), 5)),
                     Sample(kwargs={"out_dim": 3, "processing_batch_size": 2},
                            arrays=_sketch_arrays((2, 1, 3, 6), 3))]),
    OpEntry("contrib.hawkesll", ref=hawkesll_ref, dtypes=FLOATS, rtol=1e-4, atol=1e-5,
            samples=[Sample(arrays=hawkes_arrays()), Sample(arrays=hawkes_arrays(2, 4, 3))]),
]

_CSR = ("needs CSR graph inputs (the generic table draws dense arrays); covered by "
        "test_contrib_misc_ops.py against NumPy and MXNet 1.9.1")
EXEMPT = {
    "_contrib_backward_hawkesll": "backward of _contrib_hawkesll, exercised by its gradient "
                                  "tests (finite differences and MXNet 1.9.1)",
    "_contrib_dgl_csr_neighbor_uniform_sample": _CSR,
    "_contrib_dgl_csr_neighbor_non_uniform_sample": _CSR,
    "_contrib_dgl_subgraph": _CSR,
    "_contrib_dgl_graph_compact": _CSR,
    "_contrib_dgl_adjacency": _CSR,
    "_contrib_edge_id": _CSR,
    "_contrib_getnnz": _CSR,
}
