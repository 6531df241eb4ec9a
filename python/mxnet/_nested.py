"""Nested lists of arrays flattened to one list and regrouped: how Gluon blocks pass (nested)
inputs and outputs through a graph, and how the control-flow operators pass their states."""


def flatten_nested(args, leaf_format, make_error):
    """(flat list, format) of nested lists/tuples whose leaves `leaf_format` knows.

    leaf_format(x) gives a leaf's format (0: one item; n > 0: a group of n outputs; -1: None)
    or None when x is no leaf; any other non-list raises make_error(x)."""
    fmt = leaf_format(args)
    if fmt is not None:
        return [args], fmt
    if not isinstance(args, (list, tuple)):
        raise make_error(args)
    flat, fmts = [], []
    for arg in args:
        sub, sub_fmt = flatten_nested(arg, leaf_format, make_error)
        flat.extend(sub)
        fmts.append(sub_fmt)
    return flat, fmts


def regroup_nested(args, fmt):
    """Inverse of flatten_nested: returns (nested structure, remaining args)."""
    if isinstance(fmt, int):
        if fmt == 0:
            return args[0], args[1:]
        if fmt == -1:
            if args[0] is not None:
                raise ValueError("Data are expected to be None but got %s" % str(args[0]))
            return None, args[1:]
        return args[:fmt], args[fmt:]
    ret = []
    for sub_fmt in fmt:
        res, args = regroup_nested(args, sub_fmt)
        ret.append(res)
    return ret, args
