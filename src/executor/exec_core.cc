// The one execution core: device-keyed kernel choice shared by imperative invoke and the
// graph executor (see exec_core.h).
#include "./exec_core.h"

#include <dmlc/logging.h>

#include <cstdlib>
#include <mutex>
#include <set>
#include <tuple>

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

}  // namespace exec
}  // namespace mxnet
