// The one execution core: device-keyed kernel choice shared by imperative invoke and the
// graph executor (see exec_core.h).
#include "./exec_core.h"

#include <dmlc/logging.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <set>
#include <tuple>

#include "../common/cast.h"
#include "../common/env_util.h"

namespace mxnet {
namespace exec {
namespace {

/*! \brief The compute-function tables of one device, looked up once. */
struct DeviceTables {
  const nnvm::OpMap<FCompute>& fcompute;
  const nnvm::OpMap<FComputeEx>& fcompute_ex;
  const nnvm::OpMap<FStatefulCompute>& fstateful;
  const nnvm::OpMap<FStatefulComputeEx>& fstateful_ex;
  const char* device_name;
};

const DeviceTables& TablesFor(int dev_mask) {
  static const DeviceTables cpu_tables{
      nnvm::Op::GetAttr<FCompute>("FCompute<cpu>"),
      nnvm::Op::GetAttr<FComputeEx>("FComputeEx<cpu>"),
      nnvm::Op::GetAttr<FStatefulCompute>("FStatefulCompute<cpu>"),
      nnvm::Op::GetAttr<FStatefulComputeEx>("FStatefulComputeEx<cpu>"), "CPU"};
  static const DeviceTables gpu_tables{
      nnvm::Op::GetAttr<FCompute>("FCompute<gpu>"),
      nnvm::Op::GetAttr<FComputeEx>("FComputeEx<gpu>"),
      nnvm::Op::GetAttr<FStatefulCompute>("FStatefulCompute<gpu>"),
      nnvm::Op::GetAttr<FStatefulComputeEx>("FStatefulComputeEx<gpu>"), "GPU"};
  return dev_mask == gpu::kDevMask ? gpu_tables : cpu_tables;
}

bool DispatchLogEnabled() {
  static const bool enabled = common::GetEnvInt("MXNET_EXEC_DISPATCH_LOG", 0) != 0;
  return enabled;
}

void LogDecision(const nnvm::Op* op, const Context& ctx, DispatchMode mode, KernelKind kind,
                 const char* front_end) {
  static std::mutex mu;
  static std::set<std::tuple<const nnvm::Op*, int, int, int, std::string>> seen;
  std::lock_guard<std::mutex> lock(mu);
  if (!seen.emplace(op, ctx.dev_mask(), static_cast<int>(mode), static_cast<int>(kind),
                    front_end).second) {
    return;
  }
  LOG(INFO) << "dispatch: operator " << op->name << " on " << ctx << " (" << front_end
            << "): " << dispatch_mode_string(mode) << ", " << KernelKindName(kind);
}

/*! \brief " (node NAME)" for a named graph node, else nothing (imperative calls). */
std::string NodeName(const nnvm::NodeAttrs& attrs) {
  return attrs.name.empty() ? std::string() : " (node " + attrs.name + ")";
}

}  // namespace

const char* KernelKindName(KernelKind k) {
  switch (k) {
    case KernelKind::kFCompute: return "FCompute";
    case KernelKind::kFComputeEx: return "FComputeEx";
    case KernelKind::kStateful: return "FStatefulCompute";
    case KernelKind::kSubgraph: return "FStatefulComputeEx (subgraph)";
  }
  return "unknown";
}

std::string DeviceAttrName(const char* base, int dev_mask) {
  return std::string(base) + (dev_mask == gpu::kDevMask ? "<gpu>" : "<cpu>");
}

bool HasKernel(const nnvm::Op* op, int dev_mask) {
  const DeviceTables& t = TablesFor(dev_mask);
  return t.fcompute.count(op) || t.fstateful.count(op) || t.fcompute_ex.count(op) ||
         t.fstateful_ex.count(op);
}

DispatchMode InferDispatch(const nnvm::NodeAttrs& attrs, int dev_mask, std::vector<int>* in_stypes,
                           std::vector<int>* out_stypes) {
  static auto& finfer_stype = nnvm::Op::GetAttr<FInferStorageType>("FInferStorageType");
  const nnvm::Op* op = attrs.op;
  bool any_sparse = false;
  for (int s : *in_stypes) any_sparse |= (s != kDefaultStorage && s != kUndefinedStorage);
  for (int s : *out_stypes) any_sparse |= (s != kDefaultStorage && s != kUndefinedStorage);
  DispatchMode mode = DispatchMode::kFComputeFallback;
  if (finfer_stype.count(op) && TablesFor(dev_mask).fcompute_ex.count(op)) {
    if (!finfer_stype[op](attrs, dev_mask, &mode, in_stypes, out_stypes)) {
      mode = DispatchMode::kFComputeFallback;
    }
  }
  if (mode == DispatchMode::kFComputeEx) return mode;
  return any_sparse ? DispatchMode::kFComputeFallback : DispatchMode::kFCompute;
}

OpKernel SelectKernel(const nnvm::NodeAttrs& attrs, const Context& ctx, DispatchMode mode,
                      bool has_state, const char* front_end) {
  static auto& fexec_type = nnvm::Op::GetAttr<FExecType>("FExecType");
  const nnvm::Op* op = attrs.op;
  const int dev_mask = ctx.dev_mask();
  const DeviceTables& t = TablesFor(dev_mask);
  OpKernel k;
  k.dev_mask = dev_mask;
  const bool runs_subgraph =
      fexec_type.count(op) && fexec_type[op](attrs) == ExecType::kSubgraphExec;
  if (runs_subgraph && t.fstateful_ex.count(op) && has_state) {
    k.kind = KernelKind::kSubgraph;
    k.fstateful_ex = t.fstateful_ex[op];
  } else if (mode == DispatchMode::kFComputeEx && t.fcompute_ex.count(op)) {
    k.kind = KernelKind::kFComputeEx;
    k.fcompute_ex = t.fcompute_ex[op];
  } else if (t.fcompute.count(op)) {
    k.kind = KernelKind::kFCompute;
    k.fcompute = t.fcompute[op];
  } else if (t.fstateful.count(op) && has_state) {
    k.kind = KernelKind::kStateful;
    k.fstateful = t.fstateful[op];
  } else if (t.fstateful.count(op) || t.fstateful_ex.count(op)) {
    MX_THROW(NotImplementedError) << "Operator " << op->name << NodeName(attrs)
                                  << " is stateful on " << ctx
                                  << " but has no state to run with (no FCreateOpState)";
  } else {
    const int other = dev_mask == gpu::kDevMask ? cpu::kDevMask : gpu::kDevMask;
    MX_THROW(NotImplementedError)
        << "Operator " << op->name << NodeName(attrs) << " has no " << t.device_name
        << " implementation: cannot run on " << ctx
        << (HasKernel(op, other) ? (other == cpu::kDevMask ? " (it runs on cpu)" : " (it runs on gpu)")
                                 : "");
  }
  if (fexec_type.count(op)) k.is_async = fexec_type[op](attrs) == ExecType::kAsync;
  if (DispatchLogEnabled()) LogDecision(op, ctx, mode, k.kind, front_end);
  return k;
}

namespace {

bool AnyBF16(const std::vector<int>& types) {
  return std::find(types.begin(), types.end(), mshadow::kBfloat16) != types.end();
}

/*! \brief A float32 copy of a bfloat16 blob's shape (contents filled by the caller). */
struct Float32Temp {
  std::unique_ptr<float[]> data;
  TBlob blob;
  explicit Float32Temp(const TBlob& like)
      : data(new float[std::max<size_t>(like.Size(), 1)]),
        blob(data.get(), like.shape_, cpu::kDevMask, like.dev_id_) {}
};

void WidenBF16(const TBlob& src, float* dst) {
  const uint16_t* s = static_cast<const uint16_t*>(src.dptr_);
  const int64_t n = static_cast<int64_t>(src.Size());
  common::ParallelChunks(n, [=](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) dst[i] = common::BF16BitsToFloat32(s[i]);
  });
}

void NarrowToBF16(const float* src, const TBlob& dst) {
  uint16_t* d = static_cast<uint16_t*>(dst.dptr_);
  const int64_t n = static_cast<int64_t>(dst.Size());
  common::ParallelChunks(n, [=](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) d[i] = common::Float32ToBF16Bits(src[i]);
  });
}

/*!
 * \brief Run `run(inputs, req, outputs)` with every bfloat16 blob replaced by a float32
 *        temporary. `mutated`: input positions the op writes (FMutateInputs), copied back.
 */
template <typename Run>
void RunInFloat32(const std::vector<uint32_t>& mutated, const std::vector<TBlob>& inputs,
                  const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs,
                  const Run& run) {
  std::vector<std::unique_ptr<Float32Temp>> in_tmp(inputs.size()), out_tmp(outputs.size());
  std::vector<TBlob> in32(inputs), out32(outputs);
  std::vector<OpReqType> req32(req);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].type_flag_ != mshadow::kBfloat16) continue;
    in_tmp[i].reset(new Float32Temp(inputs[i]));
    WidenBF16(inputs[i], in_tmp[i]->data.get());
    in32[i] = in_tmp[i]->blob;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].type_flag_ != mshadow::kBfloat16) continue;
    out_tmp[i].reset(new Float32Temp(outputs[i]));
    // kAddTo accumulates in float32 and rounds once; in place means nothing here, the
    // temporaries are distinct, so the kernel just writes.
    if (req[i] == kAddTo) WidenBF16(outputs[i], out_tmp[i]->data.get());
    if (req[i] == kWriteInplace) req32[i] = kWriteTo;
    out32[i] = out_tmp[i]->blob;
  }
  run(in32, req32, out32);
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (out_tmp[i] != nullptr && req[i] != kNullOp) NarrowToBF16(out_tmp[i]->data.get(), outputs[i]);
  }
  for (uint32_t m : mutated) {
    if (m < inputs.size() && in_tmp[m] != nullptr) NarrowToBF16(in_tmp[m]->data.get(), inputs[m]);
  }
}

}  // namespace

bool NeedsBF16Fallback(const nnvm::NodeAttrs& attrs, const std::vector<int>& in_types,
                       const std::vector<int>& out_types) {
  static auto& native = nnvm::Op::GetAttr<bool>("TBFloat16Native");
  if (!AnyBF16(in_types) && !AnyBF16(out_types)) return false;
  return !native.get(attrs.op, false);
}

std::vector<int> BF16AsFloat32(std::vector<int> types) {
  for (int& t : types) {
    if (t == mshadow::kBfloat16) t = mshadow::kFloat32;
  }
  return types;
}

void ApplyBF16Fallback(const nnvm::NodeAttrs& attrs, const std::vector<int>& in_types,
                       const std::vector<int>& out_types, OpKernel* k) {
  if (!NeedsBF16Fallback(attrs, in_types, out_types)) return;
  const nnvm::Op* op = attrs.op;
  if (k->dev_mask != cpu::kDevMask) {
    MX_THROW(TypeError) << "Operator " << op->name << NodeName(attrs)
                        << ": bfloat16 runs on the CPU only (through float32), got a GPU call";
  }
  if (k->kind != KernelKind::kFCompute && k->kind != KernelKind::kStateful) {
    if (k->kind == KernelKind::kSubgraph) return;  // its inner operators fall back one by one
    MX_THROW(TypeError) << "Operator " << op->name << NodeName(attrs)
                        << ": bfloat16 is not supported with sparse storage";
  }
  static auto& fmutate = nnvm::Op::GetAttr<nnvm::FMutateInputs>("FMutateInputs");
  std::vector<uint32_t> mutated;
  if (fmutate.count(op)) mutated = fmutate[op](attrs);
  if (DispatchLogEnabled()) {
    LOG(INFO) << "dispatch: operator " << op->name << NodeName(attrs)
              << ": bfloat16 through the float32 kernel";
  }
  if (k->kind == KernelKind::kFCompute) {
    FCompute inner = std::move(k->fcompute);
    k->fcompute = [inner, mutated](const nnvm::NodeAttrs& a, const OpContext& ctx,
                                   const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                                   const std::vector<TBlob>& out) {
      RunInFloat32(mutated, in, req, out,
                   [&](const std::vector<TBlob>& i32, const std::vector<OpReqType>& r32,
                       const std::vector<TBlob>& o32) { inner(a, ctx, i32, r32, o32); });
    };
  } else {
    FStatefulCompute inner = std::move(k->fstateful);
    k->fstateful = [inner, mutated](const OpStatePtr& state, const OpContext& ctx,
                                    const std::vector<TBlob>& in,
                                    const std::vector<OpReqType>& req,
                                    const std::vector<TBlob>& out) {
      RunInFloat32(mutated, in, req, out,
                   [&](const std::vector<TBlob>& i32, const std::vector<OpReqType>& r32,
                       const std::vector<TBlob>& o32) { inner(state, ctx, i32, r32, o32); });
    };
  }
}

}  // namespace exec
}  // namespace mxnet
