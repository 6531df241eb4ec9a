/*!
 * \file image_record.cc
 * \brief The image-record helpers the image RecordIO iterators share (see image_record.h).
 */
#include "./image_record.h"

#include <dmlc/parameter.h>

#include <cstring>
#include <fstream>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace mxnet {
namespace io {

ImageRecord ParseImageRecord(const std::string& rec, const std::string& who) {
  constexpr size_t kHeader = 24;
  if (rec.size() < kHeader) {
    MX_THROW(dmlc::ValueError) << who << ": a record of " << rec.size()
                               << " bytes is too short for an image record header (24 bytes)";
  }
  ImageRecord out;
  uint32_t flag;
  float label;
  std::memcpy(&flag, rec.data(), 4);
  std::memcpy(&label, rec.data() + 4, 4);
  std::memcpy(&out.id, rec.data() + 8, 8);
  out.image_offset = kHeader;
  if (flag == 0) {
    out.labels.push_back(label);
  } else {
    if (rec.size() < kHeader + 4 * static_cast<size_t>(flag)) {
      MX_THROW(dmlc::ValueError) << who << ": record " << out.id << " says it has " << flag
                                 << " labels but is only " << rec.size() << " bytes long";
    }
    out.labels.resize(flag);
    std::memcpy(out.labels.data(), rec.data() + kHeader, 4 * static_cast<size_t>(flag));
    out.image_offset += 4 * static_cast<size_t>(flag);
  }
  return out;
}

std::map<uint64_t, std::vector<float>> LoadImageListLabels(const std::string& path,
                                                           const std::string& who) {
  std::ifstream f(path);
  if (!f.is_open()) {
    MX_THROW(dmlc::ValueError) << who << ": cannot open path_imglist '" << path << "'";
  }
  std::map<uint64_t, std::vector<float>> labels;
  std::string line;
  for (size_t number = 1; std::getline(f, line); ++number) {
    std::vector<std::string> fields;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, '\t')) fields.push_back(field);
    if (fields.size() < 3) continue;
    try {
      std::vector<float> values;
      for (size_t i = 1; i + 1 < fields.size(); ++i) values.push_back(std::stof(fields[i]));
      labels[std::stoull(fields[0])] = values;
    } catch (const std::logic_error&) {  // stof/stoull: not a number, out of range
      MX_THROW(dmlc::ValueError) << who << ": line " << number << " of path_imglist '" << path
                                 << "' is not 'index \\t labels \\t path': " << line;
    }
  }
  return labels;
}

int PickInterp(int method, int h, int w, int oh, int ow, std::mt19937* rng) {
  if (method == 9) {
    if (oh > h && ow > w) return 2;
    if (oh < h && ow < w) return 3;
    return 1;
  }
  if (method == 10) return std::uniform_int_distribution<int>(0, 4)(*rng);
  return method;
}

RecordFile::RecordFile(const std::string& who, const std::string& path_imgrec,
                       const std::string& path_imgidx, int num_parts, int part_index,
                       bool shuffle, int seed)
    : who_(who), path_(path_imgrec), shuffle_(shuffle) {
  if (num_parts < 1 || part_index < 0 || part_index >= num_parts) {
    MX_THROW(dmlc::ValueError) << who << ": part_index must be in [0, num_parts), got "
                               << "part_index=" << part_index << " num_parts=" << num_parts;
  }
  std::vector<size_t> all;
  if (!path_imgidx.empty()) {
    std::ifstream f(path_imgidx);
    if (!f.is_open()) {
      MX_THROW(dmlc::ValueError) << who << ": cannot open path_imgidx '" << path_imgidx << "'";
    }
    std::string key;
    size_t offset;
    while (f >> key >> offset) all.push_back(offset);
  } else {
    RecordIOReader reader(path_imgrec);
    std::string rec;
    size_t pos = reader.Tell();
    while (reader.NextRecord(&rec)) {
      all.push_back(pos);
      pos = reader.Tell();
    }
  }
  if (all.empty()) MX_THROW(dmlc::ValueError) << who << ": no records in '" << path_imgrec << "'";
  const size_t n = all.size();
  const size_t begin = n * part_index / num_parts;
  const size_t end = n * (part_index + 1) / num_parts;
  offsets_.assign(all.begin() + begin, all.begin() + end);
  if (offsets_.empty()) {
    MX_THROW(dmlc::ValueError) << who << ": part " << part_index << " of " << num_parts
                               << " has no records";
  }
  reader_ = std::make_unique<RecordIOReader>(path_imgrec);
  shuffle_rng_.seed(static_cast<uint32_t>(seed));
  order_.resize(offsets_.size());
  std::iota(order_.begin(), order_.end(), 0);
  Shuffle();
}

void RecordFile::Read(size_t i, std::string* rec) {
  reader_->Seek(offsets_[i]);
  if (!reader_->NextRecord(rec)) {
    MX_THROW(dmlc::ValueError) << who_ << ": no record at offset " << offsets_[i] << " of '"
                               << path_ << "' (a stale .idx file?)";
  }
}

void RecordFile::Shuffle() {
  if (!shuffle_) return;
  for (size_t i = order_.size(); i > 1; --i) {
    std::uniform_int_distribution<size_t> pick(0, i - 1);
    std::swap(order_[i - 1], order_[pick(shuffle_rng_)]);
  }
}

void RecordFile::BeforeFirst(bool round_batch) {
  if (!round_batch || num_overflow_ == 0) {
    cursor_ = 0;
    Shuffle();
  }
  num_overflow_ = 0;
}

bool RecordFile::Next(size_t batch_size, bool round_batch, BatchPicks* picks) {
  picks->records.clear();
  picks->pad = 0;
  if (num_overflow_ != 0) return false;
  while (picks->records.size() < batch_size && cursor_ < order_.size()) {
    picks->records.push_back(order_[cursor_++]);
  }
  if (picks->records.empty()) return false;
  if (picks->records.size() < batch_size) {
    if (round_batch) {
      cursor_ = 0;
      while (picks->records.size() < batch_size) {
        if (cursor_ >= order_.size()) {
          MX_THROW(dmlc::ValueError) << who_ << ": batch_size " << batch_size << " is larger "
                                     << "than the " << order_.size() << " images; round_batch "
                                     << "cannot fill a batch";
        }
        picks->records.push_back(order_[cursor_++]);
        ++num_overflow_;
      }
      picks->pad = static_cast<int>(num_overflow_);
    } else {
      picks->pad = static_cast<int>(batch_size - picks->records.size());
    }
  }
  return true;
}

}  // namespace io
}  // namespace mxnet
