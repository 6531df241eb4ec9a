/*!
 * \file image_record.h
 * \brief What the image RecordIO iterators (ImageRecordIter and friends, ImageDetRecordIter)
 *        share: the IRHeader of an image record, the interpolation choice, and RecordFile, the
 *        records of one part of a .rec file in (shuffled) order, handed out a batch at a time
 *        with 1.x's round_batch rule.
 */
#ifndef MXNET_IO_IMAGE_RECORD_H_
#define MXNET_IO_IMAGE_RECORD_H_

#include <dmlc/logging.h>

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "./recordio.h"

namespace mxnet {
namespace io {

/*! \brief The IRHeader of an image record and where the image bytes start. */
struct ImageRecord {
  std::vector<float> labels;
  uint64_t id{0};
  size_t image_offset{0};
};

/*! \brief Parses the IRHeader (u32 flag, f32 label, u64 id, u64 id2, then `flag` float labels
 *         when flag > 0); `who` names the iterator in errors. */
ImageRecord ParseImageRecord(const std::string& rec, const std::string& who);

/*! \brief The labels of an image list (.lst: "index \t label(s) \t path" lines), keyed by
 *         index; a malformed line is a ValueError naming `who`, the file and the line. */
std::map<uint64_t, std::vector<float>> LoadImageListLabels(const std::string& path,
                                                           const std::string& who);

/*! \brief OpenCV-style interpolation choice: 9 auto (by direction), 10 random. */
int PickInterp(int method, int h, int w, int oh, int ow, std::mt19937* rng);

/*! \brief Where a batch's records come from and how many rows of it are padding. */
struct BatchPicks {
  std::vector<size_t> records;  // indices into RecordFile's records
  int pad{0};
};

class RecordFile {
 public:
  /*!
   * \brief Record offsets from `path_imgidx` ("key offset" lines), or from one scan of the
   *        .rec file; keeps part `part_index` of `num_parts`. Throws ValueError naming `who`.
   */
  RecordFile(const std::string& who, const std::string& path_imgrec,
             const std::string& path_imgidx, int num_parts, int part_index, bool shuffle,
             int seed);

  size_t size() const { return offsets_.size(); }
  /*! \brief The bytes of record `i` (an index into this part). */
  void Read(size_t i, std::string* rec);
  /*! \brief Starts an epoch (reshuffles). With round_batch, the records used to fill the last
   *         batch are skipped next epoch, as in 1.x. */
  void BeforeFirst(bool round_batch);
  /*! \brief The next batch: false at the end of the epoch. A short last batch wraps around
   *         to the start (round_batch, pad = rows taken from the start) or reports its
   *         missing rows as pad. */
  bool Next(size_t batch_size, bool round_batch, BatchPicks* picks);

 private:
  void Shuffle();

  std::string who_, path_;
  std::vector<size_t> offsets_;
  std::unique_ptr<RecordIOReader> reader_;
  std::vector<size_t> order_;
  size_t cursor_{0};
  size_t num_overflow_{0};
  bool shuffle_;
  std::mt19937 shuffle_rng_;
};

}  // namespace io
}  // namespace mxnet

#endif  // MXNET_IO_IMAGE_RECORD_H_
