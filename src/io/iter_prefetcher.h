/*!
 * \file iter_prefetcher.h
 * \brief Background prefetch for the C++ data iterators.
 *
 * An iterator is written as a BatchSource: it fills host-memory batches (HostBatch) and knows
 * nothing about threads or NDArrays. PrefetchIter runs the source on one producer thread that
 * keeps up to `prefetch_buffer` batches in a bounded queue; the consumer (the C API caller) pops
 * them and wraps each in fresh NDArrays, so a batch the frontend still holds is never
 * overwritten. Only the producer thread ever calls the source, so sources need no locking.
 *
 *   BeforeFirst: the producer drops what it queued, rewinds the source and starts again.
 *   destructor : wakes the producer, which exits; joined before the source is destroyed.
 *   errors     : an exception in the source is stored and rethrown by the consumer's Next.
 */
#ifndef MXNET_IO_ITER_PREFETCHER_H_
#define MXNET_IO_ITER_PREFETCHER_H_

#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/io.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace mxnet {
namespace io {

/*! \brief One array of a batch in host memory. */
struct HostArray {
  TShape shape;
  int dtype{mshadow::kFloat32};
  std::vector<uint8_t> bytes;

  void Resize(const TShape& s, int type) {
    shape = s;
    dtype = type;
    bytes.resize(s.Size() * mshadow::mshadow_sizeof(type));
  }
  template <typename T>
  T* ptr() { return reinterpret_cast<T*>(bytes.data()); }
};

/*! \brief A batch in host memory: arrays (data, then label), instance indices, padding. */
struct HostBatch {
  std::vector<HostArray> arrays;
  std::vector<uint64_t> index;
  int num_batch_padd{0};
};

/*! \brief What a concrete iterator implements (called from the producer thread only). */
class BatchSource {
 public:
  virtual ~BatchSource() = default;
  virtual void BeforeFirst() = 0;
  /*! \brief Fill `out` with the next batch; false at the end of the epoch. */
  virtual bool Next(HostBatch* out) = 0;
};

/*! \brief Parameters of the prefetcher shared by every iterator (MXNet's PrefetcherParam). */
struct PrefetcherParam : public dmlc::Parameter<PrefetcherParam> {
  int64_t prefetch_buffer;
  int ctx;
  dmlc::optional<int> dtype;
  DMLC_DECLARE_PARAMETER(PrefetcherParam) {
    DMLC_DECLARE_FIELD(prefetch_buffer).set_default(4).set_lower_bound(1)
        .describe("Maximum number of batches to prefetch.");
    DMLC_DECLARE_FIELD(ctx).add_enum("cpu", 0).add_enum("gpu", 1).set_default(1)
        .describe("Context data loader optimized for.");
    DMLC_DECLARE_FIELD(dtype)
        .add_enum("float32", mshadow::kFloat32)
        .add_enum("float64", mshadow::kFloat64)
        .add_enum("float16", mshadow::kFloat16)
        .add_enum("bfloat16", mshadow::kBfloat16)
        .add_enum("uint8", mshadow::kUint8)
        .add_enum("int8", mshadow::kInt8)
        .add_enum("int32", mshadow::kInt32)
        .add_enum("int64", mshadow::kInt64)
        .set_default(dmlc::optional<int>())
        .describe("Output data type. ``None`` means no change.");
  }
};

/*! \brief The batch iterator the C API sees: a BatchSource behind a producer thread. */
class PrefetchIter : public IIterator<DataBatch> {
 public:
  PrefetchIter() = default;
  ~PrefetchIter() override;

  /*! \brief Take ownership of `source` and start the producer thread. */
  void Start(std::unique_ptr<BatchSource> source, const PrefetcherParam& param);

  void Init(const std::vector<std::pair<std::string, std::string>>&) override {}
  void BeforeFirst() override;
  bool Next() override;
  const DataBatch& Value() const override { return out_; }

 private:
  void ProducerLoop();
  /*! \brief Convert the batch to the `dtype` parameter (on the producer thread). */
  void ConvertDType(HostBatch* batch) const;

  std::unique_ptr<BatchSource> source_;
  PrefetcherParam param_;
  std::thread producer_;
  std::mutex mutex_;
  std::condition_variable producer_cv_;
  std::condition_variable consumer_cv_;
  std::deque<HostBatch> queue_;
  bool epoch_done_{false};
  bool reset_requested_{false};
  bool shutdown_{false};
  std::exception_ptr error_;
  DataBatch out_;
};

/*!
 * \brief Parse the prefetcher's own kwargs from `rest` (what the iterator's params left);
 *        anything still unknown is an error naming the iterator.
 */
PrefetcherParam ParsePrefetcherParam(const std::string& iter_name,
                                     const std::vector<std::pair<std::string, std::string>>& rest);

}  // namespace io
}  // namespace mxnet

#endif  // MXNET_IO_ITER_PREFETCHER_H_
