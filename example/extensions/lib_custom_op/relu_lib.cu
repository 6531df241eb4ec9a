/*!
 * \file relu_lib.cu
 * \brief GPU variant of relu_lib.cc: the same operators (my_relu, my_state_relu,
 *        my_noisy_relu) with "gpu" functions added to the CPU ones. Built only with CUDA:
 *
 *   nvcc -shared -std=c++17 -Xcompiler -fPIC relu_lib.cu ../../../src/lib_api.cc \
 *        -o librelu_lib_gpu.so -I ../../../include
 */
#include "mxnet/lib_api.h"

using namespace mxnet::ext;

#define NumThreadPerBlock 256

__global__ void relu_gpu_forward(float* out, const float* in, int64_t N) {
  int64_t tid = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (tid < N) out[tid] = in[tid] > 0 ? in[tid] : 0;
}

__global__ void relu_gpu_backward(float* ingrad, const float* outgrad, const float* indata,
                                  int64_t N) {
  int64_t tid = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (tid < N) ingrad[tid] = indata[tid] > 0 ? outgrad[tid] : 0;
}

#if MX_LIBRARY_HAS_CURAND
// Noisy ReLU needs curand's states; without the curand headers my_noisy_relu stays CPU only.
#define RELU_LIB_NOISY_GPU
__global__ void noisy_relu_gpu_forward(float* out, const float* in, int64_t N,
                                       mx_gpu_rand_t* states, int step) {
  int64_t tid = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  int64_t start = tid * step;
  int64_t end = start + step < N ? start + step : N;
  if (tid >= MX_NUM_GPU_RANDOM_STATES) return;
  mx_gpu_rand_t state = states[tid];
  for (int64_t i = start; i < end; ++i) {
    float noisy = in[i] + curand_normal(&state);
    out[i] = noisy > 0 ? noisy : 0;
  }
  states[tid] = state;
}
#endif  // MX_LIBRARY_HAS_CURAND

MXReturnValue forwardGPU(const std::unordered_map<std::string, std::string>& attrs,
                         std::vector<MXTensor>* inputs,
                         std::vector<MXTensor>* outputs,
                         const OpResource& res) {
  const float* in_data = inputs->at(0).data<float>();
  float* out_data = outputs->at(0).data<float>();
  mx_stream_t stream = res.get_cuda_stream();
  int64_t N = inputs->at(0).size();
  int num_block = (N + NumThreadPerBlock - 1) / NumThreadPerBlock;
  relu_gpu_forward<<<num_block, NumThreadPerBlock, 0, stream>>>(out_data, in_data, N);
  return MX_SUCCESS;
}

MXReturnValue backwardGPU(const std::unordered_map<std::string, std::string>& attrs,
                          std::vector<MXTensor>* inputs,
                          std::vector<MXTensor>* outputs,
                          const OpResource& res) {
  const float* out_grad = inputs->at(0).data<float>();
  const float* in_data = inputs->at(1).data<float>();
  float* in_grad = outputs->at(0).data<float>();
  mx_stream_t stream = res.get_cuda_stream();
  int64_t N = inputs->at(1).size();
  int num_block = (N + NumThreadPerBlock - 1) / NumThreadPerBlock;
  relu_gpu_backward<<<num_block, NumThreadPerBlock, 0, stream>>>(in_grad, out_grad, in_data, N);
  return MX_SUCCESS;
}

#ifdef RELU_LIB_NOISY_GPU
MXReturnValue noisyForwardGPU(const std::unordered_map<std::string, std::string>& attrs,
                              std::vector<MXTensor>* inputs,
                              std::vector<MXTensor>* outputs,
                              const OpResource& res) {
  const float* in_data = inputs->at(0).data<float>();
  float* out_data = outputs->at(0).data<float>();
  mx_gpu_rand_t* states = res.get_gpu_rand_states();
  if (states == nullptr) {
    MX_ERROR_MSG << "my_noisy_relu: this MXNet provides no GPU random states";
    return MX_FAIL;
  }
  mx_stream_t stream = res.get_cuda_stream();
  int64_t N = inputs->at(0).size();
  int step = static_cast<int>((N + MX_NUM_GPU_RANDOM_STATES - 1) / MX_NUM_GPU_RANDOM_STATES);
  int num_block = (MX_NUM_GPU_RANDOM_STATES + NumThreadPerBlock - 1) / NumThreadPerBlock;
  noisy_relu_gpu_forward<<<num_block, NumThreadPerBlock, 0, stream>>>(out_data, in_data, N,
                                                                     states, step);
  return MX_SUCCESS;
}
#endif  // RELU_LIB_NOISY_GPU

class MyStatefulReluGPU : public CustomStatefulOp {
 public:
  explicit MyStatefulReluGPU(const std::unordered_map<std::string, std::string>& attrs)
      : attrs_(attrs) {}
  MXReturnValue Forward(std::vector<MXTensor>* inputs,
                        std::vector<MXTensor>* outputs,
                        const OpResource& op_res) {
    return forwardGPU(attrs_, inputs, outputs, op_res);
  }
  MXReturnValue Backward(std::vector<MXTensor>* inputs,
                         std::vector<MXTensor>* outputs,
                         const OpResource& op_res) {
    return backwardGPU(attrs_, inputs, outputs, op_res);
  }

 private:
  const std::unordered_map<std::string, std::string> attrs_;
};

MXReturnValue createOpStateGPU(const std::unordered_map<std::string, std::string>& attrs,
                               const MXContext& ctx,
                               const std::vector<std::vector<unsigned int>>& in_shapes,
                               const std::vector<int> in_types,
                               CustomStatefulOp** op_inst) {
  *op_inst = CustomStatefulOp::create<MyStatefulReluGPU>(attrs);
  return MX_SUCCESS;
}

// The CPU functions and the registrations, with the GPU functions above added.
#define RELU_LIB_WITH_GPU
#include "relu_lib.cc"
