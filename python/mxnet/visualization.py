"""Network summaries: `print_summary` (a layer table, as MXNet 1.9.1 prints it) and
`plot_network` (a graphviz Digraph; needs the `graphviz` Python package).

    mx.viz.print_summary(net, shape={'data': (32, 784)})
"""
import copy
import json
import re
import warnings

from .symbol import Symbol

__all__ = ['print_summary', 'plot_network']


def _str2tuple(string):
    """'(5, 5)' -> ['5', '5'] (attribute text of a shape)."""
    return re.findall(r"\d+", string)


def _shape_dict(symbol, shape):
    internals = symbol.get_internals()
    _, out_shapes, _ = internals.infer_shape(**shape)
    if out_shapes is None:
        raise ValueError("Input shape is incomplete")
    return dict(zip(internals.list_outputs(), out_shapes))


def _output_key(node):
    """Name of a node's (first) output among get_internals().list_outputs()."""
    return node["name"] if node["op"] == "null" else node["name"] + "_output"


def _layer_params(node, in_channels, shape_dict):
    """Parameter count of one layer as 1.9.1 estimates it from the channels of its inputs."""
    op, attrs = node["op"], node.get("attrs", {})
    if op == 'Convolution':
        groups = int(attrs.get('num_group', '1'))
        count = in_channels * int(attrs["num_filter"]) // groups
        for k in _str2tuple(attrs["kernel"]):
            count *= int(k)
        if attrs.get("no_bias") != 'True':
            count += int(attrs["num_filter"])
        return count
    if op == 'FullyConnected':
        bias = 0 if attrs.get("no_bias") == 'True' else 1
        return (in_channels + bias) * int(attrs["num_hidden"])
    if op == 'BatchNorm':
        # gamma and beta (moving statistics are not parameters); needs the shapes.
        return int(shape_dict[_output_key(node)][1]) * 2 if shape_dict is not None else 0
    if op == 'Embedding':
        return int(attrs['input_dim']) * int(attrs['output_dim'])
    return 0


def print_summary(symbol, shape=None, line_length=120, positions=[.44, .64, .74, 1.]):  # pylint: disable=dangerous-default-value
    """Print a table of the layers of `symbol`: name(op), output shape (without the batch
    axis, when `shape` gives the input shapes), parameter count and the previous layers.

    Parameters
    ----------
    symbol : Symbol
    shape : dict of str -> tuple, optional
        Input shapes; without them shapes are blank and parameter counts partial.
    line_length : int
        Width of the table.
    positions : list of float or int
        Right edge of each of the four columns, relative (<= 1) or absolute.
    """
    if not isinstance(symbol, Symbol):
        raise TypeError("symbol must be Symbol")
    shape_dict = _shape_dict(symbol, shape) if shape is not None else None
    conf = json.loads(symbol.tojson())
    nodes = conf["nodes"]
    # MXNet 1.9.1 takes the numbers of the first head entry [node, index, version] as "head
    # node ids": in practice the output node and node 0 (the first input), which is why the
    # first input variable appears as a layer and as a previous layer. Kept for equal output.
    heads = set(conf["heads"][0])
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]

    def print_row(fields):
        line = ''
        for field, edge in zip(fields, positions):
            line = (line + str(field))[:edge]
            line += ' ' * (edge - len(line))
        print(line)

    def print_layer(node):
        previous = []
        in_channels = 0
        if node["op"] != "null":
            for entry in node["inputs"]:
                src = nodes[entry[0]]
                if src["op"] == "null" and entry[0] not in heads:
                    continue
                previous.append(src["name"])
                key = _output_key(src)
                if shape_dict is not None and key in shape_dict:
                    in_channels += int(shape_dict[key][1:][0])
        out_shape = []
        if shape_dict is not None and _output_key(node) in shape_dict:
            out_shape = shape_dict[_output_key(node)][1:]
        params = _layer_params(node, in_channels, shape_dict)
        print_row([node['name'] + '(' + node["op"] + ')', "x".join(str(x) for x in out_shape),
                   params, previous[0] if previous else ''])
        for name in previous[1:]:
            print_row(['', '', '', name])
        return params

    print('_' * line_length)
    print_row(['Layer (type)', 'Output Shape', 'Param #', 'Previous Layer'])
    print('=' * line_length)
    total_params = 0
    for i, node in enumerate(nodes):
        if node["op"] == "null" and i > 0:
            continue  # variables are not layers (except the first input, see above)
        total_params += print_layer(node)
        print(('=' if i == len(nodes) - 1 else '_') * line_length)
    print("Total params: {params}".format(params=total_params))
    print('_' * line_length)


_WEIGHT_SUFFIXES = ('_weight', '_bias', '_beta', '_gamma', '_moving_var', '_moving_mean',
                    '_running_var', '_running_mean')
_COLORS = ("#8dd3c7", "#fb8072", "#ffffb3", "#bebada", "#80b1d3", "#fdb462", "#b3de69",
           "#fccde5")


def _node_look(node):
    """(label, fill colour index, shape override) of a graph node."""
    op, name, attrs = node["op"], node["name"], node.get("attrs", {})
    if op == "null":
        return name, 0, "oval"
    if op == "Convolution":
        stride = "x".join(_str2tuple(attrs["stride"])) if "stride" in attrs else "1"
        return ("Convolution\n{}/{}, {}".format("x".join(_str2tuple(attrs["kernel"])), stride,
                                                attrs["num_filter"]), 1, None)
    if op == "FullyConnected":
        return "FullyConnected\n{}".format(attrs["num_hidden"]), 1, None
    if op == "BatchNorm":
        return name, 3, None
    if op == "Activation":
        return "Activation\n{}".format(attrs["act_type"]), 2, None
    if op == "LeakyReLU":
        return "LeakyReLU\n{}".format(attrs.get("act_type", "Leaky")), 2, None
    if op == "Pooling":
        kernel = "x".join(_str2tuple(attrs["kernel"])) if "kernel" in attrs else "[]"
        stride = "x".join(_str2tuple(attrs["stride"])) if "stride" in attrs else "1"
        return "Pooling\n{}, {}/{}".format(attrs["pool_type"], kernel, stride), 4, None
    if op in ("Concat", "Flatten", "Reshape"):
        return name, 5, None
    if op == "Softmax":
        return name, 6, None
    return (attrs["op_type"] if op == "Custom" else name), 7, None


def plot_network(symbol, title="plot", save_format='pdf', shape=None, dtype=None,
                 node_attrs={}, hide_weights=True):  # pylint: disable=dangerous-default-value
    """A graphviz Digraph of `symbol`: one box per operator, ovals for inputs, edges labelled
    with shapes (given `shape`) and dtypes (given `dtype`). Needs the graphviz package.

    Parameters
    ----------
    symbol : Symbol
    title : str
    save_format : str, e.g. 'pdf', 'png', 'jpg'
    shape : dict of str -> tuple, optional
    dtype : dict of str -> numpy dtype, optional
    node_attrs : dict, graphviz attributes overriding the node defaults
    hide_weights : bool, leave out weight/bias/gamma/beta/moving-stat variables
    """
    try:
        from graphviz import Digraph
    except ImportError:
        raise ImportError("Draw network requires graphviz library: pip install graphviz "
                          "(and the Graphviz binaries to render)")
    if not isinstance(symbol, Symbol):
        raise TypeError("symbol must be a Symbol")
    internals = symbol.get_internals()
    shape_dict = _shape_dict(symbol, shape) if shape is not None else None
    type_dict = None
    if dtype is not None:
        _, out_types, _ = internals.infer_type(**dtype)
        if out_types is None:
            raise ValueError("Input type is incomplete")
        type_dict = dict(zip(internals.list_outputs(), out_types))
    conf = json.loads(symbol.tojson())
    nodes = conf["nodes"]
    names = [n["name"] for n in nodes]
    repeated = sorted(set(n for n in names if names.count(n) > 1))
    if repeated:
        warnings.warn("There are multiple variables with the same name in your graph, this "
                      "may result in cyclic graph. Repeated names: " + ','.join(repeated),
                      RuntimeWarning)
    base_attr = {"shape": "box", "fixedsize": "true", "width": "1.3", "height": "0.8034",
                 "style": "filled"}
    base_attr.update(node_attrs)
    dot = Digraph(name=title, format=save_format)
    hidden = set()
    for node in nodes:
        if node["op"] == "null" and node["name"].endswith(_WEIGHT_SUFFIXES):
            if hide_weights:
                hidden.add(node["name"])
            continue
        label, color, node_shape = _node_look(node)
        attr = copy.deepcopy(base_attr)
        attr["fillcolor"] = _COLORS[color]
        if node_shape is not None:
            attr["shape"] = node_shape
        dot.node(name=node["name"], label=label, **attr)

    def edge_key(src):
        if src["op"] == "null":
            return src["name"]
        key = src["name"] + "_output"
        if "num_outputs" in src.get("attrs", {}):
            key += str(int(src["attrs"]["num_outputs"]) - 1)
        return key

    for node in nodes:
        if node["op"] == "null":
            continue
        inputs = node["inputs"][:1] if node["op"] == '_contrib_BilinearResize2D' \
            else node["inputs"]
        for entry in inputs:
            src = nodes[entry[0]]
            if src["name"] in hidden:
                continue
            attr = {"dir": "back", "arrowtail": "open", "label": ""}
            if shape_dict is not None:
                attr["label"] = "x".join(str(x) for x in shape_dict[edge_key(src)][1:])
            if type_dict is not None:
                attr["label"] += '(' + type_dict[edge_key(src)].__name__ + ')'
            dot.edge(tail_name=node["name"], head_name=src["name"], **attr)
    return dot
