"""GluonCV 0.10.5.post0 and GluonNLP 0.10.0, installed from PyPI, on this checkout's mxnet.

tools/client_libs.sh installs them once into a cached directory (tools/test.sh runs it before
pytest and exports $MXNET_CLIENT_LIBS_SITE); nothing is downloaded while these tests run: without
the directory they skip and say how to make it. The same libraries are installed into the MXNet
1.9.1 reference interpreter, and client_libs_nets.py runs a few of their model-zoo networks
(pretrained=False) under both: forward imperative and hybridized, then one SGD training step.
The outputs, the loss and the parameter changes must agree with 1.9.1.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import mx191_oracle

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = mx191_oracle.REPO
NETS_SCRIPT = os.path.join(HERE, "client_libs_nets.py")
NETS = ["resnet18_v1b", "mobilenet1.0", "mobilenetv3_small", "ssd_512_mobilenet1.0_voc",
        "center_net_resnet18_v1b_voc", "standard_lstm_lm_200", "bert_small"]
# The training step runs in float64 except for BERT (1.9.1's CPU attention is float32 only).
FLOAT32_STEP = {"bert_small"}


@pytest.fixture(scope="module")
def site():
    """The directory with the installed libraries ($MXNET_CLIENT_LIBS_SITE, else the cache that
    tools/client_libs.sh made; never installed from here)."""
    proc = subprocess.run([os.path.join(REPO, "tools", "client_libs.sh"), "--cached"],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        pytest.skip("GluonCV/GluonNLP not installed (run tools/client_libs.sh, which fetches "
                    "them from PyPI once): " + proc.stderr.strip()[-300:])
    return proc.stdout.strip().splitlines()[-1]


def ours_env(site_dir):
    env = mx191_oracle.env(ours=True)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(REPO, "python"), site_dir])
    return env


def run_ours(site_dir, code):
    proc = subprocess.run([sys.executable, "-c", code], env=ours_env(site_dir), cwd="/",
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


@pytest.fixture(scope="module")
def reference():
    """The reference interpreter, when it has the libraries (tools/client_libs.sh puts them
    into its venv)."""
    if not mx191_oracle.HAVE_MX191:
        pytest.skip(mx191_oracle.SKIP_REASON)
    proc = subprocess.run([mx191_oracle.MX191, "-c", "import gluoncv, gluonnlp"],
                          env=mx191_oracle.env(ours=False), cwd="/", capture_output=True,
                          text=True, check=False)
    if proc.returncode != 0:
        pytest.skip("GluonCV/GluonNLP missing in the reference interpreter %s (run "
                    "tools/client_libs.sh): %s" % (mx191_oracle.MX191, proc.stderr[-300:]))
    return mx191_oracle.MX191


IMPORT_CHECK = r"""
import os, sys
import mxnet, gluoncv, gluonnlp
repo = sys.argv[1]
assert mxnet.__file__.startswith(os.path.join(repo, "python")), mxnet.__file__
assert gluoncv._found_mxnet and gluoncv.__version__ == "0.11.0", gluoncv.__version__
assert gluonnlp.__version__ == "0.10.0"
# GluonNLP's Cython extension (its BERT tokenizer) was built and loads.
from gluonnlp.data import fast_bert_tokenizer
# The private names of 1.9.1 the two libraries import.
from mxnet.gluon.data.dataloader import _MultiWorkerIter, _as_in_context, ForkingPickler
from mxnet.gluon.utils import _get_repo_file_url, _get_repo_url
from mxnet.image.image import _get_interp_method
from mxnet.gluon.loss import _apply_weighting, _reshape_like
# GluonNLP registers its pretrained models in mxnet's model store (the dict 1.9.1 names
# _model_sha1), and the store's lookups see them.
from mxnet.gluon.model_zoo import model_store
assert model_store.short_hash("standard_lstm_lm_200_wikitext-2") == "b233c700"
assert model_store.short_hash("resnet18_v1") == "a0666292"
print(len(gluoncv.model_zoo.get_model_list()), len(model_store._model_sha1))
"""


def test_both_import_with_this_checkouts_mxnet(site):
    n_models, n_hashes = run_ours(site, IMPORT_CHECK.replace("sys.argv[1]", repr(REPO))).split()
    assert int(n_models) > 300 and int(n_hashes) > 60  # mxnet's 34 and GluonNLP's


@pytest.fixture(scope="module")
def results(site, reference, tmp_path_factory):
    """client_libs_nets.py over NETS under 1.9.1 and under this checkout (side by side)."""
    tmp = tmp_path_factory.mktemp("client_libs")
    ref_file, our_file = str(tmp / "ref.npz"), str(tmp / "ours.npz")
    procs = [subprocess.Popen([reference, NETS_SCRIPT, ref_file] + NETS,
                              env=mx191_oracle.env(ours=False), cwd="/",
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT),
             subprocess.Popen([sys.executable, NETS_SCRIPT, our_file] + NETS,
                              env=ours_env(site), cwd="/",
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)]
    outputs = [p.communicate(timeout=600)[0].decode(errors="replace") for p in procs]
    for proc, output, who in zip(procs, outputs, ("MXNet 1.9.1", "this checkout")):
        assert proc.returncode == 0, "%s: %s" % (who, output[-3000:])
    ref, ours = np.load(ref_file), np.load(our_file)
    assert str(ours["mxnet_file"]).startswith(os.path.join(REPO, "python"))
    assert not str(ref["mxnet_file"]).startswith(REPO)
    return ref, ours


def entries(npz, net):
    prefix = net + "/"
    return {k[len(prefix):]: npz[k] for k in npz.files if k.startswith(prefix)}


@pytest.mark.parametrize("net", NETS)
def test_model_zoo_network_matches_mx191(results, net):
    ref, ours = (entries(r, net) for r in results)
    assert "error" not in ref, "the script fails under MXNet 1.9.1:\n" + str(ref["error"])
    assert "error" not in ours, str(ours["error"])
    assert sorted(ours) == sorted(ref)
    # The same parameters, in the same order, under the same names.
    assert list(ours["names"]) == list(ref["names"])
    # Forward passes (float32), imperative and hybridized: detections, scores, boxes, logits.
    outputs = [k for k in ref if k.startswith(("fwd", "hyb"))]
    assert outputs
    for key in outputs:
        scale = np.abs(ref[key]).max()
        np.testing.assert_allclose(ours[key], ref[key], rtol=1e-4, atol=1e-5 * scale,
                                   err_msg="%s %s" % (net, key))
    if "loss" not in ref:
        return
    step32 = net in FLOAT32_STEP
    np.testing.assert_allclose(ours["loss"], ref["loss"], rtol=1e-5 if step32 else 1e-10)
    # The training step: how every parameter changed. The change's scale in the network
    # (the largest element) bounds the error on changes that are only rounding, such as
    # biases before a BatchNorm, whose gradient is zero.
    changes = [k for k in ref if k.startswith("u")]
    assert len(changes) == len(ref["names"])
    scale = max(np.abs(ref[k]).max() for k in changes)
    assert scale > 0
    rtol = 1e-4 if step32 else 1e-7
    for key in changes:
        name = ref["names"][int(key[1:])]
        norm_ref, norm_ours = float(ref["n" + key[1:]]), float(ours["n" + key[1:]])
        assert abs(norm_ours - norm_ref) <= rtol * (norm_ref + scale), (name, norm_ref,
                                                                        norm_ours)
        np.testing.assert_allclose(ours[key], ref[key], rtol=rtol, atol=rtol * scale,
                                   err_msg="%s: change of %s" % (net, name))
