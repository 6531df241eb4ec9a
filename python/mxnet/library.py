"""Operator libraries loaded at run time (built against include/mxnet/lib_api.h).

    mx.library.load("/abs/path/libgemm_lib.so")
    c = mx.nd.my_gemm(a, b)                      # the library's operators, like built-in ones

Build a library against an installed package with
    g++ -shared -fPIC -std=c++17 my_op.cc $INC/../src/lib_api.cc -o libmy_op.so -I $INC
where INC=$(python -c "import mxnet; print(mxnet.libinfo.find_include_path())").

Check a library (loads it, lists its operators, and for each infers shapes/dtypes on sample
inputs, runs forward and, when registered, backward, reporting inconsistencies):
    python -m mxnet.library check path/to/libmy_op.so [--attr key=value] [--shape 2,3 ...]
"""
import argparse
import ctypes
import os
import sys
import warnings

from .base import _LIB, MXNetError, ValueError as _MXValueError, check_call, c_str
from .base import list_op_names, _refresh_op_names
from . import ndarray as nd
from .base import _op_placement
from .base import op_info, op_handle
from .ndarray import register as nd_register
# Names MXNet 1.9.1's module also exposes (it imports them).
from .base import mx_uint  # noqa: F401

__all__ = ["load", "loaded_operators"]

# Operator name -> path of the library that registered it.
_LOADED_OPS = {}

# `python -m mxnet.library` runs this file again as __main__ after `import mxnet` imported it;
# runpy's warning about that is expected (the __main__ block uses the imported module).
warnings.filterwarnings("ignore", message="'mxnet.library' found in sys.modules",
                        category=RuntimeWarning)


def loaded_operators():
    """{operator name: library path} for the operators added by load() (backward ops included)."""
    return dict(_LOADED_OPS)


def load(path, verbose=True):
    """Load the operator library at `path` and add its operators to mx.nd (and mx.sym).

    Parameters
    ----------
    path : str
        Absolute path of the shared library (.so / .dll).
    verbose : bool
        Log the operators found.

    Returns
    -------
    list of str
        The operator names this call registered (empty when the library was loaded before).
    """
    if not isinstance(path, str):
        raise TypeError("mx.library.load: path must be a str, got %s" % type(path).__name__)
    if not os.path.exists(path):
        raise _MXValueError("load path %s does NOT exist" % path)
    if not os.path.isabs(path):
        raise _MXValueError("load path %s is not an absolute path (use %s)"
                            % (path, os.path.abspath(path)))
    if not os.path.isfile(path) or os.path.splitext(path)[1] not in (".so", ".dll"):
        raise _MXValueError("load path %s is NOT a library file (.so or .dll)" % path)
    before = set(list_op_names())
    check_call(_LIB.MXLoadLib(c_str(path), ctypes.c_uint(1 if verbose else 0)))
    _refresh_op_names()
    new_ops = [name for name in list_op_names() if name not in before]
    for name in new_ops:
        _LOADED_OPS[name] = path
    if new_ops:
        _add_op_functions(new_ops)
    return new_ops


def _add_op_functions(names):
    """Generate mx.nd.<op> (and mx.sym.<op> when the symbol package is present) for `names`."""
    nd_register.register_new_ops(names)
    sym_register = sys.modules.get("mxnet.symbol.register")
    if sym_register is None or not hasattr(sym_register, "init_symbol_module"):
        return
    sym_register.init_symbol_module(names)
    package = sys.modules["mxnet.symbol"]
    op_module = sys.modules["mxnet.symbol.op"]
    for name in names:
        target, func_name = _op_placement(name, "mxnet", "symbol")
        if target == op_module.__name__:
            setattr(package, func_name, getattr(op_module, func_name))
            if hasattr(package, "__all__") and func_name not in package.__all__:
                package.__all__.append(func_name)


# ---------------------------------------------------------------------------------------------
# python -m mxnet.library check


_SAMPLE_SHAPES = [(2, 2), (3, 3), (4,), (2, 3, 4), (1,)]
_SAMPLE_DTYPES = ["float32", "float64", "int32"]


def _try_forward(func, inputs, attrs):
    out = func(*inputs, **attrs)
    outs = out if isinstance(out, (list, tuple)) else [out]
    for o in outs:
        o.wait_to_read()
    return outs


def _find_sample(func, attrs, shapes, dtypes, num_inputs):
    """First (inputs, outputs) the operator accepts, else (None, last error)."""
    import numpy as np
    rng = np.random.RandomState(0)
    last_error = None
    counts = [num_inputs] if num_inputs is not None else [1, 2, 3, 4]
    for count in counts:
        shape_sets = [shapes] if shapes else [[s] * count for s in _SAMPLE_SHAPES]
        for shape_set in shape_sets:
            if len(shape_set) != count:
                continue
            for dtype in dtypes:
                inputs = [nd.array(rng.uniform(-1, 1, size=s), dtype=dtype) for s in shape_set]
                try:
                    return inputs, _try_forward(func, inputs, attrs)
                except MXNetError as err:
                    last_error = err
                    msg = str(err)
                    if "expects" in msg and "input(s)" in msg:
                        break  # wrong input count: try the next count
    return None, last_error


def _numeric_grad(func, inputs, attrs, ograds, eps):
    import numpy as np
    grads = []
    for k, x in enumerate(inputs):
        base = x.asnumpy().astype(np.float64)
        g = np.zeros_like(base)
        flat = base.reshape(-1)
        for i in range(flat.size):
            vals = []
            for sign in (1, -1):
                pert = flat.copy()
                pert[i] += sign * eps
                args = list(inputs)
                args[k] = nd.array(pert.reshape(base.shape), dtype=x.dtype)
                outs = _try_forward(func, args, attrs)
                vals.append(sum(float((o.asnumpy().astype(np.float64) * og).sum())
                                for o, og in zip(outs, ograds)))
            g.reshape(-1)[i] = (vals[0] - vals[1]) / (2 * eps)
        grads.append(g)
    return grads


def _op_function(name):
    """The generated mx.nd function of operator `name`, or None."""
    target, func_name = _op_placement(name, "mxnet", "ndarray")
    module = sys.modules.get(target)
    return getattr(module, func_name, None) if module is not None else None


def _is_stateful(name):
    return "(stateful" in op_info(op_handle(name)).description


def _gradients(name, func, backward, inputs, outs, ograds, attrs):
    """Input gradients for output gradients `ograds`: through mx.autograd when available, else
    by calling the backward operator (None for a stateful op without autograd)."""
    autograd = sys.modules.get("mxnet.autograd")
    if autograd is not None and hasattr(autograd, "record"):
        xs = [x.copy() for x in inputs]
        for x in xs:
            x.attach_grad()
        with autograd.record():
            ys = func(*xs, **attrs)
        autograd.backward(ys if isinstance(ys, (list, tuple)) else [ys], ograds)
        grads = [x.grad for x in xs]
    elif _is_stateful(name):
        return None
    else:
        grads = backward(*(ograds + inputs + outs), **attrs)
        grads = grads if isinstance(grads, (list, tuple)) else [grads]
    for g in grads:
        g.wait_to_read()
    return grads


def check_operator(name, attrs=None, shapes=None, dtypes=None, num_inputs=None, report=print):
    """Check one operator; returns the list of problems found (empty when consistent)."""
    import numpy as np
    attrs = dict(attrs or {})
    dtypes = dtypes or _SAMPLE_DTYPES
    problems = []
    func = _op_function(name)
    if func is None:
        return ["%s: no mx.nd function was generated" % name]
    inputs, outs = _find_sample(func, attrs, shapes, dtypes, num_inputs)
    if inputs is None:
        return ["%s: no sample input was accepted; last error:\n    %s"
                % (name, str(outs).replace("\n", "\n    "))]
    report("  %s: %d input(s) %s %s -> %s" % (
        name, len(inputs), [tuple(x.shape) for x in inputs], inputs[0].dtype.__name__
        if hasattr(inputs[0].dtype, "__name__") else inputs[0].dtype,
        [(tuple(o.shape), np.dtype(o.dtype).name) for o in outs]))
    # Inference must be deterministic, and outputs passed in must be accepted.
    again = _try_forward(func, inputs, attrs)
    deterministic = True
    if [o.shape for o in again] != [o.shape for o in outs]:
        problems.append("%s: output shapes differ between two identical calls" % name)
    elif any(not np.array_equal(a.asnumpy(), o.asnumpy()) for a, o in zip(again, outs)):
        deterministic = False
        report("    outputs differ between two identical calls (random?): no gradient check")
    try:
        given = [nd.zeros(o.shape, dtype=o.dtype) for o in outs]
        func(*inputs, out=given if len(given) > 1 else given[0], **attrs)
        for o in given:
            o.wait_to_read()
    except MXNetError as err:
        problems.append("%s: calling with preallocated outputs failed: %s" % (name, err))
    for i, o in enumerate(outs):
        values = o.asnumpy()
        if values.dtype.kind == "f" and not np.all(np.isfinite(values)):
            problems.append("%s: output %d has non-finite values on finite inputs" % (name, i))
    backward = _op_function("_backward_" + name)
    if backward is None:
        report("    no backward registered")
        return problems
    ograds = [np.random.RandomState(1).uniform(-1, 1, size=o.shape) for o in outs]
    ograd_arrays = [nd.array(g, dtype=o.dtype) for g, o in zip(ograds, outs)]
    try:
        grads = _gradients(name, func, backward, inputs, outs, ograd_arrays, attrs)
    except MXNetError as err:
        problems.append("%s: backward failed: %s" % (name, err))
        return problems
    if grads is None:
        report("    stateful: backward runs on the forward's state, checked only with mx.autograd")
        return problems
    if len(grads) != len(inputs):
        problems.append("%s: backward returned %d gradients for %d inputs"
                        % (name, len(grads), len(inputs)))
        return problems
    for i, (g, x) in enumerate(zip(grads, inputs)):
        if g.shape != x.shape:
            problems.append("%s: gradient %d has shape %s, input has %s"
                            % (name, i, g.shape, x.shape))
    if problems or not deterministic or np.dtype(inputs[0].dtype).kind != "f" or \
            sum(x.size for x in inputs) > 64:
        return problems
    numeric = _numeric_grad(func, inputs, attrs, ograds, eps=1e-2)
    worst = max(float(np.max(np.abs(g.asnumpy() - n))) for g, n in zip(grads, numeric))
    scale = max(1.0, max(float(np.max(np.abs(n))) for n in numeric))
    report("    backward vs finite differences: max abs diff %.2g" % worst)
    if worst > 5e-2 * scale:
        problems.append("%s: backward differs from finite differences by %.3g (noisy or wrong?)"
                        % (name, worst))
    return problems


def check(path, attrs=None, shapes=None, dtypes=None, num_inputs=None, report=print):
    """Load the library at `path` and check each of its operators; returns the problems."""
    path = os.path.abspath(path)
    load(path, verbose=False)
    names = sorted(n for n, p in _LOADED_OPS.items() if p == path and
                   not n.startswith("_backward_"))
    report("%s: %d operator(s): %s" % (path, len(names), ", ".join(names) or "none"))
    problems = []
    for name in names:
        try:
            problems += check_operator(name, attrs, shapes, dtypes, num_inputs, report)
        except MXNetError as err:
            problems.append("%s: %s" % (name, err))
    return problems


def _main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m mxnet.library",
                                     description="Check an MXNet operator library.")
    sub = parser.add_subparsers(dest="command", required=True)
    chk = sub.add_parser("check", help="load a library and check each operator")
    chk.add_argument("path")
    chk.add_argument("--attr", action="append", default=[], metavar="KEY=VALUE",
                     help="operator attribute passed to every call")
    chk.add_argument("--shape", action="append", default=[], metavar="D1,D2,...",
                     help="shape of one sample input (repeat per input)")
    chk.add_argument("--dtype", action="append", default=[], help="sample dtype(s) to try")
    args = parser.parse_args(argv)
    attrs = dict(a.split("=", 1) for a in args.attr)
    shapes = [tuple(int(d) for d in s.split(",") if d) for s in args.shape]
    problems = check(args.path, attrs, shapes or None, args.dtype or None,
                     len(shapes) if shapes else None)
    for p in problems:
        print("PROBLEM: " + p)
    print("%d problem(s)" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    from mxnet import library as _library   # the package's instance, not this __main__ copy
    sys.exit(_library._main())
