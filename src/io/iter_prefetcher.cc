/*!
 * \file iter_prefetcher.cc
 * \brief PrefetchIter (producer thread + bounded queue) and the iterator registry's Create.
 */
#include "./iter_prefetcher.h"

#include <cstring>

namespace mxnet {

IIterator<DataBatch>* DataIteratorReg::Create(
    const std::string& name, const std::vector<std::pair<std::string, std::string>>& kwargs) {
  const DataIteratorReg* reg = dmlc::Registry<DataIteratorReg>::Find(name);
  if (reg == nullptr) {
    MX_THROW(dmlc::ValueError) << "Unknown data iterator '" << name << "'";
  }
  std::unique_ptr<IIterator<DataBatch>> it(reg->body());
  it->Init(kwargs);
  return it.release();
}

namespace io {

DMLC_REGISTER_PARAMETER(PrefetcherParam);

PrefetcherParam ParsePrefetcherParam(
    const std::string& iter_name, const std::vector<std::pair<std::string, std::string>>& rest) {
  PrefetcherParam param;
  try {
    param.Init(rest, dmlc::parameter::kAllMatch);
  } catch (const dmlc::ParamError& e) {
    throw dmlc::ParamError(std::string(e.what()) + ", in data iterator " + iter_name);
  }
  return param;
}

PrefetchIter::~PrefetchIter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shutdown_ = true;
  }
  producer_cv_.notify_all();
  if (producer_.joinable()) producer_.join();
}

void PrefetchIter::Start(std::unique_ptr<BatchSource> source, const PrefetcherParam& param) {
  source_ = std::move(source);
  param_ = param;
  producer_ = std::thread([this]() { ProducerLoop(); });
}

void PrefetchIter::ConvertDType(HostBatch* batch) const {
  if (!param_.dtype.has_value()) return;
  const int dtype = param_.dtype.value();
  for (HostArray& host : batch->arrays) {
    if (host.dtype == dtype) continue;
    HostArray converted;
    converted.Resize(host.shape, dtype);
    const size_t n = host.shape.Size();
    MSHADOW_TYPE_SWITCH(dtype, OType, {
      MSHADOW_TYPE_SWITCH(host.dtype, IType, {
        const IType* src = host.ptr<IType>();
        OType* dst = converted.ptr<OType>();
        for (size_t i = 0; i < n; ++i) dst[i] = static_cast<OType>(src[i]);
      });
    });
    host = std::move(converted);
  }
}

void PrefetchIter::ProducerLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    producer_cv_.wait(lock, [this]() {
      return shutdown_ || reset_requested_ ||
             (!epoch_done_ && queue_.size() < static_cast<size_t>(param_.prefetch_buffer));
    });
    if (shutdown_) return;
    if (reset_requested_) {
      queue_.clear();
      epoch_done_ = false;
      error_ = nullptr;
      lock.unlock();
      std::exception_ptr err;
      try {
        source_->BeforeFirst();
      } catch (...) {
        err = std::current_exception();
      }
      lock.lock();
      reset_requested_ = false;
      if (err) {
        error_ = err;
        epoch_done_ = true;
      }
      consumer_cv_.notify_all();
      continue;
    }
    // Produce one batch without holding the lock, so the consumer can pop meanwhile.
    lock.unlock();
    HostBatch batch;
    bool has_batch = false;
    std::exception_ptr err;
    try {
      has_batch = source_->Next(&batch);
      if (has_batch) ConvertDType(&batch);
    } catch (...) {
      err = std::current_exception();
    }
    lock.lock();
    if (reset_requested_ || shutdown_) continue;  // the batch belongs to an abandoned epoch
    if (err) {
      error_ = err;
      epoch_done_ = true;
    } else if (has_batch) {
      queue_.push_back(std::move(batch));
    } else {
      epoch_done_ = true;
    }
    consumer_cv_.notify_all();
  }
}

void PrefetchIter::BeforeFirst() {
  std::unique_lock<std::mutex> lock(mutex_);
  reset_requested_ = true;
  producer_cv_.notify_all();
  consumer_cv_.wait(lock, [this]() { return !reset_requested_; });
  if (error_) {
    std::exception_ptr err = error_;
    error_ = nullptr;
    std::rethrow_exception(err);
  }
}

bool PrefetchIter::Next() {
  HostBatch batch;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    consumer_cv_.wait(lock, [this]() {
      return !reset_requested_ && (!queue_.empty() || epoch_done_);
    });
    if (queue_.empty()) {
      if (error_) {
        std::exception_ptr err = error_;
        error_ = nullptr;
        std::rethrow_exception(err);
      }
      return false;
    }
    batch = std::move(queue_.front());
    queue_.pop_front();
  }
  producer_cv_.notify_all();

  // Fresh NDArrays per batch: the frontend may still hold the previous one. A plain memcpy
  // (the dtype was converted on the producer thread): small copies must not pay for an
  // OpenMP team, which on a busy machine costs far more than the copy.
  out_.data.clear();
  for (HostArray& host : batch.arrays) {
    NDArray arr(host.shape, Context::CPU(), false, host.dtype);
    if (!host.bytes.empty()) std::memcpy(arr.data().dptr_, host.bytes.data(), host.bytes.size());
    out_.data.push_back(arr);
  }
  out_.index = std::move(batch.index);
  out_.num_batch_padd = batch.num_batch_padd;
  return true;
}

}  // namespace io
}  // namespace mxnet
