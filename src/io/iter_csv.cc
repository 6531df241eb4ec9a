/*!
 * \file iter_csv.cc
 * \brief CSVIter: batches of rows of a CSV file (or of every file in a directory), each row
 *        reshaped to `data_shape`; labels from `label_csv` or 0.
 *
 * Last-batch handling follows MXNet 1.9.1's batch loader:
 *  - round_batch=1: the short last batch is completed with rows from the start of the data and
 *    reports them as pad; the next epoch (after reset) continues after those rows.
 *  - round_batch=0: the short last batch keeps the previous batch's rows in the padding slots
 *    and reports them as pad; reset starts from the first row.
 */
#include <dmlc/parameter.h>
#include <mxnet/io.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "./file_util.h"
#include "./iter_prefetcher.h"

namespace mxnet {
namespace io {

struct CSVParam : public dmlc::Parameter<CSVParam> {
  std::string data_csv;
  TShape data_shape;
  std::string label_csv;
  TShape label_shape;
  int batch_size;
  bool round_batch;
  int num_parts;
  int part_index;
  DMLC_DECLARE_PARAMETER(CSVParam) {
    DMLC_DECLARE_FIELD(data_csv).describe("The input CSV file or a directory path.");
    DMLC_DECLARE_FIELD(data_shape).describe("The shape of one example.");
    DMLC_DECLARE_FIELD(label_csv).set_default("NULL").describe(
        "The input CSV file or a directory path. If NULL, all labels will be returned as 0.");
    DMLC_DECLARE_FIELD(label_shape).set_default(TShape({1})).describe("The shape of one label.");
    DMLC_DECLARE_FIELD(batch_size).set_lower_bound(1).describe("Batch size.");
    DMLC_DECLARE_FIELD(round_batch).set_default(true).describe(
        "Whether to use round robin to handle overflow batch or not.");
    DMLC_DECLARE_FIELD(num_parts).set_default(1).describe(
        "Split the rows into num_parts contiguous parts (distributed reading).");
    DMLC_DECLARE_FIELD(part_index).set_default(0).describe("The part to read.");
  }
};
DMLC_REGISTER_PARAMETER(CSVParam);

namespace {

/*!
 * \brief Parse every row of the CSV file(s) at `path` into `values` (row-major); each row must
 *        have exactly `row_len` numbers. Returns the row count.
 */
size_t LoadCSV(const std::string& path, const std::string& what, size_t row_len,
               std::vector<double>* values) {
  std::vector<std::string> files;
  if (IsDirectory(path)) {
    files = ListFiles(path);
    if (files.empty()) LOG(FATAL) << "CSVIter: " << what << " directory '" << path << "' has no files";
  } else {
    files.push_back(path);
  }
  size_t rows = 0;
  for (const std::string& file : files) {
    std::vector<uint8_t> bytes = ReadWholeFile(file, "CSVIter: " + what);
    std::string text(bytes.begin(), bytes.end());
    size_t pos = 0;
    size_t line_no = 0;
    while (pos < text.size()) {
      size_t eol = text.find('\n', pos);
      if (eol == std::string::npos) eol = text.size();
      std::string line = text.substr(pos, eol - pos);
      pos = eol + 1;
      ++line_no;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") == std::string::npos) continue;  // blank line
      size_t count = 0;
      const char* p = line.c_str();
      while (true) {
        char* end = nullptr;
        errno = 0;
        double v = std::strtod(p, &end);
        if (end == p) {
          LOG(FATAL) << "CSVIter: " << what << " '" << file << "' line " << line_no
                     << ": cannot parse a number at column " << (count + 1) << " in \"" << line
                     << "\"";
        }
        values->push_back(v);
        ++count;
        p = end;
        while (*p == ' ' || *p == '\t') ++p;
        if (*p == '\0') break;
        if (*p != ',') {
          LOG(FATAL) << "CSVIter: " << what << " '" << file << "' line " << line_no
                     << ": unexpected character '" << *p << "' in \"" << line << "\"";
        }
        ++p;
      }
      if (count != row_len) {
        LOG(FATAL) << "CSVIter: " << what << " '" << file << "' line " << line_no << " has "
                   << count << " values, but the shape of one example needs " << row_len
                   << ": the data size in CSV does not match the size of the shape";
      }
      ++rows;
    }
  }
  if (rows == 0) LOG(FATAL) << "CSVIter: " << what << " '" << path << "' is empty (no rows)";
  return rows;
}

}  // namespace

class CSVSource : public BatchSource {
 public:
  CSVSource(const CSVParam& param, int dtype) : param_(param), dtype_(dtype) {
    data_len_ = param_.data_shape.Size();
    label_len_ = param_.label_shape.Size();
    if (param_.data_shape.ndim() <= 0 || data_len_ == 0) {
      MX_THROW(dmlc::ValueError) << "CSVIter: data_shape must be a non-empty shape, got "
                                 << param_.data_shape;
    }
    rows_ = LoadCSV(param_.data_csv, "data_csv", data_len_, &data_);
    if (param_.label_csv != "NULL") {
      size_t label_rows = LoadCSV(param_.label_csv, "label_csv", label_len_, &label_);
      if (label_rows != rows_) {
        LOG(FATAL) << "CSVIter: data_csv '" << param_.data_csv << "' has " << rows_
                   << " rows but label_csv '" << param_.label_csv << "' has " << label_rows;
      }
    } else {
      label_.assign(rows_ * label_len_, 0.0);
    }
    KeepPart();
    const int64_t batch = param_.batch_size;
    std::vector<int64_t> dshape{batch}, lshape{batch};
    for (int i = 0; i < param_.data_shape.ndim(); ++i) dshape.push_back(param_.data_shape[i]);
    for (int i = 0; i < param_.label_shape.ndim(); ++i) lshape.push_back(param_.label_shape[i]);
    buffer_.arrays.resize(2);
    buffer_.arrays[0].Resize(TShape(dshape.begin(), dshape.end()), dtype_);
    buffer_.arrays[1].Resize(TShape(lshape.begin(), lshape.end()), dtype_);
    std::fill(buffer_.arrays[0].bytes.begin(), buffer_.arrays[0].bytes.end(), 0);
    std::fill(buffer_.arrays[1].bytes.begin(), buffer_.arrays[1].bytes.end(), 0);
    buffer_.index.assign(batch, 0);
  }

  void BeforeFirst() override {
    // With round_batch, rows already used to fill the last batch are skipped next epoch.
    if (!param_.round_batch || num_overflow_ == 0) {
      cursor_ = 0;
    }
    num_overflow_ = 0;
  }

  bool Next(HostBatch* out) override {
    const size_t batch = static_cast<size_t>(param_.batch_size);
    // After a wrapped (overflow) batch the epoch is over until BeforeFirst.
    if (num_overflow_ != 0) return false;
    size_t top = 0;
    buffer_.num_batch_padd = 0;
    while (top < batch && cursor_ < rows_) CopyRow(cursor_++, top++);
    if (top == 0) return false;
    if (top < batch) {
      if (param_.round_batch) {
        cursor_ = 0;
        num_overflow_ = 0;
        for (; top < batch; ++top, ++num_overflow_) {
          if (cursor_ >= rows_) {
            LOG(FATAL) << "CSVIter: batch_size " << batch << " is larger than the " << rows_
                       << " rows of data_csv '" << param_.data_csv
                       << "'; round_batch cannot fill a batch";
          }
          CopyRow(cursor_++, top);
        }
        buffer_.num_batch_padd = static_cast<int>(num_overflow_);
      } else {
        buffer_.num_batch_padd = static_cast<int>(batch - top);
      }
    }
    *out = buffer_;
    return true;
  }

 private:
  /*! \brief Keeps rows [rows * k / n, rows * (k + 1) / n) for part k of n. */
  void KeepPart() {
    const int n = param_.num_parts, k = param_.part_index;
    if (n < 1 || k < 0 || k >= n) {
      MX_THROW(dmlc::ValueError) << "CSVIter: part_index must be in [0, num_parts), got "
                                 << "part_index=" << k << " num_parts=" << n;
    }
    if (n == 1) return;
    const size_t begin = rows_ * k / n, end = rows_ * (k + 1) / n;
    if (begin == end) {
      MX_THROW(dmlc::ValueError) << "CSVIter: part " << k << " of " << n << " of the "
                                 << rows_ << " rows is empty";
    }
    data_.erase(data_.begin() + end * data_len_, data_.end());
    data_.erase(data_.begin(), data_.begin() + begin * data_len_);
    label_.erase(label_.begin() + end * label_len_, label_.end());
    label_.erase(label_.begin(), label_.begin() + begin * label_len_);
    rows_ = end - begin;
  }

  void CopyRow(size_t row, size_t slot) {
    MSHADOW_TYPE_SWITCH(dtype_, DType, {
      DType* d = buffer_.arrays[0].ptr<DType>() + slot * data_len_;
      for (size_t i = 0; i < data_len_; ++i) d[i] = static_cast<DType>(data_[row * data_len_ + i]);
      DType* l = buffer_.arrays[1].ptr<DType>() + slot * label_len_;
      for (size_t i = 0; i < label_len_; ++i) {
        l[i] = static_cast<DType>(label_[row * label_len_ + i]);
      }
    });
    buffer_.index[slot] = row;
  }

  CSVParam param_;
  int dtype_;
  size_t data_len_{0};
  size_t label_len_{0};
  size_t rows_{0};
  size_t cursor_{0};
  size_t num_overflow_{0};
  std::vector<double> data_;
  std::vector<double> label_;
  HostBatch buffer_;
};

class CSVIter : public PrefetchIter {
 public:
  void Init(const std::vector<std::pair<std::string, std::string>>& kwargs) override {
    CSVParam param;
    auto rest = param.InitAllowUnknown(kwargs);
    PrefetcherParam pparam = ParsePrefetcherParam("CSVIter", rest);
    // The values are parsed in the requested dtype (float32 when None), as MXNet does.
    const int dtype = pparam.dtype.has_value() ? pparam.dtype.value() : mshadow::kFloat32;
    Start(std::make_unique<CSVSource>(param, dtype), pparam);
  }
};

MXNET_REGISTER_IO_ITER(CSVIter)
    .describe(
        "Returns the CSV file iterator.\n\n"
        "In this function, the `data_shape` parameter is used to set the shape of each line of "
        "the input data. If a row in an input file is `1,2,3,4,5,6`` and `data_shape` is (3,2), "
        "that row will be reshaped, yielding the array [[1,2],[3,4],[5,6]] of shape (3,2).\n\n"
        "By default, the `CSVIter` has `round_batch` parameter set to ``True``. So, if "
        "`batch_size` is 3 and there are 4 total rows in CSV file, 2 more examples are consumed "
        "at the first round. If `reset` function is called after first round, the call is "
        "ignored and remaining examples are returned in the second round.\n\n"
        "If one wants all the instances in the second round after calling `reset`, make sure "
        "to set `round_batch` to False.\n\n"
        "If ``data_csv = 'data/'`` is set, then all the files in this directory will be read.\n\n"
        "``reset()`` is expected to be called only after a complete pass of data.\n\n"
        "By default, the CSVIter parses all entries in the data file as float32 data type, if "
        "`dtype` argument is set to be 'int32' or 'int64' then CSVIter will parse all entries in "
        "the file as int32 or int64 data type accordingly.\n")
    .add_arguments(CSVParam::__FIELDS__())
    .add_arguments(PrefetcherParam::__FIELDS__())
    .set_body([]() -> IIterator<DataBatch>* { return new CSVIter(); });

}  // namespace io
}  // namespace mxnet
