/*!
 * \file mxnet/tuple.h
 * \brief Tuple<T> (a small vector of values, e.g. axes or per-dim strides) and TShape (a
 *        tensor shape with 64-bit dims).
 *
 * Unknown is explicit: a TShape with ndim() == -1 is an unknown shape (what TShape() is), and
 * a dim of -1 is an unknown dim. ndim() == 0 is a scalar (0-d) shape.
 *
 *   mxnet::TShape s{2, 3};
 *   s.Size();                        // 6
 *   std::cout << s;                  // [2,3]
 *   std::istringstream("(2, 3)") >> s;   // also "[2,3]", "(2,)", "()", "5", "None", "(2L, 3L)"
 *   mshadow::Shape<2> m = s.get<2>();
 *   mxnet::shape_is_known(mxnet::TShape());   // false
 *
 * Python passes shapes as str(tuple), so operator>> accepts Python literals.
 */
#ifndef MXNET_TUPLE_H_
#define MXNET_TUPLE_H_

#include <dmlc/base.h>
#include <dmlc/logging.h>
#include <dmlc/optional.h>
#include <mshadow/tensor.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <initializer_list>
#include <istream>
#include <iterator>
#include <memory>
#include <ostream>
#include <type_traits>
#include <utility>
#include <vector>

namespace mxnet {

typedef int64_t dim_t;

/*!
 * \brief A tuple of values; up to kStackCache values live inline (no heap allocation).
 *        ndim() == -1 means "unknown" (only meaningful for shapes).
 */
template <typename ValueType>
class Tuple {
 public:
  Tuple() = default;
  ~Tuple() = default;
  Tuple(const Tuple<ValueType>& s) { this->assign(s.begin(), s.end()); if (s.ndim_ == -1) SetDim(-1); }
  Tuple(Tuple<ValueType>&& src) noexcept { this->swap(src); }
  Tuple(std::initializer_list<ValueType> init) { this->assign(init.begin(), init.end()); }
  Tuple(std::vector<ValueType> init) { this->assign(init.begin(), init.end()); }  // NOLINT
  /*! \brief ndim copies of value. */
  Tuple(const int ndim, const ValueType& value) {
    this->SetDim(ndim);
    if (ndim > 0) std::fill_n(begin(), ndim, value);
  }
  template <typename RandomAccessIterator,
            typename std::enable_if<
                std::is_same<typename std::iterator_traits<RandomAccessIterator>::iterator_category,
                             std::random_access_iterator_tag>::value,
                int>::type = 0>
  Tuple(RandomAccessIterator begin, RandomAccessIterator end) {
    this->assign(begin, end);
  }

  template <typename RandomAccessIterator>
  void assign(RandomAccessIterator begin, RandomAccessIterator end) {
    this->SetDim(static_cast<int>(end - begin));
    std::copy(begin, end, this->begin());
  }
  void swap(Tuple<ValueType>& other) noexcept {  // NOLINT(runtime/references)
    std::swap(ndim_, other.ndim_);
    std::swap(num_heap_allocated_, other.num_heap_allocated_);
    std::swap(data_stack_, other.data_stack_);
    std::swap(data_heap_, other.data_heap_);
  }
  Tuple<ValueType>& operator=(const Tuple<ValueType>& src) {
    if (this == &src) return *this;
    if (src.ndim() == -1) {
      this->SetDim(-1);
    } else {
      this->assign(src.begin(), src.end());
    }
    return *this;
  }
  Tuple<ValueType>& operator=(Tuple<ValueType>&& src) noexcept {
    Tuple<ValueType>(std::move(src)).swap(*this);
    return *this;
  }
  Tuple<ValueType>& operator=(std::initializer_list<ValueType> init) {
    this->assign(init.begin(), init.end());
    return *this;
  }
  bool operator==(const Tuple<ValueType>& s) const {
    if (ndim_ != s.ndim_) return false;
    return std::equal(begin(), end(), s.begin());
  }
  bool operator!=(const Tuple<ValueType>& s) const { return !(*this == s); }

  const ValueType* begin() const { return ndim_ <= kStackCache ? data_stack_ : data_heap_.get(); }
  ValueType* begin() { return ndim_ <= kStackCache ? data_stack_ : data_heap_.get(); }
  const ValueType* end() const { return begin() + (ndim_ >= 0 ? ndim_ : 0); }
  ValueType* end() { return begin() + (ndim_ >= 0 ? ndim_ : 0); }
  const ValueType* data() const { return begin(); }
  ValueType* data() { return begin(); }
  /*! \brief Number of values; -1 when unknown. */
  int ndim() const { return ndim_; }
  ValueType& operator[](int i) {
    CHECK(i >= 0 && i < ndim_) << "index = " << i << " must be in range [0, " << ndim_ << ")";
    return begin()[i];
  }
  const ValueType& operator[](int i) const {
    CHECK(i >= 0 && i < ndim_) << "index = " << i << " must be in range [0, " << ndim_ << ")";
    return begin()[i];
  }

  /*! \brief Prints "[a,b,c]", or "None" when unknown. */
  friend std::ostream& operator<<(std::ostream& os, const Tuple<ValueType>& t) {
    if (t.ndim() == -1) return os << "None";
    os << '[';
    for (const ValueType* it = t.begin(); it != t.end(); ++it) {
      if (it != t.begin()) os << ',';
      os << *it;
    }
    os << ']';
    return os;
  }
  /*!
   * \brief Reads a Python-style tuple: "(1, 2)", "[1,2]", "(1,)", "()", a bare "5", "None"
   *        (unknown), with optional `L` suffixes on integers. Sets failbit on malformed input.
   */
  friend std::istream& operator>>(std::istream& is, Tuple<ValueType>& t) {  // NOLINT
    while (true) {
      int ch = is.peek();
      if (ch == EOF) {
        is.setstate(std::ios::failbit);
        return is;
      }
      if (std::isdigit(ch) || ch == '-' || ch == '+') {  // a bare number: one-element tuple
        ValueType idx;
        if (is >> idx) {
          t.assign(&idx, &idx + 1);
          if (std::is_integral<ValueType>::value && !is.eof() && is.peek() == 'L') is.get();
        }
        return is;
      }
      is.get();
      if (ch == '(' || ch == '[') break;
      if (!std::isspace(ch)) {
        if (ch == 'N') {
          char rest[3] = {0, 0, 0};
          if (is.read(rest, 3) && rest[0] == 'o' && rest[1] == 'n' && rest[2] == 'e') {
            t.SetDim(-1);
            return is;
          }
        }
        is.setstate(std::ios::failbit);
        return is;
      }
    }
    while (std::isspace(is.peek())) is.get();
    if (is.peek() == ')' || is.peek() == ']') {  // empty tuple: 0-d shape
      is.get();
      t.SetDim(0);
      return is;
    }
    std::vector<ValueType> tmp;
    while (true) {
      ValueType idx;
      if (!(is >> idx)) return is;
      tmp.push_back(idx);
      int ch;
      do {
        ch = is.get();
      } while (std::isspace(ch));
      if (std::is_integral<ValueType>::value && ch == 'L') ch = is.get();
      if (ch == ',') {
        while (std::isspace(is.peek())) is.get();
        if (is.peek() == ')' || is.peek() == ']') {  // trailing comma: "(2,)"
          is.get();
          break;
        }
      } else if (ch == ')' || ch == ']') {
        break;
      } else {
        is.setstate(std::ios::failbit);
        return is;
      }
    }
    t.assign(tmp.begin(), tmp.end());
    return is;
  }

 protected:
  static constexpr int kStackCache = 4;
  int ndim_{0};
  int num_heap_allocated_{0};
  ValueType data_stack_[kStackCache]{};
  std::unique_ptr<ValueType[]> data_heap_;

  /*! \brief Resize to ndim values (contents undefined); -1 marks unknown. */
  void SetDim(int ndim) {
    CHECK_GE(ndim, -1) << "ndim cannot be less than -1, received " << ndim;
    if (ndim > kStackCache && ndim > num_heap_allocated_) {
      data_heap_.reset(new ValueType[ndim]);
      num_heap_allocated_ = ndim;
    }
    ndim_ = ndim;
  }
};

/*! \brief True when an ndim is known (not -1). */
inline bool ndim_is_known(const int ndim) {
  CHECK_GE(ndim, -1) << "shape ndim must be >= -1, while received " << ndim;
  return ndim != -1;
}
/*! \brief True when a dim size is known (not -1). */
inline bool dim_size_is_known(const dim_t dim_size) {
  CHECK_GE(dim_size, -1) << "shape dim size must be >= -1, while received " << dim_size;
  return dim_size != -1;
}

/*!
 * \brief A tensor shape. TShape() is the unknown shape (ndim -1); TShape(0, 0) is a 0-d
 *        (scalar) shape; a dim of -1 is unknown.
 */
class TShape : public Tuple<dim_t> {
 public:
  /*! \brief The unknown shape. */
  TShape() { this->SetDim(-1); }
  /*! \brief ndim dims, all equal to value (ndim -1 gives the unknown shape). */
  TShape(const int ndim, const dim_t value) {  // NOLINT(runtime/explicit)
    this->SetDim(ndim);
    if (ndim > 0) std::fill_n(begin(), ndim, value);
  }
  TShape(const Tuple<dim_t>& s) : Tuple<dim_t>(s) {}         // NOLINT(runtime/explicit)
  TShape(Tuple<dim_t>&& s) : Tuple<dim_t>(std::move(s)) {}   // NOLINT(runtime/explicit)
  TShape(std::initializer_list<dim_t> init) { this->assign(init.begin(), init.end()); }
  TShape(const TShape& s) : Tuple<dim_t>(s) {}
  TShape(TShape&& s) noexcept : Tuple<dim_t>(std::move(s)) {}
  template <typename RandomAccessIterator,
            typename std::enable_if<
                std::is_same<typename std::iterator_traits<RandomAccessIterator>::iterator_category,
                             std::random_access_iterator_tag>::value,
                int>::type = 0>
  TShape(RandomAccessIterator begin, RandomAccessIterator end) {
    this->assign(begin, end);
  }
  template <int dim>
  TShape(const mshadow::Shape<dim>& s) {  // NOLINT(runtime/explicit)
    this->assign(s.shape_, s.shape_ + dim);
  }
  TShape& operator=(const TShape& s) {
    Tuple<dim_t>::operator=(s);
    return *this;
  }
  TShape& operator=(TShape&& s) noexcept {
    Tuple<dim_t>::operator=(std::move(s));
    return *this;
  }
  TShape& operator=(const Tuple<dim_t>& s) {
    Tuple<dim_t>::operator=(s);
    return *this;
  }
  template <int dim>
  TShape& operator=(const mshadow::Shape<dim>& shape) {
    this->assign(shape.shape_, shape.shape_ + dim);
    return *this;
  }

  /*! \brief Number of elements; the shape must be fully known. */
  size_t Size() const {
    CHECK(ndim_is_known(this->ndim())) << "Shape is unknown.";
    dim_t size = 1;
    for (const dim_t* it = begin(); it != end(); ++it) {
      CHECK(dim_size_is_known(*it)) << "Shape dim size cannot be a negative value " << *it;
      size *= *it;
    }
    return static_cast<size_t>(size);
  }
  /*! \brief Product of dims in [dimstart, dimend). */
  dim_t ProdShape(int dimstart, int dimend) const {
    CHECK(ndim_is_known(this->ndim())) << "Shape is unknown.";
    CHECK_GE(dimstart, 0) << "dimstart must be >= 0, while received " << dimstart;
    CHECK_LE(dimend, this->ndim()) << "dimend must be <= " << this->ndim()
                                    << ", while received " << dimend;
    dim_t num = 1;
    const dim_t* d = this->data();
    for (int i = dimstart; i < dimend; ++i) {
      CHECK(dim_size_is_known(d[i])) << "Shape dim size must be known, while received " << d[i];
      num *= d[i];
    }
    return num;
  }
  /*! \brief The shape as mshadow::Shape<dim>; ndim() must equal dim. */
  template <int dim>
  mshadow::Shape<dim> get() const {
    CHECK_EQ(dim, this->ndim()) << "dimension do not match target dimension " << dim << " vs "
                                << this->ndim();
    mshadow::Shape<dim> s;
    const dim_t* d = this->data();
    for (int i = 0; i < dim; ++i) s[i] = d[i];
    return s;
  }
  /*! \brief Leading dims folded into rows, last dim as columns; 0-d gives (1, 1). */
  mshadow::Shape<2> FlatTo2D() const {
    CHECK(ndim_is_known(ndim())) << "shape must have a valid ndim";
    if (ndim() == 0) return mshadow::Shape2(1, 1);
    const dim_t* d = this->data();
    dim_t ymax = 1;
    for (int i = 1; i < ndim(); ++i) ymax *= d[i - 1];
    return mshadow::Shape2(ymax, d[ndim() - 1]);
  }
  /*! \brief (prod dims before axis_begin, prod [axis_begin, axis_end], prod dims after). */
  mshadow::Shape<3> FlatTo3D(int axis_begin, int axis_end) const {
    CHECK(axis_end >= axis_begin);
    CHECK(ndim_is_known(ndim())) << "shape must have a valid ndim";
    if (ndim() == 0) return mshadow::Shape3(1, 1, 1);
    const dim_t* d = this->data();
    mshadow::Shape<3> s = mshadow::Shape3(1, 1, 1);
    for (int i = 0; i < axis_begin; ++i) s.shape_[0] *= d[i];
    for (int i = axis_begin; i <= axis_end; ++i) s.shape_[1] *= d[i];
    for (int i = axis_end + 1; i < ndim(); ++i) s.shape_[2] *= d[i];
    return s;
  }
  mshadow::Shape<3> FlatTo3D(int axis) const { return FlatTo3D(axis, axis); }

  bool operator==(const TShape& s) const {
    if (ndim() != s.ndim()) return false;
    return std::equal(begin(), end(), s.begin());
  }
  bool operator!=(const TShape& s) const { return !(*this == s); }
  template <int dim>
  bool operator==(const mshadow::Shape<dim>& s) const {
    if (ndim() != dim) return false;
    const dim_t* d = data();
    for (int i = 0; i < dim; ++i) {
      if (d[i] != s.shape_[i]) return false;
    }
    return true;
  }
  template <int dim>
  bool operator!=(const mshadow::Shape<dim>& s) const { return !(*this == s); }
};

/*! \brief Shape vectors, the unit of FInferShape. */
using ShapeVector = std::vector<mxnet::TShape>;

inline bool ndim_is_known(const TShape& x) { return ndim_is_known(x.ndim()); }
/*! \brief True when dim idx of x is known. */
inline bool dim_size_is_known(const TShape& x, const int idx) {
  CHECK(idx >= 0 && idx < x.ndim()) << "idx = " << idx << " exceeds shape dimension range [0, "
                                    << x.ndim() << ")";
  return dim_size_is_known(x[idx]);
}
/*! \brief True when ndim and every dim are known. */
inline bool shape_is_known(const TShape& x) {
  if (!ndim_is_known(x)) return false;
  for (int i = 0; i < x.ndim(); ++i) {
    if (!dim_size_is_known(x, i)) return false;
  }
  return true;
}
inline bool shape_is_known(const std::vector<TShape>& shapes) {
  for (const TShape& s : shapes) {
    if (!shape_is_known(s)) return false;
  }
  return true;
}

}  // namespace mxnet

namespace std {
template <typename T>
struct hash<mxnet::Tuple<T>> {
  size_t operator()(const mxnet::Tuple<T>& val) const {
    size_t res = std::hash<int>()(val.ndim());
    for (const T& v : val) res = dmlc::HashCombine(res, v);
    return res;
  }
};
template <>
struct hash<mxnet::TShape> {
  size_t operator()(const mxnet::TShape& val) const {
    size_t res = std::hash<int>()(val.ndim());
    for (const mxnet::dim_t& v : val) res = dmlc::HashCombine(res, v);
    return res;
  }
};
}  // namespace std

#endif  // MXNET_TUPLE_H_
