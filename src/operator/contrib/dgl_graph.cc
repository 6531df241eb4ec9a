/*!
 * \file dgl_graph.cc
 * \brief Graph operators of MXNet 1.9.1 for DGL, on graphs stored as CSR matrices whose values
 *        are edge ids (row = source vertex, column = destination vertex):
 *   _contrib_dgl_csr_neighbor_uniform_sample / _non_uniform_sample  (BFS neighbourhood samples)
 *   _contrib_dgl_subgraph      (induced subgraphs of sorted vertex sets)
 *   _contrib_dgl_graph_compact (sampled subgraphs renumbered to their own vertices)
 *   _contrib_dgl_adjacency     (same pattern, values 1)
 *   _contrib_edge_id           (edge id of each (u, v) pair, -1 where there is no edge)
 *   _contrib_getnnz            (stored values in total, per row or per column)
 * All run through FComputeEx (CSR inputs) and are not differentiable; a dense graph is refused
 * by storage inference (TSparseFromDense makes dense calls run it) with a ValueError. On GPU
 * arrays, edge_id and getnnz run kernels (dgl_graph.cu); the samplers, subgraph, compact and
 * adjacency are sequential, data-dependent walks: host paths that run the CPU kernels on host
 * copies of the csr parts (RunOnHostForGPUEx, host_fallback.h).
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../host_fallback.h"
#include "../operator_common.h"
#include "../sparse/sparse_ops-inl.h"
#include "./dgl_graph-inl.h"

namespace mxnet {
namespace op {

struct NeighborSampleParam : public dmlc::Parameter<NeighborSampleParam> {
  int num_args;
  int64_t num_hops, num_neighbor, max_num_vertices;
  DMLC_DECLARE_PARAMETER(NeighborSampleParam) {
    DMLC_DECLARE_FIELD(num_args).set_lower_bound(2).describe("Number of input NDArray.");
    DMLC_DECLARE_FIELD(num_hops).set_default(1).describe("Number of hops.");
    DMLC_DECLARE_FIELD(num_neighbor).set_default(2).describe("Number of neighbor.");
    DMLC_DECLARE_FIELD(max_num_vertices).set_default(100).describe("Max number of vertices.");
  }
};
DMLC_REGISTER_PARAMETER(NeighborSampleParam);

struct DGLSubgraphParam : public dmlc::Parameter<DGLSubgraphParam> {
  int num_args;
  bool return_mapping;
  DMLC_DECLARE_PARAMETER(DGLSubgraphParam) {
    DMLC_DECLARE_FIELD(num_args).set_lower_bound(2).describe("Number of input arguments.");
    DMLC_DECLARE_FIELD(return_mapping)
        .describe("Return mapping of vid and eid between the subgraph and the parent graph.");
  }
};
DMLC_REGISTER_PARAMETER(DGLSubgraphParam);

struct GraphCompactParam : public dmlc::Parameter<GraphCompactParam> {
  int num_args;
  bool return_mapping;
  mxnet::Tuple<int64_t> graph_sizes;
  DMLC_DECLARE_PARAMETER(GraphCompactParam) {
    DMLC_DECLARE_FIELD(num_args).set_lower_bound(2).describe("Number of input arguments.");
    DMLC_DECLARE_FIELD(return_mapping)
        .describe("Return mapping of vid and eid between the subgraph and the parent graph.");
    DMLC_DECLARE_FIELD(graph_sizes).describe("the number of vertices in each graph.");
  }
};
DMLC_REGISTER_PARAMETER(GraphCompactParam);

struct GetnnzParam : public dmlc::Parameter<GetnnzParam> {
  dmlc::optional<int> axis;
  DMLC_DECLARE_PARAMETER(GetnnzParam) {
    DMLC_DECLARE_FIELD(axis).set_default(dmlc::optional<int>()).describe(
        "Select between the number of values across the whole matrix, in each column, or in "
        "each row.");
  }
};
DMLC_REGISTER_PARAMETER(GetnnzParam);

namespace {

const char* StypeName(int s) {
  return s == kCSRStorage ? "csr" : s == kRowSparseStorage ? "row_sparse" : "default";
}

/*! \brief Storage inference: input 0..n_csr-1 csr, the rest dense; outputs as `out_stypes`. */
bool GraphStype(const nnvm::NodeAttrs& attrs, DispatchMode* mode, std::vector<int>* in,
                std::vector<int>* out, size_t n_csr, const std::vector<int>& out_stypes) {
  for (size_t i = 0; i < in->size(); ++i) {
    const int want = i < n_csr ? kCSRStorage : kDefaultStorage;
    if ((*in)[i] != kUndefinedStorage && (*in)[i] != want) {
      MX_THROW(ValueError) << attrs.op->name << ": expected input " << i << " of "
                           << StypeName(want) << " storage, got " << StypeName((*in)[i]);
    }
  }
  for (size_t i = 0; i < out->size(); ++i) (*out)[i] = out_stypes[i];
  *mode = DispatchMode::kFComputeEx;
  return true;
}

/*! \brief A CSR graph's structure read as int64 (values stay in the array). */
struct CsrGraph {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> indptr, indices;
};

CsrGraph ReadCsr(const NDArray& a) {
  a.CheckSparseFormat(false);
  CsrGraph g;
  g.rows = a.shape()[0];
  g.cols = a.shape()[1];
  g.indptr = SparseAuxAsInt64(a, 0);
  g.indices = SparseAuxAsInt64(a, 1);
  if (g.indptr.empty()) g.indptr.assign(g.rows + 1, 0);  // an all-zero array
  return g;
}

/*! \brief The stored values of an int64 CSR array (nullptr when there are none). */
const int64_t* Int64Values(const NDArray& a) {
  const NDArray& d = a.sparse_data();
  return d.Size() ? d.data().dptr<int64_t>() : nullptr;
}

void SetCsr(const NDArray& out, const std::vector<int64_t>& indptr,
            const std::vector<int64_t>& indices, const NDArray& values) {
  out.SetSparseParts(values, {Int64Part(indptr), Int64Part(indices)});
}

/*! \brief The values of a dense 1-D int64 input. */
std::vector<int64_t> Int64Vector(const NDArray& a) {
  const TBlob b = a.data();
  std::vector<int64_t> v(b.Size());
  MSHADOW_TYPE_SWITCH(b.type_flag_, DType, {
    const DType* p = b.dptr<DType>();
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>(p[i]);
  });
  return v;
}

void ExpectDtype(const nnvm::NodeAttrs& attrs, std::vector<int>* v, size_t i, int want,
                 const char* what) {
  if ((*v)[i] >= 0 && (*v)[i] != want) {
    MX_THROW(TypeError) << attrs.op->name << ": expected " << what << " of dtype "
                        << mshadow::dtype_string(want) << ", got "
                        << mshadow::dtype_string((*v)[i]);
  }
  (*v)[i] = want;
}

const TShape& Expect2D(const nnvm::NodeAttrs& attrs, const TShape& s, const char* what) {
  if (shape_is_known(s) && s.ndim() != 2) {
    MX_THROW(ValueError) << attrs.op->name << ": expected a 2-D " << what << ", got shape " << s;
  }
  return s;
}

void Expect1D(const nnvm::NodeAttrs& attrs, const TShape& s, const char* what) {
  if (shape_is_known(s) && s.ndim() != 1) {
    MX_THROW(ValueError) << attrs.op->name << ": expected a 1-D " << what << ", got shape " << s;
  }
}

// ------------------------------------------------------------------------ neighbour sampling

/*! \brief Number of seed arrays of a sampler: num_args minus the graph (and probability). */
template <bool kWeighted>
int NumSeedArrays(const nnvm::NodeAttrs& attrs) {
  const NeighborSampleParam& p = nnvm::get<NeighborSampleParam>(attrs.parsed);
  const int n = p.num_args - (kWeighted ? 2 : 1);
  if (n < 1) {
    MX_THROW(ValueError) << attrs.op->name << ": expected at least one seed array (num_args = "
                         << p.num_args << ")";
  }
  return n;
}

template <bool kWeighted>
uint32_t SampleNumOutputs(const nnvm::NodeAttrs& attrs) {
  return static_cast<uint32_t>(NumSeedArrays<kWeighted>(attrs) * (kWeighted ? 4 : 3));
}

template <bool kWeighted>
std::vector<std::string> SampleInputNames(const nnvm::NodeAttrs& attrs) {
  std::vector<std::string> names{"csr_matrix"};
  if (kWeighted) names.emplace_back("probability");
  const int n = NumSeedArrays<kWeighted>(attrs);
  for (int i = 0; i < n; ++i) names.push_back("seed_arrays" + std::to_string(i));
  return names;
}

template <bool kWeighted>
bool SampleShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const NeighborSampleParam& p = nnvm::get<NeighborSampleParam>(attrs.parsed);
  const char* name = attrs.op->name.c_str();
  if (p.num_hops < 0 || p.num_neighbor < 0 || p.max_num_vertices < 1) {
    MX_THROW(ValueError) << name << ": expected num_hops >= 0, num_neighbor >= 0 and "
                         << "max_num_vertices >= 1, got " << p.num_hops << ", "
                         << p.num_neighbor << ", " << p.max_num_vertices;
  }
  const TShape& g = Expect2D(attrs, (*in)[0], "csr_matrix");
  const size_t first_seed = kWeighted ? 2 : 1;
  for (size_t i = first_seed; i < in->size(); ++i) {
    Expect1D(attrs, (*in)[i], "seed array");
    if (shape_is_known((*in)[i]) && (*in)[i][0] > p.max_num_vertices) {
      MX_THROW(ValueError) << name << ": " << (*in)[i][0] << " seeds do not fit in "
                           << "max_num_vertices = " << p.max_num_vertices;
    }
  }
  if (!shape_is_known(g)) return false;
  if (g[0] != g[1]) {
    MX_THROW(ValueError) << name << ": expected a square adjacency matrix, got shape " << g;
  }
  if (kWeighted) {
    Expect1D(attrs, (*in)[1], "probability");
    SHAPE_ASSIGN_CHECK(*in, 1, TShape(1, g[0]));
  }
  const int n = NumSeedArrays<kWeighted>(attrs);
  const int64_t m = p.max_num_vertices;
  TShape csr(2, m);
  csr[1] = g[1];
  for (int i = 0; i < n; ++i) {
    SHAPE_ASSIGN_CHECK(*out, i, TShape(1, m + 1));
    SHAPE_ASSIGN_CHECK(*out, n + i, csr);
    if (kWeighted) SHAPE_ASSIGN_CHECK(*out, 2 * n + i, TShape(1, m));
    SHAPE_ASSIGN_CHECK(*out, (kWeighted ? 3 : 2) * n + i, TShape(1, m));
  }
  bool ok = true;
  for (size_t i = first_seed; i < in->size(); ++i) ok = ok && shape_is_known((*in)[i]);
  return ok;
}

template <bool kWeighted>
bool SampleType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  ExpectDtype(attrs, in, 0, mshadow::kInt64, "csr_matrix");
  int prob = mshadow::kFloat32;
  if (kWeighted) {
    if ((*in)[1] >= 0) prob = (*in)[1];
    if (prob != mshadow::kFloat32 && prob != mshadow::kFloat64) {
      MX_THROW(TypeError) << attrs.op->name << ": expected a float32 probability, got "
                          << mshadow::dtype_string(prob);
    }
    (*in)[1] = prob;
  }
  for (size_t i = kWeighted ? 2 : 1; i < in->size(); ++i) {
    ExpectDtype(attrs, in, i, mshadow::kInt64, "seed array");
  }
  const int n = NumSeedArrays<kWeighted>(attrs);
  for (int i = 0; i < n; ++i) {
    TYPE_ASSIGN_CHECK(*out, i, mshadow::kInt64);
    TYPE_ASSIGN_CHECK(*out, n + i, mshadow::kInt64);
    if (kWeighted) TYPE_ASSIGN_CHECK(*out, 2 * n + i, prob);
    TYPE_ASSIGN_CHECK(*out, (kWeighted ? 3 : 2) * n + i, mshadow::kInt64);
  }
  return true;
}

template <bool kWeighted>
bool SampleStype(const nnvm::NodeAttrs& attrs, const int, DispatchMode* mode,
                 std::vector<int>* in, std::vector<int>* out) {
  const int n = NumSeedArrays<kWeighted>(attrs);
  std::vector<int> stypes(out->size(), kDefaultStorage);
  for (int i = 0; i < n; ++i) stypes[n + i] = kCSRStorage;
  return GraphStype(attrs, mode, in, out, 1, stypes);
}

/*!
 * \brief Positions (in [begin, end) of the CSR arrays) of the neighbours to keep: all of them
 *        when there are at most k, else k drawn without replacement, uniformly or with weights
 *        prob[neighbour]; returned in increasing order.
 */
std::vector<int64_t> PickNeighbors(int64_t begin, int64_t end, int64_t k,
                                   const std::vector<int64_t>& indices, const double* prob,
                                   std::mt19937* rng) {
  std::vector<int64_t> pos;
  const int64_t deg = end - begin;
  if (deg <= k) {
    for (int64_t p = begin; p < end; ++p) pos.push_back(p);
    return pos;
  }
  if (prob == nullptr) {  // partial Fisher-Yates
    std::vector<int64_t> all(deg);
    for (int64_t i = 0; i < deg; ++i) all[i] = begin + i;
    for (int64_t i = 0; i < k; ++i) {
      std::uniform_int_distribution<int64_t> pick(i, deg - 1);
      std::swap(all[i], all[pick(*rng)]);
    }
    pos.assign(all.begin(), all.begin() + k);
  } else {  // successive weighted draws without replacement
    std::vector<double> w(deg);
    double total = 0;
    for (int64_t i = 0; i < deg; ++i) {
      w[i] = std::max(0.0, prob[indices[begin + i]]);
      total += w[i];
    }
    std::uniform_real_distribution<double> unif(0.0, 1.0);
    for (int64_t t = 0; t < k && total > 0; ++t) {
      double u = unif(*rng) * total;
      int64_t chosen = -1;
      for (int64_t i = 0; i < deg; ++i) {
        if (w[i] <= 0) continue;
        chosen = i;
        if (u < w[i]) break;
        u -= w[i];
      }
      pos.push_back(begin + chosen);
      total -= w[chosen];
      w[chosen] = 0;
    }
  }
  std::sort(pos.begin(), pos.end());
  return pos;
}

/*!
 * \brief One neighbourhood sample. BFS from the seeds: each popped vertex with layer <
 *        num_hops gets (up to) num_neighbor sampled out-edges; a neighbour seen for the first
 *        time joins with layer + 1 while fewer than max_num_vertices vertices are known
 *        (edges to later ones are still kept); the search stops when the vertex set is full.
 *        Outputs: the sorted vertices (count last), their edges as a CSR whose row r belongs
 *        to vertex r of the list (columns keep the parent's vertex ids, values its edge ids),
 *        and each vertex's layer (and probability).
 */
void SampleOne(const NeighborSampleParam& p, const char* name, const CsrGraph& g,
               const int64_t* edge_ids, const double* prob, const std::vector<int64_t>& seeds,
               std::mt19937* rng, const NDArray& out_vertices, const NDArray& out_csr,
               const NDArray& out_prob, const NDArray& out_layer) {
  const int64_t max_v = p.max_num_vertices;
  if (static_cast<int64_t>(seeds.size()) > max_v) {
    MX_THROW(ValueError) << name << ": " << seeds.size() << " seeds do not fit in "
                         << "max_num_vertices = " << max_v;
  }
  std::unordered_map<int64_t, int64_t> layer;
  std::deque<int64_t> queue;
  for (int64_t s : seeds) {
    if (s < 0 || s >= g.rows) {
      MX_THROW(IndexError) << name << ": seed vertex " << s << " is not in [0, " << g.rows
                           << ")";
    }
    if (layer.emplace(s, 0).second) queue.push_back(s);
  }
  std::unordered_map<int64_t, std::vector<int64_t>> picked;  // vertex -> edge positions
  while (!queue.empty()) {
    const int64_t v = queue.front();
    queue.pop_front();
    if (static_cast<int64_t>(layer.size()) >= max_v) break;  // truncated: the set is full
    const int64_t l = layer[v];
    if (l >= p.num_hops) continue;
    std::vector<int64_t> pos =
        PickNeighbors(g.indptr[v], g.indptr[v + 1], p.num_neighbor, g.indices, prob, rng);
    for (int64_t q : pos) {
      const int64_t u = g.indices[q];
      if (layer.count(u) == 0 && static_cast<int64_t>(layer.size()) < max_v) {
        layer.emplace(u, l + 1);
        queue.push_back(u);
      }
    }
    picked[v] = std::move(pos);
  }
  std::vector<int64_t> vertices;
  vertices.reserve(layer.size());
  for (const auto& kv : layer) vertices.push_back(kv.first);
  std::sort(vertices.begin(), vertices.end());
  const int64_t n = static_cast<int64_t>(vertices.size());

  int64_t* ov = out_vertices.data().dptr<int64_t>();
  int64_t* ol = out_layer.data().dptr<int64_t>();
  std::fill(ov, ov + max_v + 1, 0);
  std::fill(ol, ol + max_v, 0);
  for (int64_t r = 0; r < n; ++r) {
    ov[r] = vertices[r];
    ol[r] = layer[vertices[r]];
  }
  ov[max_v] = n;
  if (!out_prob.is_none()) {
    const TBlob pb = out_prob.data();
    MSHADOW_REAL_TYPE_SWITCH(pb.type_flag_, PType, {
      PType* op = pb.dptr<PType>();
      for (int64_t r = 0; r < max_v; ++r) op[r] = PType(r < n ? prob[vertices[r]] : 0.0);
    });
  }
  std::vector<int64_t> indptr(max_v + 1, 0), indices, values;
  for (int64_t r = 0; r < max_v; ++r) {
    if (r < n) {
      auto it = picked.find(vertices[r]);
      if (it != picked.end()) {
        std::vector<std::pair<int64_t, int64_t>> row;
        for (int64_t q : it->second) row.emplace_back(g.indices[q], edge_ids[q]);
        std::sort(row.begin(), row.end());
        for (const auto& e : row) {
          indices.push_back(e.first);
          values.push_back(e.second);
        }
      }
    }
    indptr[r + 1] = static_cast<int64_t>(indices.size());
  }
  SetCsr(out_csr, indptr, indices, Int64Part(values));
}

template <bool kWeighted>
void SampleComputeEx(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                     const std::vector<NDArray>& out) {
  const NeighborSampleParam& p = nnvm::get<NeighborSampleParam>(attrs.parsed);
  const char* name = attrs.op->name.c_str();
  const CsrGraph g = ReadCsr(in[0]);
  const int64_t* edge_ids = Int64Values(in[0]);
  std::vector<double> prob;
  if (kWeighted) {
    const TBlob pb = in[1].data();
    prob.resize(pb.Size());
    MSHADOW_REAL_TYPE_SWITCH(pb.type_flag_, PType, {
      const PType* pp = pb.dptr<PType>();
      for (size_t i = 0; i < prob.size(); ++i) prob[i] = static_cast<double>(pp[i]);
    });
  }
  std::mt19937& rng = ctx.requested[0].get_random<cpu, float>(nullptr)->GetRndEngine();
  const int n = NumSeedArrays<kWeighted>(attrs);
  const size_t first_seed = kWeighted ? 2 : 1;
  for (int i = 0; i < n; ++i) {
    SampleOne(p, name, g, edge_ids, kWeighted ? prob.data() : nullptr,
              Int64Vector(in[first_seed + i]), &rng, out[i], out[n + i],
              kWeighted ? out[2 * n + i] : NDArray(), out[(kWeighted ? 3 : 2) * n + i]);
  }
}

// ------------------------------------------------------------------------------- subgraph

int NumVertexSets(const nnvm::NodeAttrs& attrs) {
  return nnvm::get<DGLSubgraphParam>(attrs.parsed).num_args - 1;
}

bool SubgraphShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                   mxnet::ShapeVector* out) {
  const DGLSubgraphParam& p = nnvm::get<DGLSubgraphParam>(attrs.parsed);
  Expect2D(attrs, (*in)[0], "graph");
  const int n = NumVertexSets(attrs);
  bool ok = shape_is_known((*in)[0]);
  for (int i = 0; i < n; ++i) {
    const TShape& v = (*in)[1 + i];
    Expect1D(attrs, v, "vertex array");
    if (!shape_is_known(v)) {
      ok = false;
      continue;
    }
    TShape s(2, v[0]);
    SHAPE_ASSIGN_CHECK(*out, i, s);
    if (p.return_mapping) SHAPE_ASSIGN_CHECK(*out, n + i, s);
  }
  return ok;
}

bool SubgraphType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  ExpectDtype(attrs, in, 0, mshadow::kInt64, "graph");
  for (size_t i = 1; i < in->size(); ++i) ExpectDtype(attrs, in, i, mshadow::kInt64, "vertices");
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, mshadow::kInt64);
  return true;
}

bool SubgraphStype(const nnvm::NodeAttrs& attrs, const int, DispatchMode* mode,
                   std::vector<int>* in, std::vector<int>* out) {
  return GraphStype(attrs, mode, in, out, 1, std::vector<int>(out->size(), kCSRStorage));
}

void SubgraphComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                       const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                       const std::vector<NDArray>& out) {
  const DGLSubgraphParam& p = nnvm::get<DGLSubgraphParam>(attrs.parsed);
  const char* name = attrs.op->name.c_str();
  const CsrGraph g = ReadCsr(in[0]);
  const int64_t* edge_ids = Int64Values(in[0]);
  const int n = NumVertexSets(attrs);
  for (int i = 0; i < n; ++i) {
    const std::vector<int64_t> v = Int64Vector(in[1 + i]);
    std::unordered_map<int64_t, int64_t> pos;
    for (size_t r = 0; r < v.size(); ++r) {
      if (v[r] < 0 || v[r] >= g.rows || v[r] >= g.cols) {
        MX_THROW(IndexError) << name << ": vertex " << v[r] << " is not in the graph of shape ("
                             << g.rows << ", " << g.cols << ")";
      }
      if (r > 0 && v[r] <= v[r - 1]) {
        MX_THROW(ValueError) << name << ": the vertex list has to be sorted and unique, got "
                             << v[r - 1] << " before " << v[r];
      }
      pos[v[r]] = static_cast<int64_t>(r);
    }
    std::vector<int64_t> indptr(v.size() + 1, 0), indices, new_ids, old_ids;
    for (size_t r = 0; r < v.size(); ++r) {
      for (int64_t q = g.indptr[v[r]]; q < g.indptr[v[r] + 1]; ++q) {
        auto it = pos.find(g.indices[q]);
        if (it == pos.end()) continue;
        indices.push_back(it->second);
        new_ids.push_back(static_cast<int64_t>(new_ids.size()));
        old_ids.push_back(edge_ids[q]);
      }
      indptr[r + 1] = static_cast<int64_t>(indices.size());
    }
    SetCsr(out[i], indptr, indices, Int64Part(new_ids));
    if (p.return_mapping) SetCsr(out[n + i], indptr, indices, Int64Part(old_ids));
  }
}

// --------------------------------------------------------------------------------- compact

int NumCompactGraphs(const nnvm::NodeAttrs& attrs) {
  const GraphCompactParam& p = nnvm::get<GraphCompactParam>(attrs.parsed);
  if (p.num_args % 2 != 0) {
    MX_THROW(ValueError) << attrs.op->name << ": expected graphs followed by as many vertex "
                         << "arrays (an even num_args), got num_args = " << p.num_args;
  }
  if (static_cast<int>(p.graph_sizes.ndim()) != p.num_args / 2) {
    MX_THROW(ValueError) << attrs.op->name << ": expected " << p.num_args / 2
                         << " graph_sizes (one per graph), got " << p.graph_sizes.ndim();
  }
  return p.num_args / 2;
}

bool CompactShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const GraphCompactParam& p = nnvm::get<GraphCompactParam>(attrs.parsed);
  const int n = NumCompactGraphs(attrs);
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    const TShape& g = Expect2D(attrs, (*in)[i], "graph");
    const TShape& v = (*in)[n + i];
    Expect1D(attrs, v, "vertex array");
    const int64_t size = p.graph_sizes[i];
    if (size < 0 || (shape_is_known(g) && size > g[0]) ||
        (shape_is_known(v) && size > v[0])) {
      MX_THROW(ValueError) << attrs.op->name << ": graph_sizes[" << i << "] = " << size
                           << " does not fit graph shape " << g << " and vertex array shape "
                           << v;
    }
    ok = ok && shape_is_known(g) && shape_is_known(v);
    TShape s(2, size);
    SHAPE_ASSIGN_CHECK(*out, i, s);
    if (p.return_mapping) SHAPE_ASSIGN_CHECK(*out, n + i, s);
  }
  return ok;
}

bool CompactType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int n = NumCompactGraphs(attrs);
  for (int i = 0; i < 2 * n; ++i) {
    ExpectDtype(attrs, in, i, mshadow::kInt64, i < n ? "graph" : "vertices");
  }
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, mshadow::kInt64);
  return true;
}

bool CompactStype(const nnvm::NodeAttrs& attrs, const int, DispatchMode* mode,
                  std::vector<int>* in, std::vector<int>* out) {
  return GraphStype(attrs, mode, in, out, NumCompactGraphs(attrs),
                    std::vector<int>(out->size(), kCSRStorage));
}

void CompactComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                      const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                      const std::vector<NDArray>& out) {
  const GraphCompactParam& p = nnvm::get<GraphCompactParam>(attrs.parsed);
  const char* name = attrs.op->name.c_str();
  const int n = NumCompactGraphs(attrs);
  for (int i = 0; i < n; ++i) {
    const CsrGraph g = ReadCsr(in[i]);
    const int64_t* edge_ids = Int64Values(in[i]);
    const std::vector<int64_t> v = Int64Vector(in[n + i]);
    const int64_t size = p.graph_sizes[i];
    std::unordered_map<int64_t, int64_t> pos;
    for (int64_t r = 0; r < size; ++r) pos[v[r]] = r;
    std::vector<int64_t> indptr(size + 1, 0), indices, new_ids, old_ids;
    for (int64_t r = 0; r < size; ++r) {
      for (int64_t q = g.indptr[r]; q < g.indptr[r + 1]; ++q) {
        auto it = pos.find(g.indices[q]);
        if (it == pos.end()) {
          MX_THROW(ValueError) << name << ": graph " << i << " has an edge (" << v[r] << ", "
                               << g.indices[q] << ") to a vertex outside its first " << size
                               << " vertices";
        }
        indices.push_back(it->second);
        new_ids.push_back(static_cast<int64_t>(new_ids.size()));
        old_ids.push_back(edge_ids[q]);
      }
      indptr[r + 1] = static_cast<int64_t>(indices.size());
    }
    SetCsr(out[i], indptr, indices, Int64Part(new_ids));
    if (p.return_mapping) SetCsr(out[n + i], indptr, indices, Int64Part(old_ids));
  }
}

// --------------------------------------------------------------- adjacency, edge_id, getnnz

bool CsrInputShape(const nnvm::NodeAttrs& attrs, const TShape& s) {
  Expect2D(attrs, s, "csr matrix");
  return shape_is_known(s);
}

void AdjacencyComputeEx(const nnvm::NodeAttrs&, const OpContext&, const std::vector<NDArray>& in,
                        const std::vector<OpReqType>& req, const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  const CsrGraph g = ReadCsr(in[0]);
  const int64_t nnz = static_cast<int64_t>(g.indices.size());
  NDArray ones = NewPart(TShape(1, nnz), mshadow::kFloat32);
  float* o = ones.data().dptr<float>();
  std::fill(o, o + nnz, 1.0f);
  SetCsr(out[0], g.indptr, g.indices, ones);
}

void EdgeIdComputeEx(const nnvm::NodeAttrs&, const OpContext&, const std::vector<NDArray>& in,
                     const std::vector<OpReqType>& req, const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  const CsrGraph g = ReadCsr(in[0]);
  const std::vector<int64_t> u = Int64Vector(in[1]), v = Int64Vector(in[2]);
  const TBlob o = out[0].data();
  MSHADOW_TYPE_SWITCH(o.type_flag_, DType, {
    const NDArray& vals = in[0].sparse_data();
    const DType* ids = vals.Size() ? vals.data().dptr<DType>() : nullptr;
    DType* op = o.dptr<DType>();
    for (size_t i = 0; i < u.size(); ++i) {
      DType val = DType(-1);
      if (u[i] >= 0 && u[i] < g.rows) {
        for (int64_t q = g.indptr[u[i]]; q < g.indptr[u[i] + 1]; ++q) {  // rows may be unsorted
          if (g.indices[q] == v[i]) {
            val = ids[q];
            break;
          }
        }
      }
      op[i] = req[0] == kAddTo ? DType(op[i] + val) : val;
    }
  });
}

int GetnnzAxis(const nnvm::NodeAttrs& attrs) {
  const GetnnzParam& p = nnvm::get<GetnnzParam>(attrs.parsed);
  if (!p.axis.has_value()) return -100;
  const int a = p.axis.value();
  if (a == 0 || a == -2) return 0;
  if (a == 1 || a == -1) return 1;
  MX_THROW(ValueError) << attrs.op->name << ": expected axis None, 0 or 1, got " << a;
  return 0;
}

void GetnnzComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                     const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                     const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  const CsrGraph g = ReadCsr(in[0]);
  int64_t* o = out[0].data().dptr<int64_t>();
  const int axis = GetnnzAxis(attrs);
  const bool add = req[0] == kAddTo;
  if (axis == -100) {
    o[0] = (add ? o[0] : 0) + g.indptr[g.rows];
  } else if (axis == 1) {
    for (int64_t r = 0; r < g.rows; ++r) o[r] = (add ? o[r] : 0) + g.indptr[r + 1] - g.indptr[r];
  } else {
    if (!add) std::fill(o, o + g.cols, 0);
    for (int64_t c : g.indices) ++o[c];
  }
}

}  // namespace

// ------------------------------------------------------------------------------ registration

#define MXNET_DGL_SAMPLER_DOC_TAIL                                                              \
  "\nEach vertex list is sorted; the CSR matrix has max_num_vertices rows, row r holding the " \
  "sampled out-edges of the r-th listed vertex (columns are the parent graph's vertex ids, "    \
  "values its edge ids). Search: breadth-first from the seeds; a vertex whose layer is below "  \
  "num_hops gets min(num_neighbor, degree) out-edges sampled without replacement; a neighbour " \
  "seen for the first time joins the list (layer + 1) while it has fewer than "                 \
  "max_num_vertices vertices, and the search stops once the list is full (edges already "       \
  "sampled to vertices that did not fit are kept). Unused tail entries are 0. Sampling uses "   \
  "the random generator seeded by mx.random.seed.\n"

NNVM_REGISTER_OP(_contrib_dgl_csr_neighbor_uniform_sample)
.describe(R"code(This operator samples sub-graphs from a csr graph via an
uniform probability. The operator is designed for DGL.

The operator outputs three sets of NDArrays to represent the sampled results
(the number of NDArrays in each set is the same as the number of seed NDArrays minus two (csr matrix and probability)):
1) a set of 1D NDArrays containing the sampled vertices, 2) a set of CSRNDArrays representing
the sampled edges, 3) a set of 1D NDArrays indicating the layer where a vertex is sampled.
The first set of 1D NDArrays have a length of max_num_vertices+1. The last element in an NDArray
indicate the acutal number of vertices in a subgraph. The third set of NDArrays have a length
of max_num_vertices, and the valid number of vertices is the same as the ones in the first set.

Example:

   .. code:: python

  shape = (5, 5)
  data_np = np.array([1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20], dtype=np.int64)
  indices_np = np.array([1,2,3,4,0,2,3,4,0,1,3,4,0,1,2,4,0,1,2,3], dtype=np.int64)
  indptr_np = np.array([0,4,8,12,16,20], dtype=np.int64)
  a = mx.nd.sparse.csr_matrix((data_np, indices_np, indptr_np), shape=shape)
  seed = mx.nd.array([0], dtype=np.int64)
  out = mx.nd.contrib.dgl_csr_neighbor_uniform_sample(a, seed, num_args=2, num_hops=1, num_neighbor=2, max_num_vertices=5)
  out[0]   # e.g. [0 1 3 0 0 3]: vertices 0, 1, 3, then padding, then the count
  out[1]   # 5x5 csr: row 0 holds the sampled edges (0, 1) and (0, 3) with ids 1 and 3
  out[2]   # [0 1 1 0 0]: the layer of each vertex
)code" MXNET_DGL_SAMPLER_DOC_TAIL ADD_FILELINE)
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<NeighborSampleParam>(attrs.parsed).num_args);
})
.set_num_outputs(SampleNumOutputs<false>)
.set_attr_parser(ParamParser<NeighborSampleParam>)
.set_attr<std::string>("key_var_num_args", "num_args")
.set_attr<nnvm::FListInputNames>("FListInputNames", SampleInputNames<false>)
.set_attr<mxnet::FInferShape>("FInferShape", SampleShape<false>)
.set_attr<nnvm::FInferType>("FInferType", SampleType<false>)
.set_attr<FInferStorageType>("FInferStorageType", SampleStype<false>)
.set_attr<FComputeEx>("FComputeEx<cpu>", SampleComputeEx<false>)
#if MXNET_USE_CUDA
.set_attr<FComputeEx>("FComputeEx<gpu>", RunOnHostForGPUEx(SampleComputeEx<false>))
#endif
.set_attr<FResourceRequest>("FResourceRequest", [](const nnvm::NodeAttrs&) {
  return std::vector<ResourceRequest>{ResourceRequest::kRandom};
})
.set_attr<bool>("TNonDifferentiable", true)
.set_attr<bool>("TSparseFromDense", true)  // storage inference also for dense calls
.add_argument("csr_matrix", "NDArray-or-Symbol", "csr matrix")
.add_argument("seed_arrays", "NDArray-or-Symbol[]", "seed vertices")
.add_arguments(NeighborSampleParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_dgl_csr_neighbor_non_uniform_sample)
.describe(R"code(This operator samples sub-graph from a csr graph via an
non-uniform probability. The operator is designed for DGL.

The operator outputs four sets of NDArrays to represent the sampled results
(the number of NDArrays in each set is the same as the number of seed NDArrays minus two (csr matrix and probability)):
1) a set of 1D NDArrays containing the sampled vertices, 2) a set of CSRNDArrays representing
the sampled edges, 3) a set of 1D NDArrays with the probability that vertices are sampled,
4) a set of 1D NDArrays indicating the layer where a vertex is sampled.
The first set of 1D NDArrays have a length of max_num_vertices+1. The last element in an NDArray
indicate the acutal number of vertices in a subgraph. The third and fourth set of NDArrays have a length
of max_num_vertices, and the valid number of vertices is the same as the ones in the first set.

Neighbours are drawn one after another without replacement, each with probability proportional
to ``probability[neighbour]`` among those not drawn yet; the third output is
``probability[vertex]`` for each listed vertex.

Example:

   .. code:: python

  shape = (5, 5)
  prob = mx.nd.array([0.9, 0.8, 0.2, 0.4, 0.1], dtype=np.float32)
  data_np = np.array([1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20], dtype=np.int64)
  indices_np = np.array([1,2,3,4,0,2,3,4,0,1,3,4,0,1,2,4,0,1,2,3], dtype=np.int64)
  indptr_np = np.array([0,4,8,12,16,20], dtype=np.int64)
  a = mx.nd.sparse.csr_matrix((data_np, indices_np, indptr_np), shape=shape)
  seed = mx.nd.array([0], dtype=np.int64)
  out = mx.nd.contrib.dgl_csr_neighbor_non_uniform_sample(a, prob, seed, num_args=3, num_hops=1, num_neighbor=2, max_num_vertices=5)
  out[0]   # e.g. [0 1 3 0 0 3]
  out[2]   # e.g. [0.9 0.8 0.4 0. 0.]: the probability of each listed vertex
  out[3]   # e.g. [0 1 1 0 0]
)code" MXNET_DGL_SAMPLER_DOC_TAIL ADD_FILELINE)
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<NeighborSampleParam>(attrs.parsed).num_args);
})
.set_num_outputs(SampleNumOutputs<true>)
.set_attr_parser(ParamParser<NeighborSampleParam>)
.set_attr<std::string>("key_var_num_args", "num_args")
.set_attr<nnvm::FListInputNames>("FListInputNames", SampleInputNames<true>)
.set_attr<mxnet::FInferShape>("FInferShape", SampleShape<true>)
.set_attr<nnvm::FInferType>("FInferType", SampleType<true>)
.set_attr<FInferStorageType>("FInferStorageType", SampleStype<true>)
.set_attr<FComputeEx>("FComputeEx<cpu>", SampleComputeEx<true>)
#if MXNET_USE_CUDA
.set_attr<FComputeEx>("FComputeEx<gpu>", RunOnHostForGPUEx(SampleComputeEx<true>))
#endif
.set_attr<FResourceRequest>("FResourceRequest", [](const nnvm::NodeAttrs&) {
  return std::vector<ResourceRequest>{ResourceRequest::kRandom};
})
.set_attr<bool>("TNonDifferentiable", true)
.set_attr<bool>("TSparseFromDense", true)  // storage inference also for dense calls
.add_argument("csr_matrix", "NDArray-or-Symbol", "csr matrix")
.add_argument("probability", "NDArray-or-Symbol", "probability vector")
.add_argument("seed_arrays", "NDArray-or-Symbol[]", "seed vertices")
.add_arguments(NeighborSampleParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_dgl_subgraph)
.describe(R"code(This operator constructs an induced subgraph for
a given set of vertices from a graph. The operator accepts multiple
sets of vertices as input. For each set of vertices, it returns a pair
of CSR matrices if return_mapping is True: the first matrix contains edges
with new edge Ids, the second matrix contains edges with the original
edge Ids.

The outputs are all the first matrices, then (with return_mapping) all the second ones. Each
vertex set must be sorted and without repeats; new edge ids count from 0 in row-major order.

Example:

   .. code:: python

     x=[[1, 0, 0, 2],
       [3, 0, 4, 0],
       [0, 5, 0, 0],
       [0, 6, 7, 0]]
     v = [0, 1, 2]
     dgl_subgraph(x, v, return_mapping=True) =
       [[1, 0, 0],
        [2, 0, 3],
        [0, 4, 0]],
       [[1, 0, 0],
        [3, 0, 4],
        [0, 5, 0]]

)code" ADD_FILELINE)
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<DGLSubgraphParam>(attrs.parsed).num_args);
})
.set_num_outputs([](const nnvm::NodeAttrs& attrs) {
  const DGLSubgraphParam& p = nnvm::get<DGLSubgraphParam>(attrs.parsed);
  return static_cast<uint32_t>((p.num_args - 1) * (p.return_mapping ? 2 : 1));
})
.set_attr_parser(ParamParser<DGLSubgraphParam>)
.set_attr<std::string>("key_var_num_args", "num_args")
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs& attrs) {
  std::vector<std::string> names{"graph"};
  for (int i = 0; i < NumVertexSets(attrs); ++i) names.push_back("data" + std::to_string(i));
  return names;
})
.set_attr<mxnet::FInferShape>("FInferShape", SubgraphShape)
.set_attr<nnvm::FInferType>("FInferType", SubgraphType)
.set_attr<FInferStorageType>("FInferStorageType", SubgraphStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", SubgraphComputeEx)
#if MXNET_USE_CUDA
.set_attr<FComputeEx>("FComputeEx<gpu>", RunOnHostForGPUEx(SubgraphComputeEx))
#endif
.set_attr<bool>("TNonDifferentiable", true)
.set_attr<bool>("TSparseFromDense", true)  // storage inference also for dense calls
.add_argument("graph", "NDArray-or-Symbol", "Input graph where we sample vertices.")
.add_argument("data", "NDArray-or-Symbol[]",
              "The input arrays that include data arrays and states.")
.add_arguments(DGLSubgraphParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_dgl_graph_compact)
.describe(R"code(This operator compacts a CSR matrix generated by
dgl_csr_neighbor_uniform_sample and dgl_csr_neighbor_non_uniform_sample.
The CSR matrices generated by these two operators may have many empty
rows at the end and many empty columns. This operator removes these
empty rows and empty columns.

Inputs: the graphs, then one vertex array per graph (the samplers' first outputs);
``graph_sizes[i]`` is the number of vertices of graph i. Output i is a (graph_sizes[i],
graph_sizes[i]) CSR matrix whose columns are positions in the vertex array and whose values are
new edge ids counted from 0; with return_mapping, outputs n + i hold the original edge ids in
the same pattern. An edge to a vertex outside the first graph_sizes[i] vertices is an error.

Example:

   .. code:: python

  shape = (5, 5)
  data_np = np.array([1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20], dtype=np.int64)
  indices_np = np.array([1,2,3,4,0,2,3,4,0,1,3,4,0,1,2,4,0,1,2,3], dtype=np.int64)
  indptr_np = np.array([0,4,8,12,16,20], dtype=np.int64)
  a = mx.nd.sparse.csr_matrix((data_np, indices_np, indptr_np), shape=shape)
  seed = mx.nd.array([0,1,2,3,4], dtype=np.int64)
  out = mx.nd.contrib.dgl_csr_neighbor_uniform_sample(a, seed, num_args=2, num_hops=1,
          num_neighbor=2, max_num_vertices=6)
  subg_v = out[0]
  subg = out[1]
  compact = mx.nd.contrib.dgl_graph_compact(subg, subg_v,
          graph_sizes=(subg_v[-1].asnumpy()[0]), return_mapping=False)
  compact.asnumpy()
  array([[0, 0, 0, 1, 0],
         [2, 0, 3, 0, 0],
         [0, 4, 0, 0, 5],
         [0, 6, 0, 0, 7],
         [8, 9, 0, 0, 0]])

)code" ADD_FILELINE)
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<GraphCompactParam>(attrs.parsed).num_args);
})
.set_num_outputs([](const nnvm::NodeAttrs& attrs) {
  const GraphCompactParam& p = nnvm::get<GraphCompactParam>(attrs.parsed);
  return static_cast<uint32_t>((p.num_args / 2) * (p.return_mapping ? 2 : 1));
})
.set_attr_parser(ParamParser<GraphCompactParam>)
.set_attr<std::string>("key_var_num_args", "num_args")
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs& attrs) {
  const int n = nnvm::get<GraphCompactParam>(attrs.parsed).num_args / 2;
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) names.push_back("graph" + std::to_string(i));
  for (int i = 0; i < n; ++i) names.push_back("vertices" + std::to_string(i));
  return names;
})
.set_attr<mxnet::FInferShape>("FInferShape", CompactShape)
.set_attr<nnvm::FInferType>("FInferType", CompactType)
.set_attr<FInferStorageType>("FInferStorageType", CompactStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", CompactComputeEx)
#if MXNET_USE_CUDA
.set_attr<FComputeEx>("FComputeEx<gpu>", RunOnHostForGPUEx(CompactComputeEx))
#endif
.set_attr<bool>("TNonDifferentiable", true)
.set_attr<bool>("TSparseFromDense", true)  // storage inference also for dense calls
.add_argument("graph_data", "NDArray-or-Symbol[]", "Input graphs and input vertex Ids.")
.add_arguments(GraphCompactParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_dgl_adjacency)
.describe(R"code(This operator converts a CSR matrix whose values are edge Ids
to an adjacency matrix whose values are ones. The output CSR matrix always has
the data value of float32.

Example:

   .. code:: python

  x = [[ 1, 0, 0 ],
       [ 0, 2, 0 ],
       [ 0, 0, 3 ]]
  dgl_adjacency(x) =
      [[ 1, 0, 0 ],
       [ 0, 1, 0 ],
       [ 0, 0, 1 ]]

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in,
                                                 mxnet::ShapeVector* out) {
  if (!CsrInputShape(attrs, (*in)[0])) return false;
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs&, std::vector<int>* in,
                                              std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, mshadow::kFloat32);
  return (*in)[0] >= 0;
})
.set_attr<FInferStorageType>("FInferStorageType", [](const nnvm::NodeAttrs& attrs, const int,
                                                      DispatchMode* mode, std::vector<int>* in,
                                                      std::vector<int>* out) {
  return GraphStype(attrs, mode, in, out, 1, {kCSRStorage});
})
.set_attr<FComputeEx>("FComputeEx<cpu>", AdjacencyComputeEx)
#if MXNET_USE_CUDA
.set_attr<FComputeEx>("FComputeEx<gpu>", RunOnHostForGPUEx(AdjacencyComputeEx))
#endif
.set_attr<bool>("TNonDifferentiable", true)
.set_attr<bool>("TSparseFromDense", true)  // storage inference also for dense calls
.add_argument("data", "NDArray-or-Symbol", "Input ndarray");

NNVM_REGISTER_OP(_contrib_edge_id)
.describe(R"code(This operator implements the edge_id function for a graph
stored in a CSR matrix (the value of the CSR stores the edge Id of the graph).
output[i] = input[u[i], v[i]] if there is an edge between u[i] and v[i]],
otherwise output[i] will be -1. Both u and v should be 1D vectors.

Example:

   .. code:: python

      x = [[ 1, 0, 0 ],
           [ 0, 2, 0 ],
           [ 0, 0, 3 ]]
      u = [ 0, 0, 1, 1, 2, 2 ]
      v = [ 0, 1, 1, 2, 0, 2 ]
      edge_id(x, u, v) = [ 1, -1, 2, -1, -1, 3 ]

The storage type of ``edge_id`` output depends on storage types of inputs
  - edge_id(csr, default, default) = default
  - default and rsp inputs are not supported

)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"data", "u", "v"};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in,
                                                 mxnet::ShapeVector* out) {
  CsrInputShape(attrs, (*in)[0]);
  Expect1D(attrs, (*in)[1], "u");
  Expect1D(attrs, (*in)[2], "v");
  TShape& u = (*in)[1];
  TShape& v = (*in)[2];
  if (shape_is_known(u) && shape_is_known(v) && u != v) {
    MX_THROW(ValueError) << attrs.op->name << ": expected u and v of one shape, got " << u
                         << " and " << v;
  }
  if (!shape_is_known(u)) u = v;
  if (!shape_is_known(v)) v = u;
  if (!shape_is_known(u)) return false;
  SHAPE_ASSIGN_CHECK(*out, 0, u);
  return shape_is_known((*in)[0]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs&, std::vector<int>* in,
                                              std::vector<int>* out) {
  const int t = (*in)[0];
  if (t < 0) return false;
  for (int i = 1; i < 3; ++i) {
    if ((*in)[i] < 0) (*in)[i] = t;
  }
  TYPE_ASSIGN_CHECK(*out, 0, t);
  return true;
})
.set_attr<FInferStorageType>("FInferStorageType", [](const nnvm::NodeAttrs& attrs, const int,
                                                      DispatchMode* mode, std::vector<int>* in,
                                                      std::vector<int>* out) {
  return GraphStype(attrs, mode, in, out, 1, {kDefaultStorage});
})
.set_attr<FComputeEx>("FComputeEx<cpu>", EdgeIdComputeEx)
#if MXNET_USE_CUDA
.set_attr<FComputeEx>("FComputeEx<gpu>", [](const nnvm::NodeAttrs&, const OpContext& ctx,
                                            const std::vector<NDArray>& in,
                                            const std::vector<OpReqType>& req,
                                            const std::vector<NDArray>& out) {
  EdgeIdGPU(ctx, in[0], in[1], in[2], req[0], out[0]);
})
#endif
.set_attr<bool>("TNonDifferentiable", true)
.set_attr<bool>("TSparseFromDense", true)  // storage inference also for dense calls
.add_argument("data", "NDArray-or-Symbol", "Input ndarray")
.add_argument("u", "NDArray-or-Symbol", "u ndarray")
.add_argument("v", "NDArray-or-Symbol", "v ndarray");

NNVM_REGISTER_OP(_contrib_getnnz)
.describe(R"code(Number of stored values for a sparse tensor, including explicit zeros.

``axis=None`` counts all stored values (a
one-element int64 array), ``axis=1`` (or -1) those of each row and ``axis=0`` (or -2) those of
each column (MXNet 1.9.1 does not support axis=0).

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<GetnnzParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in,
                                                 mxnet::ShapeVector* out) {
  const int axis = GetnnzAxis(attrs);
  if (!CsrInputShape(attrs, (*in)[0])) return false;
  const TShape& s = (*in)[0];
  SHAPE_ASSIGN_CHECK(*out, 0, TShape(1, axis == -100 ? 1 : axis == 1 ? s[0] : s[1]));
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs&, std::vector<int>* in,
                                              std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, mshadow::kInt64);
  return (*in)[0] >= 0;
})
.set_attr<FInferStorageType>("FInferStorageType", [](const nnvm::NodeAttrs& attrs, const int,
                                                      DispatchMode* mode, std::vector<int>* in,
                                                      std::vector<int>* out) {
  return GraphStype(attrs, mode, in, out, 1, {kDefaultStorage});
})
.set_attr<FComputeEx>("FComputeEx<cpu>", GetnnzComputeEx)
#if MXNET_USE_CUDA
.set_attr<FComputeEx>("FComputeEx<gpu>", [](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                            const std::vector<NDArray>& in,
                                            const std::vector<OpReqType>& req,
                                            const std::vector<NDArray>& out) {
  GetnnzGPU(ctx, in[0], GetnnzAxis(attrs), req[0], out[0]);
})
#endif
.set_attr<bool>("TNonDifferentiable", true)
.set_attr<bool>("TSparseFromDense", true)  // storage inference also for dense calls
.add_argument("data", "NDArray-or-Symbol", "Input")
.add_arguments(GetnnzParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
