// Operators of extension libraries as registry operators: each attribute (parser, inference,
// compute, state, gradient) calls into the library through its C table (lib_api.h).
#include <dmlc/logging.h>
#include <mxnet/imperative.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>
#include <nnvm/op.h>
#include <nnvm/op_attr_types.h>

#include <any>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "../operator/operator_common.h"
#include "extension_gpu.h"
#include "extension_library.h"

namespace mxnet {
namespace ext_loader {
namespace {

/*! \brief A node's string attributes as the C arrays of MXExtAttrs. */
class AttrArrays {
 public:
  explicit AttrArrays(const nnvm::NodeAttrs& attrs) {
    keys_.reserve(attrs.dict.size());
    vals_.reserve(attrs.dict.size());
    for (const auto& kv : attrs.dict) {
      keys_.push_back(kv.first.c_str());
      vals_.push_back(kv.second.c_str());
    }
    c_.num = static_cast<int32_t>(keys_.size());
    c_.keys = keys_.data();
    c_.vals = vals_.data();
  }
  const MXExtAttrs* get() const { return &c_; }

 private:
  std::vector<const char*> keys_, vals_;
  MXExtAttrs c_{};
};

std::string ShapeList(const ShapeVector& shapes) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < shapes.size(); ++i) os << (i ? ", " : "") << shapes[i];
  os << "]";
  return os.str();
}

std::string TypeList(const std::vector<int>& types) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < types.size(); ++i) {
    os << (i ? ", " : "") << (types[i] < 0 ? "unknown" : mshadow::dtype_string(types[i]));
  }
  os << "]";
  return os.str();
}

/*! \brief Throw for a failed library call, with the library's messages (then cleared). */
[[noreturn]] void Fail(const ExtOp& op, const std::string& call, const std::string& op_name,
                       int32_t status, const std::string& detail = "") {
  std::ostringstream os;
  os << "Error calling " << call << " for custom operator '" << op_name << "'" << detail;
  if (status == MX_EXT_BAD_CALL) os << ": the library has no " << call << " function for it";
  os << op.lib->TakeMessages();
  throw dmlc::Error(os.str());
}

/*!
 * \brief Throw (Fail) if a library call failed; after a successful one, drop messages the
 *        library logged anyway so that they are not reported with a later, unrelated failure.
 */
void CheckCall(const ExtOp& op, const std::string& call, const std::string& op_name,
               int32_t status, const std::string& detail = "") {
  if (status != MX_EXT_OK) Fail(op, call, op_name, status, detail);
  if (op.lib->api->message_count() > 0) op.lib->api->message_clear();
}

ExtParsed Parse(const ExtOp& op, const nnvm::NodeAttrs& attrs) {
  AttrArrays c(attrs);
  ExtParsed p;
  const int32_t st = op.lib->api->op_parse_attrs(op.info.op, c.get(), &p.num_in, &p.num_out);
  CheckCall(op, "ParseAttrs", op.name, st);
  if (p.num_in < 0 || p.num_out < 1) {
    MX_THROW(ValueError) << "Custom operator '" << op.name << "': parseAttrs returned " << p.num_in
                         << " inputs and " << p.num_out
                         << " outputs (expected >= 0 inputs and >= 1 outputs)";
  }
  return p;
}

/*! \brief Counts of a node parsed by Parse (parses again when the node was not parsed). */
ExtParsed Counts(const ExtOp& op, const nnvm::NodeAttrs& attrs) {
  if (const ExtParsed* p = std::any_cast<ExtParsed>(&attrs.parsed)) return *p;
  return Parse(op, attrs);
}

// ------------------------------------------------------------------------------ inference

struct ShapeSink {
  ShapeVector in, out;
};

void ReceiveShape(void* ctx, int32_t which, int32_t index, int32_t ndim, const int64_t* dims) {
  try {
    ShapeSink* sink = static_cast<ShapeSink*>(ctx);
    ShapeVector& v = which == 0 ? sink->in : sink->out;
    if (index >= 0 && index < static_cast<int32_t>(v.size()) && ndim >= 0) {
      v[index] = TShape(dims, dims + ndim);
    }
  } catch (...) {
    // Never let an exception cross into the library; a missing shape is reported below.
  }
}

bool InferShape(const ExtOp& op, const nnvm::NodeAttrs& attrs, ShapeVector* in_shapes,
                ShapeVector* out_shapes) {
  for (const TShape& s : *in_shapes) {
    if (!shape_is_known(s)) return false;  // the library needs every input shape
  }
  std::vector<int32_t> ndims;
  std::vector<const int64_t*> dims;
  for (const TShape& s : *in_shapes) {
    ndims.push_back(s.ndim());
    dims.push_back(s.data());
  }
  ShapeSink sink;
  sink.in.resize(in_shapes->size());
  sink.out.resize(out_shapes->size());
  AttrArrays c(attrs);
  const int32_t st = op.lib->api->op_infer_shape(
      op.info.op, c.get(), static_cast<int32_t>(in_shapes->size()), ndims.data(), dims.data(),
      static_cast<int32_t>(out_shapes->size()), ReceiveShape, &sink);
  CheckCall(op, "InferShape", op.name, st, " with input shapes " + ShapeList(*in_shapes));
  for (size_t i = 0; i < out_shapes->size(); ++i) {
    if (sink.out[i].ndim() <= 0) {
      MX_THROW(ValueError) << "Custom operator '" << op.name << "': inferShape set no shape for "
                           << "output " << i << " (input shapes " << ShapeList(*in_shapes) << ")";
    }
    SHAPE_ASSIGN_CHECK(*out_shapes, i, sink.out[i]);
  }
  for (size_t i = 0; i < in_shapes->size(); ++i) {
    if (sink.in[i].ndim() >= 0) SHAPE_ASSIGN_CHECK(*in_shapes, i, sink.in[i]);
  }
  return true;
}

bool InferType(const ExtOp& op, const nnvm::NodeAttrs& attrs, std::vector<int>* in_types,
               std::vector<int>* out_types) {
  for (int t : *in_types) {
    if (t < 0) return false;  // the library needs every input dtype
  }
  std::vector<int32_t> in(in_types->begin(), in_types->end());
  std::vector<int32_t> out(out_types->begin(), out_types->end());
  AttrArrays c(attrs);
  const int32_t st = op.lib->api->op_infer_type(op.info.op, c.get(), static_cast<int32_t>(in.size()),
                                                in.data(), static_cast<int32_t>(out.size()),
                                                out.data());
  CheckCall(op, "InferType", op.name, st, " with input dtypes " + TypeList(*in_types));
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] < 0) {
      MX_THROW(TypeError) << "Custom operator '" << op.name << "': inferType set no dtype for "
                          << "output " << i << " (input dtypes " << TypeList(*in_types) << ")";
    }
    TYPE_ASSIGN_CHECK(*out_types, i, out[i]);
  }
  for (size_t i = 0; i < in.size(); ++i) TYPE_ASSIGN_CHECK(*in_types, i, in[i]);
  return true;
}

bool InferStorageType(const ExtOp& op, const nnvm::NodeAttrs& attrs, DispatchMode* mode,
                      std::vector<int>* in_stypes, std::vector<int>* out_stypes) {
  for (size_t i = 0; i < in_stypes->size(); ++i) {
    if ((*in_stypes)[i] != kDefaultStorage && (*in_stypes)[i] != kUndefinedStorage) {
      MX_THROW(NotImplementedError) << "Custom operator '" << op.name << "': input " << i
                                    << " is sparse; this MXNet supports dense arrays only";
    }
    (*in_stypes)[i] = kDefaultStorage;
  }
  std::vector<int32_t> in(in_stypes->begin(), in_stypes->end());
  std::vector<int32_t> out(out_stypes->size(), -1);
  AttrArrays c(attrs);
  const int32_t st = op.lib->api->op_infer_stype(op.info.op, c.get(), static_cast<int32_t>(in.size()),
                                                 in.data(), static_cast<int32_t>(out.size()),
                                                 out.data());
  CheckCall(op, "InferSType", op.name, st);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] != kDefaultStorage && out[i] != -1) {
      MX_THROW(NotImplementedError) << "Custom operator '" << op.name << "': inferSType made output "
                                    << i << " sparse; this MXNet supports dense arrays only";
    }
    (*out_stypes)[i] = kDefaultStorage;
  }
  *mode = DispatchMode::kFCompute;
  return true;
}

void ReceiveIndex(void* ctx, int32_t index) {
  try {
    static_cast<std::vector<int32_t>*>(ctx)->push_back(index);
  } catch (...) {
  }
}

std::vector<uint32_t> MutateInputs(const ExtOp& op, const nnvm::NodeAttrs& attrs) {
  std::vector<int32_t> idx;
  AttrArrays c(attrs);
  const int32_t st = op.lib->api->op_mutate_inputs(op.info.op, c.get(), ReceiveIndex, &idx);
  CheckCall(op, "MutateInputs", op.name, st);
  const ExtParsed p = Counts(op, attrs);
  std::vector<uint32_t> out;
  for (int32_t i : idx) {
    if (i < 0 || i >= p.num_in) {
      MX_THROW(ValueError) << "Custom operator '" << op.name << "': mutateInputs returned input "
                           << "index " << i << " but the operator has " << p.num_in << " inputs";
    }
    out.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

// ------------------------------------------------------------------------------ compute

/*! \brief Whether a call runs on a GPU (its kernels go on the call's stream). */
bool OnGpu(const OpContext& ctx) { return ctx.run_ctx.ctx.dev_mask() == gpu::kDevMask; }

/*!
 * \brief Memory and randomness lent to one library call (freed when the call returns: device
 *        blocks go back to the pool, where later work on the same stream may reuse them).
 *        On a GPU: alloc_gpu gives device memory (first the temp space), alloc_cpu host memory,
 *        cuda_stream the call's stream, gpu_rand_states curand states seeded for the call
 *        (null in a build without curand's headers); random_seed is 0 there.
 */
class CallResources {
 public:
  explicit CallResources(const OpContext& ctx) : ctx_(ctx), on_gpu_(OnGpu(ctx)) {
    c_.ctx = this;
    c_.alloc_cpu = &CallResources::AllocCpu;
    c_.alloc_gpu = &CallResources::AllocGpu;
    c_.alloc_sparse = &CallResources::AllocSparse;
    c_.random_seed = &CallResources::RandomSeed;
    c_.cuda_stream = nullptr;
    c_.gpu_rand_states = nullptr;
#if MXNET_USE_CUDA
    if (on_gpu_) {
      c_.cuda_stream = CallStream(ctx);
      if (ctx.requested.size() > 2) c_.gpu_rand_states = GpuRandStates(ctx, ctx.requested[2]);
    }
#endif
  }
  ~CallResources() {
    for (const Storage::Handle& h : device_blocks_) Storage::Get()->Free(h);
  }
  CallResources(const CallResources&) = delete;
  CallResources& operator=(const CallResources&) = delete;
  const MXExtResource* get() const { return &c_; }

  /*! \brief A private block of `bytes` of the call's device memory, or nullptr. */
  void* DeviceBlock(int64_t bytes) {
    if (bytes < 0) return nullptr;
    Storage::Handle h = Storage::Get()->Alloc(std::max<size_t>(static_cast<size_t>(bytes), 1),
                                              ctx_.run_ctx.ctx);
    device_blocks_.push_back(h);
    return h.dptr;
  }

  /*! \brief A private block of `bytes` (64-byte aligned), or nullptr. */
  void* Block(int64_t bytes) {
    if (bytes < 0) return nullptr;
    const size_t size = (static_cast<size_t>(bytes) + 63) / 64 * 64 + 64;
    void* p = std::aligned_alloc(64, size);
    if (p != nullptr) blocks_.emplace_back(p, &std::free);
    return p;
  }

 private:
  // The first request on the call's device uses the pooled temp space; later ones get their
  // own blocks so that several allocations of one call never alias.
  static void* AllocCpu(void* self, int64_t bytes) {
    try {
      auto* r = static_cast<CallResources*>(self);
      if (!r->on_gpu_ && !r->temp_used_ && !r->ctx_.requested.empty() && bytes >= 0) {
        r->temp_used_ = true;
        return r->ctx_.requested[0].get_space_internal(static_cast<size_t>(bytes));
      }
      return r->Block(bytes);
    } catch (...) {
      return nullptr;
    }
  }
  static void* AllocGpu(void* self, int64_t bytes) {
    try {
      auto* r = static_cast<CallResources*>(self);
      if (!r->on_gpu_) return nullptr;
      if (!r->temp_used_ && !r->ctx_.requested.empty() && bytes >= 0) {
        r->temp_used_ = true;
        return r->ctx_.requested[0].get_space_internal(static_cast<size_t>(bytes));
      }
      return r->DeviceBlock(bytes);
    } catch (...) {
      return nullptr;
    }
  }
  static int32_t AllocSparse(void*, int32_t, int64_t, int64_t, void**, int64_t**, int64_t**) {
    return 1;  // no sparse arrays in this MXNet
  }
  static uint64_t RandomSeed(void* self) {
    try {
      auto* r = static_cast<CallResources*>(self);
      if (r->on_gpu_ || r->ctx_.requested.size() < 2) return 0;
      auto* gen = r->ctx_.requested[1].get_random<cpu, float>(r->ctx_.get_stream<cpu>());
      const uint64_t hi = gen->GetRandInt();
      return (hi << 32) | gen->GetRandInt();
    } catch (...) {
      return 0;
    }
  }

  const OpContext& ctx_;
  bool on_gpu_;
  bool temp_used_{false};
  std::vector<std::unique_ptr<void, void (*)(void*)>> blocks_;
  std::vector<Storage::Handle> device_blocks_;
  MXExtResource c_{};
};

MXExtTensor ToTensor(const TBlob& b, void* data) {
  MXExtTensor t{};
  t.data = data;
  t.shape = b.shape_.data();
  t.ndim = b.shape_.ndim();
  t.dtype = b.type_flag_;
  t.stype = 0;
  t.dev_type = b.dev_mask_ == cpu::kDevMask ? MX_EXT_CPU : MX_EXT_GPU;
  t.dev_id = b.dev_id_ < 0 ? 0 : b.dev_id_;
  t.version = 0;  // TBlobs do not carry the engine version
  return t;
}

/*! \brief out += tmp, elementwise (for kAddTo: libraries always overwrite their outputs). */
void AddInto(const TBlob& out, const void* tmp) {
  const size_t n = out.shape_.Size();
  MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
    DType* dst = static_cast<DType*>(out.dptr_);
    const DType* src = static_cast<const DType*>(tmp);
    for (size_t i = 0; i < n; ++i) dst[i] = dst[i] + src[i];
  });
}

/*!
 * \brief Call the library with `call` (stateless or stateful) on TBlobs. Outputs that must be
 *        added to (kAddTo) or not written (kNullOp) get a scratch buffer first.
 */
template <typename CallFn>
void RunCompute(const ExtOp& op, const std::string& what, const std::string& op_name,
                const OpContext& ctx, const std::vector<TBlob>& inputs,
                const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs,
                CallFn call) {
  CallResources res(ctx);
  std::vector<MXExtTensor> in(inputs.size()), out(outputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) in[i] = ToTensor(inputs[i], inputs[i].dptr_);
  std::vector<void*> scratch(outputs.size(), nullptr);
  for (size_t i = 0; i < outputs.size(); ++i) {
    void* data = outputs[i].dptr_;
    if (i < req.size() && (req[i] == kAddTo || req[i] == kNullOp)) {
      const int64_t bytes = static_cast<int64_t>(outputs[i].shape_.Size() *
                                                 mshadow::mshadow_sizeof(outputs[i].type_flag_));
      scratch[i] = OnGpu(ctx) ? res.DeviceBlock(bytes) : res.Block(bytes);
      CHECK(scratch[i] != nullptr) << "Custom operator '" << op_name << "': out of memory";
      data = scratch[i];
    }
    out[i] = ToTensor(outputs[i], data);
  }
  const int32_t st = call(in.data(), static_cast<int32_t>(in.size()), out.data(),
                          static_cast<int32_t>(out.size()), res.get());
  CheckCall(op, what, op_name, st);
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (scratch[i] == nullptr || req[i] != kAddTo) continue;
#if MXNET_USE_CUDA
    if (OnGpu(ctx)) {
      AddIntoOnGpu(ctx, outputs[i], scratch[i]);
      continue;
    }
#endif
    AddInto(outputs[i], scratch[i]);
  }
}

/*! \brief The devices an extension operator's kernels are registered for in this build. */
std::vector<int32_t> BuiltDevices() {
#if MXNET_USE_CUDA
  return {MX_EXT_CPU, MX_EXT_GPU};
#else
  return {MX_EXT_CPU};
#endif
}

/*! \brief "FCompute<cpu>" / "FCompute<gpu>" (and likewise) for an MXExtDevType. */
std::string DeviceAttr(const char* base, int32_t dev) {
  return std::string(base) + (dev == MX_EXT_GPU ? "<gpu>" : "<cpu>");
}

/*! \brief The state of a stateful operator instance (deleted inside the library). */
struct ExtState {
  const ExtOp* op;
  void* instance;
  ExtState(const ExtOp* o, void* inst) : op(o), instance(inst) {}
  ExtState(const ExtState&) = delete;
  ExtState& operator=(const ExtState&) = delete;
  ~ExtState() { op->lib->api->state_destroy(instance); }
};

OpStatePtr CreateState(const ExtOp& op, const nnvm::NodeAttrs& attrs, Context ctx,
                       const ShapeVector& in_shapes, const std::vector<int>& in_types) {
  std::vector<int32_t> ndims, types(in_types.begin(), in_types.end());
  std::vector<const int64_t*> dims;
  for (const TShape& s : in_shapes) {
    ndims.push_back(s.ndim() < 0 ? 0 : s.ndim());
    dims.push_back(s.data());
  }
  const int32_t dev_type = ctx.dev_mask() == cpu::kDevMask ? MX_EXT_CPU : MX_EXT_GPU;
  AttrArrays c(attrs);
  void* instance = nullptr;
  const int32_t st = op.lib->api->op_create_state(
      op.info.op, dev_type, ctx.dev_id, c.get(), static_cast<int32_t>(in_shapes.size()),
      ndims.data(), dims.data(), types.data(), &instance);
  if (st != MX_EXT_OK) {
    Fail(op, "CreateOpState", op.name, st, " with input shapes " + ShapeList(in_shapes));
  }
  const std::string warnings = op.lib->TakeMessages();
  if (!warnings.empty()) LOG(WARNING) << "Custom operator '" << op.name << "':" << warnings;
  return OpStatePtr::Create<ExtState>(&op, instance);
}

std::string Describe(const ExtOp& op, bool backward) {
  std::ostringstream os;
  if (backward) {
    os << "Gradient of the custom operator '" << op.name << "'.";
  } else {
    os << "Custom operator '" << op.name << "' (" << (op.stateful ? "stateful" : "stateless")
       << ", variable number of inputs).";
  }
  os << "\n\nDefined in the extension library " << op.lib->path;
  return os.str();
}

void RegisterBackward(const ExtOp* op) {
  const std::string name = "_backward_" + op->name;
  nnvm::Op& reg = nnvm::Op::Register(name);
  reg.describe(Describe(*op, true))
      .set_attr_parser([op](nnvm::NodeAttrs* attrs) { attrs->parsed = Parse(*op, *attrs); })
      .set_num_inputs([op](const nnvm::NodeAttrs& attrs) {
        const ExtParsed p = Counts(*op, attrs);
        return static_cast<uint32_t>(p.num_in + 2 * p.num_out);
      })
      .set_num_outputs([op](const nnvm::NodeAttrs& attrs) {
        return static_cast<uint32_t>(Counts(*op, attrs).num_in);
      })
      .add_argument("data", "NDArray-or-Symbol[]",
                    "Output gradients, then the forward inputs, then the forward outputs");
  reg.set_attr<nnvm::TIsBackward>("TIsBackward", true);
  reg.set_attr<FResourceRequest>("FResourceRequest", [](const nnvm::NodeAttrs&) {
    return std::vector<ResourceRequest>{ResourceRequest::kTempSpace, ResourceRequest::kRandom,
                                        ResourceRequest::kParallelRandom};
  });
  // Input gradients have the shapes and dtypes of the forward inputs.
  reg.set_attr<mxnet::FInferShape>(
      "FInferShape", [op](const nnvm::NodeAttrs& attrs, ShapeVector* in, ShapeVector* out) {
        const ExtParsed p = Counts(*op, attrs);
        bool known = true;
        for (int32_t i = 0; i < p.num_in; ++i) {
          SHAPE_ASSIGN_CHECK(*out, i, (*in)[p.num_out + i]);
          SHAPE_ASSIGN_CHECK(*in, p.num_out + i, (*out)[i]);
          known = known && shape_is_known((*out)[i]);
        }
        return known;
      });
  reg.set_attr<nnvm::FInferType>(
      "FInferType", [op](const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
        const ExtParsed p = Counts(*op, attrs);
        bool known = true;
        for (int32_t i = 0; i < p.num_in; ++i) {
          TYPE_ASSIGN_CHECK(*out, i, (*in)[p.num_out + i]);
          TYPE_ASSIGN_CHECK(*in, p.num_out + i, (*out)[i]);
          known = known && (*out)[i] >= 0;
        }
        return known;
      });
  if (op->stateful) reg.set_attr<TIsLayerOpBackward>("TIsLayerOpBackward", true);
  for (int32_t dev : BuiltDevices()) {
    if (op->stateful && (op->info.create_state_devs & (1 << dev))) {
      // The state was created for the forward's device; the library keeps one per device.
      reg.set_attr<FStatefulCompute>(
          DeviceAttr("FStatefulCompute", dev),
          [op, name](const OpStatePtr& state, const OpContext& ctx, const std::vector<TBlob>& in,
                     const std::vector<OpReqType>& req, const std::vector<TBlob>& out) {
            void* inst = state.get_state<ExtState>().instance;
            RunCompute(*op, "Backward", name, ctx, in, req, out,
                       [&](const MXExtTensor* i, int32_t ni, const MXExtTensor* o, int32_t no,
                           const MXExtResource* r) {
                         return op->lib->api->state_compute(inst, 0, i, ni, o, no, r);
                       });
          });
    } else if (!op->stateful && (op->info.backward_devs & (1 << dev))) {
      reg.set_attr<FCompute>(
          DeviceAttr("FCompute", dev),
          [op, name, dev](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& out) {
            AttrArrays c(attrs);
            RunCompute(*op, "FCompute (backward)", name, ctx, in, req, out,
                       [&](const MXExtTensor* i, int32_t ni, const MXExtTensor* o, int32_t no,
                           const MXExtResource* r) {
                         return op->lib->api->op_compute(op->info.op, 0, dev, c.get(), i, ni, o,
                                                         no, r);
                       });
          });
    }
  }
}

}  // namespace

void RegisterOp(const ExtOp* op) {
  nnvm::Op& reg = nnvm::Op::Register(op->name);
  reg.describe(Describe(*op, false))
      .set_attr_parser([op](nnvm::NodeAttrs* attrs) { attrs->parsed = Parse(*op, *attrs); })
      .set_num_inputs([op](const nnvm::NodeAttrs& attrs) {
        return static_cast<uint32_t>(Counts(*op, attrs).num_in);
      })
      .set_num_outputs([op](const nnvm::NodeAttrs& attrs) {
        return static_cast<uint32_t>(Counts(*op, attrs).num_out);
      })
      .add_argument("data", "NDArray-or-Symbol[]", "Source inputs");
  reg.set_attr<mxnet::FInferShape>(
      "FInferShape", [op](const nnvm::NodeAttrs& attrs, ShapeVector* in, ShapeVector* out) {
        return InferShape(*op, attrs, in, out);
      });
  reg.set_attr<nnvm::FInferType>(
      "FInferType", [op](const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
        return InferType(*op, attrs, in, out);
      });
  if (op->info.has_infer_stype) {
    reg.set_attr<FInferStorageType>(
        "FInferStorageType", [op](const nnvm::NodeAttrs& attrs, const int, DispatchMode* mode,
                                  std::vector<int>* in, std::vector<int>* out) {
          return InferStorageType(*op, attrs, mode, in, out);
        });
  }
  // Index 0: temp space behind OpResource::alloc_cpu / alloc_gpu; index 1: the seed of the CPU
  // random states; index 2: the GPU random states' seeds.
  reg.set_attr<FResourceRequest>("FResourceRequest", [](const nnvm::NodeAttrs&) {
    return std::vector<ResourceRequest>{ResourceRequest::kTempSpace, ResourceRequest::kRandom,
                                        ResourceRequest::kParallelRandom};
  });
  if (op->info.has_mutate_inputs) {
    reg.set_attr<nnvm::FMutateInputs>("FMutateInputs", [op](const nnvm::NodeAttrs& attrs) {
      return MutateInputs(*op, attrs);
    });
  }
  if (op->stateful) {
    reg.set_attr<FCreateOpState>(
        "FCreateOpState", [op](const nnvm::NodeAttrs& attrs, Context ctx,
                               const ShapeVector& in_shapes, const std::vector<int>& in_types) {
          return CreateState(*op, attrs, ctx, in_shapes, in_types);
        });
  }
  for (int32_t dev : BuiltDevices()) {
    if (op->stateful && (op->info.create_state_devs & (1 << dev))) {
      reg.set_attr<FStatefulCompute>(
          DeviceAttr("FStatefulCompute", dev),
          [op](const OpStatePtr& state, const OpContext& ctx, const std::vector<TBlob>& in,
               const std::vector<OpReqType>& req, const std::vector<TBlob>& out) {
            void* inst = state.get_state<ExtState>().instance;
            RunCompute(*op, "Forward", op->name, ctx, in, req, out,
                       [&](const MXExtTensor* i, int32_t ni, const MXExtTensor* o, int32_t no,
                           const MXExtResource* r) {
                         return op->lib->api->state_compute(inst, 1, i, ni, o, no, r);
                       });
          });
    } else if (!op->stateful && (op->info.forward_devs & (1 << dev))) {
      reg.set_attr<FCompute>(
          DeviceAttr("FCompute", dev),
          [op, dev](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& out) {
            AttrArrays c(attrs);
            RunCompute(*op, "FCompute", op->name, ctx, in, req, out,
                       [&](const MXExtTensor* i, int32_t ni, const MXExtTensor* o, int32_t no,
                           const MXExtResource* r) {
                         return op->lib->api->op_compute(op->info.op, 1, dev, c.get(), i, ni, o,
                                                         no, r);
                       });
          });
    }
  }
  if (op->stateful || op->info.backward_devs != 0) {
    const std::string bwd = "_backward_" + op->name;
    reg.set_attr<nnvm::FGradient>(
        "FGradient", [bwd](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
          // Inputs of the backward node: output gradients, forward inputs, forward outputs.
          std::vector<nnvm::NodeEntry> inputs(ograds.begin(), ograds.end());
          inputs.insert(inputs.end(), n->inputs.begin(), n->inputs.end());
          for (uint32_t i = 0; i < n->num_outputs(); ++i) inputs.emplace_back(n, i, 0);
          return ::mxnet::op::MakeGradNode(bwd.c_str(), n, inputs, n->attrs.dict);
        });
    RegisterBackward(op);
  }
}

}  // namespace ext_loader
}  // namespace mxnet
