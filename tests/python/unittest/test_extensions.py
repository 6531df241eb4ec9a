"""Extension libraries (include/mxnet/lib_api.h, MXLoadLib, mx.library): the example libraries
and deliberately broken ones are compiled during the run (g++) and loaded into this process.

Oracles: mx.nd.dot / NumPy for GEMM and ReLU results, NumPy transposed products for the GEMM
gradients, the library's own stdout for the stateful forward counter.
"""
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

from common import REPO, run_python_script

EXAMPLES = os.path.join(REPO, "example", "extensions")
CXX = shutil.which("g++") or shutil.which("c++")
CC = shutil.which("gcc") or shutil.which("cc")

pytestmark = pytest.mark.skipif(CXX is None, reason="no C++ compiler to build extension libraries")


# The compilers run without the sanitizer runtime tools/sanitize.sh preloads into Python.
_COMPILER_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def _compile(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, env=_COMPILER_ENV)


def _include_dir():
    return mx.libinfo.find_include_path()


def _lib_api_cc():
    # Next to the include folder, both in a source tree and in an installed package.
    return os.path.join(os.path.dirname(_include_dir()), "src", "lib_api.cc")


def build_library(out_dir, name, sources, compiler=None):
    """Compile `sources` (paths) plus src/lib_api.cc into out_dir/lib<name>.so, as documented."""
    out = os.path.join(str(out_dir), "lib%s.so" % name)
    cmd = [compiler or CXX, "-shared", "-fPIC", "-std=c++17"] + list(sources) + \
        [_lib_api_cc(), "-o", out, "-I", _include_dir()]
    proc = _compile(cmd)
    assert proc.returncode == 0, "build failed: %s\n%s" % (" ".join(cmd), proc.stderr)
    return out


_LIB_API_OBJECTS = {}


def _lib_api_object(out_dir):
    """src/lib_api.cc compiled once, for the many small test libraries (saves a compile each)."""
    obj = _LIB_API_OBJECTS.get(str(out_dir))
    if obj is None:
        obj = os.path.join(str(out_dir), "lib_api.o")
        proc = _compile([CXX, "-c", "-fPIC", "-std=c++17", _lib_api_cc(), "-o", obj,
                         "-I", _include_dir()])
        assert proc.returncode == 0, proc.stderr
        _LIB_API_OBJECTS[str(out_dir)] = obj
    return obj


def build_from_text(out_dir, name, text, c_only=False):
    """Build a library from source text (c_only: a C file, without src/lib_api.cc)."""
    src = os.path.join(str(out_dir), name + (".c" if c_only else ".cc"))
    with open(src, "w") as f:
        f.write(text)
    if not c_only:
        out = os.path.join(str(out_dir), "lib%s.so" % name)
        cmd = [CXX, "-shared", "-fPIC", "-std=c++17", src, _lib_api_object(out_dir), "-o", out,
               "-I", _include_dir()]
        proc = _compile(cmd)
        assert proc.returncode == 0, "build failed: %s\n%s" % (" ".join(cmd), proc.stderr)
        return out
    out = os.path.join(str(out_dir), "lib%s.so" % name)
    proc = _compile([CC, "-shared", "-fPIC", src, "-o", out, "-I", _include_dir()])
    assert proc.returncode == 0, proc.stderr
    return out


# A complete unary operator (y = 2x, dy/dx = 2) named NAME, for the registration tests.
_UNARY_OP = r"""
static MXReturnValue NAME_parse(const std::unordered_map<std::string, std::string>&, int* i, int* o) {
  *i = 1; *o = 1; return MX_SUCCESS;
}
static MXReturnValue NAME_type(const std::unordered_map<std::string, std::string>&,
                               std::vector<int>* in, std::vector<int>* out) {
  out->at(0) = in->at(0); return MX_SUCCESS;
}
static MXReturnValue NAME_shape(const std::unordered_map<std::string, std::string>&,
                                std::vector<std::vector<unsigned int>>* in,
                                std::vector<std::vector<unsigned int>>* out) {
  out->at(0) = in->at(0); return MX_SUCCESS;
}
static MXReturnValue NAME_fwd(const std::unordered_map<std::string, std::string>&,
                              std::vector<MXTensor>* in, std::vector<MXTensor>* out,
                              const OpResource&) {
  for (int64_t i = 0; i < in->at(0).size(); ++i)
    out->at(0).data<float>()[i] = 2 * in->at(0).data<float>()[i];
  return MX_SUCCESS;
}
"""

_HEADER = '#include "mxnet/lib_api.h"\n#include <stdexcept>\nusing namespace mxnet::ext;\n'
_INIT_OK = "MXReturnValue initialize(int version) { return MX_SUCCESS; }\n"


def _unary(name):
    return _UNARY_OP.replace("NAME", name)


def _register(name, forward=True):
    chain = "REGISTER_OP(%s).setParseAttrs(%s_parse).setInferType(%s_type).setInferShape(%s_shape)" \
        % ((name,) * 4)
    if forward:
        chain += '.setForward(%s_fwd, "cpu")' % name
    return chain + ";\n"


# Operators whose failures are chosen by the `fail_at` attribute, plus probes of alloc_cpu,
# mutate-inputs and a deliberately wrong gradient (for the checker).
_TEST_OPS = _HEADER + r"""
#include <cstring>
using Attrs = std::unordered_map<std::string, std::string>;
static bool FailAt(const Attrs& a, const char* stage) {
  auto it = a.find("fail_at");
  return it != a.end() && it->second == stage;
}
static MXReturnValue parse1(const Attrs& a, int* i, int* o) {
  if (FailAt(a, "parse")) { MX_ERROR_MSG << "parse failed as asked"; return MX_FAIL; }
  *i = 1; *o = 1; return MX_SUCCESS;
}
static MXReturnValue type1(const Attrs& a, std::vector<int>* in, std::vector<int>* out) {
  if (FailAt(a, "type")) { MX_ERROR_MSG << "type failed as asked"; return MX_FAIL; }
  out->at(0) = in->at(0); return MX_SUCCESS;
}
static MXReturnValue shape1(const Attrs& a, std::vector<std::vector<unsigned int>>* in,
                            std::vector<std::vector<unsigned int>>* out) {
  if (FailAt(a, "shape")) { MX_ERROR_MSG << "shape failed as asked"; return MX_FAIL; }
  if (FailAt(a, "nothing")) MX_ERROR_MSG << "stale message of a successful call";
  out->at(0) = in->at(0); return MX_SUCCESS;
}
static MXReturnValue faulty_fwd(const Attrs& a, std::vector<MXTensor>* in,
                                std::vector<MXTensor>* out, const OpResource&) {
  if (FailAt(a, "forward")) { MX_ERROR_MSG << "forward failed as asked"; return MX_FAIL; }
  if (FailAt(a, "throw")) throw std::runtime_error("forward threw as asked");
  for (int64_t i = 0; i < in->at(0).size(); ++i)
    out->at(0).data<float>()[i] = 2 * in->at(0).data<float>()[i];
  return MX_SUCCESS;
}
static MXReturnValue faulty_bwd(const Attrs& a, std::vector<MXTensor>* in,
                                std::vector<MXTensor>* out, const OpResource&) {
  if (FailAt(a, "backward")) { MX_ERROR_MSG << "backward failed as asked"; return MX_FAIL; }
  for (int64_t i = 0; i < out->at(0).size(); ++i)
    out->at(0).data<float>()[i] = 2 * in->at(0).data<float>()[i];
  return MX_SUCCESS;
}
REGISTER_OP(faulty).setParseAttrs(parse1).setInferType(type1).setInferShape(shape1)
    .setForward(faulty_fwd, "cpu").setBackward(faulty_bwd, "cpu");

// Wrong on purpose: the gradient of y = 2x is 2, this says 3.
static MXReturnValue bad_bwd(const Attrs& a, std::vector<MXTensor>* in,
                             std::vector<MXTensor>* out, const OpResource&) {
  for (int64_t i = 0; i < out->at(0).size(); ++i)
    out->at(0).data<float>()[i] = 3 * in->at(0).data<float>()[i];
  return MX_SUCCESS;
}
REGISTER_OP(bad_grad).setParseAttrs(parse1).setInferType(type1).setInferShape(shape1)
    .setForward(faulty_fwd, "cpu").setBackward(bad_bwd, "cpu");

// out = 1 if two alloc_cpu blocks of one call do not overlap (both keep their pattern).
static MXReturnValue blocks_fwd(const Attrs& a, std::vector<MXTensor>* in,
                                std::vector<MXTensor>* out, const OpResource& res) {
  const int n = 4096;
  char* x = static_cast<char*>(res.alloc_cpu(n));
  char* y = static_cast<char*>(res.alloc_cpu(n));
  if (x == nullptr || y == nullptr) { MX_ERROR_MSG << "alloc_cpu returned NULL"; return MX_FAIL; }
  std::memset(x, 1, n);
  std::memset(y, 2, n);
  bool ok = x + n <= y || y + n <= x;
  for (int i = 0; i < n; ++i) ok = ok && x[i] == 1 && y[i] == 2;
  for (int64_t i = 0; i < out->at(0).size(); ++i) out->at(0).data<float>()[i] = ok ? 1 : 0;
  return MX_SUCCESS;
}
REGISTER_OP(two_blocks).setParseAttrs(parse1).setInferType(type1).setInferShape(shape1)
    .setForward(blocks_fwd, "cpu");

// Adds 1 to its input in place (declared with setMutateInputs) and returns the new values.
static MXReturnValue inc_fwd(const Attrs& a, std::vector<MXTensor>* in,
                             std::vector<MXTensor>* out, const OpResource&) {
  float* x = in->at(0).data<float>();
  for (int64_t i = 0; i < in->at(0).size(); ++i) {
    x[i] += 1;
    out->at(0).data<float>()[i] = x[i];
  }
  return MX_SUCCESS;
}
static MXReturnValue inc_mutate(const Attrs&, std::vector<int>* idx) {
  idx->push_back(0);
  return MX_SUCCESS;
}
REGISTER_OP(inc_inplace).setParseAttrs(parse1).setInferType(type1).setInferShape(shape1)
    .setMutateInputs(inc_mutate).setForward(inc_fwd, "cpu");

// Stateless without backward: not differentiable.
REGISTER_OP(_contrib_ext_double).setParseAttrs(parse1).setInferType(type1)
    .setInferShape(shape1).setForward(faulty_fwd, "cpu");
""" + _INIT_OK


@pytest.fixture(scope="module")
def libdir(tmp_path_factory):
    return tmp_path_factory.mktemp("extlibs")


@pytest.fixture(scope="module")
def gemm_lib(libdir):
    path = build_library(libdir, "gemm_lib",
                         [os.path.join(EXAMPLES, "lib_custom_op", "gemm_lib.cc")])
    mx.library.load(path)
    return path


@pytest.fixture(scope="module")
def relu_lib(libdir):
    path = build_library(libdir, "relu_lib",
                         [os.path.join(EXAMPLES, "lib_custom_op", "relu_lib.cc")])
    mx.library.load(path, verbose=False)
    return path


@pytest.fixture(scope="module")
def test_ops_lib(libdir):
    path = build_from_text(libdir, "test_ops", _TEST_OPS)
    mx.library.load(path, verbose=False)
    return path


def _rand(*shape):
    return np.random.uniform(-1, 1, size=shape).astype(np.float32)


def _gemm_sizes(count=4):
    rng = np.random.RandomState(7)
    return [tuple(int(v) for v in rng.randint(1, 9, size=3)) for _ in range(count)]


# ------------------------------------------------------------------------------ GEMM library


def test_gemm_imperative_matches_dot(gemm_lib):
    for n, k, m in _gemm_sizes():
        a, b = mx.nd.array(_rand(n, k)), mx.nd.array(_rand(k, m))
        expected = mx.nd.dot(a, b).asnumpy()
        np.testing.assert_allclose(mx.nd.my_gemm(a, b).asnumpy(), expected, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(mx.nd.state_gemm(a, b, test_kw=100).asnumpy(), expected,
                                   rtol=1e-5, atol=1e-5)


def test_gemm_matches_linalg_gemm2(gemm_lib):
    for n, k, m in _gemm_sizes():
        a, b = mx.nd.array(_rand(n, k)), mx.nd.array(_rand(k, m))
        np.testing.assert_allclose(mx.nd.my_gemm(a, b).asnumpy(),
                                   mx.nd.linalg.gemm2(a, b).asnumpy(), rtol=1e-3, atol=1e-3)


def test_gemm_ops_are_generated_functions(gemm_lib):
    assert mx.nd.my_gemm is mx.nd.op.my_gemm
    assert "my_gemm" in mx.nd.__all__
    assert gemm_lib in mx.nd.my_gemm.__doc__          # the docstring names the library
    assert mx.library.loaded_operators()["my_gemm"] == gemm_lib
    assert callable(mx.nd._internal._backward_my_gemm)
    assert not hasattr(mx.nd._internal, "_backward_no_such")


def test_gemm_out_argument(gemm_lib):
    a, b = mx.nd.array(_rand(3, 4)), mx.nd.array(_rand(4, 5))
    out = mx.nd.zeros((3, 5))
    ret = mx.nd.my_gemm(a, b, out=out)
    assert ret is out
    np.testing.assert_allclose(out.asnumpy(), a.asnumpy() @ b.asnumpy(), rtol=1e-5, atol=1e-5)


def test_gemm_backward_op(gemm_lib):
    for n, k, m in _gemm_sizes():
        a, b, dc = _rand(n, k), _rand(k, m), _rand(n, m)
        c = mx.nd.my_gemm(mx.nd.array(a), mx.nd.array(b))
        da, db = mx.nd._internal._backward_my_gemm(mx.nd.array(dc), mx.nd.array(a),
                                                    mx.nd.array(b), c)
        np.testing.assert_allclose(da.asnumpy(), dc @ b.T, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(db.asnumpy(), a.T @ dc, rtol=1e-4, atol=1e-4)


def test_stateful_forward_sees_attributes_and_counts(gemm_lib, capfd):
    a, b = mx.nd.array(_rand(2, 3)), mx.nd.array(_rand(3, 1))
    mx.nd.state_gemm(a, b, test_kw=100).wait_to_read()
    mx.nd.state_gemm(a, b, test_kw=7).wait_to_read()
    out = capfd.readouterr().out
    # Each imperative call creates its state from the call's attributes.
    assert "Info: stateful operator created" in out
    assert "Info: keyword + number of forward: 101" in out
    assert "Info: keyword + number of forward: 8" in out


def test_gemm_shape_and_type_errors_name_the_library_message(gemm_lib):
    with pytest.raises(MXNetError) as err:
        mx.nd.my_gemm(mx.nd.ones((2, 3)), mx.nd.ones((4, 5)))
    msg = str(err.value)
    assert "Error calling InferShape for custom operator 'my_gemm'" in msg
    assert "Exected first input axis 1 equals to second input axis 0, got 3 and 4" in msg
    assert "[[2,3],[4,5]]" in msg.replace(" ", "")   # the input shapes
    with pytest.raises(MXNetError) as err:
        mx.nd.my_gemm(mx.nd.ones((2, 3), dtype="float64"), mx.nd.ones((3, 5), dtype="float64"))
    assert "Expected input 0 to have float32 type" in str(err.value)
    assert "InferType" in str(err.value)
    with pytest.raises(MXNetError) as err:
        mx.nd.my_gemm(mx.nd.ones((2, 3)))
    assert "my_gemm" in str(err.value) and "2" in str(err.value)


def test_loading_twice_is_harmless(gemm_lib):
    assert mx.library.load(gemm_lib, verbose=False) == []
    a, b = mx.nd.array(_rand(2, 2)), mx.nd.array(_rand(2, 2))
    np.testing.assert_allclose(mx.nd.my_gemm(a, b).asnumpy(), a.asnumpy() @ b.asnumpy(),
                               rtol=1e-5, atol=1e-5)


def test_gemm_autograd(gemm_lib):
    if not hasattr(mx, "autograd"):
        pytest.skip("mx.autograd is not available yet (issue 4)")
    for op in (mx.nd.my_gemm, mx.nd.state_gemm):
        for n, k, m in _gemm_sizes(2):
            a, b, dc = _rand(n, k), _rand(k, m), _rand(n, m)
            x, y = mx.nd.array(a), mx.nd.array(b)
            x.attach_grad()
            y.attach_grad()
            with mx.autograd.record():
                z = op(x, y)
            z.backward(mx.nd.array(dc))
            np.testing.assert_allclose(z.asnumpy(), a @ b, rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(x.grad.asnumpy(), dc @ b.T, rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(y.grad.asnumpy(), a.T @ dc, rtol=1e-4, atol=1e-4)


def _has_symbol_executor():
    return hasattr(mx, "sym") and hasattr(mx.sym, "Variable") and hasattr(mx.sym.Symbol, "bind")


def test_gemm_symbolic_bind_forward_backward(gemm_lib, capfd):
    if not _has_symbol_executor():
        pytest.skip("mx.sym with bound executors is not available yet (branch graph)")
    n, k, m = 3, 4, 2
    a, b, dc = _rand(n, k), _rand(k, m), _rand(n, m)
    s, t = mx.sym.Variable("s"), mx.sym.Variable("t")
    for sym in (mx.sym.my_gemm(s, t), mx.sym.state_gemm(s, t, test_kw=200)):
        grads = [mx.nd.empty((n, k)), mx.nd.empty((k, m))]
        exe = sym.bind(ctx=mx.cpu(), args={"s": mx.nd.array(a), "t": mx.nd.array(b)},
                       args_grad=grads)
        exe.forward(is_train=True)
        out = exe.forward(is_train=True)
        np.testing.assert_allclose(out[0].asnumpy(), a @ b, rtol=1e-4, atol=1e-4)
        exe.backward([mx.nd.array(dc)])
        np.testing.assert_allclose(grads[0].asnumpy(), dc @ b.T, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(grads[1].asnumpy(), a.T @ dc, rtol=1e-4, atol=1e-4)
    # One state per bound executor: its forward counter goes on from 200.
    printed = capfd.readouterr().out
    assert "number of forward: 201" in printed and "number of forward: 202" in printed


# ------------------------------------------------------------------------------ ReLU library


def test_relu_ops(relu_lib):
    x = _rand(5, 7)
    expected = np.maximum(x, 0)
    np.testing.assert_array_equal(mx.nd.my_relu(mx.nd.array(x)).asnumpy(), expected)
    np.testing.assert_array_equal(mx.nd.my_state_relu(mx.nd.array(x)).asnumpy(), expected)
    dy = _rand(5, 7)
    dx = mx.nd._internal._backward_my_relu(mx.nd.array(dy), mx.nd.array(x),
                                           mx.nd.array(expected))
    np.testing.assert_array_equal(dx.asnumpy(), np.where(x > 0, dy, 0))


def test_noisy_relu_uses_seeded_random_states(relu_lib):
    zeros = mx.nd.zeros((4000,))
    mx.random.seed(42)
    first = mx.nd.my_noisy_relu(zeros).asnumpy()
    second = mx.nd.my_noisy_relu(zeros).asnumpy()
    mx.random.seed(42)
    again = mx.nd.my_noisy_relu(zeros).asnumpy()
    np.testing.assert_array_equal(first, again)          # follows mx.random.seed
    assert not np.array_equal(first, second)             # fresh noise on every call
    # max(N(0,1), 0): half the values are positive, their mean is sqrt(2/pi).
    assert abs((first > 0).mean() - 0.5) < 0.05
    assert abs(first[first > 0].mean() - np.sqrt(2 / np.pi)) < 0.06


def test_relu_autograd(relu_lib):
    if not hasattr(mx, "autograd"):
        pytest.skip("mx.autograd is not available yet (issue 4)")
    x = _rand(4, 4)
    for op in (mx.nd.my_relu, mx.nd.my_state_relu):
        v = mx.nd.array(x)
        v.attach_grad()
        with mx.autograd.record():
            y = op(v)
        y.backward()
        np.testing.assert_array_equal(v.grad.asnumpy(), (x > 0).astype(np.float32))


# ------------------------------------------------------------------------------ lib_api example


def test_library_without_operators_loads_twice(libdir):
    path = build_library(libdir, "init_lib", [os.path.join(EXAMPLES, "lib_api", "init_lib.cc")])
    assert mx.library.load(path) == []
    assert mx.library.load(path, verbose=False) == []


def test_example_scripts(libdir, gemm_lib, relu_lib):
    for script, lib in (("test_gemm.py", gemm_lib), ("test_relu.py", relu_lib)):
        proc = run_python_script(os.path.join(EXAMPLES, "lib_custom_op", script), lib)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "all results match" in proc.stdout


# ------------------------------------------------------------------------------ resources


def test_alloc_cpu_blocks_of_one_call_do_not_alias(test_ops_lib):
    out = mx.nd.two_blocks(mx.nd.zeros((3,)))
    np.testing.assert_array_equal(out.asnumpy(), np.ones(3))


def test_mutate_inputs(test_ops_lib):
    x = mx.nd.array([1.0, 2.0, 3.0])
    y = mx.nd.inc_inplace(x)
    np.testing.assert_array_equal(y.asnumpy(), [2, 3, 4])
    np.testing.assert_array_equal(x.asnumpy(), [2, 3, 4])   # the write is ordered before reads
    y2 = mx.nd.inc_inplace(x)
    np.testing.assert_array_equal(y2.asnumpy(), [3, 4, 5])


def test_contrib_names_go_to_contrib(test_ops_lib):
    out = mx.nd.contrib.ext_double(mx.nd.array([1.0, -2.0]))
    np.testing.assert_array_equal(out.asnumpy(), [2, -4])
    assert not hasattr(mx.nd._internal, "_backward__contrib_ext_double")


# ------------------------------------------------------------------------------ error cases


@pytest.mark.parametrize("stage,call", [("parse", "ParseAttrs"), ("shape", "InferShape"),
                                        ("type", "InferType")])
def test_inference_failures_raise_with_library_message(test_ops_lib, stage, call):
    with pytest.raises(MXNetError) as err:
        mx.nd.faulty(mx.nd.ones((2, 2)), fail_at=stage)
    msg = str(err.value)
    assert "Error calling %s for custom operator 'faulty'" % call in msg
    assert "%s failed as asked" % stage in msg
    assert "Extension Traceback" in msg
    # The message was cleared in the library: the next failure reports only its own.
    with pytest.raises(MXNetError) as err2:
        mx.nd.faulty(mx.nd.ones((2, 2)), fail_at=stage)
    assert str(err2.value).count("failed as asked") == 1


def test_messages_of_successful_calls_are_not_reported_later(test_ops_lib):
    mx.nd.faulty(mx.nd.ones((2,)), fail_at="nothing").wait_to_read()
    with pytest.raises(MXNetError) as err:
        mx.nd.faulty(mx.nd.ones((2,)), fail_at="shape")
    assert "shape failed as asked" in str(err.value)
    assert "stale message" not in str(err.value)


@pytest.mark.parametrize("stage,text", [("forward", "forward failed as asked"),
                                        ("throw", "forward threw as asked")])
def test_forward_failure_raises_at_wait(test_ops_lib, stage, text):
    y = mx.nd.faulty(mx.nd.ones((2, 2)), fail_at=stage)   # pushed; fails in the engine
    with pytest.raises(MXNetError) as err:
        y.asnumpy()
    assert "Error calling FCompute for custom operator 'faulty'" in str(err.value)
    assert text in str(err.value)
    # The process and the library are fine afterwards.
    np.testing.assert_array_equal(mx.nd.faulty(mx.nd.ones((2,))).asnumpy(), [2, 2])


def test_backward_failure(test_ops_lib):
    g = mx.nd._internal._backward_faulty(mx.nd.ones((2,)), mx.nd.ones((2,)), mx.nd.ones((2,)),
                                         fail_at="backward")
    with pytest.raises(MXNetError, match="backward failed as asked"):
        g.asnumpy()


def test_missing_file():
    with pytest.raises(MXNetError, match="does NOT exist"):
        mx.library.load("/nonexistent/libnothing.so")


def test_relative_path_refused(libdir):
    path = build_from_text(libdir, "rel_init", _HEADER + _INIT_OK)
    rel = os.path.relpath(path)
    with pytest.raises(MXNetError, match="not an absolute path"):
        mx.library.load(rel)


def test_not_a_shared_library(libdir):
    path = os.path.join(str(libdir), "libtext.so")
    with open(path, "w") as f:
        f.write("this is not an ELF file\n")
    with pytest.raises(MXNetError, match="Error loading library"):
        mx.library.load(path)
    with pytest.raises(MXNetError, match="NOT a library file"):
        mx.library.load(os.path.join(EXAMPLES, "lib_api", "init_lib.cc"))


def test_not_built_with_lib_api(libdir):
    if CC is None:
        pytest.skip("no C compiler")
    # What a library built for MXNet 1.9 exports: _opVersion and friends, not our entry point.
    path = build_from_text(libdir, "mx19", "int _opVersion(void) { return 11; }\n", c_only=True)
    with pytest.raises(MXNetError, match="not an MXNet extension library.*rebuild"):
        mx.library.load(path)


def test_other_interface_version(libdir):
    if CC is None:
        pytest.skip("no C compiler")
    text = ('#include "mxnet/lib_api.h"\n'
            "static MXExtLibrary table = {MX_EXT_ABI_VERSION + 98, sizeof(MXExtLibrary)};\n"
            "const MXExtLibrary* MXExtGetLibrary(void) { return &table; }\n")
    path = build_from_text(libdir, "other_version", text, c_only=True)
    with pytest.raises(MXNetError) as err:
        mx.library.load(path)
    version = int(re.search(r"#define MX_EXT_ABI_VERSION (\d+)", open(
        os.path.join(_include_dir(), "mxnet", "lib_api.h")).read()).group(1))
    msg = str(err.value)
    assert "library interface version (%d)" % (version + 98) in msg
    assert "interface version (%d)" % version in msg


def test_initialize_failure(libdir):
    text = _HEADER + ('MXReturnValue initialize(int version) {\n'
                      '  MX_ERROR_MSG << "refusing MXNet " << version; return MX_FAIL; }\n')
    path = build_from_text(libdir, "init_fail", text)
    with pytest.raises(MXNetError) as err:
        mx.library.load(path)
    assert "failed to initialize" in str(err.value)
    assert "refusing MXNet 10901" in str(err.value)


def test_op_missing_forward_registers_nothing(libdir):
    text = _HEADER + _unary("mf_good") + _register("mf_good") + _unary("mf_noforward") + \
        _register("mf_noforward", forward=False) + _INIT_OK
    path = build_from_text(libdir, "missing_forward", text)
    with pytest.raises(MXNetError,
                       match="'mf_noforward' custom op, Forward or CreateOpState function was not set"):
        mx.library.load(path)
    assert not hasattr(mx.nd, "mf_good")
    mx.base._refresh_op_names()
    assert "mf_good" not in mx.base.list_op_names()


def test_op_missing_infer_shape(libdir):
    text = _HEADER + _unary("ms_op") + \
        'REGISTER_OP(ms_op).setParseAttrs(ms_op_parse).setInferType(ms_op_type)' \
        '.setForward(ms_op_fwd, "cpu");\n' + _INIT_OK
    path = build_from_text(libdir, "missing_shape", text)
    with pytest.raises(MXNetError, match="'ms_op' custom op, InferShape function was not set"):
        mx.library.load(path)


def test_two_forwards_for_one_context(libdir):
    text = _HEADER + _unary("twice_op") + \
        _register("twice_op").replace(";\n", '.setForward(twice_op_fwd, "cpu");\n') + _INIT_OK
    path = build_from_text(libdir, "twice", text)
    with pytest.raises(MXNetError, match="multiple functions under same context 'cpu'"):
        mx.library.load(path)


def test_name_clash_with_builtin_op(libdir):
    text = _HEADER + _unary("dot") + _register("dot") + _INIT_OK
    path = build_from_text(libdir, "clash", text)
    with pytest.raises(MXNetError, match="'dot' clashes with a built-in operator"):
        mx.library.load(path)
    a = mx.nd.array(_rand(2, 2))
    np.testing.assert_allclose(mx.nd.dot(a, a).asnumpy(), a.asnumpy() @ a.asnumpy(), rtol=1e-5)


def test_name_clash_between_libraries(libdir, gemm_lib):
    text = _HEADER + _unary("my_gemm") + _register("my_gemm") + _INIT_OK
    path = build_from_text(libdir, "clash2", text)
    with pytest.raises(MXNetError, match="already registered by extension library"):
        mx.library.load(path)


# ------------------------------------------------------------------------------ packaging, checker


def test_include_path_has_lib_api():
    inc = mx.libinfo.find_include_path()
    assert os.path.isfile(os.path.join(inc, "mxnet", "lib_api.h"))
    assert os.path.isfile(_lib_api_cc())


def test_checker_accepts_gemm_library(gemm_lib):
    proc = subprocess.run([sys.executable, "-m", "mxnet.library", "check", gemm_lib],
                          env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "python")),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 operator(s): my_gemm, state_gemm" in proc.stdout
    assert "0 problem(s)" in proc.stdout


def test_checker_reports_wrong_gradient(test_ops_lib):
    problems = mx.library.check(test_ops_lib, report=lambda *a: None)
    assert any("bad_grad" in p and "finite differences" in p for p in problems), problems
    assert not any(p.startswith("faulty") for p in problems), problems
