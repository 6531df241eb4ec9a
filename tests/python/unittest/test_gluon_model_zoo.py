"""mx.gluon.model_zoo.vision against the real MXNet 1.9.1 (the mx191 venv) as oracle.

One subprocess in the venv builds every model, records its parameter names and shapes, and
for a few representative models saves randomised parameters (save_parameters), a fixed input,
the forward output and the hybridized export() JSON. Our models must reproduce the names,
shapes, outputs (imperative and hybridized) and exported node names. Everything is skipped
when the venv is missing.
"""
import json
import os
import subprocess

import numpy as np
import pytest

import mxnet as mx
from mxnet.gluon.model_zoo import vision, model_store

import mx191_oracle

ALL_MODELS = ["resnet18_v1", "resnet34_v1", "resnet50_v1", "resnet101_v1", "resnet152_v1",
              "resnet18_v2", "resnet34_v2", "resnet50_v2", "resnet101_v2", "resnet152_v2",
              "vgg11", "vgg13", "vgg16", "vgg19", "vgg11_bn", "vgg13_bn", "vgg16_bn",
              "vgg19_bn", "alexnet", "densenet121", "densenet161", "densenet169",
              "densenet201", "squeezenet1.0", "squeezenet1.1", "inceptionv3",
              "mobilenet1.0", "mobilenet0.75", "mobilenet0.5", "mobilenet0.25",
              "mobilenetv2_1.0", "mobilenetv2_0.75", "mobilenetv2_0.5", "mobilenetv2_0.25"]

# Smallest input side each family accepts: fixed-size final pools need 224 (SqueezeNet,
# DenseNet) or 299 (Inception); the others end in global pooling or tolerate 32/64.
def _input_side(name):
    if name.startswith(("squeezenet", "densenet")):
        return 224
    if name == "inceptionv3":
        return 299
    if name.startswith("vgg"):
        return 32
    return 64

# Models whose forward output is compared (one per block type, small inputs).
FORWARD_MODELS = ["resnet18_v1", "resnet50_v1", "resnet18_v2", "resnet50_v2", "alexnet",
                  "vgg11_bn", "mobilenet0.25", "mobilenetv2_0.25", "squeezenet1.1",
                  "densenet121", "inceptionv3"]
EXPORT_MODELS = ["resnet18_v1", "mobilenetv2_0.25", "squeezenet1.1", "densenet121"]
# Building the CachedOp of these large graphs takes ~10 s here, so their hybridized output is
# only checked by the export test (densenet121) or not at all (inceptionv3).
IMPERATIVE_ONLY = ["densenet121", "inceptionv3"]

_ORACLE = r"""
import json, os, sys
import numpy as np
import mxnet as mx
from mxnet.gluon.model_zoo import vision

spec = json.loads(sys.argv[1])
out_dir = spec["dir"]
report = {}
for name, side in spec["shapes"].items():
    with mx.name.NameManager():
        net = vision.get_model(name)
    net.initialize()
    net.infer_shape(mx.nd.zeros((1, 3, side, side)))
    report[name] = [[k, list(p.shape)] for k, p in net.collect_params().items()]
    if name not in spec["forward"]:
        continue
    rng = np.random.RandomState(7)
    x = rng.uniform(-1, 1, (1, 3, side, side)).astype(np.float32)
    net(mx.nd.array(x))  # finishes the deferred initialisation
    for k, p in net.collect_params().items():
        shape = p.shape
        if k.endswith(("running_var", "gamma")):
            value = rng.uniform(0.5, 1.5, shape)
        elif k.endswith(("running_mean", "beta", "bias")):
            value = rng.uniform(-0.1, 0.1, shape)
        else:
            value = rng.normal(0, np.sqrt(2.0 / np.prod(shape[1:])), shape)
        p.set_data(mx.nd.array(value.astype(np.float32)))
    np.save(os.path.join(out_dir, name + "-input.npy"), x)
    net.save_parameters(os.path.join(out_dir, name + ".params"))
    np.save(os.path.join(out_dir, name + "-output.npy"), net(mx.nd.array(x)).asnumpy())
    if name in spec["export"]:
        net.hybridize()
        net(mx.nd.array(x))
        net.export(os.path.join(out_dir, name))
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    if not mx191_oracle.HAVE_MX191:
        pytest.skip(mx191_oracle.SKIP_REASON)
    out_dir = str(tmp_path_factory.mktemp("mx191_model_zoo"))
    spec = {"dir": out_dir, "shapes": {n: _input_side(n) for n in ALL_MODELS},
            "forward": FORWARD_MODELS, "export": EXPORT_MODELS}
    proc = subprocess.run([mx191_oracle.MX191, "-c", _ORACLE, json.dumps(spec)], cwd=out_dir,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=mx191_oracle.env(ours=False),
                          timeout=600)
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    report = json.loads(proc.stdout.decode().strip().splitlines()[-1])
    return out_dir, report


@pytest.mark.parametrize("name", ALL_MODELS)
def test_parameter_names_and_shapes_match_mx191(oracle, name):
    _, report = oracle
    side = _input_side(name)
    net = _fresh_model(name)
    net.initialize()
    net.infer_shape(mx.nd.zeros((1, 3, side, side)))
    ours = [[k, list(p.shape)] for k, p in net.collect_params().items()]
    expected = report[name]
    assert len(ours) == len(expected)
    assert [k for k, _ in ours] == [k for k, _ in expected]
    assert ours == expected


def _fresh_model(name, **kwargs):
    """Builds `name` under a fresh NameManager: the block prefix is then '<alias>0_', as in
    the oracle, whatever other tests ran before."""
    with mx.name.NameManager():
        return vision.get_model(name, **kwargs)


def _load_reference(out_dir, name):
    x = mx.nd.array(np.load(os.path.join(out_dir, name + "-input.npy")))
    expected = np.load(os.path.join(out_dir, name + "-output.npy"))
    return x, expected


@pytest.mark.parametrize("name", FORWARD_MODELS)
def test_forward_matches_mx191(oracle, name):
    out_dir, _ = oracle
    x, expected = _load_reference(out_dir, name)
    net = _fresh_model(name)
    net.load_parameters(os.path.join(out_dir, name + ".params"))
    # Outputs are O(1..100); atol covers cancellation in near-zero logits.
    atol = 1e-4 * max(1.0, float(np.abs(expected).max()))
    imperative = net(x).asnumpy()
    assert imperative.shape == expected.shape
    np.testing.assert_allclose(imperative, expected, rtol=1e-4, atol=atol)
    if name in IMPERATIVE_ONLY:
        return
    net.hybridize()
    hybrid = net(x).asnumpy()
    np.testing.assert_allclose(hybrid, expected, rtol=1e-4, atol=atol)


@pytest.mark.parametrize("name", EXPORT_MODELS)
def test_export_node_names_match_mx191(oracle, name, tmp_path):
    out_dir, _ = oracle
    x, expected_out = _load_reference(out_dir, name)
    net = _fresh_model(name)
    net.load_parameters(os.path.join(out_dir, name + ".params"))
    net.hybridize()
    np.testing.assert_allclose(net(x).asnumpy(), expected_out, rtol=1e-4,
                               atol=1e-4 * max(1.0, float(np.abs(expected_out).max())))
    sym_file, params_file = net.export(str(tmp_path / name))
    with open(sym_file) as f:
        ours = json.load(f)
    with open(os.path.join(out_dir, name + "-symbol.json")) as f:
        expected = json.load(f)
    assert [(n["op"], n["name"]) for n in ours["nodes"]] == \
        [(n["op"], n["name"]) for n in expected["nodes"]]
    assert ours["heads"] == expected["heads"]
    ours_params = mx.nd.load(params_file)
    expected_params = mx.nd.load(os.path.join(out_dir, name + "-0000.params"))
    assert sorted(ours_params.keys()) == sorted(expected_params.keys())


def test_pretrained_loads_local_file(oracle, tmp_path):
    out_dir, _ = oracle
    x, expected = _load_reference(out_dir, "resnet18_v1")
    with open(os.path.join(out_dir, "resnet18_v1.params"), "rb") as src:
        (tmp_path / "resnet18_v1.params").write_bytes(src.read())
    net = vision.get_model("resnet18_v1", pretrained=True, root=str(tmp_path))
    np.testing.assert_allclose(net(x).asnumpy(), expected, rtol=1e-4, atol=1e-3)


def test_pretrained_without_file_explains_missing_network(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        vision.resnet18_v1(pretrained=True, root=str(tmp_path))
    message = str(info.value)
    assert "network access" in message
    assert "resnet18_v1-a0666292.params" in message
    assert str(tmp_path) in message
    # Same for the other families (name mapping of the weight files).
    with pytest.raises(FileNotFoundError, match="mobilenetv2_0.25-ae8f9392.params"):
        vision.mobilenet_v2_0_25(pretrained=True, root=str(tmp_path))
    with pytest.raises(FileNotFoundError, match="vgg11_bn-ee79a809.params"):
        vision.vgg11_bn(pretrained=True, root=str(tmp_path))


def test_pretrained_official_file_with_wrong_hash_is_rejected(tmp_path):
    (tmp_path / "alexnet-44335d1f.params").write_bytes(b"not the real weights")
    with pytest.raises(ValueError, match="SHA-1"):
        vision.alexnet(pretrained=True, root=str(tmp_path))


def test_model_store_helpers(tmp_path):
    assert model_store.short_hash("resnet50_v1") == "0aee57f9"
    with pytest.raises(ValueError, match="not available"):
        model_store.short_hash("resnet9000")
    (tmp_path / "a.params").write_bytes(b"x")
    (tmp_path / "keep.txt").write_bytes(b"x")
    model_store.purge(str(tmp_path))
    assert sorted(os.listdir(str(tmp_path))) == ["keep.txt"]


def test_get_model_rejects_unknown_names():
    with pytest.raises(ValueError, match="resnet18_v1"):
        vision.get_model("resnet19_v1")
    assert isinstance(vision.get_model("ResNet18_V1"), vision.ResNetV1)


def test_get_resnet_and_classes_argument():
    net = vision.get_resnet(2, 34, classes=10, thumbnail=True)
    net.initialize()
    out = net(mx.nd.ones((2, 3, 32, 32)))
    assert out.shape == (2, 10)
    with pytest.raises(AssertionError, match="Invalid number of layers"):
        vision.get_resnet(1, 20)
    with pytest.raises(AssertionError, match="Invalid resnet version"):
        vision.get_resnet(3, 18)
