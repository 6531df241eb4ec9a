/*!
 * \file dmlc/parameter.h
 * \brief Declarative parameter structs: fields with types, defaults, ranges, enums and docs,
 *        initialised from string key/value pairs (what Python sends) and documented in the
 *        MXNet 1.x format.
 *
 *   struct ActParam : public dmlc::Parameter<ActParam> {
 *     int act_type;
 *     float slope;
 *     mxnet::TShape kernel;
 *     dmlc::optional<int> axis;
 *     DMLC_DECLARE_PARAMETER(ActParam) {
 *       DMLC_DECLARE_FIELD(act_type).add_enum("relu", 0).add_enum("tanh", 1)
 *           .describe("Activation function.");
 *       DMLC_DECLARE_FIELD(slope).set_default(0.25f).set_range(0.f, 1.f);
 *       DMLC_DECLARE_FIELD(kernel).set_default(mxnet::TShape(0, 0));
 *       DMLC_DECLARE_FIELD(axis).set_default(dmlc::optional<int>());
 *     }
 *   };
 *   DMLC_REGISTER_PARAMETER(ActParam);   // once, in a .cc
 *
 *   ActParam p;
 *   p.Init(std::map<std::string, std::string>{{"act_type", "relu"}, {"axis", "None"}});
 *   ActParam::__FIELDS__();   // name, type, "float, optional, default=0.25", description
 *
 * Parsing (Set): surrounding whitespace is allowed; bool takes true/false (any case) or 1/0;
 * optionals take None; shapes and tuples take "(2, 3)", "[2,3]", "(2,)", "()", "5", "None";
 * floats take "1e-3", "inf", "-inf", "nan"; integers reject "1.5" and trailing garbage.
 * Every failure throws dmlc::ParamError with the MXNet 1.x message text.
 */
#ifndef DMLC_PARAMETER_H_
#define DMLC_PARAMETER_H_

#include <dmlc/base.h>
#include <dmlc/json.h>
#include <dmlc/logging.h>
#include <dmlc/optional.h>
#include <dmlc/type_traits.h>
#include <mxnet/base.h>
#include <mxnet/tuple.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace dmlc {

/*! \brief What a field reports about itself (also used for op inputs in the op registry). */
struct ParamFieldInfo {
  /*! \brief Field name. */
  std::string name;
  /*! \brief Type name, e.g. "float" or "Shape(tuple)". */
  std::string type;
  /*! \brief Type with default info, e.g. "float, optional, default=0.25" or "int, required". */
  std::string type_info_str;
  /*! \brief Field description. */
  std::string description;
};

// Type names of the mxnet types parameters can hold.
DMLC_DECLARE_TYPE_NAME(mxnet::TShape, "Shape(tuple)");
DMLC_DECLARE_TYPE_NAME(mxnet::Tuple<int>, "Shape(tuple)");
DMLC_DECLARE_TYPE_NAME(mxnet::Tuple<optional<int>>, "Shape(tuple)");
DMLC_DECLARE_TYPE_NAME(mxnet::Tuple<optional<int64_t>>, "Shape(tuple)");
DMLC_DECLARE_TYPE_NAME(optional<mxnet::TShape>, "Shape or None");
DMLC_DECLARE_TYPE_NAME(optional<mxnet::Tuple<int>>, "Shape or None");
DMLC_DECLARE_TYPE_NAME(mxnet::Context, "Context");
template <typename T>
struct type_name_helper<mxnet::Tuple<T>> {
  static std::string value() { return "tuple of <" + type_name<T>() + ">"; }
};

namespace parameter {

/*! \brief How Init treats keys that are not fields. */
enum ParamInitOption {
  /*! \brief Ignore every unknown key. */
  kAllowUnknown,
  /*! \brief Every key must be a field. */
  kAllMatch,
  /*! \brief Ignore unknown keys of the form __xxx__ (hidden attributes); reject others. */
  kAllowHidden
};

// ---------------------------------------------------------------------------------------------
// String -> value parsing. Each Parse returns false on malformed input.
// ---------------------------------------------------------------------------------------------
namespace detail {

inline std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/*! \brief Outcome of parsing one value. */
enum class ParseResult { kOk, kBadFormat, kOutOfRange };

template <typename T>
inline ParseResult Parse(std::string_view s, T* out);

template <typename T>
inline ParseResult ParseInteger(std::string_view s, T* out) {
  s = Trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.front() == '+') return ParseResult::kBadFormat;
  T v{};
  auto res = std::from_chars(s.data(), s.data() + s.size(), v);
  if (res.ec == std::errc::result_out_of_range) return ParseResult::kOutOfRange;
  if (res.ec != std::errc() || res.ptr != s.data() + s.size()) return ParseResult::kBadFormat;
  *out = v;
  return ParseResult::kOk;
}

template <typename T>
inline ParseResult ParseFloating(std::string_view s, T* out) {
  s = Trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.front() == '+') return ParseResult::kBadFormat;
  double v = 0;
  auto res = std::from_chars(s.data(), s.data() + s.size(), v);
  if (res.ec == std::errc::result_out_of_range) return ParseResult::kOutOfRange;
  if (res.ec != std::errc() || res.ptr != s.data() + s.size()) return ParseResult::kBadFormat;
  if (std::isfinite(v) && std::fabs(v) > static_cast<double>(std::numeric_limits<T>::max())) {
    return ParseResult::kOutOfRange;
  }
  *out = static_cast<T>(v);
  return ParseResult::kOk;
}

inline ParseResult Parse(std::string_view s, int* out) { return ParseInteger(s, out); }
inline ParseResult Parse(std::string_view s, long* out) { return ParseInteger(s, out); }  // NOLINT
inline ParseResult Parse(std::string_view s, long long* out) { return ParseInteger(s, out); }  // NOLINT
inline ParseResult Parse(std::string_view s, unsigned* out) { return ParseInteger(s, out); }
inline ParseResult Parse(std::string_view s, unsigned long* out) {  // NOLINT
  return ParseInteger(s, out);
}
inline ParseResult Parse(std::string_view s, unsigned long long* out) {  // NOLINT
  return ParseInteger(s, out);
}
inline ParseResult Parse(std::string_view s, float* out) { return ParseFloating(s, out); }
inline ParseResult Parse(std::string_view s, double* out) { return ParseFloating(s, out); }

inline ParseResult Parse(std::string_view s, bool* out) {
  std::string v(Trim(s));
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  if (v == "true" || v == "1") {
    *out = true;
  } else if (v == "false" || v == "0") {
    *out = false;
  } else {
    return ParseResult::kBadFormat;
  }
  return ParseResult::kOk;
}

inline ParseResult Parse(std::string_view s, std::string* out) {
  *out = std::string(s);
  return ParseResult::kOk;
}

inline ParseResult Parse(std::string_view s, mxnet::Context* out) {
  try {
    *out = mxnet::Context::FromString(std::string(Trim(s)));
  } catch (const dmlc::Error&) {
    return ParseResult::kBadFormat;
  }
  return ParseResult::kOk;
}

template <typename T>
inline ParseResult Parse(std::string_view s, optional<T>* out) {
  std::string_view t = Trim(s);
  if (t == "None" || (std::is_same<T, bool>::value && t == "none")) {
    *out = nullopt;
    return ParseResult::kOk;
  }
  T v{};
  ParseResult r = Parse(t, &v);
  if (r == ParseResult::kOk) *out = v;
  return r;
}

/*! \brief Anything with operator>> (tuples, shapes, user types): whole string must be used. */
template <typename T>
inline ParseResult Parse(std::string_view s, T* out) {
  std::istringstream is{std::string(s)};
  is >> *out;
  if (is.fail()) return ParseResult::kBadFormat;
  int ch;
  while ((ch = is.get()) != EOF) {
    if (!std::isspace(ch)) return ParseResult::kBadFormat;
  }
  return ParseResult::kOk;
}

/*! \brief Prints like MXNet: floats with max_digits10 digits, bools as 0/1. */
template <typename T>
inline void Print(std::ostream& os, const T& value) {
  if constexpr (std::is_floating_point<T>::value) {
    std::streamsize prec = os.precision();
    os << std::setprecision(std::numeric_limits<T>::max_digits10) << value
       << std::setprecision(prec);
  } else if constexpr (std::is_same<T, bool>::value) {
    os << static_cast<int>(value);
  } else {
    os << value;
  }
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Field entries
// ---------------------------------------------------------------------------------------------

/*! \brief Type-erased access to one field of a parameter struct (at a fixed offset). */
class FieldAccessEntry {
 public:
  virtual ~FieldAccessEntry() = default;
  /*! \brief Set the field to its default; throws ParamError for a required field. */
  virtual void SetDefault(void* head) const = 0;
  /*! \brief Parse value into the field; throws ParamError on malformed input. */
  virtual void Set(void* head, const std::string& value) const = 0;
  /*! \brief Validate the current value (ranges etc.); throws ParamError. */
  virtual void Check(void* head) const {}
  /*! \brief The current value as a string (what __DICT__ reports). */
  virtual std::string GetStringValue(void* head) const = 0;
  /*! \brief Name, type and doc strings. */
  virtual ParamFieldInfo GetFieldInfo() const = 0;

 protected:
  friend class ParamManager;
  bool has_default_{false};
  size_t index_{0};
  std::string key_;
  std::string type_;
  std::string description_;
  ptrdiff_t offset_{0};
};

/*! \brief Typed field entry: default, description, parse/print. TEntry is the CRTP leaf. */
template <typename TEntry, typename DType>
class FieldEntryBase : public FieldAccessEntry {
 public:
  typedef TEntry EntryType;

  void Set(void* head, const std::string& value) const override {
    detail::ParseResult r = detail::Parse(std::string_view(value), &this->Get(head));
    if (r == detail::ParseResult::kOutOfRange) {
      std::ostringstream os;
      os << "Out of range value for " << key_ << ", value='" << value << '\'';
      throw dmlc::ParamError(os.str());
    }
    if (r != detail::ParseResult::kOk) ThrowInvalidFormat(value);
  }
  std::string GetStringValue(void* head) const override {
    std::ostringstream os;
    PrintValue(os, this->Get(head));
    return os.str();
  }
  ParamFieldInfo GetFieldInfo() const override {
    ParamFieldInfo info;
    std::ostringstream os;
    info.name = key_;
    info.type = type_;
    os << type_;
    if (has_default_) {
      os << ',' << " optional, default=";
      PrintDefaultValueString(os);
    } else {
      os << ", required";
    }
    info.type_info_str = os.str();
    info.description = description_;
    return info;
  }
  void SetDefault(void* head) const override {
    if (!has_default_) {
      std::ostringstream os;
      os << "Required parameter " << key_ << " of " << type_ << " is not presented";
      throw dmlc::ParamError(os.str());
    }
    this->Get(head) = default_value_;
  }
  /*! \brief Bind to the field `ref` of the struct at `head`. */
  void Init(const std::string& key, void* head, DType& ref) {  // NOLINT(runtime/references)
    this->key_ = key;
    if (this->type_.empty()) this->type_ = dmlc::type_name<DType>();
    this->offset_ = reinterpret_cast<char*>(&ref) - reinterpret_cast<char*>(head);
  }
  /*! \brief Give the field a default (makes it optional). */
  TEntry& set_default(const DType& default_value) {
    default_value_ = default_value;
    has_default_ = true;
    return this->self();
  }
  /*! \brief Describe the field (shown in docs and errors). */
  TEntry& describe(const std::string& description) {
    description_ = description;
    return this->self();
  }

 protected:
  DType default_value_{};

  TEntry& self() { return *static_cast<TEntry*>(this); }
  DType& Get(void* head) const {
    return *reinterpret_cast<DType*>(reinterpret_cast<char*>(head) + offset_);
  }
  virtual void PrintValue(std::ostream& os, const DType& value) const {  // NOLINT(*)
    detail::Print(os, value);
  }
  virtual void PrintDefaultValueString(std::ostream& os) const {  // NOLINT(*)
    PrintValue(os, default_value_);
  }
  [[noreturn]] void ThrowInvalidFormat(const std::string& value) const {
    std::ostringstream os;
    os << "Invalid Parameter format for " << key_ << " expect " << type_ << " but value='"
       << value << '\'';
    throw dmlc::ParamError(os.str());
  }
};

/*! \brief Numeric field: adds inclusive range checks. */
template <typename TEntry, typename DType>
class FieldEntryNumeric : public FieldEntryBase<TEntry, DType> {
 public:
  /*! \brief Valid values are [begin, end]. */
  TEntry& set_range(DType begin, DType end) {
    begin_ = begin;
    end_ = end;
    has_begin_ = has_end_ = true;
    return this->self();
  }
  /*! \brief Valid values are >= begin. */
  TEntry& set_lower_bound(DType begin) {
    begin_ = begin;
    has_begin_ = true;
    return this->self();
  }
  /*! \brief Valid values are <= end. */
  TEntry& set_upper_bound(DType end) {
    end_ = end;
    has_end_ = true;
    return this->self();
  }
  void Check(void* head) const override {
    DType v = this->Get(head);
    std::ostringstream os;
    if (has_begin_ && has_end_) {
      if (v < begin_ || v > end_) {
        os << "value " << v << " for Parameter " << this->key_ << " exceed bound [" << begin_
           << ',' << end_ << ']' << '\n';
      }
    } else if (has_begin_ && v < begin_) {
      os << "value " << v << " for Parameter " << this->key_ << " should be greater equal to "
         << begin_ << '\n';
    } else if (has_end_ && v > end_) {
      os << "value " << v << " for Parameter " << this->key_ << " should be smaller equal to "
         << end_ << '\n';
    }
    if (!os.str().empty()) {
      os << this->key_ << ": " << this->description_;
      throw dmlc::ParamError(os.str());
    }
  }

 protected:
  bool has_begin_{false}, has_end_{false};
  DType begin_{}, end_{};
};

/*!
 * \brief The entry used for a field of type DType: numeric types get range checks, everything
 *        else (string, bool, shapes, tuples, optionals, Context) the plain entry.
 */
template <typename DType>
class FieldEntry
    : public std::conditional<std::is_arithmetic<DType>::value && !std::is_same<DType, bool>::value,
                              FieldEntryNumeric<FieldEntry<DType>, DType>,
                              FieldEntryBase<FieldEntry<DType>, DType>>::type {};

/*!
 * \brief Enum support shared by int and optional<int> fields: string keys map to int values;
 *        keys print sorted, as {'a', 'b'}.
 */
class EnumTable {
 public:
  void Add(const std::string& key, int value) {
    if (map_.count(key) != 0 || back_map_.count(value) != 0) {
      std::ostringstream os;
      os << "Enum (" << key << ": " << value << " exisit!)\nEnums: ";
      for (const auto& kv : map_) os << "(" << kv.first << ": " << kv.second << "), ";
      throw dmlc::ParamError(os.str());
    }
    map_[key] = value;
    back_map_[value] = key;
  }
  bool empty() const { return map_.empty(); }
  /*! \brief The value of key; throws ParamError naming the valid keys. */
  int Lookup(const std::string& key, bool with_none) const {
    auto it = map_.find(std::string(detail::Trim(key)));
    if (it == map_.end()) {
      std::ostringstream os;
      os << "Invalid Input: '" << key << "', valid values are: ";
      Print(os, with_none);
      throw dmlc::ParamError(os.str());
    }
    return it->second;
  }
  const std::string& Name(int value) const {
    auto it = back_map_.find(value);
    CHECK(it != back_map_.end()) << "Value not found in enum declared: " << value;
    return it->second;
  }
  void Print(std::ostream& os, bool with_none) const {  // NOLINT(*)
    os << (with_none ? "{None" : "{");
    bool first = !with_none;
    for (const auto& kv : map_) {
      if (!first) os << ", ";
      first = false;
      os << '\'' << kv.first << '\'';
    }
    os << '}';
  }

 private:
  std::map<std::string, int> map_;
  std::map<int, std::string> back_map_;
};

/*! \brief int field: numeric, or an enum once add_enum is called. Defaults print quoted. */
template <>
class FieldEntry<int> : public FieldEntryNumeric<FieldEntry<int>, int> {
 public:
  typedef FieldEntryNumeric<FieldEntry<int>, int> Parent;
  /*! \brief Accept `key` as a spelling of `value` (turns the field into an enum). */
  FieldEntry<int>& add_enum(const std::string& key, int value) {
    enums_.Add(key, value);
    return this->self();
  }
  void Set(void* head, const std::string& value) const override {
    if (enums_.empty()) {
      Parent::Set(head, value);
    } else {
      this->Get(head) = enums_.Lookup(value, false);
    }
  }
  ParamFieldInfo GetFieldInfo() const override {
    if (enums_.empty()) return Parent::GetFieldInfo();
    ParamFieldInfo info;
    std::ostringstream os;
    info.name = key_;
    info.type = type_;
    enums_.Print(os, false);
    if (has_default_) {
      os << ',' << "optional, default=";
      PrintDefaultValueString(os);
    } else {
      os << ", required";
    }
    info.type_info_str = os.str();
    info.description = description_;
    return info;
  }

 protected:
  EnumTable enums_;
  void PrintValue(std::ostream& os, const int& value) const override {  // NOLINT(*)
    if (enums_.empty()) {
      os << value;
    } else {
      os << enums_.Name(value);
    }
  }
  void PrintDefaultValueString(std::ostream& os) const override {  // NOLINT(*)
    os << '\'';
    PrintValue(os, default_value_);
    os << '\'';
  }
};

/*! \brief optional<int> field: "None" or an int, or an enum once add_enum is called. */
template <>
class FieldEntry<optional<int>> : public FieldEntryBase<FieldEntry<optional<int>>, optional<int>> {
 public:
  typedef FieldEntryBase<FieldEntry<optional<int>>, optional<int>> Parent;
  FieldEntry<optional<int>>& add_enum(const std::string& key, int value) {
    enums_.Add(key, value);
    return this->self();
  }
  void Set(void* head, const std::string& value) const override {
    if (enums_.empty() || detail::Trim(value) == "None") {
      Parent::Set(head, value);
    } else {
      this->Get(head) = enums_.Lookup(value, true);
    }
  }
  ParamFieldInfo GetFieldInfo() const override {
    if (enums_.empty()) return Parent::GetFieldInfo();
    ParamFieldInfo info;
    std::ostringstream os;
    info.name = key_;
    info.type = type_;
    enums_.Print(os, true);
    if (has_default_) {
      os << ',' << "optional, default=";
      PrintDefaultValueString(os);
    } else {
      os << ", required";
    }
    info.type_info_str = os.str();
    info.description = description_;
    return info;
  }

 protected:
  EnumTable enums_;
  void PrintValue(std::ostream& os, const optional<int>& value) const override {  // NOLINT(*)
    if (enums_.empty() || !value.has_value()) {
      os << value;
    } else {
      os << enums_.Name(value.value());
    }
  }
  void PrintDefaultValueString(std::ostream& os) const override {  // NOLINT(*)
    os << '\'';
    PrintValue(os, default_value_);
    os << '\'';
  }
};

/*! \brief std::string field: taken verbatim; defaults print quoted. */
template <>
class FieldEntry<std::string> : public FieldEntryBase<FieldEntry<std::string>, std::string> {
 protected:
  void PrintDefaultValueString(std::ostream& os) const override {  // NOLINT(*)
    os << '\'' << default_value_ << '\'';
  }
};

/*! \brief TShape field: optional checks on ndim and non-zero dims. */
template <>
class FieldEntry<mxnet::TShape> : public FieldEntryBase<FieldEntry<mxnet::TShape>, mxnet::TShape> {
 public:
  /*! \brief Reject shapes with a zero dim. */
  FieldEntry<mxnet::TShape>& enforce_nonzero() {
    enforce_nonzero_ = true;
    return this->self();
  }
  /*! \brief Reject shapes whose ndim is not ndim (unless the shape is empty/unknown). */
  FieldEntry<mxnet::TShape>& set_expect_ndim(int ndim) {
    expect_ndim_ = ndim;
    return this->self();
  }
  void Check(void* head) const override {
    const mxnet::TShape& v = this->Get(head);
    if (expect_ndim_ != 0 && v.ndim() > 0 && v.ndim() != expect_ndim_) {
      std::ostringstream os;
      os << "value " << v << " for Parameter " << this->key_
         << " has wrong dimensions, expected dimension=" << expect_ndim_;
      throw dmlc::ParamError(os.str());
    }
    if (enforce_nonzero_) {
      for (int i = 0; i < v.ndim(); ++i) {
        if (v[i] == 0) {
          std::ostringstream os;
          os << "value " << v << " for Parameter " << this->key_
             << " is invalid, the input shape must be nonzero in all dimensions";
          throw dmlc::ParamError(os.str());
        }
      }
    }
  }

 private:
  bool enforce_nonzero_{false};
  int expect_ndim_{0};
};

// ---------------------------------------------------------------------------------------------
// Manager: the fields of one parameter struct
// ---------------------------------------------------------------------------------------------

/*! \brief All fields of one parameter struct, by declaration order and by name/alias. */
class ParamManager {
 public:
  ParamManager() = default;
  ParamManager(const ParamManager&) = delete;
  ParamManager& operator=(const ParamManager&) = delete;
  ~ParamManager() {
    for (FieldAccessEntry* e : entry_) delete e;
  }

  /*! \brief Field by name or alias, or nullptr. */
  FieldAccessEntry* Find(const std::string& key) const {
    auto it = entry_map_.find(key);
    return it == entry_map_.end() ? nullptr : it->second;
  }

  /*!
   * \brief Set fields from kwargs, then give every field not mentioned its default.
   * \param unknown_args if not null, unknown keys are appended here instead of being errors.
   */
  template <typename RandomAccessIterator>
  void RunInit(void* head, RandomAccessIterator begin, RandomAccessIterator end,
               std::vector<std::pair<std::string, std::string>>* unknown_args,
               ParamInitOption option) const {
    std::vector<bool> selected(entry_.size(), false);
    RunUpdate(head, begin, end, option, unknown_args, &selected);
    for (size_t i = 0; i < entry_.size(); ++i) {
      if (!selected[i]) entry_[i]->SetDefault(head);
    }
  }

  /*! \brief Set only the fields named in kwargs; returns whether any value changed. */
  template <typename RandomAccessIterator>
  bool RunUpdate(void* head, RandomAccessIterator begin, RandomAccessIterator end,
                 ParamInitOption option,
                 std::vector<std::pair<std::string, std::string>>* unknown_args,
                 std::vector<bool>* selected = nullptr) const {
    bool changed = false;
    for (RandomAccessIterator it = begin; it != end; ++it) {
      if (FieldAccessEntry* e = Find(it->first)) {
        std::string before = selected == nullptr ? e->GetStringValue(head) : std::string();
        e->Set(head, it->second);
        e->Check(head);
        if (selected != nullptr) {
          (*selected)[e->index_] = true;
          changed = true;
        } else if (e->GetStringValue(head) != before) {
          changed = true;
        }
      } else if (unknown_args != nullptr) {
        unknown_args->emplace_back(it->first, it->second);
      } else {
        HandleUnknown(it->first, option);
      }
    }
    return changed;
  }

  /*! \brief Register a field (takes ownership). */
  void AddEntry(const std::string& key, FieldAccessEntry* e) {
    e->index_ = entry_.size();
    if (entry_map_.count(key) != 0) {
      throw dmlc::ParamError("key " + key + " has already been registered in " + name_);
    }
    entry_.push_back(e);
    entry_map_[key] = e;
  }
  /*! \brief Make `alias` another name of `field`. */
  void AddAlias(const std::string& field, const std::string& alias) {
    FieldAccessEntry* e = Find(field);
    if (e == nullptr) {
      throw dmlc::ParamError("key " + field + " has not been registered in " + name_);
    }
    if (entry_map_.count(alias) != 0) {
      throw dmlc::ParamError("Alias " + alias + " has already been registered in " + name_);
    }
    entry_map_[alias] = e;
  }
  void set_name(const std::string& name) { name_ = name; }
  const std::string& name() const { return name_; }

  /*! \brief Field infos in declaration order. */
  std::vector<ParamFieldInfo> GetFieldInfo() const {
    std::vector<ParamFieldInfo> ret;
    ret.reserve(entry_.size());
    for (const FieldAccessEntry* e : entry_) ret.push_back(e->GetFieldInfo());
    return ret;
  }
  /*! \brief "name : type_info_str\n    description\n" for every field. */
  void PrintDocString(std::ostream& os) const {  // NOLINT(*)
    for (const FieldAccessEntry* e : entry_) {
      ParamFieldInfo info = e->GetFieldInfo();
      os << info.name << " : " << info.type_info_str << '\n';
      if (!info.description.empty()) os << "    " << info.description << '\n';
    }
  }
  /*! \brief Current values as strings. */
  std::vector<std::pair<std::string, std::string>> GetDict(void* head) const {
    std::vector<std::pair<std::string, std::string>> ret;
    for (const FieldAccessEntry* e : entry_) ret.emplace_back(e->key_, e->GetStringValue(head));
    return ret;
  }
  /*! \brief Overwrite (*dict)[field] with the current value of every field. */
  template <typename Container>
  void UpdateDict(void* head, Container* dict) const {
    for (const FieldAccessEntry* e : entry_) (*dict)[e->key_] = e->GetStringValue(head);
  }

 private:
  std::string name_;
  std::vector<FieldAccessEntry*> entry_;
  std::map<std::string, FieldAccessEntry*> entry_map_;

  void HandleUnknown(const std::string& key, ParamInitOption option) const {
    if (option == kAllowUnknown) return;
    if (option == kAllowHidden && key.length() > 4 && key.compare(0, 2, "__") == 0 &&
        key.compare(key.length() - 2, 2, "__") == 0) {
      return;
    }
    std::ostringstream os;
    os << "Cannot find argument '" << key << "', Possible Arguments:\n";
    os << "----------------\n";
    PrintDocString(os);
    throw dmlc::ParamError(os.str());
  }
};

/*! \brief Builds the manager of PType once, by running its __DECLARE__ on a scratch object. */
template <typename PType>
struct ParamManagerSingleton {
  ParamManager manager;
  explicit ParamManagerSingleton(const std::string& param_name) {
    PType param;
    manager.set_name(param_name);
    param.__DECLARE__(this);
  }
};

}  // namespace parameter

/*!
 * \brief CRTP base of parameter structs. PType declares its fields with
 *        DMLC_DECLARE_PARAMETER / DMLC_DECLARE_FIELD and is registered by
 *        DMLC_REGISTER_PARAMETER in one .cc file.
 */
template <typename PType>
struct Parameter {
 public:
  /*!
   * \brief Set fields from key/value pairs (any container of pairs of strings); fields not
   *        mentioned get their defaults. Throws ParamError (unknown key per option, malformed
   *        value, out of range, missing required field).
   */
  template <typename Container>
  void Init(const Container& kwargs,
            parameter::ParamInitOption option = parameter::kAllowHidden) {
    PType::__MANAGER__()->RunInit(head(), kwargs.begin(), kwargs.end(), nullptr, option);
  }
  /*! \brief Like Init, but unknown keys are returned instead of rejected. */
  template <typename Container>
  std::vector<std::pair<std::string, std::string>> InitAllowUnknown(const Container& kwargs) {
    std::vector<std::pair<std::string, std::string>> unknown;
    PType::__MANAGER__()->RunInit(head(), kwargs.begin(), kwargs.end(), &unknown,
                                  parameter::kAllowUnknown);
    return unknown;
  }
  /*!
   * \brief Set only the fields named in kwargs (others keep their values); unknown keys are
   *        returned. *out_changed tells whether any value changed.
   */
  template <typename Container>
  std::vector<std::pair<std::string, std::string>> UpdateAllowUnknown(const Container& kwargs,
                                                                      bool* out_changed = nullptr) {
    std::vector<std::pair<std::string, std::string>> unknown;
    bool changed = PType::__MANAGER__()->RunUpdate(head(), kwargs.begin(), kwargs.end(),
                                                   parameter::kAllowUnknown, &unknown, nullptr);
    if (out_changed != nullptr) *out_changed = changed;
    return unknown;
  }
  /*! \brief Write the current value of every field into *dict (map-like). */
  template <typename Container>
  void UpdateDict(Container* dict) const {
    PType::__MANAGER__()->UpdateDict(head(), dict);
  }
  /*! \brief Current values as strings, by field name. */
  std::map<std::string, std::string> __DICT__() const {
    auto vec = PType::__MANAGER__()->GetDict(head());
    return std::map<std::string, std::string>(vec.begin(), vec.end());
  }
  /*! \brief Write as a JSON object of strings. */
  void Save(JSONWriter* writer) const { writer->Write(this->__DICT__()); }
  /*! \brief Read a JSON object of strings and Init from it. */
  void Load(JSONReader* reader) {
    std::map<std::string, std::string> kwargs;
    reader->Read(&kwargs);
    this->Init(kwargs);
  }
  /*! \brief Field infos, declaration order. */
  static std::vector<ParamFieldInfo> __FIELDS__() { return PType::__MANAGER__()->GetFieldInfo(); }
  /*! \brief "name : type_info_str\n    description\n" per field. */
  static std::string __DOC__() {
    std::ostringstream os;
    PType::__MANAGER__()->PrintDocString(os);
    return os.str();
  }

 protected:
  /*! \brief Used by DMLC_DECLARE_FIELD: create the entry of field `ref`. */
  template <typename DType>
  parameter::FieldEntry<DType>& DECLARE(parameter::ParamManagerSingleton<PType>* manager,
                                        const std::string& key,
                                        DType& ref) {  // NOLINT(runtime/references)
    auto* e = new parameter::FieldEntry<DType>();
    e->Init(key, this->head(), ref);
    manager->manager.AddEntry(key, e);
    return *e;
  }

 private:
  PType* head() const { return static_cast<PType*>(const_cast<Parameter<PType>*>(this)); }
};

/*! \brief Declare the fields of PType: follow with a body of DMLC_DECLARE_FIELD statements. */
#define DMLC_DECLARE_PARAMETER(PType)                    \
  static ::dmlc::parameter::ParamManager* __MANAGER__(); \
  inline void __DECLARE__(::dmlc::parameter::ParamManagerSingleton<PType>* manager)

/*! \brief Declare a field; returns its entry for .set_default(...).describe(...) chaining. */
#define DMLC_DECLARE_FIELD(FieldName) this->DECLARE(manager, #FieldName, FieldName)

/*! \brief Make AliasName another accepted key for FieldName. */
#define DMLC_DECLARE_ALIAS(FieldName, AliasName) manager->manager.AddAlias(#FieldName, #AliasName)

/*! \brief Define PType's manager (once, in a .cc). */
#define DMLC_REGISTER_PARAMETER(PType)                                       \
  ::dmlc::parameter::ParamManager* PType::__MANAGER__() {                   \
    static ::dmlc::parameter::ParamManagerSingleton<PType> inst(#PType);    \
    return &inst.manager;                                                   \
  }                                                                         \
  static DMLC_ATTRIBUTE_UNUSED ::dmlc::parameter::ParamManager&             \
      __make__##PType##ParamManager__ = (*PType::__MANAGER__())

/*!
 * \brief The environment variable `key` parsed like a parameter of type ValueType, or
 *        default_value when unset or empty. Throws ParamError when malformed.
 */
template <typename ValueType>
inline ValueType GetEnv(const char* key, ValueType default_value) {
  const char* val = std::getenv(key);
  if (val == nullptr || *val == '\0') return default_value;
  ValueType ret = default_value;
  parameter::FieldEntry<ValueType> e;
  e.Init(key, &ret, ret);
  e.Set(&ret, val);
  return ret;
}

/*! \brief Set the environment variable `key` to the printed value. */
template <typename ValueType>
inline void SetEnv(const char* key, ValueType value) {
  std::ostringstream os;
  parameter::detail::Print(os, value);
  setenv(key, os.str().c_str(), 1);
}

}  // namespace dmlc

#endif  // DMLC_PARAMETER_H_
