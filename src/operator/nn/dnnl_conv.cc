/*!
 * \file dnnl_conv.cc
 * \brief oneDNN convolution/pooling wrappers (see dnnl_conv.h). Without oneDNN every entry
 *        point returns false and the operators use their native kernels.
 */
#include "./dnnl_conv.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>

#if MXNET_USE_ONEDNN
#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace mxnet {
namespace op {

bool DnnlEnabled() {
#if MXNET_USE_ONEDNN
  const char* v = std::getenv("MXNET_ONEDNN_ENABLED");
  if (v == nullptr) v = std::getenv("MXNET_MKLDNN_ENABLED");  // MXNet 1.x's older name
  return v == nullptr || !(v[0] == '0' && v[1] == '\0');
#else
  return false;
#endif
}

#if MXNET_USE_ONEDNN

bool DnnlSgemm(bool ta, bool tb, index_t M, index_t N, index_t K, float alpha, const float* A,
               index_t lda, const float* B, index_t ldb, float beta, float* C, index_t ldc) {
  if (!DnnlEnabled()) return false;
  // dnnl_sgemm is row-major with cblas-like arguments.
  return dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', M, N, K, alpha, A, lda, B, ldb, beta, C,
                    ldc) == dnnl_success;
}

namespace {

using dnnl::memory;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

dnnl::engine& CpuEngine() {
  static dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  return eng;
}

/*! \brief Per-thread stream (streams are not meant to be shared between threads). */
dnnl::stream& ThreadStream() {
  static thread_local dnnl::stream strm(CpuEngine());
  return strm;
}

memory::dims SpatialDims(const index_t* v, int nsp) {
  memory::dims out;
  for (int i = 3 - nsp; i < 3; ++i) out.push_back(static_cast<memory::dim>(v[i]));
  return out;
}

tag PlainDataTag(int nsp) { return nsp == 1 ? tag::ncw : nsp == 2 ? tag::nchw : tag::ncdhw; }
tag PlainWeightTag(int nsp, bool grouped) {
  if (grouped) return nsp == 1 ? tag::goiw : nsp == 2 ? tag::goihw : tag::goidhw;
  return nsp == 1 ? tag::oiw : nsp == 2 ? tag::oihw : tag::oidhw;
}

/*!
 * \brief One argument of a cached primitive: the user's plain buffer and, when the primitive
 *        wants another layout, an owned buffer in that layout plus the reorder between them.
 */
struct Arg {
  memory user;       // plain layout, data handle set per call
  memory inner;      // primitive's layout (== user when no reorder is needed)
  bool reorder = false;
  dnnl::reorder to_inner, to_user;

  void Init(const memory::desc& plain, const memory::desc& wanted, bool is_input) {
    user = memory(plain, CpuEngine(), DNNL_MEMORY_NONE);
    if (plain == wanted) {
      inner = user;
      reorder = false;
    } else {
      inner = memory(wanted, CpuEngine());
      reorder = true;
      if (is_input) to_inner = dnnl::reorder(user, inner);
      else to_user = dnnl::reorder(inner, user);
    }
  }
  /*! \brief Point at the user's buffer; copy it in when this is an input needing a reorder. */
  void BindInput(const void* p) {
    user.set_data_handle(const_cast<void*>(p));
    if (reorder) to_inner.execute(ThreadStream(), user, inner);
  }
  void BindOutput(void* p) { user.set_data_handle(p); }
  void FinishOutput() {
    if (reorder) to_user.execute(ThreadStream(), inner, user);
  }
};

struct ConvPrims {
  bool ok = false;
  dnnl::primitive prim;
  Arg a[4];  // meaning depends on the kind (see the builders)
};

std::string GeomKey(char kind, const ConvGeom& g, bool bias) {
  std::string key(1, kind);
  const index_t v[] = {g.N, g.C, g.F, g.G, g.nsp, bias ? 1 : 0};
  key.append(reinterpret_cast<const char*>(v), sizeof(v));
  for (const index_t* arr : {g.in, g.out, g.k, g.s, g.d, g.p}) {
    key.append(reinterpret_cast<const char*>(arr), 3 * sizeof(index_t));
  }
  return key;
}

/*! \brief Shared descriptors of a convolution problem. */
struct ConvDescs {
  memory::desc src_plain, wei_plain, dst_plain, bias_plain;
  memory::desc src_any, wei_any, dst_any, bias_any;
  memory::dims strides, dilates, pad_l, pad_r;

  explicit ConvDescs(const ConvGeom& g) {
    memory::dims src{g.N, g.C}, dst{g.N, g.F}, wei;
    const bool grouped = g.G > 1;
    if (grouped) wei = {g.G, g.F / g.G, g.C / g.G};
    else wei = {g.F, g.C};
    for (auto d : SpatialDims(g.in, g.nsp)) src.push_back(d);
    for (auto d : SpatialDims(g.out, g.nsp)) dst.push_back(d);
    for (auto d : SpatialDims(g.k, g.nsp)) wei.push_back(d);
    src_plain = memory::desc(src, dt::f32, PlainDataTag(g.nsp));
    dst_plain = memory::desc(dst, dt::f32, PlainDataTag(g.nsp));
    wei_plain = memory::desc(wei, dt::f32, PlainWeightTag(g.nsp, grouped));
    bias_plain = memory::desc({g.F}, dt::f32, tag::x);
    src_any = memory::desc(src, dt::f32, tag::any);
    dst_any = memory::desc(dst, dt::f32, tag::any);
    wei_any = memory::desc(wei, dt::f32, tag::any);
    bias_any = memory::desc({g.F}, dt::f32, tag::any);
    for (int i = 3 - g.nsp; i < 3; ++i) {
      strides.push_back(g.s[i]);
      dilates.push_back(g.d[i] - 1);
      pad_l.push_back(g.p[i]);
      // Right padding that makes oneDNN's output size equal ours (floor division).
      pad_r.push_back((g.out[i] - 1) * g.s[i] + (g.k[i] - 1) * g.d[i] + 1 - g.in[i] - g.p[i]);
    }
  }

  dnnl::convolution_forward::primitive_desc ForwardPd(bool bias) const {
    auto d = bias ? dnnl::convolution_forward::desc(
                        dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
                        src_any, wei_any, bias_any, dst_any, strides, dilates, pad_l, pad_r)
                  : dnnl::convolution_forward::desc(
                        dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
                        src_any, wei_any, dst_any, strides, dilates, pad_l, pad_r);
    return dnnl::convolution_forward::primitive_desc(d, CpuEngine());
  }
};

/*! \brief Cached primitives of this thread; failed builds are cached too (ok == false). */
ConvPrims* LookupConv(const std::string& key, void (*build)(const ConvGeom&, bool, ConvPrims*),
                      const ConvGeom& g, bool bias) {
  static thread_local std::unordered_map<std::string, std::unique_ptr<ConvPrims>> cache;
  auto it = cache.find(key);
  if (it != cache.end()) return it->second.get();
  if (cache.size() > 256) cache.clear();  // bounded: shapes in a training loop repeat
  auto p = std::make_unique<ConvPrims>();
  try {
    build(g, bias, p.get());
    p->ok = true;
  } catch (const dnnl::error&) {
    p->ok = false;  // unsupported here: the native kernel runs instead
  }
  ConvPrims* raw = p.get();
  cache.emplace(key, std::move(p));
  return raw;
}

// a[0] src, a[1] weights, a[2] bias, a[3] dst
void BuildConvForward(const ConvGeom& g, bool bias, ConvPrims* out) {
  ConvDescs ds(g);
  auto pd = ds.ForwardPd(bias);
  out->prim = dnnl::convolution_forward(pd);
  out->a[0].Init(ds.src_plain, pd.src_desc(), true);
  out->a[1].Init(ds.wei_plain, pd.weights_desc(), true);
  if (bias) out->a[2].Init(ds.bias_plain, pd.bias_desc(), true);
  out->a[3].Init(ds.dst_plain, pd.dst_desc(), false);
}

// a[0] diff_src, a[1] weights, a[3] diff_dst
void BuildConvBackwardData(const ConvGeom& g, bool, ConvPrims* out) {
  ConvDescs ds(g);
  auto fwd = ds.ForwardPd(false);
  dnnl::convolution_backward_data::desc d(dnnl::algorithm::convolution_direct, ds.src_any,
                                          ds.wei_any, ds.dst_any, ds.strides, ds.dilates,
                                          ds.pad_l, ds.pad_r);
  dnnl::convolution_backward_data::primitive_desc pd(d, CpuEngine(), fwd);
  out->prim = dnnl::convolution_backward_data(pd);
  out->a[0].Init(ds.src_plain, pd.diff_src_desc(), false);
  out->a[1].Init(ds.wei_plain, pd.weights_desc(), true);
  out->a[3].Init(ds.dst_plain, pd.diff_dst_desc(), true);
}

// a[0] src, a[1] diff_weights, a[2] diff_bias, a[3] diff_dst
void BuildConvBackwardWeights(const ConvGeom& g, bool bias, ConvPrims* out) {
  ConvDescs ds(g);
  auto fwd = ds.ForwardPd(bias);
  auto d = bias ? dnnl::convolution_backward_weights::desc(
                      dnnl::algorithm::convolution_direct, ds.src_any, ds.wei_any, ds.bias_any,
                      ds.dst_any, ds.strides, ds.dilates, ds.pad_l, ds.pad_r)
                : dnnl::convolution_backward_weights::desc(
                      dnnl::algorithm::convolution_direct, ds.src_any, ds.wei_any, ds.dst_any,
                      ds.strides, ds.dilates, ds.pad_l, ds.pad_r);
  dnnl::convolution_backward_weights::primitive_desc pd(d, CpuEngine(), fwd);
  out->prim = dnnl::convolution_backward_weights(pd);
  out->a[0].Init(ds.src_plain, pd.src_desc(), true);
  out->a[1].Init(ds.wei_plain, pd.diff_weights_desc(), false);
  if (bias) out->a[2].Init(ds.bias_plain, pd.diff_bias_desc(), false);
  out->a[3].Init(ds.dst_plain, pd.diff_dst_desc(), true);
}

bool Usable(const ConvGeom& g) {
  if (g.N == 0 || g.C == 0 || g.F == 0 || g.nsp < 1 || g.nsp > 3) return false;
  for (int i = 0; i < 3; ++i) {
    if (g.out[i] <= 0) return false;
  }
  return true;
}

}  // namespace

bool DnnlConvForward(const ConvGeom& g, const float* x, const float* w, const float* bias,
                     float* y) {
  if (!DnnlEnabled() || !Usable(g)) return false;
  const bool has_bias = bias != nullptr;
  ConvPrims* p = LookupConv(GeomKey('f', g, has_bias), BuildConvForward, g, has_bias);
  if (!p->ok) return false;
  p->a[0].BindInput(x);
  p->a[1].BindInput(w);
  if (has_bias) p->a[2].BindInput(bias);
  p->a[3].BindOutput(y);
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, p->a[0].inner},
                                       {DNNL_ARG_WEIGHTS, p->a[1].inner},
                                       {DNNL_ARG_DST, p->a[3].inner}};
  if (has_bias) args[DNNL_ARG_BIAS] = p->a[2].inner;
  p->prim.execute(ThreadStream(), args);
  p->a[3].FinishOutput();
  ThreadStream().wait();
  return true;
}

bool DnnlConvBackwardData(const ConvGeom& g, const float* w, const float* dy, float* dx) {
  if (!DnnlEnabled() || !Usable(g)) return false;
  ConvPrims* p = LookupConv(GeomKey('d', g, false), BuildConvBackwardData, g, false);
  if (!p->ok) return false;
  p->a[1].BindInput(w);
  p->a[3].BindInput(dy);
  p->a[0].BindOutput(dx);
  p->prim.execute(ThreadStream(), {{DNNL_ARG_WEIGHTS, p->a[1].inner},
                                   {DNNL_ARG_DIFF_DST, p->a[3].inner},
                                   {DNNL_ARG_DIFF_SRC, p->a[0].inner}});
  p->a[0].FinishOutput();
  ThreadStream().wait();
  return true;
}

bool DnnlConvBackwardWeights(const ConvGeom& g, const float* x, const float* dy, float* dw,
                             float* db) {
  if (!DnnlEnabled() || !Usable(g)) return false;
  const bool has_bias = db != nullptr;
  ConvPrims* p = LookupConv(GeomKey('w', g, has_bias), BuildConvBackwardWeights, g, has_bias);
  if (!p->ok) return false;
  p->a[0].BindInput(x);
  p->a[3].BindInput(dy);
  p->a[1].BindOutput(dw);
  if (has_bias) p->a[2].BindOutput(db);
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, p->a[0].inner},
                                       {DNNL_ARG_DIFF_DST, p->a[3].inner},
                                       {DNNL_ARG_DIFF_WEIGHTS, p->a[1].inner}};
  if (has_bias) args[DNNL_ARG_DIFF_BIAS] = p->a[2].inner;
  p->prim.execute(ThreadStream(), args);
  p->a[1].FinishOutput();
  if (has_bias) p->a[2].FinishOutput();
  ThreadStream().wait();
  return true;
}

// ------------------------------------------------------------------------------- pooling

namespace {

struct PoolPrims {
  bool ok = false;
  dnnl::pooling_forward fwd;
  dnnl::pooling_backward bwd;
  bool has_bwd = false;
  bool needs_ws = false;
  memory ws;
  Arg src, dst, diff_src, diff_dst;
};

std::string PoolKey(char kind, const PoolGeom& g) {
  std::string key(1, kind);
  const index_t v[] = {g.N, g.C, g.nsp, g.type, g.count_include_pad ? 1 : 0};
  key.append(reinterpret_cast<const char*>(v), sizeof(v));
  for (const index_t* arr : {g.in, g.out, g.k, g.s, g.p}) {
    key.append(reinterpret_cast<const char*>(arr), 3 * sizeof(index_t));
  }
  return key;
}

void BuildPool(const PoolGeom& g, bool backward, PoolPrims* out) {
  memory::dims src{g.N, g.C}, dst{g.N, g.C}, strides, kernel, pad_l, pad_r;
  for (auto d : SpatialDims(g.in, g.nsp)) src.push_back(d);
  for (auto d : SpatialDims(g.out, g.nsp)) dst.push_back(d);
  for (int i = 3 - g.nsp; i < 3; ++i) {
    strides.push_back(g.s[i]);
    kernel.push_back(g.k[i]);
    pad_l.push_back(g.p[i]);
    pad_r.push_back((g.out[i] - 1) * g.s[i] + g.k[i] - g.in[i] - g.p[i]);
  }
  const memory::desc src_plain(src, dt::f32, PlainDataTag(g.nsp));
  const memory::desc dst_plain(dst, dt::f32, PlainDataTag(g.nsp));
  // oneDNN's fast (jit) pooling wants channel-blocked layouts; on plain NC(D)(H)W it runs a
  // slow generic kernel, so reorder in and out of the 8-channel blocked layout.
  const tag blocked = g.nsp == 1 ? tag::nCw8c : g.nsp == 2 ? tag::nChw8c : tag::nCdhw8c;
  const memory::desc src_blocked(src, dt::f32, blocked);
  const memory::desc dst_any(dst, dt::f32, tag::any);
  dnnl::algorithm alg = g.type == 0 ? dnnl::algorithm::pooling_max
                        : g.count_include_pad ? dnnl::algorithm::pooling_avg_include_padding
                                              : dnnl::algorithm::pooling_avg_exclude_padding;
  dnnl::pooling_forward::desc fd(backward ? dnnl::prop_kind::forward_training
                                          : dnnl::prop_kind::forward_inference,
                                 alg, src_blocked, dst_any, strides, kernel, pad_l, pad_r);
  dnnl::pooling_forward::primitive_desc fpd(fd, CpuEngine());
  out->fwd = dnnl::pooling_forward(fpd);
  out->src.Init(src_plain, fpd.src_desc(), true);
  out->dst.Init(dst_plain, fpd.dst_desc(), false);
  if (backward) {
    dnnl::pooling_backward::desc bd(alg, src_blocked, fpd.dst_desc(), strides, kernel, pad_l,
                                    pad_r);
    dnnl::pooling_backward::primitive_desc bpd(bd, CpuEngine(), fpd);
    out->bwd = dnnl::pooling_backward(bpd);
    out->has_bwd = true;
    out->needs_ws = g.type == 0;
    if (out->needs_ws) out->ws = memory(fpd.workspace_desc(), CpuEngine());
    out->diff_src.Init(src_plain, bpd.diff_src_desc(), false);
    out->diff_dst.Init(dst_plain, bpd.diff_dst_desc(), true);
    // The forward output is scratch in backward; own a buffer for it.
    out->dst.inner = memory(fpd.dst_desc(), CpuEngine());
    out->dst.reorder = false;
  }
}

bool PoolUsable(const PoolGeom& g) {
  if (g.N == 0 || g.C == 0 || g.nsp < 1 || g.nsp > 3) return false;
  if (g.type != 0 && g.type != 1) return false;  // sum and lp stay native
  for (int i = 0; i < 3; ++i) {
    const index_t pr = (g.out[i] - 1) * g.s[i] + g.k[i] - g.in[i] - g.p[i];
    if (pr < 0) return false;
    // MXNet's count_include_pad divisor stops at in + pad; oneDNN's is the whole kernel.
    if (g.type == 1 && g.count_include_pad && pr > g.p[i]) return false;
    if (g.p[i] >= g.k[i] || pr >= g.k[i]) return false;  // windows entirely in padding
  }
  return true;
}

PoolPrims* LookupPool(const PoolGeom& g, bool backward) {
  static thread_local std::unordered_map<std::string, std::unique_ptr<PoolPrims>> cache;
  const std::string key = PoolKey(backward ? 'b' : 'f', g);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second.get();
  if (cache.size() > 256) cache.clear();
  auto p = std::make_unique<PoolPrims>();
  try {
    BuildPool(g, backward, p.get());
    p->ok = true;
  } catch (const dnnl::error&) {
    p->ok = false;
  }
  PoolPrims* raw = p.get();
  cache.emplace(key, std::move(p));
  return raw;
}

}  // namespace

bool DnnlPoolForward(const PoolGeom& g, const float* x, float* y) {
  if (!DnnlEnabled() || !PoolUsable(g)) return false;
  PoolPrims* p = LookupPool(g, false);
  if (!p->ok) return false;
  p->src.BindInput(x);
  p->dst.BindOutput(y);
  p->fwd.execute(ThreadStream(), {{DNNL_ARG_SRC, p->src.inner}, {DNNL_ARG_DST, p->dst.inner}});
  p->dst.FinishOutput();
  ThreadStream().wait();
  return true;
}

bool DnnlPoolBackward(const PoolGeom& g, const float* x, const float* dy, float* dx) {
  if (!DnnlEnabled() || !PoolUsable(g)) return false;
  PoolPrims* p = LookupPool(g, true);
  if (!p->ok) return false;
  if (p->needs_ws) {
    // Max pooling needs the argmax workspace of a training forward: recompute it.
    p->src.BindInput(x);
    p->fwd.execute(ThreadStream(), {{DNNL_ARG_SRC, p->src.inner},
                                    {DNNL_ARG_DST, p->dst.inner},
                                    {DNNL_ARG_WORKSPACE, p->ws}});
  }
  p->diff_dst.BindInput(dy);
  p->diff_src.BindOutput(dx);
  std::unordered_map<int, memory> args{{DNNL_ARG_DIFF_DST, p->diff_dst.inner},
                                       {DNNL_ARG_DIFF_SRC, p->diff_src.inner}};
  if (p->needs_ws) args[DNNL_ARG_WORKSPACE] = p->ws;
  p->bwd.execute(ThreadStream(), args);
  p->diff_src.FinishOutput();
  ThreadStream().wait();
  return true;
}

#else  // !MXNET_USE_ONEDNN

bool DnnlSgemm(bool, bool, index_t, index_t, index_t, float, const float*, index_t,
               const float*, index_t, float, float*, index_t) {
  return false;
}

bool DnnlConvForward(const ConvGeom&, const float*, const float*, const float*, float*) {
  return false;
}
bool DnnlConvBackwardData(const ConvGeom&, const float*, const float*, float*) { return false; }
bool DnnlConvBackwardWeights(const ConvGeom&, const float*, const float*, float*, float*) {
  return false;
}
bool DnnlPoolForward(const PoolGeom&, const float*, float*) { return false; }
bool DnnlPoolBackward(const PoolGeom&, const float*, const float*, float*) { return false; }

#endif  // MXNET_USE_ONEDNN

}  // namespace op
}  // namespace mxnet
