/*!
 * \file dmlc/optional.h
 * \brief dmlc::optional<T>: a value or None. Prints "None" when empty and parses "None" back,
 *        which is how Python passes a missing optional parameter.
 *
 *   dmlc::optional<int> axis;            // None
 *   axis = 2;
 *   if (axis.has_value()) use(axis.value());
 *   std::cout << dmlc::optional<int>();  // None
 */
#ifndef DMLC_OPTIONAL_H_
#define DMLC_OPTIONAL_H_

#include <dmlc/logging.h>

#include <cctype>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

namespace dmlc {

using nullopt_t = std::nullopt_t;
inline constexpr std::nullopt_t nullopt = std::nullopt;

template <typename T>
class optional {
 public:
  optional() = default;
  optional(std::nullopt_t) {}                        // NOLINT(runtime/explicit)
  optional(const T& value) : val_(value) {}          // NOLINT(runtime/explicit)
  optional(T&& value) : val_(std::move(value)) {}    // NOLINT(runtime/explicit)

  optional& operator=(std::nullopt_t) {
    val_.reset();
    return *this;
  }
  optional& operator=(const T& value) {
    val_ = value;
    return *this;
  }

  bool has_value() const { return val_.has_value(); }
  explicit operator bool() const { return val_.has_value(); }
  /*! \brief The value; throws ValueError when empty. */
  const T& value() const {
    if (!val_) throw ValueError("optional has no value (it is None)");
    return *val_;
  }
  T& value() {
    if (!val_) throw ValueError("optional has no value (it is None)");
    return *val_;
  }
  const T& operator*() const { return value(); }
  T& operator*() { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  T value_or(const T& alt) const { return val_ ? *val_ : alt; }
  void reset() { val_.reset(); }

  friend bool operator==(const optional& a, const optional& b) { return a.val_ == b.val_; }
  friend bool operator!=(const optional& a, const optional& b) { return !(a == b); }

 private:
  std::optional<T> val_;
};

/*! \brief Prints the value, or "None". */
template <typename T>
inline std::ostream& operator<<(std::ostream& os, const optional<T>& t) {
  if (t.has_value()) {
    os << *t;
  } else {
    os << "None";
  }
  return os;
}

/*! \brief Reads "None" (empty) or a T (integers may carry a Python-2 style `L` suffix). */
template <typename T>
inline std::istream& operator>>(std::istream& is, optional<T>& t) {  // NOLINT(runtime/references)
  while (is.good() && std::isspace(is.peek())) is.get();
  if (is.peek() == 'N') {
    std::string word;
    while (is.good() && std::isalpha(is.peek())) word.push_back(static_cast<char>(is.get()));
    if (word == "None") {
      t = nullopt;
    } else {
      is.setstate(std::ios::failbit);
    }
    return is;
  }
  T x;
  if (is >> x) {
    t = x;
    if (std::is_integral<T>::value && !is.eof() && is.peek() == 'L') is.get();
  }
  return is;
}

}  // namespace dmlc

namespace std {
template <typename T>
struct hash<dmlc::optional<T>> {
  size_t operator()(const dmlc::optional<T>& v) const {
    return v.has_value() ? std::hash<T>()(*v) : static_cast<size_t>(0x5bd1e995u);
  }
};
}  // namespace std

#endif  // DMLC_OPTIONAL_H_
