/*!
 * \file mxnet/ndarray.h
 * \brief NDArray: an asynchronous n-dimensional array. A reference to a shared storage chunk
 *        (memory + engine variable) plus its own shape, dtype and byte offset, so views
 *        (Slice, At, Reshape) share memory with their source.
 *
 *   NDArray a(TShape({2, 3}), Context::CPU());      // memory allocated on first use
 *   a.SyncCopyFromCPU(host, 6);                     // waits, then copies 6 elements
 *   NDArray row = a.At(1);                          // view of shape (3,)
 *   row.WaitToRead();                               // rethrows an async error of a writer
 *
 * Operations on NDArrays are pushed to the engine with the chunk's variable as a read or write
 * dependency; they return at once.
 */
#ifndef MXNET_NDARRAY_H_
#define MXNET_NDARRAY_H_

#include <mxnet/base.h>
#include <mxnet/engine.h>
#include <mxnet/storage.h>
#include <mxnet/tensor_blob.h>
#include <mxnet/tuple.h>
#include <nnvm/node.h>

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace mxnet {

/*!
 * \brief Storage types. A sparse array (row_sparse, csr) keeps its logical shape in shape() and
 *        its stored values in a dense "data" array plus dense "aux" arrays:
 *          csr (2-D):   aux 0 = indptr (rows + 1), aux 1 = indices (nnz), data (nnz,)
 *          row_sparse:  aux 0 = indices (stored rows),  data (stored rows,) + shape[1:]
 *        Dense arrays carry no extra state: the sparse part is a null pointer.
 */
enum NDArrayStorageType {
  kUndefinedStorage = -1,
  kDefaultStorage = 0,
  kRowSparseStorage = 1,
  kCSRStorage = 2,
};

class MXNET_DLL NDArray {
 public:
  /*! \brief A "none" array: no shape, no memory. */
  NDArray() = default;
  /*!
   * \brief A dense array of `shape` on `ctx`.
   * \param delay_alloc defer memory allocation until the first write.
   */
  NDArray(const TShape& shape, Context ctx, bool delay_alloc = false,
          int dtype = mshadow::kFloat32);
  /*!
   * \brief Wrap external memory (not owned). `deleter`, if given, runs when the last reference
   *        to the chunk goes away (after pending engine work on it), e.g. a DLPack deleter.
   */
  NDArray(const TBlob& data, int dev_id, std::function<void()> deleter = nullptr);

  bool is_none() const { return ptr_ == nullptr; }
  const TShape& shape() const { return shape_; }
  int dtype() const { return dtype_; }
  int storage_type() const { return is_none() ? kUndefinedStorage : stype_; }
  bool is_sparse() const { return stype_ != kDefaultStorage; }
  Context ctx() const;
  size_t byte_offset() const { return byte_offset_; }
  /*! \brief Element count. */
  size_t Size() const { return shape_.Size(); }
  /*! \brief Engine variable guarding the chunk. */
  engine::VarHandle var() const;
  /*! \brief Times the chunk has been written (engine variable version). */
  size_t version() const;
  /*! \brief True if both arrays are views of the same chunk. */
  bool IsSame(const NDArray& other) const {
    return ptr_ == other.ptr_ && shape_ == other.shape_ && byte_offset_ == other.byte_offset_ &&
           dtype_ == other.dtype_;
  }
  bool SharesChunk(const NDArray& other) const { return ptr_ == other.ptr_ && ptr_ != nullptr; }

  /*! \brief The data as a TBlob (allocates delayed memory; no synchronisation). */
  TBlob data() const;
  /*! \brief Allocate the memory now if it was delayed. */
  void CheckAndAlloc() const;
  /*!
   * \brief Take over `donor`'s memory, if this array has none yet, both cover whole chunks of
   *        the same size, context and dtype, and `donor` holds the only reference to its chunk
   *        (nothing else can read it any more). The donor is left without memory.
   * \return true if the memory moved.
   */
  bool AdoptStorageOf(NDArray* donor);

  /*! \brief Block until pending writes finish; rethrow their error. */
  void WaitToRead() const;
  /*! \brief Block until pending reads and writes finish; rethrow their error. */
  void WaitToWrite() const;

  /*! \brief Copy `size` elements from host memory (size must equal Size()). Blocks. */
  void SyncCopyFromCPU(const void* data, size_t size) const;
  /*! \brief Copy `size` elements to host memory (size must equal Size()). Blocks. */
  void SyncCopyToCPU(void* data, size_t size) const;
  /*! \brief Copy from another array of the same shape (dtype converted). Blocks. */
  void SyncCopyFromNDArray(const NDArray& src) const;

  /*! \brief View of rows [begin, end) along axis 0. */
  NDArray Slice(index_t begin, index_t end) const;
  /*! \brief View of row idx with axis 0 dropped. */
  NDArray At(index_t idx) const;
  /*! \brief View with another shape of the same element count. */
  NDArray Reshape(const TShape& shape) const;
  /*! \brief View with another shape and dtype (the bytes must fit in the chunk). */
  NDArray AsArray(const TShape& shape, int dtype) const;
  /*! \brief A reference to the same data, cut from the autograd graph. */
  NDArray Detach() const {
    NDArray ret(*this);
    ret.entry_ = nnvm::NodeEntry();
    return ret;
  }

  /*! \brief Write one array in MXNet's binary format (V2, dense). */
  void Save(std::ostream* strm) const;
  /*! \brief Read one array; throws a clear error on a malformed or truncated stream. */
  void Load(std::istream* strm);
  /*! \brief Write a list file (magic 0x112) with optional names. */
  static void Save(std::ostream* strm, const std::vector<NDArray>& data,
                   const std::vector<std::string>& names);
  /*! \brief Read a list file written by MXNet 1.x or by Save. */
  static void Load(std::istream* strm, std::vector<NDArray>* data,
                   std::vector<std::string>* names);

  // ---- sparse storage (src/ndarray/sparse_ndarray.cc). Kernels run inside an engine function
  // that holds var(): they read and replace the parts directly (no further synchronisation).

  /*!
   * \brief An all-zero sparse array (`stype` kRowSparseStorage or kCSRStorage) of logical
   *        `shape`; aux arrays get `aux_types` (default int64) and `aux_shapes` (default empty),
   *        the data array `storage_shape` (default derived from the aux shapes).
   */
  NDArray(int stype, const TShape& shape, Context ctx, int dtype,
          std::vector<int> aux_types = {}, std::vector<TShape> aux_shapes = {},
          TShape storage_shape = TShape());
  /*! \brief Number of aux arrays: 0 dense, 1 row_sparse, 2 csr. */
  size_t num_aux() const;
  int aux_type(size_t i) const;
  TShape aux_shape(size_t i) const;
  /*! \brief Shape of the stored values (the data array). */
  TShape storage_shape() const;
  /*! \brief The stored values / aux array i itself (no copy, no wait: for kernels). */
  const NDArray& sparse_data() const;
  const NDArray& sparse_aux(size_t i) const;
  /*! \brief Replace the stored values and aux arrays (dense, CPU, memory allocated). */
  void SetSparseParts(const NDArray& data, const std::vector<NDArray>& aux) const;
  /*! \brief Waits, then returns a dense copy of the stored values / of aux array i. */
  NDArray DataNDArray() const;
  NDArray AuxNDArray(size_t i) const;
  /*! \brief Copy `src` into the data (i = -1) or aux array i, resizing it to src's shape. */
  void SyncCopyFromNDArray(const NDArray& src, int i) const;
  /*!
   * \brief Validate the sparse layout (csr: indptr starts at 0, is non-decreasing and ends at
   *        nnz, column indices in range and, with full_check, increasing within a row;
   *        row_sparse: indices in range and increasing). Throws ValueError naming the fault.
   */
  void SyncCheckFormat(bool full_check) const;
  /*! \brief SyncCheckFormat without waiting: for kernels that must not index out of bounds. */
  void CheckSparseFormat(bool full_check) const;

  /*! \brief autograd: the graph node entry that produced this array (empty if none). */
  nnvm::NodeEntry entry_;

 private:
  struct Chunk;
  std::shared_ptr<Chunk> ptr_;
  TShape shape_;
  size_t byte_offset_{0};
  int dtype_{-1};
  int stype_{kDefaultStorage};
  struct SparseParts;
  std::shared_ptr<SparseParts> sparse_;  // null for dense arrays
};

/*!
 * \brief Convert `src` to storage type `dst` into `out` (same shape; dtype converted). Runs
 *        synchronously on the calling thread: call it inside an engine function that reads
 *        src.var() and writes out.var(). Works for every pair of storage types.
 */
MXNET_DLL void CastStorageInto(const NDArray& src, const NDArray& out);

/*! \brief A sparse array's aux array i as int64 values (any integer aux dtype). */
MXNET_DLL std::vector<int64_t> SparseAuxAsInt64(const NDArray& sparse, size_t i);

/*!
 * \brief Asynchronous copy `from` -> `to` (same shape; dtype converted; any contexts).
 * \param priority engine priority of the copy.
 */
MXNET_DLL void CopyFromTo(const NDArray& from, const NDArray& to, int priority = 0);

/*!
 * \brief The output shape of Reshape: `target` may use the special codes 0 (copy a dim), -1
 *        (infer one dim), -2 (copy the remaining dims), -3 (merge two dims), -4 (split a dim
 *        into the next two values); `reverse` applies them right to left. Throws ValueError
 *        naming both shapes when the codes do not fit or the element count differs.
 */
MXNET_DLL TShape InferReshapeShape(const TShape& src, const TShape& target, bool reverse);

/*! \brief Block until every engine function has completed (rethrows the first error). */
MXNET_DLL void WaitAll();
/*! \brief WaitAll for at most timeout_ms; false when work is still pending then. */
MXNET_DLL bool WaitAllFor(int64_t timeout_ms);

}  // namespace mxnet

#endif  // MXNET_NDARRAY_H_
