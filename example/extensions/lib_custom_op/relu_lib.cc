/*!
 * \file relu_lib.cc
 * \brief Example extension library (CPU): ReLU as a stateless operator (my_relu), a stateful
 *        one (my_state_relu) and a noisy ReLU drawing from MXNet's random states
 *        (my_noisy_relu). relu_lib.cu defines GPU kernels and includes this file with
 *        RELU_LIB_WITH_GPU, so the same operators also get "gpu" functions.
 *
 * Build: g++ -shared -fPIC -std=c++17 relu_lib.cc ../../../src/lib_api.cc -o librelu_lib.so \
 *            -I ../../../include
 */
#include <iostream>
#include <random>

#include "mxnet/lib_api.h"

using namespace mxnet::ext;

MXReturnValue parseAttrs(const std::unordered_map<std::string, std::string>& attrs,
                         int* num_in, int* num_out) {
  *num_in = 1;
  *num_out = 1;
  return MX_SUCCESS;
}

MXReturnValue inferType(const std::unordered_map<std::string, std::string>& attrs,
                        std::vector<int>* intypes,
                        std::vector<int>* outtypes) {
  if (intypes->at(0) != kFloat32) {
    MX_ERROR_MSG << "Expected a float32 input, got type code " << intypes->at(0);
    return MX_FAIL;
  }
  outtypes->at(0) = intypes->at(0);
  return MX_SUCCESS;
}

MXReturnValue inferShape(const std::unordered_map<std::string, std::string>& attrs,
                         std::vector<std::vector<unsigned int>>* inshapes,
                         std::vector<std::vector<unsigned int>>* outshapes) {
  outshapes->at(0) = inshapes->at(0);
  return MX_SUCCESS;
}

MXReturnValue forwardCPU(const std::unordered_map<std::string, std::string>& attrs,
                         std::vector<MXTensor>* inputs,
                         std::vector<MXTensor>* outputs,
                         const OpResource& res) {
  float* in_data = inputs->at(0).data<float>();
  float* out_data = outputs->at(0).data<float>();
  for (int64_t i = 0; i < inputs->at(0).size(); ++i) {
    out_data[i] = in_data[i] > 0 ? in_data[i] : 0;
  }
  return MX_SUCCESS;
}

// Inputs: out-grad, forward input, forward output. Output: in-grad.
MXReturnValue backwardCPU(const std::unordered_map<std::string, std::string>& attrs,
                          std::vector<MXTensor>* inputs,
                          std::vector<MXTensor>* outputs,
                          const OpResource& res) {
  float* out_grad = inputs->at(0).data<float>();
  float* in_data = inputs->at(1).data<float>();
  float* in_grad = outputs->at(0).data<float>();
  for (int64_t i = 0; i < inputs->at(1).size(); ++i) {
    in_grad[i] = in_data[i] > 0 ? out_grad[i] : 0;
  }
  return MX_SUCCESS;
}

REGISTER_OP(my_relu)
.setParseAttrs(parseAttrs)
.setInferType(inferType)
.setInferShape(inferShape)
.setForward(forwardCPU, "cpu")
.setBackward(backwardCPU, "cpu")
#ifdef RELU_LIB_WITH_GPU
.setForward(forwardGPU, "gpu")
.setBackward(backwardGPU, "gpu")
#endif
;

class MyStatefulReluCPU : public CustomStatefulOp {
 public:
  explicit MyStatefulReluCPU(const std::unordered_map<std::string, std::string>& attrs)
      : attrs_(attrs) {}
  MXReturnValue Forward(std::vector<MXTensor>* inputs,
                        std::vector<MXTensor>* outputs,
                        const OpResource& op_res) {
    return forwardCPU(attrs_, inputs, outputs, op_res);
  }
  MXReturnValue Backward(std::vector<MXTensor>* inputs,
                         std::vector<MXTensor>* outputs,
                         const OpResource& op_res) {
    return backwardCPU(attrs_, inputs, outputs, op_res);
  }
  ~MyStatefulReluCPU() {}

 private:
  const std::unordered_map<std::string, std::string> attrs_;
};

MXReturnValue createOpStateCPU(const std::unordered_map<std::string, std::string>& attrs,
                               const MXContext& ctx,
                               const std::vector<std::vector<unsigned int>>& in_shapes,
                               const std::vector<int> in_types,
                               CustomStatefulOp** op_inst) {
  *op_inst = CustomStatefulOp::create<MyStatefulReluCPU>(attrs);
  return MX_SUCCESS;
}

REGISTER_OP(my_state_relu)
.setParseAttrs(parseAttrs)
.setInferType(inferType)
.setInferShape(inferShape)
.setCreateOpState(createOpStateCPU, "cpu")
#ifdef RELU_LIB_WITH_GPU
.setCreateOpState(createOpStateGPU, "gpu")
#endif
;

// out = max(x + noise, 0) with noise ~ N(0, 1) from MXNet's random states.
MXReturnValue noisyForwardCPU(const std::unordered_map<std::string, std::string>& attrs,
                              std::vector<MXTensor>* inputs,
                              std::vector<MXTensor>* outputs,
                              const OpResource& res) {
  float* in_data = inputs->at(0).data<float>();
  float* out_data = outputs->at(0).data<float>();
  mx_cpu_rand_t* states = res.get_cpu_rand_states();
  std::normal_distribution<float> dist_normal;
  for (int64_t i = 0; i < inputs->at(0).size(); ++i) {
    float noisy = in_data[i] + dist_normal(states[0]);
    out_data[i] = noisy > 0 ? noisy : 0;
  }
  return MX_SUCCESS;
}

REGISTER_OP(my_noisy_relu)
.setParseAttrs(parseAttrs)
.setInferType(inferType)
.setInferShape(inferShape)
.setForward(noisyForwardCPU, "cpu")
.setBackward(backwardCPU, "cpu")
#ifdef RELU_LIB_NOISY_GPU
.setForward(noisyForwardGPU, "gpu")
.setBackward(backwardGPU, "gpu")
#endif
;

MXReturnValue initialize(int version) {
  if (version >= 10900) {
    std::cout << "MXNet version " << version << " supported" << std::endl;
    return MX_SUCCESS;
  } else {
    MX_ERROR_MSG << "MXNet version " << version << " not supported by relu_lib";
    return MX_FAIL;
  }
}
