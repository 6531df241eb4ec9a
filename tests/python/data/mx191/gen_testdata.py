"""Writes the MXNet 1.9.1 reference files the compatibility tests read: NDArray files of every
dtype, checkpoints of an MLP and a small conv net with their forward outputs, a partially
shaped symbol, RecordIO files, optimizer state files and sparse NDArray files. Run it as
refgen.py says; `gen_testdata.py [output_dir] sparse` writes only the sparse files.
Every array is derived from a fixed NumPy seed, so a test can rebuild the expected values.
"""
import os

import mxnet as mx
import numpy as np

import refgen

DTYPES = ["float32", "float64", "float16", "uint8", "int8", "int32", "int64"]


def gen_sparse(out):
    """sparse.params: csr and row_sparse arrays (several dtypes, aux dtypes, empty ones) and
    sparse_expected.npz with their dense values and parts."""
    srng = np.random.RandomState(4321)
    dense = srng.uniform(-5, 5, size=(5, 6)).astype("float32")
    dense[srng.uniform(size=dense.shape) < 0.6] = 0
    dense[2] = 0  # an empty row
    rows = srng.uniform(-5, 5, size=(6, 3)).astype("float64")
    rows[[0, 3, 4]] = 0
    arrays = {
        "csr_f32": mx.nd.array(dense).tostype("csr"),
        "csr_f64_i32": mx.nd.sparse.csr_matrix(
            (np.array([1.5, -2.0, 3.25]), np.array([0, 3, 1], dtype="int32"),
             np.array([0, 2, 2, 3], dtype="int32")), shape=(3, 4), dtype="float64"),
        "csr_empty": mx.nd.sparse.zeros("csr", (4, 3)),
        "rsp_f64": mx.nd.array(rows, dtype="float64").tostype("row_sparse"),
        "rsp_3d": mx.nd.sparse.row_sparse_array(
            (np.arange(12, dtype="float32").reshape(2, 2, 3), np.array([1, 4])), shape=(5, 2, 3)),
        "rsp_empty": mx.nd.sparse.zeros("row_sparse", (3, 2), dtype="int32"),
        "dense": mx.nd.array(dense),
    }
    mx.nd.save(os.path.join(out, "sparse.params"), arrays)
    expected = {}
    for k, v in arrays.items():
        expected[k] = v.asnumpy()
        if v.stype != "default":
            expected[k + ".data"] = v.data.asnumpy()
            expected[k + ".indices"] = v.indices.asnumpy()
            if v.stype == "csr":
                expected[k + ".indptr"] = v.indptr.asnumpy()
    refgen.save_npz(out, "sparse_expected.npz", expected, compressed=False)


def gen_ndarray_files(out, rng):
    """A named dict of every dtype and a few ranks (a 0-size array and a scalar-like shape
    included), an unnamed list, and their values as .npz."""
    def sample(dtype, shape):
        if dtype.startswith("float"):
            return rng.uniform(-10, 10, size=shape).astype(dtype)
        info = np.iinfo(dtype)
        return rng.randint(max(info.min, -1000), min(info.max, 1000), size=shape).astype(dtype)

    named = {}
    for i, dt in enumerate(DTYPES):
        named["arr_%s" % dt] = mx.nd.array(sample(dt, (2, 3, 4)[: 1 + i % 3]), dtype=dt)
    named["empty"] = mx.nd.array(np.zeros((0, 5), dtype="float32"))
    named["one"] = mx.nd.array(np.array([7.5], dtype="float32"))
    mx.nd.save(os.path.join(out, "named.params"), named)
    unnamed = [mx.nd.array(sample("float32", (3, 2))),
               mx.nd.array(sample("int32", (4,)), dtype="int32")]
    mx.nd.save(os.path.join(out, "unnamed.nd"), unnamed)
    refgen.save_npz(out, "named_expected.npz", {k: v.asnumpy() for k, v in named.items()},
                    compressed=False)
    refgen.save_npz(out, "unnamed_expected.npz",
                    {"arr_%d" % i: v.asnumpy() for i, v in enumerate(unnamed)}, compressed=False)


def gen_checkpoints(out, rng):
    """An MLP and a small conv net, as symbol JSON + params (checkpoint format), with a forward
    pass each."""
    data = mx.sym.Variable("data")
    h = mx.sym.FullyConnected(data, num_hidden=16, name="fc1")
    h = mx.sym.Activation(h, act_type="relu", name="relu1")
    h = mx.sym.FullyConnected(h, num_hidden=10, name="fc2")
    mlp = mx.sym.SoftmaxOutput(h, name="softmax")
    mlp.save(os.path.join(out, "mlp-symbol.json"))
    shapes, _, _ = mlp.infer_shape(data=(4, 20))
    args = {n: mx.nd.array(rng.uniform(-0.5, 0.5, size=s).astype("float32"))
            for n, s in zip(mlp.list_arguments(), shapes) if n not in ("data", "softmax_label")}
    mx.model.save_checkpoint(os.path.join(out, "mlp"), 3, mlp, args, {})
    x = rng.uniform(-1, 1, size=(4, 20)).astype("float32")
    ex = mlp.bind(mx.cpu(), dict(args, data=mx.nd.array(x), softmax_label=mx.nd.zeros((4,))))
    refgen.save_npz(out, "mlp_forward.npz", dict(data=x, output=ex.forward()[0].asnumpy()),
                    compressed=False)

    c = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, pad=(1, 1), name="conv1")
    c = mx.sym.BatchNorm(c, fix_gamma=False, name="bn1")
    c = mx.sym.Activation(c, act_type="relu", name="relu1")
    c = mx.sym.Pooling(c, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool1")
    c = mx.sym.Flatten(c, name="flat")
    c = mx.sym.FullyConnected(c, num_hidden=10, name="fc")
    conv = mx.sym.SoftmaxOutput(c, name="softmax")
    conv.save(os.path.join(out, "convnet-symbol.json"))
    arg_shapes, _, aux_shapes = conv.infer_shape(data=(2, 1, 8, 8))
    cargs = {n: mx.nd.array(rng.uniform(-0.5, 0.5, size=s).astype("float32"))
             for n, s in zip(conv.list_arguments(), arg_shapes)
             if n not in ("data", "softmax_label")}
    caux = {n: mx.nd.array(rng.uniform(0.5, 1.5, size=s).astype("float32"))
            for n, s in zip(conv.list_auxiliary_states(), aux_shapes)}
    mx.model.save_checkpoint(os.path.join(out, "convnet"), 1, conv, cargs, caux)
    x = rng.uniform(-1, 1, size=(2, 1, 8, 8)).astype("float32")
    ex = conv.bind(mx.cpu(), dict(cargs, data=mx.nd.array(x), softmax_label=mx.nd.zeros((2,))),
                   aux_states=caux)
    refgen.save_npz(out, "convnet_forward.npz",
                    dict(data=x, output=ex.forward(is_train=False)[0].asnumpy()),
                    compressed=False)


def gen_partial_infer(out):
    """The seed-003 shape-inference example, for the symbol tests."""
    a = mx.sym.Variable("a", shape=(2, 0))
    b = mx.sym.Variable("b")
    cc = mx.sym.Variable("c", shape=(0, 3))
    d = a * b + b * cc
    d.save(os.path.join(out, "partial_infer-symbol.json"))


def gen_recordio(out):
    """Plain records, an indexed file with IRHeader-packed records, and records that contain
    the magic number 0xced7230a: at 4-byte aligned offsets the writer splits the record into
    continuation parts (cflag 1/2/3); unaligned copies stay inline."""
    w = mx.recordio.MXRecordIO(os.path.join(out, "plain.rec"), "w")
    for i in range(5):
        w.write(("record-%d" % i).encode() * (i + 1))
    w.write(b"")
    w.close()
    w = mx.recordio.MXIndexedRecordIO(os.path.join(out, "indexed.idx"),
                                      os.path.join(out, "indexed.rec"), "w")
    for i in range(4):
        header = mx.recordio.IRHeader(0, float(i), i, 0) if i % 2 == 0 else \
            mx.recordio.IRHeader(0, [float(i), i + 0.5], i, 0)
        w.write_idx(i, mx.recordio.pack(header, bytes(range(i * 3))))
    w.close()
    magic = (0xced7230a).to_bytes(4, "little")
    w = mx.recordio.MXRecordIO(os.path.join(out, "magic.rec"), "w")
    w.write(magic)                                   # only the magic
    w.write(b"abcd" + magic + b"efgh" + magic + b"ij")  # two aligned copies, unaligned tail
    w.write(b"a" + magic + b"xyz")                   # unaligned copy: no split
    w.write(magic + magic + b"tail")                  # adjacent copies: empty middle part
    w.close()


def gen_optimizer_states(out):
    """Optimizer states (Updater.get_states pickles) after two updates of two parameters; the
    weights before/after and the gradients come from their own seed so the tests can rebuild
    them."""
    srng = np.random.RandomState(77)
    states_in = {"w0": srng.uniform(-1, 1, (2, 3)).astype("float32"),
                 "w1": srng.uniform(-1, 1, (4,)).astype("float32")}
    states_in.update({"g%d_%d" % (k, s): srng.uniform(-1, 1, states_in["w%d" % k].shape)
                      .astype("float32") for k in range(2) for s in range(2)})
    states_out = {}
    for name, kw, dump in (("sgd_mom", dict(learning_rate=0.1, momentum=0.9, wd=0.01), False),
                           ("adam_dump", dict(learning_rate=0.01), True)):
        upd = mx.optimizer.get_updater(mx.optimizer.create(name.split("_")[0], **kw))
        ws = [mx.nd.array(states_in["w0"]), mx.nd.array(states_in["w1"])]
        for s in range(2):
            upd([0, 1], [mx.nd.array(states_in["g%d_%d" % (k, s)]) for k in range(2)], ws)
        with open(os.path.join(out, "%s.states" % name), "wb") as f:
            f.write(upd.get_states(dump_optimizer=dump))
        for k in range(2):
            states_out["%s_w%d" % (name, k)] = ws[k].asnumpy()
    refgen.save_npz(out, "optimizer_states_io.npz", dict(states_in, **states_out),
                    compressed=False)


def generate(out_dir, only=None):
    if only not in (None, "sparse"):
        raise SystemExit("the only part that can be written alone is 'sparse', not %r" % only)
    if only is None:
        rng = np.random.RandomState(1234)
        gen_ndarray_files(out_dir, rng)
        gen_checkpoints(out_dir, rng)
        gen_partial_infer(out_dir)
        gen_recordio(out_dir)
        gen_optimizer_states(out_dir)
    gen_sparse(out_dir)


if __name__ == "__main__":
    refgen.main(generate)
