/*!
 * \file gemm_lib.cc
 * \brief Example extension library: matrix multiplication C = A * B as a stateless operator
 *        (my_gemm) and as a stateful one (state_gemm) that counts its forward calls.
 *
 * Build: g++ -shared -fPIC -std=c++17 gemm_lib.cc ../../../src/lib_api.cc -o libgemm_lib.so \
 *            -I ../../../include
 * Use:   mx.library.load("/abs/path/libgemm_lib.so"); c = mx.nd.my_gemm(a, b)
 */
#include <iostream>
#include <utility>

#include "mxnet/lib_api.h"

using namespace mxnet::ext;

// C (n x m) = A (n x k) * B (k x m), row-major.
void gemm(const float* A, const float* B, float* C, unsigned n, unsigned k, unsigned m) {
  for (unsigned i = 0; i < n; ++i) {
    for (unsigned j = 0; j < m; ++j) {
      float sum = 0;
      for (unsigned p = 0; p < k; ++p) sum += A[i * k + p] * B[p * m + j];
      C[i * m + j] = sum;
    }
  }
}

// Out (cols x rows) = transpose of In (rows x cols).
void transpose(const float* In, float* Out, unsigned rows, unsigned cols) {
  for (unsigned i = 0; i < rows; ++i)
    for (unsigned j = 0; j < cols; ++j) Out[j * rows + i] = In[i * cols + j];
}

MXReturnValue forward(const std::unordered_map<std::string, std::string>& attrs,
                      std::vector<MXTensor>* inputs,
                      std::vector<MXTensor>* outputs,
                      const OpResource& res) {
  float* A = inputs->at(0).data<float>();
  float* B = inputs->at(1).data<float>();
  float* C = outputs->at(0).data<float>();
  unsigned n = inputs->at(0).shape[0];
  unsigned k = inputs->at(0).shape[1];
  unsigned m = inputs->at(1).shape[1];
  gemm(A, B, C, n, k, m);
  return MX_SUCCESS;
}

// Inputs: dC, then the forward inputs A, B, then the forward output C. Outputs: dA, dB.
//   dA = dC * B^T,  dB = A^T * dC
MXReturnValue backward(const std::unordered_map<std::string, std::string>& attrs,
                       std::vector<MXTensor>* inputs,
                       std::vector<MXTensor>* outputs,
                       const OpResource& res) {
  float* dC = inputs->at(0).data<float>();
  float* A = inputs->at(1).data<float>();
  float* B = inputs->at(2).data<float>();
  float* dA = outputs->at(0).data<float>();
  float* dB = outputs->at(1).data<float>();
  unsigned n = inputs->at(1).shape[0];
  unsigned k = inputs->at(1).shape[1];
  unsigned m = inputs->at(2).shape[1];
  // Scratch memory from MXNet's resource manager, one block for both transposes.
  float* workspace = static_cast<float*>(res.alloc_cpu((k * n + m * k) * sizeof(float)));
  if (workspace == nullptr) {
    MX_ERROR_MSG << "could not allocate " << (k * n + m * k) << " floats of scratch memory";
    return MX_FAIL;
  }
  float* At = workspace;
  float* Bt = workspace + k * n;
  transpose(A, At, n, k);
  transpose(B, Bt, k, m);
  gemm(dC, Bt, dA, n, m, k);
  gemm(At, dC, dB, k, n, m);
  return MX_SUCCESS;
}

MXReturnValue parseAttrs(const std::unordered_map<std::string, std::string>& attrs,
                         int* num_in, int* num_out) {
  *num_in = 2;
  *num_out = 1;
  return MX_SUCCESS;
}

MXReturnValue inferType(const std::unordered_map<std::string, std::string>& attrs,
                        std::vector<int>* intypes,
                        std::vector<int>* outtypes) {
  if (intypes->size() != 2) {
    MX_ERROR_MSG << "Expected 2 inputs to inferType, got " << intypes->size();
    return MX_FAIL;
  }
  for (unsigned i = 0; i < intypes->size(); ++i) {
    if (intypes->at(i) != kFloat32) {
      MX_ERROR_MSG << "Expected input " << i << " to have float32 type, got type code "
                   << intypes->at(i);
      return MX_FAIL;
    }
  }
  outtypes->at(0) = intypes->at(0);
  return MX_SUCCESS;
}

MXReturnValue inferShape(const std::unordered_map<std::string, std::string>& attrs,
                         std::vector<std::vector<unsigned int>>* inshapes,
                         std::vector<std::vector<unsigned int>>* outshapes) {
  if (inshapes->size() != 2) {
    MX_ERROR_MSG << "Expected 2 inputs to inferShape, got " << inshapes->size();
    return MX_FAIL;
  }
  if (inshapes->at(0).size() != 2 || inshapes->at(1).size() != 2) {
    MX_ERROR_MSG << "Expected 2D matrices for both inputs to inferShape";
    return MX_FAIL;
  }
  unsigned n = inshapes->at(0)[0];
  unsigned k = inshapes->at(0)[1];
  unsigned kk = inshapes->at(1)[0];
  unsigned m = inshapes->at(1)[1];
  if (k != kk) {
    MX_ERROR_MSG << "Exected first input axis 1 equals to second input axis 0, got " << k
                 << " and " << kk;
    return MX_FAIL;
  }
  outshapes->at(0) = {n, m};
  return MX_SUCCESS;
}

REGISTER_OP(my_gemm)
.setForward(forward, "cpu")
.setBackward(backward, "cpu")
.setParseAttrs(parseAttrs)
.setInferType(inferType)
.setInferShape(inferShape);

/* ------------------------------------------------------------------------------------------
 * Stateful version: the instance lives as long as the bound executor (or the imperative call)
 * and counts its forward calls, starting from the value of the `test_kw` attribute.
 */
class MyStatefulGemm : public CustomStatefulOp {
 public:
  explicit MyStatefulGemm(int count, std::unordered_map<std::string, std::string> attrs)
      : count(count), attrs_(std::move(attrs)) {}

  MXReturnValue Forward(std::vector<MXTensor>* inputs,
                        std::vector<MXTensor>* outputs,
                        const OpResource& op_res) {
    std::cout << "Info: keyword + number of forward: " << ++count << std::endl;
    return forward(attrs_, inputs, outputs, op_res);
  }

  MXReturnValue Backward(std::vector<MXTensor>* inputs,
                         std::vector<MXTensor>* outputs,
                         const OpResource& op_res) {
    return backward(attrs_, inputs, outputs, op_res);
  }

  ~MyStatefulGemm() {}

 private:
  int count;
  const std::unordered_map<std::string, std::string> attrs_;
};

MXReturnValue createOpState(const std::unordered_map<std::string, std::string>& attrs,
                            const MXContext& ctx,
                            const std::vector<std::vector<unsigned int>>& in_shapes,
                            const std::vector<int> in_types,
                            CustomStatefulOp** op_inst) {
  // Keyword arguments reach the state: the forward counter starts at test_kw.
  int count = 0;
  if (attrs.count("test_kw") > 0) count = std::stoi(attrs.at("test_kw"));
  *op_inst = CustomStatefulOp::create<MyStatefulGemm>(count, attrs);
  std::cout << "Info: stateful operator created" << std::endl;
  return MX_SUCCESS;
}

MXReturnValue mutateInputs(const std::unordered_map<std::string, std::string>& attrs,
                           std::vector<int>* input_indices) {
  // input_indices->push_back(1);  // would mark input 1 as written by the operator
  return MX_SUCCESS;
}

REGISTER_OP(state_gemm)
.setParseAttrs(parseAttrs)
.setInferType(inferType)
.setInferShape(inferShape)
.setMutateInputs(mutateInputs)
.setCreateOpState(createOpState, "cpu");

MXReturnValue initialize(int version) {
  if (version >= 10900) {
    std::cout << "MXNet version " << version << " supported" << std::endl;
    return MX_SUCCESS;
  } else {
    MX_ERROR_MSG << "MXNet version " << version << " not supported";
    return MX_FAIL;
  }
}
