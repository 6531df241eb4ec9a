"""Gluon RNN test cases, runnable under this checkout and under the real MXNet 1.9.1.

`run_case(mx, case, arrays)` builds the model named by the case, loads its parameters (and
input/begin states) from `arrays`, runs forward and backward of a fixed loss under autograd
and returns every output, state and gradient as NumPy arrays. The test module runs it
in-process with our package and, as a script (`python gluon_rnn_cases.py cases.json in.npz
out.npz`), under the 1.9.1 reference interpreter.
"""
import json
import sys

import numpy as np

BATCH, LENGTH, FEATURES, HIDDEN = 3, 4, 5, 6

# kind: "cell" -> unroll(...); "layer" -> layer(x[, states]). forward_only: no gradients.
CASES = {
    "rnn_tanh_ntc_merged": dict(kind="cell", build="rnn.RNNCell(6, activation='tanh')",
                                layout="NTC", merge=True),
    "rnn_relu_tnc_list": dict(kind="cell", build="rnn.RNNCell(6, activation='relu')",
                              layout="TNC", merge=False),
    "lstm_ntc": dict(kind="cell", build="rnn.LSTMCell(6)", layout="NTC", merge=True),
    "lstm_tnc_states": dict(kind="cell", build="rnn.LSTMCell(6, input_size=5)", layout="TNC",
                            merge=True, given_states=True),
    "lstm_valid_length": dict(kind="cell", build="rnn.LSTMCell(6)", layout="NTC", merge=True,
                              valid_length=[2, 4, 1]),
    "gru_ntc": dict(kind="cell", build="rnn.GRUCell(6)", layout="NTC", merge=True),
    "gru_list_states": dict(kind="cell", build="rnn.GRUCell(6)", layout="NTC", merge=False,
                            given_states=True),
    "sequential": dict(kind="cell", build="seq(rnn.SequentialRNNCell(), [rnn.LSTMCell(6), "
                                          "rnn.GRUCell(4), rnn.RNNCell(3)])",
                       layout="NTC", merge=True, given_states=True),
    "hybrid_sequential_valid": dict(kind="cell",
                                    build="seq(rnn.HybridSequentialRNNCell(), "
                                          "[rnn.GRUCell(6), rnn.LSTMCell(6)])",
                                    layout="TNC", merge=True, valid_length=[4, 3, 2]),
    "residual": dict(kind="cell", build="rnn.ResidualCell(rnn.GRUCell(5))", layout="NTC",
                     merge=True),
    "residual_valid_list": dict(kind="cell", build="rnn.ResidualCell(rnn.LSTMCell(5))",
                                layout="NTC", merge=False, valid_length=[1, 4, 3]),
    "bidirectional": dict(kind="cell", build="rnn.BidirectionalCell(rnn.LSTMCell(6, "
                                             "prefix='l_'), rnn.GRUCell(4, prefix='r_'))",
                          layout="NTC", merge=True),
    "bidirectional_valid": dict(kind="cell", build="rnn.BidirectionalCell(rnn.GRUCell(6, "
                                                   "prefix='l_'), rnn.GRUCell(6, prefix='r_'))",
                                layout="TNC", merge=False, valid_length=[3, 1, 4]),
    "zoneout_dropout_zero": dict(kind="cell",
                                 build="seq(rnn.SequentialRNNCell(), [rnn.ZoneoutCell("
                                       "rnn.LSTMCell(6), 0.0, 0.0), rnn.DropoutCell(0.0)])",
                                 layout="NTC", merge=True),
    "contrib_lstmp_cell": dict(kind="cell", build="crnn.LSTMPCell(6, 3)", layout="NTC",
                               merge=True, given_states=True),
    "contrib_vardrop_predict": dict(kind="cell", build="crnn.VariationalDropoutCell("
                                                      "rnn.LSTMCell(6), 0.3, 0.3, 0.3)",
                                    layout="TNC", merge=True, valid_length=[2, 4, 3],
                                    train=False),
    "contrib_vardrop_no_state_drop": dict(kind="cell", build="crnn.VariationalDropoutCell("
                                                            "rnn.GRUCell(6), 0.3, 0, 0.3)",
                                          layout="NTC", merge=False, train=False),
    "layer_rnn_relu": dict(kind="layer", build="rnn.RNN(6)", layout="TNC"),
    "layer_rnn_tanh_2l": dict(kind="layer", build="rnn.RNN(6, num_layers=2, "
                                                  "activation='tanh', layout='NTC')",
                              layout="NTC", given_states=True),
    "layer_lstm": dict(kind="layer", build="rnn.LSTM(6, input_size=5)", layout="TNC"),
    "layer_lstm_2l_bi_states": dict(kind="layer", build="rnn.LSTM(6, num_layers=2, "
                                                        "bidirectional=True)",
                                    layout="TNC", given_states=True),
    "layer_gru_ntc_bi": dict(kind="layer", build="rnn.GRU(6, bidirectional=True, "
                                                 "layout='NTC')", layout="NTC"),
    "layer_gru_3l_states": dict(kind="layer", build="rnn.GRU(4, num_layers=3)", layout="TNC",
                                given_states=True),
    "layer_lstmp_2l_bi_states": dict(kind="layer", build="rnn.LSTM(6, num_layers=2, "
                                                         "bidirectional=True, "
                                                         "projection_size=4)",
                                     layout="TNC", given_states=True, forward_only=True),
    "layer_lstmp_ntc": dict(kind="layer", build="rnn.LSTM(6, projection_size=3, "
                                                "layout='NTC')", layout="NTC",
                            forward_only=True),
    "layer_lstm_dropout_predict": dict(kind="layer", build="rnn.LSTM(6, num_layers=2, "
                                                           "dropout=0.5)",
                                       layout="TNC", train=False),
}


def _build(mx, case):
    from mxnet.gluon import rnn
    from mxnet.gluon.contrib import rnn as crnn

    def seq(container, cells):
        for cell in cells:
            container.add(cell)
        return container

    with mx.name.NameManager():
        namespace = {"rnn": rnn, "crnn": crnn, "seq": seq, "mx": mx}
        return eval(case["build"], namespace)  # pylint: disable=eval-used


def _input_shape(case):
    if case["layout"] == "NTC":
        return (BATCH, LENGTH, FEATURES)
    return (LENGTH, BATCH, FEATURES)


def _forward(mx, model, case, x, states, valid_length):
    if case["kind"] == "cell":
        out, new_states = model.unroll(LENGTH, x, begin_state=states, layout=case["layout"],
                                       merge_outputs=case.get("merge"),
                                       valid_length=valid_length)
        if isinstance(out, (list, tuple)):
            out = mx.nd.stack(*out, axis=case["layout"].find("T"))
        return [out] + list(new_states)
    if states is None:
        return [model(x)]
    out, new_states = model(x, states)
    return [out] + list(new_states)


def _state_shapes(model, case):
    return [tuple(info["shape"]) for info in model.state_info(BATCH)]


def _unroll_input(mx, case, x):
    """Cells given merge=False get a list of per-step arrays, like users pass them."""
    if case["kind"] == "cell" and case.get("merge") is False:
        axis = case["layout"].find("T")
        return [x.take(mx.nd.array([t]), axis=axis).reshape((BATCH, FEATURES))
                for t in range(LENGTH)]
    return x


def run_case(mx, case, arrays, hybridize=False):
    """Returns {name: np.ndarray}: out<i> (outputs then states), grad:<param>, grad_x."""
    from mxnet import autograd
    model = _build(mx, case)
    model.initialize()
    if hybridize:
        model.hybridize()
    x = mx.nd.array(arrays["x"])
    states = None
    if case.get("given_states"):
        states = [mx.nd.array(arrays["state%d" % i])
                  for i in range(len(_state_shapes(model, case)))]
    valid_length = (mx.nd.array(case["valid_length"]) if case.get("valid_length") is not None
                    else None)
    # Finish deferred initialisation, then load the shared parameters.
    with autograd.predict_mode():
        _forward(mx, model, case, _unroll_input(mx, case, x), states, valid_length)
    params = model.collect_params()
    for name, param in params.items():
        if "param:" + name in arrays:
            param.set_data(mx.nd.array(arrays["param:" + name]))
    if case.get("forward_only"):
        # MXNet 1.9.1's CPU kernel has no backward for LSTM projections: compare inference.
        with autograd.predict_mode():
            outs = _forward(mx, model, case, _unroll_input(mx, case, x), states, valid_length)
        result = {"out%d" % i: o.asnumpy() for i, o in enumerate(outs)}
        result["names"] = np.array(list(params.keys()))
        return result
    x.attach_grad()
    with autograd.record(train_mode=case.get("train", True)):
        outs = _forward(mx, model, case, _unroll_input(mx, case, x), states, valid_length)
        loss = None
        for i, out in enumerate(outs):
            weights = mx.nd.array(arrays["w%d" % i]) if "w%d" % i in arrays else 1
            term = (out * out * 0.5 + out * weights).sum()
            loss = term if loss is None else loss + term
    loss.backward()
    result = {"out%d" % i: o.asnumpy() for i, o in enumerate(outs)}
    result["grad_x"] = x.grad.asnumpy()
    for name, param in params.items():
        if param.grad_req != "null":
            result["grad:" + name] = param.grad().asnumpy()
    result["names"] = np.array(list(params.keys()))
    return result


def make_arrays(mx, case, seed):
    """Draws input, begin states, loss weights and parameters with NumPy for `case` (shapes
    come from a model built with our package)."""
    rng = np.random.RandomState(seed)
    model = _build(mx, case)
    model.initialize()
    arrays = {"x": rng.uniform(-1, 1, _input_shape(case)).astype(np.float32)}
    states = None
    if case.get("given_states"):
        states = []
        for i, shape in enumerate(_state_shapes(model, case)):
            arrays["state%d" % i] = rng.uniform(-1, 1, shape).astype(np.float32)
            states.append(mx.nd.array(arrays["state%d" % i]))
    valid_length = (mx.nd.array(case["valid_length"]) if case.get("valid_length") is not None
                    else None)
    from mxnet import autograd
    with autograd.predict_mode():
        outs = _forward(mx, model, case, _unroll_input(mx, case, mx.nd.array(arrays["x"])),
                        states, valid_length)
    for i, out in enumerate(outs):
        arrays["w%d" % i] = rng.uniform(-1, 1, out.shape).astype(np.float32)
    for name, param in model.collect_params().items():
        arrays["param:" + name] = rng.uniform(-0.5, 0.5, param.shape).astype(np.float32)
    return arrays


def main(argv):
    import mxnet as mx
    cases = json.load(open(argv[1]))
    inputs = np.load(argv[2])
    results = {}
    for key, case in cases.items():
        arrays = {k[len(key) + 1:]: inputs[k] for k in inputs.files if k.startswith(key + "/")}
        for name, value in run_case(mx, case, arrays).items():
            results[key + "/" + name] = value
    np.savez(argv[3], **results)


if __name__ == "__main__":
    main(sys.argv)
