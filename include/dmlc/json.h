/*!
 * \file dmlc/json.h
 * \brief A small JSON writer/reader for parameters and graph files: objects, arrays, strings
 *        (with escapes), numbers, bools, std::vector, std::map/unordered_map with string keys,
 *        std::pair, and any type with Save(JSONWriter*) / Load(JSONReader*).
 *
 *   std::ostringstream os;
 *   dmlc::JSONWriter w(&os);
 *   w.BeginObject();
 *   w.WriteObjectKeyValue("name", std::string("fc1"));
 *   w.WriteObjectKeyValue("shape", std::vector<int>{2, 3});
 *   w.EndObject();
 *
 *   std::istringstream is(os.str());
 *   dmlc::JSONReader r(&is);
 *   std::string key;
 *   r.BeginObject();
 *   while (r.NextObjectItem(&key)) { if (key == "name") r.Read(&name); else r.Read(&shape); }
 *
 * Layout follows dmlc-core (same line breaks and ", " separators), so files look like MXNet's.
 */
#ifndef DMLC_JSON_H_
#define DMLC_JSON_H_

#include <dmlc/logging.h>
#include <dmlc/type_traits.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <istream>
#include <limits>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dmlc {

namespace json_detail {
template <typename T> struct is_vector : std::false_type {};
template <typename T, typename A> struct is_vector<std::vector<T, A>> : std::true_type {};
template <typename T> struct is_str_map : std::false_type {};
template <typename V, typename C, typename A>
struct is_str_map<std::map<std::string, V, C, A>> : std::true_type {};
template <typename V, typename H, typename E, typename A>
struct is_str_map<std::unordered_map<std::string, V, H, E, A>> : std::true_type {};
template <typename T> struct is_pair : std::false_type {};
template <typename A, typename B> struct is_pair<std::pair<A, B>> : std::true_type {};
}  // namespace json_detail

/*! \brief Streams JSON to an std::ostream. */
class JSONWriter {
 public:
  explicit JSONWriter(std::ostream* os) : os_(os) {}

  /*! \brief A quoted, escaped string. */
  void WriteString(const std::string& s) {
    std::ostream& os = *os_;
    os << '"';
    for (char c : s) {
      switch (c) {
        case '"': os << "\\\""; break;
        case '\\': os << "\\\\"; break;
        case '\n': os << "\\n"; break;
        case '\r': os << "\\r"; break;
        case '\t': os << "\\t"; break;
        case '\b': os << "\\b"; break;
        case '\f': os << "\\f"; break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned char>(c));
            os << buf;
          } else {
            os << c;
          }
      }
    }
    os << '"';
  }
  /*! \brief A number (integers exactly, floats with round-trip precision). */
  template <typename T>
  void WriteNumber(const T& v) {
    if constexpr (std::is_floating_point<T>::value) {
      std::streamsize prec = os_->precision();
      *os_ << std::setprecision(std::numeric_limits<T>::max_digits10) << v
           << std::setprecision(prec);
    } else if constexpr (sizeof(T) == 1) {
      *os_ << static_cast<int>(v);
    } else {
      *os_ << v;
    }
  }
  void BeginArray(bool multi_line = true) {
    *os_ << '[';
    scope_multi_line_.push_back(multi_line);
    scope_counter_.push_back(0);
  }
  void EndArray() { EndScope(']'); }
  void BeginObject(bool multi_line = true) {
    *os_ << '{';
    scope_multi_line_.push_back(multi_line);
    scope_counter_.push_back(0);
  }
  void EndObject() { EndScope('}'); }
  /*! \brief "key": value inside an object. */
  template <typename ValueType>
  void WriteObjectKeyValue(const std::string& key, const ValueType& value) {
    CHECK(!scope_counter_.empty()) << "JSONWriter: WriteObjectKeyValue outside an object";
    if (scope_counter_.back() > 0) *os_ << ", ";
    WriteSeperator();
    WriteString(key);
    *os_ << ": ";
    scope_counter_.back() += 1;
    Write(value);
  }
  /*! \brief Separator before the next array item (use when writing an item by hand). */
  void WriteArraySeperator() {
    CHECK(!scope_counter_.empty()) << "JSONWriter: array item outside an array";
    if (scope_counter_.back() != 0) *os_ << ", ";
    scope_counter_.back() += 1;
    WriteSeperator();
  }
  template <typename ValueType>
  void WriteArrayItem(const ValueType& value) {
    WriteArraySeperator();
    Write(value);
  }
  /*! \brief Any supported value. */
  template <typename ValueType>
  void Write(const ValueType& value) {
    if constexpr (std::is_same<ValueType, std::string>::value) {
      WriteString(value);
    } else if constexpr (std::is_same<ValueType, bool>::value) {
      *os_ << (value ? "true" : "false");
    } else if constexpr (std::is_arithmetic<ValueType>::value) {
      WriteNumber(value);
    } else if constexpr (json_detail::is_vector<ValueType>::value) {
      typedef typename ValueType::value_type T;
      BeginArray(value.size() > 10 || !(std::is_arithmetic<T>::value));
      for (const auto& v : value) WriteArrayItem(v);
      EndArray();
    } else if constexpr (json_detail::is_str_map<ValueType>::value) {
      BeginObject(value.size() > 1);
      for (const auto& kv : value) WriteObjectKeyValue(kv.first, kv.second);
      EndObject();
    } else if constexpr (json_detail::is_pair<ValueType>::value) {
      BeginArray(false);
      WriteArrayItem(value.first);
      WriteArrayItem(value.second);
      EndArray();
    } else {
      value.Save(this);
    }
  }

 private:
  std::ostream* os_;
  std::vector<size_t> scope_counter_;
  std::vector<bool> scope_multi_line_;

  void WriteSeperator() {
    if (scope_multi_line_.empty() || scope_multi_line_.back()) {
      *os_ << '\n' << std::string(scope_multi_line_.size() * 2, ' ');
    }
  }
  void EndScope(char close) {
    CHECK(!scope_counter_.empty()) << "JSONWriter: unbalanced End";
    bool newline = scope_multi_line_.back();
    size_t nelem = scope_counter_.back();
    scope_multi_line_.pop_back();
    scope_counter_.pop_back();
    if (newline && nelem != 0) WriteSeperator();
    *os_ << close;
  }
};

/*! \brief Reads JSON from an std::istream; errors throw dmlc::Error with the line number. */
class JSONReader {
 public:
  explicit JSONReader(std::istream* is) : is_(is) {}

  void ReadString(std::string* out_str) {
    int ch = NextNonSpace();
    if (ch != '"') Fail("expected a string");
    std::string& s = *out_str;
    s.clear();
    while (true) {
      ch = NextChar();
      if (ch == EOF) Fail("unterminated string");
      if (ch == '"') break;
      if (ch != '\\') {
        s.push_back(static_cast<char>(ch));
        continue;
      }
      ch = NextChar();
      switch (ch) {
        case '"': s.push_back('"'); break;
        case '\\': s.push_back('\\'); break;
        case '/': s.push_back('/'); break;
        case 'n': s.push_back('\n'); break;
        case 'r': s.push_back('\r'); break;
        case 't': s.push_back('\t'); break;
        case 'b': s.push_back('\b'); break;
        case 'f': s.push_back('\f'); break;
        case 'u': AppendUtf8(ReadHex4(), &s); break;
        default: Fail("unknown string escape");
      }
    }
  }
  template <typename ValueType>
  void ReadNumber(ValueType* out_value) {
    NextNonSpace(false);
    std::string tok;
    while (true) {
      int ch = is_->peek();
      if (ch == EOF || !(std::isalnum(ch) || ch == '-' || ch == '+' || ch == '.')) break;
      tok.push_back(static_cast<char>(is_->get()));
    }
    std::istringstream ss(tok);
    ss.imbue(std::locale::classic());
    if constexpr (sizeof(ValueType) == 1 && std::is_integral<ValueType>::value) {
      int v;
      ss >> v;
      *out_value = static_cast<ValueType>(v);
    } else {
      ss >> *out_value;
    }
    if (ss.fail() || ss.peek() != EOF) Fail("expected a number, got '" + tok + "'");
  }
  void BeginObject() {
    if (NextNonSpace() != '{') Fail("expected '{'");
    scope_counter_.push_back(0);
  }
  void BeginArray() {
    if (NextNonSpace() != '[') Fail("expected '['");
    scope_counter_.push_back(0);
  }
  /*! \brief Advance to the next key of the current object; false at its end. */
  bool NextObjectItem(std::string* out_key) {
    if (!NextItem('}')) return false;
    ReadString(out_key);
    if (NextNonSpace() != ':') Fail("expected ':'");
    return true;
  }
  /*! \brief Advance to the next item of the current array; false at its end. */
  bool NextArrayItem() { return NextItem(']'); }
  /*! \brief Any supported value. */
  template <typename ValueType>
  void Read(ValueType* out_value) {
    if constexpr (std::is_same<ValueType, std::string>::value) {
      ReadString(out_value);
    } else if constexpr (std::is_same<ValueType, bool>::value) {
      std::string tok;
      NextNonSpace(false);
      while (std::isalpha(is_->peek())) tok.push_back(static_cast<char>(is_->get()));
      if (tok == "true") {
        *out_value = true;
      } else if (tok == "false") {
        *out_value = false;
      } else {
        Fail("expected true or false");
      }
    } else if constexpr (std::is_arithmetic<ValueType>::value) {
      ReadNumber(out_value);
    } else if constexpr (json_detail::is_vector<ValueType>::value) {
      out_value->clear();
      BeginArray();
      while (NextArrayItem()) {
        typename ValueType::value_type v;
        Read(&v);
        out_value->push_back(std::move(v));
      }
    } else if constexpr (json_detail::is_str_map<ValueType>::value) {
      out_value->clear();
      BeginObject();
      std::string key;
      while (NextObjectItem(&key)) {
        typename ValueType::mapped_type v;
        Read(&v);
        (*out_value)[key] = std::move(v);
      }
    } else if constexpr (json_detail::is_pair<ValueType>::value) {
      BeginArray();
      if (!NextArrayItem()) Fail("expected a pair");
      Read(&out_value->first);
      if (!NextArrayItem()) Fail("expected a pair");
      Read(&out_value->second);
      if (NextArrayItem()) Fail("expected a pair");
    } else {
      out_value->Load(this);
    }
  }
  /*! \brief Skip one value of any kind. */
  void SkipValue() {
    int ch = NextNonSpace(false);
    if (ch == '"') {
      std::string s;
      ReadString(&s);
    } else if (ch == '{') {
      BeginObject();
      std::string key;
      while (NextObjectItem(&key)) SkipValue();
    } else if (ch == '[') {
      BeginArray();
      while (NextArrayItem()) SkipValue();
    } else {
      while (true) {
        int c = is_->peek();
        if (c == EOF || !(std::isalnum(c) || c == '-' || c == '+' || c == '.')) break;
        is_->get();
      }
    }
  }
  /*! \brief Line number, for error messages. */
  size_t line_count() const { return std::max(line_count_r_, line_count_n_) + 1; }

 private:
  std::istream* is_;
  size_t line_count_r_{0}, line_count_n_{0};
  std::vector<size_t> scope_counter_;

  [[noreturn]] void Fail(const std::string& what) {
    std::ostringstream os;
    os << "JSON parse error at line " << line_count() << ": " << what;
    throw dmlc::Error(os.str());
  }
  int NextChar() {
    int ch = is_->get();
    if (ch == '\n') ++line_count_n_;
    if (ch == '\r') ++line_count_r_;
    return ch;
  }
  /*! \brief Skip whitespace; consume and return the next char (or only peek it). */
  int NextNonSpace(bool consume = true) {
    while (std::isspace(is_->peek())) NextChar();
    return consume ? NextChar() : is_->peek();
  }
  bool NextItem(char close) {
    CHECK(!scope_counter_.empty()) << "JSONReader: item read outside an object/array";
    if (scope_counter_.back() != 0) {
      int ch = NextNonSpace();
      if (ch == close) {
        scope_counter_.pop_back();
        return false;
      }
      if (ch != ',') Fail(std::string("expected ',' or '") + close + "'");
    } else if (NextNonSpace(false) == close) {
      NextChar();
      scope_counter_.pop_back();
      return false;
    }
    scope_counter_.back() += 1;
    return true;
  }
  unsigned ReadHex4() {
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      int ch = NextChar();
      if (!std::isxdigit(ch)) Fail("bad \\u escape");
      v = v * 16 + static_cast<unsigned>(std::isdigit(ch) ? ch - '0' : (std::tolower(ch) - 'a' + 10));
    }
    return v;
  }
  void AppendUtf8(unsigned cp, std::string* s) {
    if (cp >= 0xD800 && cp <= 0xDBFF) {  // surrogate pair
      if (NextChar() != '\\' || NextChar() != 'u') Fail("bad surrogate pair");
      unsigned lo = ReadHex4();
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
    if (cp < 0x80) {
      s->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      s->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      s->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      s->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }
};

/*!
 * \brief Reads an object into declared fields:
 *   JSONObjectReadHelper h;
 *   h.DeclareField("nodes", &nodes);
 *   h.DeclareOptionalField("attrs", &attrs);
 *   h.ReadAllFields(reader);   // unknown keys are an error; missing required ones too
 */
class JSONObjectReadHelper {
 public:
  template <typename T>
  void DeclareField(const std::string& key, T* addr) {
    DeclareFieldInternal(key, addr, false);
  }
  template <typename T>
  void DeclareOptionalField(const std::string& key, T* addr) {
    DeclareFieldInternal(key, addr, true);
  }
  void ReadAllFields(JSONReader* reader) {
    reader->BeginObject();
    std::map<std::string, int> visited;
    std::string key;
    while (reader->NextObjectItem(&key)) {
      auto it = map_.find(key);
      if (it == map_.end()) {
        throw dmlc::Error("JSONReader: unknown field " + key);
      }
      it->second.read(reader);
      visited[key] = 0;
    }
    for (const auto& kv : map_) {
      if (!kv.second.optional && visited.count(kv.first) == 0) {
        throw dmlc::Error("JSONReader: missing field \"" + kv.first + "\"");
      }
    }
  }

 private:
  struct Entry {
    std::function<void(JSONReader*)> read;
    bool optional;
  };
  std::map<std::string, Entry> map_;
  template <typename T>
  void DeclareFieldInternal(const std::string& key, T* addr, bool optional) {
    CHECK_EQ(map_.count(key), 0U) << "Adding duplicate field " << key;
    map_[key] = Entry{[addr](JSONReader* r) { r->Read(addr); }, optional};
  }
};

}  // namespace dmlc

#endif  // DMLC_JSON_H_
