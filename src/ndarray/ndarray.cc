// NDArray: chunks, views, synchronous copies, and the asynchronous CopyFromTo.
#include <mxnet/ndarray.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <utility>

#include "../common/checked_size.h"
#include "../common/cast.h"
#include "./device_copy.h"
#include "./sparse_gpu.h"
#include "./sparse_parts.h"

namespace mxnet {

/*! \brief Memory + engine variable shared by an array and all its views. */
struct NDArray::Chunk {
  Storage::Handle shandle;
  engine::VarHandle var{nullptr};
  Context ctx;
  size_t nbytes{0};
  // Set once the memory exists. Allocation may happen on an engine thread (imperative ops
  // allocate their outputs when they run) while another thread asks for data(): guarded.
  std::atomic<bool> delay_alloc{true};
  std::mutex alloc_mutex;
  bool external{false};  // memory owned by someone else (wrapped TBlob / DLPack)
  std::function<void()> deleter;

  Chunk(size_t bytes, Context c, bool delay) : ctx(c), nbytes(bytes) {
    shandle.ctx = c;
    shandle.size = bytes;
    // Allocate before making the variable: a failed allocation (no such device, out of
    // memory) throws out of the constructor, and no destructor would delete the variable.
    if (!delay) Alloc();
    var = Engine::Get()->NewVariable();
  }

  Chunk(void* dptr, size_t bytes, Context c, std::function<void()> del)
      : ctx(c), nbytes(bytes), delay_alloc(false), external(true), deleter(std::move(del)) {
    var = Engine::Get()->NewVariable();
    shandle.dptr = dptr;
    shandle.size = bytes;
    shandle.ctx = c;
  }

  void Alloc() {
    shandle = Storage::Get()->Alloc(nbytes, ctx);
    delay_alloc.store(false, std::memory_order_release);
  }

  ~Chunk() {
    // Memory goes back only after every pending function on the variable has run.
    // The deletion may run while the process exits: keep the storage manager alive until then.
    Storage::Handle h = shandle;
    const bool owns = !external && !delay_alloc.load();
    std::shared_ptr<Storage> storage = owns ? Storage::_GetSharedRef() : nullptr;
    Engine::Get()->DeleteVariable(
        [h, storage = std::move(storage), del = std::move(deleter)](RunContext) {
          if (storage) storage->Free(h);
          if (del) del();
        },
        ctx, var);
  }
};

namespace {

size_t ElementBytes(int dtype) {
  const size_t bytes = mshadow::mshadow_sizeof(dtype);
  if (bytes == 0) {
    MX_THROW(TypeError) << "NDArray: unsupported dtype code " << dtype;
  }
  return bytes;
}

void CheckShapeKnown(const TShape& shape, const char* what) {
  if (!shape_is_known(shape)) {
    MX_THROW(ValueError) << what << ": shape " << shape << " has unknown dimensions";
  }
}

}  // namespace

NDArray::NDArray(const TShape& shape, Context ctx, bool delay_alloc, int dtype)
    : shape_(shape), dtype_(dtype) {
  CheckShapeKnown(shape, "NDArray");
  int64_t bytes = 0;
  if (!common::CheckedBytes(shape, ElementBytes(dtype), &bytes)) {
    MX_THROW(ValueError) << "NDArray: shape " << shape << " of " << mshadow::dtype_string(dtype)
                         << " has more bytes than an array can address (2^63)";
  }
  ptr_ = std::make_shared<Chunk>(static_cast<size_t>(bytes), ctx, delay_alloc);
}

NDArray::NDArray(const TBlob& data, int dev_id, std::function<void()> deleter)
    : shape_(data.shape_), dtype_(data.type_flag_) {
  Context ctx = data.dev_mask() == gpu::kDevMask ? Context::GPU(dev_id) : Context::CPU(dev_id);
  ptr_ = std::make_shared<Chunk>(data.dptr_, data.shape_.Size() * ElementBytes(data.type_flag_),
                                 ctx, std::move(deleter));
}

NDArray::NDArray(int stype, const TShape& shape, Context ctx, int dtype, std::vector<int> aux_types,
                 std::vector<TShape> aux_shapes, TShape storage_shape)
    : shape_(shape), dtype_(dtype), stype_(stype) {
  CheckShapeKnown(shape, "NDArray");
  ElementBytes(dtype);
  // The chunk holds no memory: it only provides the engine variable guarding the parts.
  ptr_ = std::make_shared<Chunk>(0, ctx, true);
  sparse_ = SparseParts::Create(stype, shape, ctx, dtype, std::move(aux_types),
                                std::move(aux_shapes), std::move(storage_shape));
}

Context NDArray::ctx() const {
  CHECK(!is_none()) << "ctx() of a none NDArray";
  return ptr_->ctx;
}

engine::VarHandle NDArray::var() const {
  CHECK(!is_none()) << "var() of a none NDArray";
  return ptr_->var;
}

size_t NDArray::version() const { return is_none() ? 0 : ptr_->var->version(); }

void NDArray::CheckAndAlloc() const {
  CHECK(!is_none()) << "cannot allocate a none NDArray";
  if (ptr_->delay_alloc.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(ptr_->alloc_mutex);
    if (ptr_->delay_alloc.load(std::memory_order_relaxed)) ptr_->Alloc();
  }
}

bool NDArray::AdoptStorageOf(NDArray* donor) {
  if (is_none() || donor->is_none() || ptr_ == donor->ptr_ || is_sparse() || donor->is_sparse()) {
    return false;
  }
  Chunk* mine = ptr_.get();
  Chunk* theirs = donor->ptr_.get();
  if (donor->ptr_.use_count() != 1 || theirs->external || mine->external ||
      theirs->delay_alloc.load(std::memory_order_acquire) || mine->nbytes != theirs->nbytes ||
      !(mine->ctx == theirs->ctx) || byte_offset_ != 0 || donor->byte_offset_ != 0 ||
      dtype_ != donor->dtype_) {
    return false;
  }
  std::lock_guard<std::mutex> lock(mine->alloc_mutex);
  if (!mine->delay_alloc.load(std::memory_order_relaxed)) return false;
  mine->shandle = theirs->shandle;
  theirs->shandle.dptr = nullptr;
  theirs->delay_alloc.store(true, std::memory_order_relaxed);  // owns nothing now
  mine->delay_alloc.store(false, std::memory_order_release);
  return true;
}

TBlob NDArray::data() const {
  if (is_none()) return TBlob();
  if (is_sparse()) {
    MX_THROW(NotImplementedError) << "data(): the array has storage type "
                                  << (stype_ == kCSRStorage ? "csr" : "row_sparse")
                                  << "; its values are in DataNDArray()/sparse_data()";
  }
  CheckAndAlloc();
  char* base = static_cast<char*>(ptr_->shandle.dptr);
  return TBlob(base == nullptr ? nullptr : base + byte_offset_, shape_, ptr_->ctx.dev_mask(),
               dtype_, ptr_->ctx.real_dev_id());
}

void NDArray::WaitToRead() const {
  if (is_none()) return;
  Engine::Get()->WaitForVar(ptr_->var);
}

void NDArray::WaitToWrite() const {
  if (is_none()) return;
  // WaitForVar waits for every earlier use of the var, readers included (its wait is queued
  // as a writer), and returns at once when the var is idle.
  Engine::Get()->WaitForVar(ptr_->var);
}

void NDArray::SyncCopyFromCPU(const void* src, size_t size) const {
  CHECK(!is_none()) << "SyncCopyFromCPU: the destination NDArray is none";
  if (is_sparse()) {
    MX_THROW(NotImplementedError) << "SyncCopyFromCPU into a sparse NDArray: copy into its data "
                                     "and aux arrays with SyncCopyFromNDArray(src, i)";
  }
  if (size != Size()) {
    MX_THROW(ValueError) << "SyncCopyFromCPU: expected " << Size() << " elements for shape "
                         << shape_ << ", got " << size;
  }
  WaitToWrite();
  TBlob dst = data();
  if (ptr_->ctx.dev_mask() == gpu::kDevMask) {
    device_copy::CopyBytesSync(dst.dptr_, ptr_->ctx, src, Context::CPU(),
                               size * ElementBytes(dtype_));
  } else if (size != 0) {
    std::memcpy(dst.dptr_, src, size * ElementBytes(dtype_));
  }
}

void NDArray::SyncCopyToCPU(void* dst, size_t size) const {
  CHECK(!is_none()) << "SyncCopyToCPU: the source NDArray is none";
  if (is_sparse()) {  // the dense values
    NDArray dense(shape_, ptr_->ctx, true, dtype_);
    CopyFromTo(*this, dense);
    dense.SyncCopyToCPU(dst, size);
    return;
  }
  if (size != Size()) {
    MX_THROW(ValueError) << "SyncCopyToCPU: expected " << Size() << " elements for shape "
                         << shape_ << ", got " << size;
  }
  WaitToRead();
  TBlob src = data();
  if (ptr_->ctx.dev_mask() == gpu::kDevMask) {
    device_copy::CopyBytesSync(dst, Context::CPU(), src.dptr_, ptr_->ctx,
                               size * ElementBytes(dtype_));
  } else if (size != 0) {
    std::memcpy(dst, src.dptr_, size * ElementBytes(dtype_));
  }
}

void NDArray::SyncCopyFromNDArray(const NDArray& src) const {
  CopyFromTo(src, *this);
  WaitToRead();
}

NDArray NDArray::Slice(index_t begin, index_t end) const {
  CHECK(!is_none()) << "Slice of a none NDArray";
  if (is_sparse()) {
    MX_THROW(NotImplementedError) << "Slice of a sparse NDArray is not supported; convert it with "
                                     "tostype('default') first";
  }
  if (shape_.ndim() < 1) {
    MX_THROW(IndexError) << "Slice: cannot slice a 0-d array";
  }
  if (begin < 0 || end < begin || end > shape_[0]) {
    MX_THROW(IndexError) << "Slice: range [" << begin << ", " << end
                         << ") is out of bounds for axis 0 of size " << shape_[0];
  }
  NDArray ret(*this);
  ret.entry_ = nnvm::NodeEntry();
  const size_t row = shape_[0] == 0 ? 0 : shape_.Size() / shape_[0];
  ret.byte_offset_ += static_cast<size_t>(begin) * row * ElementBytes(dtype_);
  ret.shape_[0] = end - begin;
  return ret;
}

NDArray NDArray::At(index_t idx) const {
  CHECK(!is_none()) << "At of a none NDArray";
  if (is_sparse()) {
    MX_THROW(NotImplementedError) << "At of a sparse NDArray is not supported; convert it with "
                                     "tostype('default') first";
  }
  if (shape_.ndim() < 1) {
    MX_THROW(IndexError) << "At: cannot index a 0-d array";
  }
  if (idx < 0 || idx >= shape_[0]) {
    MX_THROW(IndexError) << "At: index " << idx << " is out of bounds for axis 0 of size "
                         << shape_[0];
  }
  NDArray ret = Slice(idx, idx + 1);
  if (shape_.ndim() > 1) {
    ret.shape_ = TShape(shape_.begin() + 1, shape_.end());
  } else {
    ret.shape_ = TShape(1, 1);
  }
  return ret;
}

NDArray NDArray::Reshape(const TShape& shape) const {
  CHECK(!is_none()) << "Reshape of a none NDArray";
  if (is_sparse()) {
    MX_THROW(NotImplementedError) << "Reshape of a sparse NDArray is not supported; convert it with "
                                     "tostype('default') first";
  }
  CheckShapeKnown(shape, "Reshape");
  if (shape.Size() != shape_.Size()) {
    MX_THROW(ValueError) << "Cannot reshape array of size " << shape_.Size() << " (shape "
                         << shape_ << ") into shape " << shape;
  }
  NDArray ret(*this);
  ret.entry_ = nnvm::NodeEntry();
  ret.shape_ = shape;
  return ret;
}

NDArray NDArray::AsArray(const TShape& shape, int dtype) const {
  CHECK(!is_none()) << "AsArray of a none NDArray";
  if (is_sparse()) {
    MX_THROW(NotImplementedError) << "AsArray of a sparse NDArray is not supported; convert it with "
                                     "tostype('default') first";
  }
  const size_t need = shape.Size() * ElementBytes(dtype) + byte_offset_;
  if (need > ptr_->nbytes) {
    MX_THROW(ValueError) << "AsArray: shape " << shape << " of " << mshadow::dtype_string(dtype)
                         << " needs " << need << " bytes, the array holds " << ptr_->nbytes;
  }
  NDArray ret(*this);
  ret.entry_ = nnvm::NodeEntry();
  ret.shape_ = shape;
  ret.dtype_ = dtype;
  return ret;
}

namespace {

/*!
 * \brief A copy with a GPU on either side, as one engine operation: on the GPU's copy stream
 *        (the destination's for GPU to GPU). A dtype change is made on the CPU side (GPU to
 *        GPU with a dtype change goes through host memory).
 */
void CopyAcrossDevices(const NDArray& from, const NDArray& to, int priority) {
  if (from.is_sparse() || to.is_sparse()) {
    // On one GPU: the cast kernels; between devices: converted on the host (sparse_ndarray.cc).
    std::vector<engine::VarHandle> reads, writes{to.var()};
    if (!from.SharesChunk(to)) reads.push_back(from.var());
    if (!from.is_sparse()) from.CheckAndAlloc();
    if (!to.is_sparse()) to.CheckAndAlloc();
    const Context run_ctx = to.ctx().dev_mask() == gpu::kDevMask ? to.ctx() : from.ctx();
    Engine::Get()->PushSync(
        [from, to](RunContext rctx) {
#if MXNET_USE_CUDA
          if (from.ctx() == to.ctx() && from.dtype() == to.dtype()) {
            sparse_gpu::CastStorage(from, to, rctx.get_stream<gpu>());  // on the GPU's stream
            return;
          }
#endif
          (void)rctx;
          CastStorageInto(from, to);
        },
        run_ctx, reads, writes, FnProperty::kNormal, priority, "cast_storage");
    return;
  }
  if (from.dtype() != to.dtype()) {
    // Stage on the CPU in the dtype of the GPU side, and convert there.
    const bool to_gpu = to.ctx().dev_mask() == gpu::kDevMask;
    const bool from_gpu = from.ctx().dev_mask() == gpu::kDevMask;
    if (to_gpu && from_gpu) {
      NDArray host_src(from.shape(), Context::CPU(), true, from.dtype());
      CopyFromTo(from, host_src, priority);
      NDArray host_dst(to.shape(), Context::CPU(), true, to.dtype());
      CopyFromTo(host_src, host_dst, priority);
      CopyFromTo(host_dst, to, priority);
    } else if (to_gpu) {
      NDArray staged(to.shape(), Context::CPU(), true, to.dtype());
      CopyFromTo(from, staged, priority);
      CopyFromTo(staged, to, priority);
    } else {
      NDArray staged(from.shape(), Context::CPU(), true, from.dtype());
      CopyFromTo(from, staged, priority);
      CopyFromTo(staged, to, priority);
    }
    return;
  }
  from.CheckAndAlloc();
  to.CheckAndAlloc();
  std::vector<engine::VarHandle> reads, writes{to.var()};
  if (!from.SharesChunk(to)) reads.push_back(from.var());
  const bool to_gpu = to.ctx().dev_mask() == gpu::kDevMask;
  const Context run_ctx = to_gpu ? to.ctx() : from.ctx();
  const FnProperty prop = to_gpu ? FnProperty::kCopyToGPU : FnProperty::kCopyFromGPU;
  Engine::Get()->PushSync(
      [from, to](RunContext rctx) {
        TBlob src = from.data(), dst = to.data();
        device_copy::CopyBytesAsync(dst.dptr_, to.ctx(), src.dptr_, from.ctx(),
                                    src.Size() * mshadow::mshadow_sizeof(src.type_flag_), rctx);
      },
      run_ctx, reads, writes, prop, priority, "_copyto");
}

}  // namespace

void CopyFromTo(const NDArray& from, const NDArray& to, int priority) {
  CHECK(!from.is_none()) << "CopyFromTo: the source NDArray is none";
  CHECK(!to.is_none()) << "CopyFromTo: the destination NDArray is none";
  if (from.shape() != to.shape()) {
    MX_THROW(ValueError) << "CopyFromTo: shapes differ: source " << from.shape()
                         << ", destination " << to.shape();
  }
  if (from.IsSame(to)) return;
  if (from.ctx().dev_mask() == gpu::kDevMask || to.ctx().dev_mask() == gpu::kDevMask) {
    CopyAcrossDevices(from, to, priority);
    return;
  }
  if (from.is_sparse() || to.is_sparse()) {
    std::vector<engine::VarHandle> reads, writes{to.var()};
    if (!from.SharesChunk(to)) reads.push_back(from.var());
    if (!from.is_sparse()) from.CheckAndAlloc();
    if (!to.is_sparse()) to.CheckAndAlloc();
    Engine::Get()->PushSync([from, to](RunContext) { CastStorageInto(from, to); }, to.ctx(), reads,
                            writes, FnProperty::kNormal, priority, "cast_storage");
    return;
  }
  from.CheckAndAlloc();
  to.CheckAndAlloc();
  std::vector<engine::VarHandle> reads, writes{to.var()};
  if (!from.SharesChunk(to)) reads.push_back(from.var());
  Engine::Get()->PushSync(
      [from, to](RunContext) {
        TBlob src = from.data(), dst = to.data();
        common::CastCopy(src, kWriteTo, dst);
      },
      to.ctx(), reads, writes, FnProperty::kNormal, priority, "_copyto");
}

void WaitAll() { Engine::Get()->WaitForAll(); }
bool WaitAllFor(int64_t timeout_ms) { return Engine::Get()->WaitForAllFor(timeout_ms); }

}  // namespace mxnet
