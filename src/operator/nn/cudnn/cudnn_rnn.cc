/*!
 * \file cudnn_rnn.cc
 * \brief RNN and _backward_RNN on cuDNN's v8 RNN API (cudnn_rnn.h).
 */
#include "./cudnn_rnn.h"

#if MXNET_USE_CUDA && MXNET_USE_CUDNN
#include <cuda_runtime.h>
#include <cudnn.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "../../../common/cuda_utils.h"
#include "./cudnn_utils.h"

namespace mxnet {
namespace op {
namespace cudnn_rnn {
namespace {

constexpr size_t kAlign = 256;
size_t Align(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// ------------------------------------------------------------------------------ descriptors

/*! \brief Owns a cuDNN descriptor made by Create and freed by Destroy. */
template <typename T, cudnnStatus_t (*Create)(T*), cudnnStatus_t (*Destroy)(T)>
struct Owned {
  T d{nullptr};
  Owned(const std::string& op, const char* what) { CUDNN_CALL(Create(&d), op, what); }
  ~Owned() { Destroy(d); }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
};
using RnnDesc = Owned<cudnnRNNDescriptor_t, cudnnCreateRNNDescriptor, cudnnDestroyRNNDescriptor>;
using DataDesc =
    Owned<cudnnRNNDataDescriptor_t, cudnnCreateRNNDataDescriptor, cudnnDestroyRNNDataDescriptor>;
using DropoutDesc =
    Owned<cudnnDropoutDescriptor_t, cudnnCreateDropoutDescriptor, cudnnDestroyDropoutDescriptor>;

cudnnRNNMode_t CellMode(int mode) {
  switch (mode) {
    case rnn_enum::kRnnRelu: return CUDNN_RNN_RELU;
    case rnn_enum::kRnnTanh: return CUDNN_RNN_TANH;
    case rnn_enum::kLstm: return CUDNN_LSTM;
    default: return CUDNN_GRU;
  }
}

/*! \brief A clip bound cuDNN takes: an infinite (absent) bound becomes the largest float. */
double FiniteBound(double v) {
  const double big = std::numeric_limits<float>::max();
  return std::max(-big, std::min(big, v));
}

/*! \brief Everything cuDNN needs to know about one call, and the sizes it asks for. */
struct Setup {
  std::string op;
  RnnDesc rnn;
  DropoutDesc dropout;
  DataDesc x, y;
  std::unique_ptr<cudnn::TensorDesc> h;  // (L*D, N, R): hx, hy and their gradients
  std::unique_ptr<cudnn::TensorDesc> c;  // (L*D, N, H): cx, cy and their gradients
  std::vector<int> lengths;              // host copy of the sequence lengths
  size_t weight_bytes = 0, train_work = 0, infer_work = 0, reserve_bytes = 0;

  Setup(cudnnHandle_t handle, const RNNParam& param, const RNNDims& dm, int dtype,
        const std::vector<index_t>& len, const char* op_name)
      : op(op_name), rnn(op, "creating the RNN descriptor"),
        dropout(op, "creating the dropout descriptor"), x(op, "creating a sequence descriptor"),
        y(op, "creating a sequence descriptor") {
    const cudnnDataType_t type = cudnn::DataType(dtype, op);
    CUDNN_CALL(cudnnSetDropoutDescriptor(dropout.d, handle, 0.f, nullptr, 0, 0), op,
               "describing no dropout");
    const int H = cudnn::Dim(dm.H, op);
    CUDNN_CALL(cudnnSetRNNDescriptor_v8(
                   rnn.d, CUDNN_RNN_ALGO_STANDARD, CellMode(dm.mode), CUDNN_RNN_DOUBLE_BIAS,
                   dm.D == 2 ? CUDNN_BIDIRECTIONAL : CUDNN_UNIDIRECTIONAL, CUDNN_LINEAR_INPUT,
                   type, cudnn::ComputeType(dtype), cudnn::AllowedMath(dtype),
                   cudnn::Dim(dm.I, op), H, cudnn::Dim(dm.R, op) /* == H: no projection */,
                   cudnn::Dim(dm.L, op), dropout.d, CUDNN_RNN_PADDED_IO_ENABLED),
               op, Describe(dm, dtype));
    const RNNCellClip clip(param);
    if (clip.on) {
      CUDNN_CALL(cudnnRNNSetClip_v9(rnn.d, CUDNN_RNN_CLIP_MINMAX, FiniteBound(clip.lo),
                                    FiniteBound(clip.hi)),
                 op, "setting the LSTM state clip");
    }
    lengths.resize(len.size());
    for (size_t b = 0; b < len.size(); ++b) lengths[b] = static_cast<int>(len[b]);
    double fill = 0;  // all-zero bits: 0 in every float type; fills the padding of y
    const int T = cudnn::Dim(dm.T, op), N = cudnn::Dim(dm.N, op);
    CUDNN_CALL(cudnnSetRNNDataDescriptor(x.d, type, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, T,
                                         N, cudnn::Dim(dm.I, op), lengths.data(), &fill),
               op, "describing the input sequence");
    CUDNN_CALL(cudnnSetRNNDataDescriptor(y.d, type, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, T,
                                         N, cudnn::Dim(dm.D * dm.R, op), lengths.data(), &fill),
               op, "describing the output sequence");
    const int LD = cudnn::Dim(dm.L * dm.D, op);
    h = std::make_unique<cudnn::TensorDesc>(dtype, std::vector<int>{LD, N, cudnn::Dim(dm.R, op)},
                                            op);
    c = std::make_unique<cudnn::TensorDesc>(dtype, std::vector<int>{LD, N, H}, op);
    CUDNN_CALL(cudnnGetRNNWeightSpaceSize(handle, rnn.d, &weight_bytes), op,
               "sizing the weight space");
    CUDNN_CALL(cudnnGetRNNTempSpaceSizes(handle, rnn.d, CUDNN_FWD_MODE_TRAINING, x.d,
                                         &train_work, &reserve_bytes),
               op, "sizing the training workspace");
    size_t no_reserve = 0;
    CUDNN_CALL(cudnnGetRNNTempSpaceSizes(handle, rnn.d, CUDNN_FWD_MODE_INFERENCE, x.d,
                                         &infer_work, &no_reserve),
               op, "sizing the inference workspace");
  }

  static std::string Describe(const RNNDims& dm, int dtype) {
    std::ostringstream os;
    os << "mode=" << RNNModeName(dm.mode) << " layers=" << dm.L << " directions=" << dm.D
       << " input_size=" << dm.I << " state_size=" << dm.H
       << (dm.Projected() ? " projection_size=" + std::to_string(dm.R) : "") << " dtype="
       << mshadow::dtype_string(dtype);
    return os.str();
  }
};

// ------------------------------------------------------------------------------- weights

/*! \brief A run of elements at the same place relative to both layouts. */
struct Segment {
  size_t cudnn, ours, count;  // in elements
};

/*! \brief Where each of MXNet's parameters lives in cuDNN's weight space. */
struct WeightMap {
  std::vector<Segment> segments;  // by cuDNN offset, adjacent runs merged
  size_t covered = 0;             // elements of the weight space that hold a parameter
  bool identity = false;          // the flat vector is cuDNN's weight space as it is
};

size_t Elements(cudnnTensorDescriptor_t desc, const std::string& op) {
  cudnnDataType_t type;
  int nb = 0, dims[8], strides[8];
  CUDNN_CALL(cudnnGetTensorNdDescriptor(desc, 8, &type, &nb, dims, strides), op,
             "reading a weight's shape");
  size_t n = 1;
  for (int i = 0; i < nb; ++i) n *= static_cast<size_t>(dims[i]);
  return n;
}

WeightMap BuildMap(cudnnHandle_t handle, const Setup& st, const RNNDims& dm, int dtype,
                   void* space) {
  const size_t elem = mshadow::mshadow_sizeof(dtype);
  cudnn::TensorDesc mdesc(dtype, {1, 1, 1}, st.op), bdesc(dtype, {1, 1, 1}, st.op);
  WeightMap map;
  std::vector<Segment> segs;
  const index_t G = dm.G, H = dm.H, R = dm.R;
  // cuDNN's linear layers: W (input) gates 0..G-1, R (recurrent) gates G..2G-1, and with a
  // projection (LSTMP) layer 2G, the h2r matrix, which has no bias.
  const index_t layers = 2 * G + (dm.Projected() ? 1 : 0);
  for (index_t l = 0; l < dm.L; ++l) {
    const index_t In = dm.InputSize(l);
    for (index_t d = 0; d < dm.D; ++d) {
      const size_t w0 = static_cast<size_t>(dm.WeightOffset(l, d));
      const size_t b0 = static_cast<size_t>(dm.BiasOffset(l, d));
      for (index_t k = 0; k < layers; ++k) {
        void* maddr = nullptr;
        void* baddr = nullptr;
        CUDNN_CALL(cudnnGetRNNWeightParams(handle, st.rnn.d, static_cast<int32_t>(l * dm.D + d),
                                           st.weight_bytes, space, static_cast<int32_t>(k),
                                           mdesc.get(), &maddr, bdesc.get(), &baddr),
                   st.op, "locating the weights of layer " + std::to_string(l));
        Segment m{0, 0, 0}, b{0, 0, static_cast<size_t>(H)};
        if (k < G) {
          m = {0, w0 + k * H * In, static_cast<size_t>(H * In)};
          b.ours = b0 + k * H;
        } else if (k < 2 * G) {
          m = {0, w0 + G * H * In + (k - G) * H * R, static_cast<size_t>(H * R)};
          b.ours = b0 + G * H + (k - G) * H;
        } else {
          m = {0, w0 + G * H * (In + R), static_cast<size_t>(R * H)};
          b.count = 0;
        }
        for (auto [addr, desc, seg] : {std::make_tuple(maddr, mdesc.get(), m),
                                       std::make_tuple(baddr, bdesc.get(), b)}) {
          if (seg.count == 0) continue;
          if (addr == nullptr || Elements(desc, st.op) != seg.count) {
            MX_THROW(dmlc::Error) << st.op << ": cuDNN's weight layout does not match the "
                                  << "parameter vector at layer " << l << ", direction " << d
                                  << ", linear layer " << k << " (set MXNET_RNN_CUDNN=0 to "
                                  << "run without cuDNN)";
          }
          seg.cudnn = static_cast<size_t>(static_cast<char*>(addr) - static_cast<char*>(space)) /
                      elem;
          segs.push_back(seg);
        }
      }
    }
  }
  std::sort(segs.begin(), segs.end(),
            [](const Segment& a, const Segment& b) { return a.cudnn < b.cudnn; });
  for (const Segment& s : segs) {
    map.covered += s.count;
    Segment* last = map.segments.empty() ? nullptr : &map.segments.back();
    if (last != nullptr && last->cudnn + last->count == s.cudnn &&
        last->ours + last->count == s.ours) {
      last->count += s.count;
    } else {
      map.segments.push_back(s);
    }
  }
  const size_t params = static_cast<size_t>(dm.ParamSize());
  map.identity = map.segments.size() == 1 && map.segments[0].cudnn == 0 &&
                 map.segments[0].ours == 0 && map.covered == params &&
                 st.weight_bytes == params * elem;
  return map;
}

/*! \brief The map of a geometry, built on first use (needs a weight space to point into). */
class MapCache {
 public:
  static std::string Key(const RNNDims& dm, int dtype) {
    int dev = 0;
    CUDA_CALL(cudaGetDevice(&dev));
    std::ostringstream os;
    os << dev << ':' << dm.mode << ':' << dm.L << ':' << dm.D << ':' << dm.I << ':' << dm.H
       << ':' << dm.R << ':' << dtype;
    return os.str();
  }
  static const WeightMap* Find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = maps().find(key);
    return it == maps().end() ? nullptr : it->second.get();
  }
  static const WeightMap* Add(const std::string& key, WeightMap map) {
    std::lock_guard<std::mutex> lock(mu_);
    auto& slot = maps()[key];
    if (!slot) slot = std::make_unique<WeightMap>(std::move(map));
    return slot.get();  // entries are never removed: the pointer stays valid
  }

 private:
  static std::unordered_map<std::string, std::unique_ptr<WeightMap>>& maps() {
    static auto* m = new std::unordered_map<std::string, std::unique_ptr<WeightMap>>();
    return *m;
  }
  static std::mutex mu_;
};
std::mutex MapCache::mu_;

void Gather(cudaStream_t stream, const WeightMap& map, size_t elem, size_t weight_bytes,
            const void* ours, void* space) {
  if (map.covered * elem < weight_bytes) {
    CUDA_CALL(cudaMemsetAsync(space, 0, weight_bytes, stream));  // cuDNN's padding, if any
  }
  for (const Segment& s : map.segments) {
    CUDA_CALL(cudaMemcpyAsync(static_cast<char*>(space) + s.cudnn * elem,
                              static_cast<const char*>(ours) + s.ours * elem, s.count * elem,
                              cudaMemcpyDeviceToDevice, stream));
  }
}

/*!
 * \brief Copies the sequence lengths to `dev_len` and returns the weight space cuDNN reads:
 *        the flat vector `params` itself, or its gather into `space` (which also gives a new
 *        geometry's map, built on first use, a weight space to point into).
 */
const void* Stage(cudnnHandle_t handle, cudaStream_t stream, const Setup& st, const RNNDims& dm,
                  int dtype, const std::string& key, const WeightMap** map, int32_t* dev_len,
                  const void* params, void* space) {
  // From pageable memory: staged before the call returns, so st.lengths may go away after.
  CUDA_CALL(cudaMemcpyAsync(dev_len, st.lengths.data(), st.lengths.size() * sizeof(int32_t),
                            cudaMemcpyHostToDevice, stream));
  if (*map == nullptr) *map = MapCache::Add(key, BuildMap(handle, st, dm, dtype, space));
  if ((*map)->identity) return params;
  Gather(stream, **map, mshadow::mshadow_sizeof(dtype), st.weight_bytes, params, space);
  return space;
}

// --------------------------------------------------------------------------- temp space

/*! \brief Aligned pieces of one temp-space request: Add them all, then Take, then At. */
class Pieces {
 public:
  size_t Add(size_t bytes) {
    const size_t id = offsets_.size();
    offsets_.push_back(bytes == 0 ? kNone : total_);
    total_ += Align(bytes);
    return id;
  }
  void Take(const Resource& r) {
    base_ = static_cast<char*>(r.get_space_internal(std::max<size_t>(total_, 1)));
  }
  void* At(size_t id) const {
    return offsets_[id] == kNone ? nullptr : static_cast<void*>(base_ + offsets_[id]);
  }

 private:
  static constexpr size_t kNone = ~size_t(0);
  std::vector<size_t> offsets_;
  size_t total_ = 0;
  char* base_ = nullptr;
};

/*! \brief Where the forward keeps y and cuDNN's reserve inside the `reserve` output, and
 *         whether they fit there (cudnn_rnn.h). */
struct KeptReserve {
  size_t y_bytes, cudnn_offset;
  bool fits;
  KeptReserve(const RNNDims& dm, size_t elem, size_t cudnn_bytes, const TBlob& reserve)
      : y_bytes(static_cast<size_t>(dm.TN() * dm.D * dm.R) * elem),
        cudnn_offset(Align(y_bytes)) {
    const size_t have = reserve.Size() * elem;
    fits = reinterpret_cast<uintptr_t>(reserve.dptr_) % kAlign == 0 &&
           cudnn_offset + cudnn_bytes <= have;
  }
  char* Y(const TBlob& reserve) const { return static_cast<char*>(reserve.dptr_); }
  char* Cudnn(const TBlob& reserve) const { return Y(reserve) + cudnn_offset; }
};

bool Direct(OpReqType req) { return req == kWriteTo || req == kWriteInplace; }

}  // namespace

bool Applies(const RNNParam& param, int dtype) {
  const char* env = std::getenv("MXNET_RNN_CUDNN");
  if (env != nullptr && std::strcmp(env, "0") == 0) return false;
  if (dtype != mshadow::kFloat16 && dtype != mshadow::kFloat32 && dtype != mshadow::kFloat64) {
    return false;
  }
  if (param.p > 0 && param.num_layers > 1) return false;
  const RNNCellClip clip(param);
  return !clip.nan;
}

bool LengthsApply(const std::vector<index_t>& len) {
  return std::all_of(len.begin(), len.end(), [](index_t v) { return v >= 1; });
}

void Forward(const RNNParam& param, const OpContext& ctx, const std::vector<index_t>& len,
             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
             const std::vector<TBlob>& outputs) {
  const RNNInputs idx(param);
  const RNNDims dm(param, inputs[idx.data].shape_);
  const int dtype = inputs[idx.data].type_flag_;
  const size_t elem = mshadow::mshadow_sizeof(dtype);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  cudnnHandle_t handle = cudnn::Handle(s);
  const Setup st(handle, param, dm, dtype, len, "RNN");
  const int nvis = RNNNumVisibleOutputs(param);
  const TBlob& reserve = outputs[nvis];
  const KeptReserve kept(dm, elem, st.reserve_bytes, reserve);
  const bool train = (ctx.is_train || ctx.need_grad) && kept.fits;
  const std::string key = MapCache::Key(dm, dtype);
  const WeightMap* map = MapCache::Find(key);
  const bool gather = map == nullptr || !map->identity;
  const size_t nh = static_cast<size_t>(dm.L * dm.D * dm.N * dm.R);  // h's elements
  const size_t nc = static_cast<size_t>(dm.L * dm.D * dm.N * dm.H);  // c's
  const bool lstm = idx.state_cell >= 0;
  const bool y_direct = !train && Direct(req[0]);
  const bool hy_direct = param.state_outputs && Direct(req[1]);
  const bool cy_direct = param.state_outputs && lstm && Direct(req[2]);

  Pieces p;
  const size_t p_len = p.Add(st.lengths.size() * sizeof(int32_t));
  const size_t p_w = p.Add(gather ? st.weight_bytes : 0);
  const size_t p_work = p.Add(train ? st.train_work : st.infer_work);
  const size_t p_y = p.Add(train || y_direct ? 0 : kept.y_bytes);
  const size_t p_hy = p.Add(param.state_outputs && !hy_direct ? nh * elem : 0);
  const size_t p_cy = p.Add(param.state_outputs && lstm && !cy_direct ? nc * elem : 0);
  p.Take(ctx.requested[0]);

  auto* dev_len = static_cast<int32_t*>(p.At(p_len));
  const void* w = Stage(handle, stream, st, dm, dtype, key, &map, dev_len,
                        inputs[idx.params].dptr_, p.At(p_w));
  void* y = train ? kept.Y(reserve) : (y_direct ? outputs[0].dptr_ : p.At(p_y));
  void* hy = param.state_outputs ? (hy_direct ? outputs[1].dptr_ : p.At(p_hy)) : nullptr;
  void* cy = param.state_outputs && lstm ? (cy_direct ? outputs[2].dptr_ : p.At(p_cy)) : nullptr;
  const void* cx = lstm ? inputs[idx.state_cell].dptr_ : nullptr;
  CUDNN_CALL(cudnnRNNForward(handle, st.rnn.d,
                             train ? CUDNN_FWD_MODE_TRAINING : CUDNN_FWD_MODE_INFERENCE, dev_len,
                             st.x.d, inputs[idx.data].dptr_, st.y.d, y, st.h->get(),
                             inputs[idx.state].dptr_, hy, st.c->get(), cx, cy, st.weight_bytes,
                             w, train ? st.train_work : st.infer_work, p.At(p_work),
                             train ? st.reserve_bytes : 0,
                             train ? kept.Cudnn(reserve) : nullptr),
             st.op, Setup::Describe(dm, dtype));
  const index_t ny = dm.TN() * dm.D * dm.R;
  if (y != outputs[0].dptr_) AssignOnGpu(s, dtype, outputs[0].dptr_, y, ny, req[0]);
  if (hy != nullptr && !hy_direct) AssignOnGpu(s, dtype, outputs[1].dptr_, hy, nh, req[1]);
  if (cy != nullptr && !cy_direct) AssignOnGpu(s, dtype, outputs[2].dptr_, cy, nc, req[2]);
}

void Backward(const RNNParam& param, const OpContext& ctx, const std::vector<index_t>& len,
              const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
              const std::vector<TBlob>& outputs) {
  const RNNInputs idx(param);
  const int nvis = RNNNumVisibleOutputs(param);
  const std::vector<TBlob> fwd_in(inputs.begin() + nvis, inputs.end() - 1);
  const TBlob& reserve = inputs.back();
  const RNNDims dm(param, fwd_in[idx.data].shape_);
  const int dtype = fwd_in[idx.data].type_flag_;
  const size_t elem = mshadow::mshadow_sizeof(dtype);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  cudnnHandle_t handle = cudnn::Handle(s);
  const Setup st(handle, param, dm, dtype, len, "_backward_RNN");
  const KeptReserve kept(dm, elem, st.reserve_bytes, reserve);
  const std::string key = MapCache::Key(dm, dtype);
  const WeightMap* map = MapCache::Find(key);
  const bool gather = map == nullptr || !map->identity;
  const size_t nh = static_cast<size_t>(dm.L * dm.D * dm.N * dm.R);  // h's elements
  const size_t nc = static_cast<size_t>(dm.L * dm.D * dm.N * dm.H);  // c's
  const bool lstm = idx.state_cell >= 0;
  const OpReqType wreq = req[idx.params];
  const bool dx_direct = Direct(req[idx.data]);
  const bool dhx_direct = Direct(req[idx.state]);
  const bool dcx_direct = lstm && Direct(req[idx.state_cell]);
  const bool dhx_wanted = req[idx.state] != kNullOp;
  const bool dcx_wanted = lstm && req[idx.state_cell] != kNullOp;

  Pieces p;
  const size_t p_len = p.Add(st.lengths.size() * sizeof(int32_t));
  const size_t p_w = p.Add(gather ? st.weight_bytes : 0);
  const size_t p_dw = p.Add(gather && wreq != kNullOp ? st.weight_bytes : 0);
  const size_t p_work = p.Add(st.train_work);
  const size_t p_rsv = p.Add(st.reserve_bytes);
  const size_t p_y = p.Add(kept.fits ? 0 : kept.y_bytes);
  const size_t p_dx = p.Add(dx_direct ? 0 : static_cast<size_t>(dm.TN() * dm.I) * elem);
  const size_t p_dhx = p.Add(dhx_wanted && !dhx_direct ? nh * elem : 0);
  const size_t p_dcx = p.Add(dcx_wanted && !dcx_direct ? nc * elem : 0);
  p.Take(ctx.requested[0]);

  auto* dev_len = static_cast<int32_t*>(p.At(p_len));
  const void* w = Stage(handle, stream, st, dm, dtype, key, &map, dev_len,
                        fwd_in[idx.params].dptr_, p.At(p_w));
  const void* x = fwd_in[idx.data].dptr_;
  const void* hx = fwd_in[idx.state].dptr_;
  const void* cx = lstm ? fwd_in[idx.state_cell].dptr_ : nullptr;
  void* rsv = p.At(p_rsv);
  const void* y = nullptr;
  if (kept.fits) {
    // A copy: cuDNN's backward writes into its reserve, and the forward's stays intact for
    // another backward (retain_graph).
    CUDA_CALL(cudaMemcpyAsync(rsv, kept.Cudnn(reserve), st.reserve_bytes,
                              cudaMemcpyDeviceToDevice, stream));
    y = kept.Y(reserve);
  } else {
    CUDNN_CALL(cudnnRNNForward(handle, st.rnn.d, CUDNN_FWD_MODE_TRAINING, dev_len, st.x.d, x,
                               st.y.d, p.At(p_y), st.h->get(), hx, nullptr, st.c->get(), cx,
                               nullptr, st.weight_bytes, w, st.train_work, p.At(p_work),
                               st.reserve_bytes, rsv),
               st.op, "re-running the forward: " + Setup::Describe(dm, dtype));
    y = p.At(p_y);
  }
  const void* dhy = param.state_outputs ? inputs[1].dptr_ : nullptr;
  const void* dcy = param.state_outputs && lstm ? inputs[2].dptr_ : nullptr;
  void* dx = dx_direct ? outputs[idx.data].dptr_ : p.At(p_dx);
  void* dhx = dhx_wanted ? (dhx_direct ? outputs[idx.state].dptr_ : p.At(p_dhx)) : nullptr;
  void* dcx = dcx_wanted ? (dcx_direct ? outputs[idx.state_cell].dptr_ : p.At(p_dcx)) : nullptr;
  CUDNN_CALL(cudnnRNNBackwardData_v8(handle, st.rnn.d, dev_len, st.y.d, y, inputs[0].dptr_,
                                     st.x.d, dx, st.h->get(), hx, dhy, dhx, st.c->get(), cx, dcy,
                                     dcx, st.weight_bytes, w, st.train_work, p.At(p_work),
                                     st.reserve_bytes, rsv),
             st.op, Setup::Describe(dm, dtype));
  // Steps past a sequence's length have a zero gradient, whatever cuDNN leaves there.
  const size_t row = static_cast<size_t>(dm.I) * elem;
  for (index_t b = 0; b < dm.N; ++b) {
    if (len[b] >= dm.T) continue;
    CUDA_CALL(cudaMemset2DAsync(static_cast<char*>(dx) + (len[b] * dm.N + b) * row,
                                dm.N * row, 0, row, dm.T - len[b], stream));
  }
  if (wreq != kNullOp) {
    // cuDNN only adds into the weight gradient.
    void* dw = gather ? p.At(p_dw) : outputs[idx.params].dptr_;
    if (gather || wreq != kAddTo) CUDA_CALL(cudaMemsetAsync(dw, 0, st.weight_bytes, stream));
    CUDNN_CALL(cudnnRNNBackwardWeights_v8(handle, st.rnn.d, CUDNN_WGRAD_MODE_ADD, dev_len, st.x.d,
                                          x, st.h->get(), hx, st.y.d, y, st.weight_bytes, dw,
                                          st.train_work, p.At(p_work), st.reserve_bytes, rsv),
               st.op, Setup::Describe(dm, dtype));
    if (gather) {
      for (const Segment& seg : map->segments) {
        AssignOnGpu(s, dtype, static_cast<char*>(outputs[idx.params].dptr_) + seg.ours * elem,
                    static_cast<char*>(dw) + seg.cudnn * elem, static_cast<index_t>(seg.count),
                    wreq);
      }
    }
  }
  if (!dx_direct) {
    AssignOnGpu(s, dtype, outputs[idx.data].dptr_, dx, dm.TN() * dm.I, req[idx.data]);
  }
  if (dhx != nullptr && !dhx_direct) {
    AssignOnGpu(s, dtype, outputs[idx.state].dptr_, dhx, nh, req[idx.state]);
  }
  if (dcx != nullptr && !dcx_direct) {
    AssignOnGpu(s, dtype, outputs[idx.state_cell].dptr_, dcx, nc, req[idx.state_cell]);
  }
  if (idx.seq_len >= 0 && Direct(req[idx.seq_len])) {
    const TBlob& g = outputs[idx.seq_len];
    CUDA_CALL(cudaMemsetAsync(g.dptr_, 0, g.Size() * mshadow::mshadow_sizeof(g.type_flag_),
                              stream));
  }
}

}  // namespace cudnn_rnn
}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA && MXNET_USE_CUDNN
