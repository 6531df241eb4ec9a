"""mx.viz.print_summary prints the same text as MXNet 1.9.1 (reference tables recorded by
tests/python/data/mx191/gen_viz_monitor.py); plot_network needs graphviz."""
import contextlib
import io
import json
import os

import numpy as np
import pytest

import mxnet as mx

REF = os.path.join(os.path.dirname(__file__), '..', 'data', 'mx191', 'viz_summary.json')


def _refs():
    with open(REF) as f:
        return json.load(f)


def _summary(sym, shape, kwargs):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        mx.viz.print_summary(sym, shape=shape, **kwargs)
    return buf.getvalue()


@pytest.mark.parametrize('case', ['mlp', 'mlp_noshape', 'lenet', 'lenet_narrow',
                                  'lenet_absolute', 'two_inputs'])
def test_print_summary_equals_mxnet_191(case):
    ref = _refs()['print_summary'][case]
    sym = mx.sym.load_json(ref['symbol'])
    shape = {k: tuple(v) for k, v in ref['shape'].items()} if ref['shape'] else None
    assert _summary(sym, shape, ref['kwargs']) == ref['text']


def test_print_summary_param_total_matches_bound_arrays():
    # Independent check: for an MLP the table's total equals the sum of parameter sizes.
    ref = _refs()['print_summary']['mlp']
    sym = mx.sym.load_json(ref['symbol'])
    text = _summary(sym, {'data': (32, 784)}, {})
    total = int([l for l in text.splitlines() if l.startswith('Total params:')][0].split()[-1])
    arg_shapes, _, _ = sym.infer_shape(data=(32, 784))
    expected = sum(int(np.prod(s))
                   for n, s in zip(sym.list_arguments(), arg_shapes)
                   if n.endswith(('_weight', '_bias')))
    assert total == expected


def test_print_summary_errors():
    with pytest.raises(TypeError, match='symbol must be Symbol'):
        mx.viz.print_summary('not a symbol')
    net = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=3)
    with pytest.raises(mx.MXNetError):
        mx.viz.print_summary(net, shape={'data': (2, 3, 4), 'fullyconnected0_weight': (5, 5)})


def test_monitor_output_names_equal_mxnet_191():
    ref = _refs()['monitor_names']['bn_mlp']
    sym = mx.sym.load_json(ref['symbol'])
    exe = sym.simple_bind(mx.cpu(), data=(4, 6))
    mon = mx.mon.Monitor(1)
    mon.install(exe)
    mon.tic()
    exe.forward(is_train=True)
    exe.backward()
    assert [r[1] for r in mon.toc()] == ref['names']


def test_plot_network():
    net = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=3, name='fc')
    try:
        import graphviz  # noqa: F401  pylint: disable=unused-import
    except ImportError:
        with pytest.raises(ImportError, match='graphviz'):
            mx.viz.plot_network(net)
        return
    dot = mx.viz.plot_network(net, shape={'data': (2, 5)})
    assert 'FullyConnected' in dot.source and 'fc' in dot.source
