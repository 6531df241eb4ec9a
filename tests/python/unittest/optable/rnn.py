"""Op-table entries for the fused RNN operator and _rnn_param_concat, with the NumPy
reference of the recurrences (also used by test_rnn_op.py)."""
import numpy as np

from . import FLOATS, OpEntry, Sample

GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}


def param_size(mode, num_layers, bidirectional, input_size, hidden):
    g, d = GATES[mode], 2 if bidirectional else 1
    size = 0
    for layer in range(num_layers):
        ni = input_size if layer == 0 else d * hidden
        size += d * (g * hidden * ni + g * hidden * hidden + 2 * g * hidden)
    return size


def unpack(flat, mode, num_layers, bidirectional, input_size, hidden):
    """{(layer, dir): (Wi, Wh, bi, bh)} from 1.9.1's packing: all weights, then all biases."""
    g, d = GATES[mode], 2 if bidirectional else 1
    gh = g * hidden
    out, off = {}, 0
    for layer in range(num_layers):
        ni = input_size if layer == 0 else d * hidden
        for di in range(d):
            wi = flat[off:off + gh * ni].reshape(gh, ni)
            off += gh * ni
            wh = flat[off:off + gh * hidden].reshape(gh, hidden)
            off += gh * hidden
            out[layer, di] = [wi, wh]
    for layer in range(num_layers):
        for di in range(d):
            out[layer, di] += [flat[off:off + gh], flat[off + gh:off + 2 * gh]]
            off += 2 * gh
    assert off == flat.size
    return out


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def numpy_rnn(x, flat, h0, c0, mode, num_layers, bidirectional, hidden, clip=None, lengths=None):
    """Returns (out, hy, cy) in float64. clip = (lo, hi) for the LSTM cell state."""
    T, N, _ = x.shape
    d = 2 if bidirectional else 1
    w = unpack(flat.astype(np.float64), mode, num_layers, bidirectional, x.shape[2], hidden)
    lengths = np.full(N, T) if lengths is None else np.asarray(lengths).astype(int)
    layer_in = x.astype(np.float64)
    hy = np.zeros((num_layers * d, N, hidden))
    cy = np.zeros((num_layers * d, N, hidden))
    for layer in range(num_layers):
        outs = np.zeros((T, N, d * hidden))
        for di in range(d):
            wi, wh, bi, bh = w[layer, di]
            slot = layer * d + di
            for b in range(N):
                h = h0[slot, b].astype(np.float64)
                c = c0[slot, b].astype(np.float64) if c0 is not None else None
                steps = range(lengths[b]) if di == 0 else reversed(range(lengths[b]))
                for t in steps:
                    xi = wi @ layer_in[t, b] + bi
                    hh = wh @ h + bh
                    H = hidden
                    if mode == "rnn_relu":
                        h = np.maximum(xi + hh, 0)
                    elif mode == "rnn_tanh":
                        h = np.tanh(xi + hh)
                    elif mode == "lstm":
                        i, f = sigmoid(xi[:H] + hh[:H]), sigmoid(xi[H:2 * H] + hh[H:2 * H])
                        gg = np.tanh(xi[2 * H:3 * H] + hh[2 * H:3 * H])
                        o = sigmoid(xi[3 * H:] + hh[3 * H:])
                        c = f * c + i * gg
                        if clip is not None:
                            c = np.clip(c, clip[0], clip[1])
                        h = o * np.tanh(c)
                    else:
                        r, z = sigmoid(xi[:H] + hh[:H]), sigmoid(xi[H:2 * H] + hh[H:2 * H])
                        n = np.tanh(xi[2 * H:] + r * hh[2 * H:])
                        h = (1 - z) * n + z * h
                    outs[t, b, di * hidden:(di + 1) * hidden] = h
                hy[slot, b] = h
                if c is not None:
                    cy[slot, b] = c
        layer_in = outs
    return layer_in, hy, cy



def _rnn_ref(data, parameters, state, state_cell=None, *, state_size, num_layers, mode,
             bidirectional=False, state_outputs=False, lstm_state_clip_min=None,
             lstm_state_clip_max=None, p=0.0):
    clip = None
    if lstm_state_clip_min is not None:
        clip = (lstm_state_clip_min, lstm_state_clip_max)
    out, hy, cy = numpy_rnn(data, parameters, state, state_cell, mode, num_layers,
                            bidirectional, state_size, clip=clip)
    if not state_outputs:
        return out
    return (out, hy, cy) if mode == "lstm" else (out, hy)


def _rnn_inputs(T, N, I, H, mode, num_layers, bidirectional):
    d = 2 if bidirectional else 1

    def make(rng, dtype):
        arrays = [rng.uniform(-1, 1, (T, N, I)),
                  rng.uniform(-0.6, 0.6, param_size(mode, num_layers, bidirectional, I, H)),
                  rng.uniform(-0.5, 0.5, (num_layers * d, N, H))]
        if mode == "lstm":
            arrays.append(rng.uniform(-0.5, 0.5, (num_layers * d, N, H)))
        return [a.astype(dtype) for a in arrays]
    return make


def _rnn_sample(mode, num_layers=1, bidirectional=False, T=3, N=2, I=3, H=3, **kwargs):
    kwargs.update(state_size=H, num_layers=num_layers, mode=mode, bidirectional=bidirectional)
    return Sample(kwargs=kwargs, arrays=_rnn_inputs(T, N, I, H, mode, num_layers, bidirectional))


def _param_concat_ref(*arrays, dim, num_args):
    return np.concatenate(arrays, axis=dim)


ENTRIES = [
    OpEntry("RNN", ref=_rnn_ref, dtypes=FLOATS, rtol=1e-4, atol=1e-5, samples=[
        _rnn_sample("rnn_relu", 2, True, state_outputs=True),
        _rnn_sample("rnn_tanh"),
        _rnn_sample("lstm", 2, True, state_outputs=True),
        _rnn_sample("lstm", state_outputs=True, lstm_state_clip_min=-0.3,
                    lstm_state_clip_max=0.3),
        _rnn_sample("gru", 2, False, state_outputs=True),
        _rnn_sample("gru", 1, True),
    ]),
    OpEntry("_internal._rnn_param_concat", ref=_param_concat_ref, dtypes=FLOATS,
            covers=("_rnn_param_concat",), samples=[
                Sample([(6,), (4,), (3,)], kwargs={"dim": 0, "num_args": 3}),
                Sample([(2, 3), (2, 1)], kwargs={"dim": 1, "num_args": 2}),
            ]),
]
