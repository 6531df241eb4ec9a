"""What the scripts that write MXNet 1.9.1 reference data (gen_*.py, next to this file) share.

The committed files in this folder were written by the real MXNet 1.9.1; the tests read them
and never need MXNet 1.9.1 itself. To rewrite them, run the scripts through this module, which
runs each under the reference interpreter ($MXNET_REFERENCE_PYTHON, read by
tests/python/unittest/mx191_oracle.py):

    python3 tests/python/data/mx191/refgen.py                 # every gen_*.py
    python3 tests/python/data/mx191/refgen.py gen_linalg      # one (or several) of them

or run one directly with a Python that has MXNet 1.9.1:

    "$MXNET_REFERENCE_PYTHON" tests/python/data/mx191/gen_linalg.py [output_dir] [args...]

A script defines `generate(out_dir, *args)` and ends with `refgen.main(generate)`; `main`
checks that the interpreter is MXNet 1.9.1, creates the output folder (default: this folder,
or the script's own subfolder) and lists what was written. Arrays come from fixed NumPy seeds.
"""
import os
import subprocess
import sys
import time

import numpy as np

DATA_DIR = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(DATA_DIR, "..", "..", "..", ".."))


def _check_reference_mxnet():
    import mxnet as mx
    where = os.path.abspath(mx.__file__)
    if mx.__version__ != "1.9.1" or where.startswith(REPO + os.sep):
        sys.exit("%s must run under the real MXNet 1.9.1 (this is mxnet %s from %s); run it "
                 "through %s" % (sys.argv[0], mx.__version__, where, __file__))


def main(generate, subdir=""):
    """Entry point of a gen script: ``script.py [output_dir] [args...]``."""
    _check_reference_mxnet()
    args = sys.argv[1:]
    out_dir = args.pop(0) if args else os.path.join(DATA_DIR, subdir)
    os.makedirs(out_dir, exist_ok=True)
    start = time.time() - 1
    generate(out_dir, *args)
    written = sorted(f for f in os.listdir(out_dir)
                     if os.path.getmtime(os.path.join(out_dir, f)) >= start)
    print("wrote %d files to %s: %s" % (len(written), out_dir, " ".join(written)))


def save_npz(out_dir, name, arrays, compressed=True):
    """Writes the dict `arrays` to out_dir/name (np.savez_compressed, or np.savez)."""
    save = np.savez_compressed if compressed else np.savez
    save(os.path.join(out_dir, name), **arrays)


def forward_backward(fn, inputs, kwargs, rng, diff=None, dtype=None):
    """Runs fn(*inputs, **kwargs) under autograd recording on NumPy `inputs` (as `dtype`, or
    their own), then backward with head gradients rng.uniform(-1, 1) of each output's shape.

    diff: indices of the inputs to differentiate (all by default; none skips backward).
    Returns (input NDArrays, output NDArrays, head gradients as NumPy arrays)."""
    import mxnet as mx
    nd_in = [mx.nd.array(x, dtype=dtype) if dtype else mx.nd.array(x) for x in inputs]
    diff = range(len(inputs)) if diff is None else diff
    for i in diff:
        nd_in[i].attach_grad()
    with mx.autograd.record():
        outs = fn(*nd_in, **kwargs)
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    heads = [rng.uniform(-1, 1, size=o.shape).astype(dtype or "float32") for o in outs]
    if diff:
        mx.autograd.backward(outs, [mx.nd.array(h, dtype=h.dtype) for h in heads])
    return nd_in, outs, heads


def _launch(names):
    sys.path.insert(0, os.path.join(REPO, "tests", "python", "unittest"))
    import mx191_oracle as oracle
    if not oracle.HAVE_MX191:
        sys.exit(oracle.SKIP_REASON)
    scripts = sorted(f[:-3] for f in os.listdir(DATA_DIR)
                     if f.startswith("gen_") and f.endswith(".py"))
    for name in names or scripts:
        if name not in scripts:
            sys.exit("no %s.py here; the scripts are %s" % (name, ", ".join(scripts)))
        subprocess.check_call([oracle.MX191, os.path.join(DATA_DIR, name + ".py")],
                              env=oracle.env(ours=False), cwd=DATA_DIR)


if __name__ == "__main__":
    _launch(sys.argv[1:])
