/*!
 * \file mxnet/io.h
 * \brief Data iterators: the batch interface the C API exposes, and the registry of iterator
 *        factories (MNISTIter, CSVIter) that MXListDataIters lists.
 *
 *   IIterator<DataBatch>* it = DataIteratorReg::Create("CSVIter", {{"data_csv", "d.csv"},
 *                                                      {"data_shape", "(3,)"}, {"batch_size", "2"}});
 *   it->BeforeFirst();
 *   while (it->Next()) use(it->Value().data[0], it->Value().num_batch_padd);
 *   delete it;   // stops the prefetch thread
 *
 * Errors in the files (missing, empty, truncated, bad magic) are raised by Init, so creating the
 * iterator fails with a clear message instead of the first Next.
 */
#ifndef MXNET_IO_H_
#define MXNET_IO_H_

#include <dmlc/registry.h>
#include <mxnet/ndarray.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace mxnet {

/*! \brief A batch as returned to the frontend: data arrays (data first, then label). */
struct DataBatch {
  /*! \brief data[0] is the data, data[1] the label (when the iterator has one). */
  std::vector<NDArray> data;
  /*! \brief Index of every instance in the batch (padding rows included). */
  std::vector<uint64_t> index;
  /*! \brief Number of rows at the end of the batch that are padding. */
  int num_batch_padd{0};
};

/*! \brief A forward iterator over values of type T. */
template <typename T>
class IIterator {
 public:
  virtual ~IIterator() = default;
  /*! \brief Configure from string kwargs (raises on unknown keys or unreadable files). */
  virtual void Init(const std::vector<std::pair<std::string, std::string>>& kwargs) = 0;
  /*! \brief Go back to the start of the data. */
  virtual void BeforeFirst() = 0;
  /*! \brief Move to the next value; false at the end of the epoch. */
  virtual bool Next() = 0;
  /*! \brief The current value (valid until the next Next/BeforeFirst). */
  virtual const T& Value() const = 0;
};

/*! \brief Registry entry: a factory of batch iterators plus its documented arguments. */
struct DataIteratorReg
    : public dmlc::FunctionRegEntryBase<DataIteratorReg, std::function<IIterator<DataBatch>*()>> {
  /*! \brief Create and Init the iterator `name`; ValueError if no such iterator. */
  static IIterator<DataBatch>* Create(
      const std::string& name, const std::vector<std::pair<std::string, std::string>>& kwargs);
};

/*! \brief Register a data iterator: MXNET_REGISTER_IO_ITER(MNISTIter).describe(...).set_body(...) */
#define MXNET_REGISTER_IO_ITER(Name) \
  DMLC_REGISTRY_REGISTER(::mxnet::DataIteratorReg, DataIteratorReg, Name)

}  // namespace mxnet

#endif  // MXNET_IO_H_
