/*!
 * \file dmlc/logging.h
 * \brief Errors, CHECK macros and LOG streams with the dmlc names operator code uses.
 *
 * LOG(FATAL) and every failed CHECK throw (never abort): the C API boundary catches the
 * exception, stores its text as the thread's last error and returns -1.
 *
 *   CHECK_EQ(lhs.ndim(), 2) << "FullyConnected: expected 2-D weight, got " << lhs;
 *   LOG(FATAL) << "unknown engine " << name;
 *
 * Typed errors (ValueError, TypeError, ...) carry the Python exception class they map to, so
 * the frontend picks it from the C++ type, not by parsing text:
 *
 *   throw mxnet::ValueError("Reshape: expected 6 elements, got 8");
 */
#ifndef DMLC_LOGGING_H_
#define DMLC_LOGGING_H_

#include <cstdlib>
#include <exception>
#include <memory>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace dmlc {

/*! \brief Base of every error raised by the library. `type_name()` is the Python class. */
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& msg) : std::runtime_error(msg) {}
  virtual const char* type_name() const { return "MXNetError"; }
};

/*! \brief Raised by the parameter layer (unknown, malformed or out-of-range kwargs). */
class ParamError : public Error {
 public:
  explicit ParamError(const std::string& msg) : Error(msg) {}
};

#define DMLC_DEFINE_TYPED_ERROR(Name)                                  \
  class Name : public ::dmlc::Error {                                  \
   public:                                                             \
    explicit Name(const std::string& msg) : ::dmlc::Error(msg) {}      \
    const char* type_name() const override { return #Name; }           \
  };

DMLC_DEFINE_TYPED_ERROR(ValueError)
DMLC_DEFINE_TYPED_ERROR(TypeError)
DMLC_DEFINE_TYPED_ERROR(IndexError)
DMLC_DEFINE_TYPED_ERROR(AttributeError)
DMLC_DEFINE_TYPED_ERROR(NotImplementedError)
/*! \brief A broken internal invariant: a bug in the library, not in the caller's input. */
DMLC_DEFINE_TYPED_ERROR(InternalError)

/*!
 * \brief An error rethrown with more context (the operator it came from, say). It keeps the
 *        Python type of the error it replaces, so callers still see ValueError, TypeError, ...
 */
class ContextError : public Error {
 public:
  ContextError(const std::string& msg, const char* type_name) : Error(msg), type_(type_name) {}
  const char* type_name() const override { return type_; }

 private:
  const char* type_;  // type_name() of the original: a string literal
};

/*!
 * \brief Rethrows `e` (the exception being handled) with "Operator <op>: " in front of its
 *        message, unless the message already names `op`. Call it only from a catch block.
 */
[[noreturn]] inline void RethrowNamingOperator(const Error& e, const std::string& op) {
  const std::string msg = e.what();
  if (op.empty() || msg.find(op) != std::string::npos) throw;
  throw ContextError("Operator " + op + ": " + msg, e.type_name());
}

/*!
 * \brief Collects a message with operator<< and throws ErrorT when destroyed.
 * Used by LOG(FATAL) and the CHECK macros; the throwing destructor is intended.
 */
template <typename ErrorT>
class ThrowingMessage {
 public:
  ThrowingMessage() : pending_(std::uncaught_exceptions()) {}
  explicit ThrowingMessage(const std::string& prefix) : ThrowingMessage() { stream_ << prefix; }
  std::ostringstream& stream() { return stream_; }
  ~ThrowingMessage() noexcept(false) {
    // If building the message itself threw, let that exception go on instead of terminating.
    if (std::uncaught_exceptions() > pending_) return;
    throw ErrorT(stream_.str());
  }

 private:
  std::ostringstream stream_;
  int pending_;
};

/*! \brief LOG(INFO)/LOG(WARNING)/LOG(ERROR): one line on stderr. */
class LogMessage {
 public:
  LogMessage(const char* file, int line, const char* level) {
    stream_ << "[" << level << "] " << file << ":" << line << ": ";
  }
  ~LogMessage() { std::cerr << stream_.str() << std::endl; }
  std::ostringstream& stream() { return stream_; }

 private:
  std::ostringstream stream_;
};

/*! \brief Swallows a stream expression (for disabled DLOG). */
class LogMessageVoidify {
 public:
  void operator&(std::ostream&) {}
};

template <typename X, typename Y>
inline std::string* CheckOpFailure(const char* expr, const X& x, const Y& y) {
  std::ostringstream os;
  os << "Check failed: " << expr << " (" << x << " vs. " << y << ") ";
  return new std::string(os.str());
}

}  // namespace dmlc

namespace mxnet {
using dmlc::AttributeError;
using dmlc::IndexError;
using dmlc::InternalError;
using dmlc::NotImplementedError;
using dmlc::TypeError;
using dmlc::ValueError;
}  // namespace mxnet

#define DMLC_LOG_FATAL ::dmlc::ThrowingMessage<::dmlc::Error>().stream()
#define DMLC_LOG_INFO ::dmlc::LogMessage(__FILE__, __LINE__, "INFO").stream()
#define DMLC_LOG_WARNING ::dmlc::LogMessage(__FILE__, __LINE__, "WARNING").stream()
#define DMLC_LOG_ERROR ::dmlc::LogMessage(__FILE__, __LINE__, "ERROR").stream()
#define DMLC_LOG_DFATAL DMLC_LOG_FATAL
#define LOG(severity) DMLC_LOG_##severity
#define LOG_IF(severity, cond) \
  !(cond) ? (void)0 : ::dmlc::LogMessageVoidify() & LOG(severity)

/*! \brief Throw ErrorT (a typed error) with the streamed message: THROW(ValueError) << "...". */
#define MX_THROW(ErrorT) ::dmlc::ThrowingMessage<ErrorT>().stream()

#define CHECK(cond)                                                    \
  if (__builtin_expect(!!(cond), 1)) {                                 \
  } else                                                               \
    ::dmlc::ThrowingMessage<::dmlc::Error>("Check failed: " #cond ": ").stream()

#define DMLC_CHECK_BINARY_OP(name, op, x, y)                                     \
  if (__builtin_expect(!!((x)op(y)), 1)) {                                       \
  } else                                                                         \
    ::dmlc::ThrowingMessage<::dmlc::Error>(                                         \
      [&]() {                                                                    \
        std::unique_ptr<std::string> m(::dmlc::CheckOpFailure(#x " " #op " " #y, \
                                                              (x), (y)));        \
        return *m + ": ";                                                        \
      }())                                                                       \
      .stream()

#define CHECK_LT(x, y) DMLC_CHECK_BINARY_OP(_LT, <, x, y)
#define CHECK_GT(x, y) DMLC_CHECK_BINARY_OP(_GT, >, x, y)
#define CHECK_LE(x, y) DMLC_CHECK_BINARY_OP(_LE, <=, x, y)
#define CHECK_GE(x, y) DMLC_CHECK_BINARY_OP(_GE, >=, x, y)
#define CHECK_EQ(x, y) DMLC_CHECK_BINARY_OP(_EQ, ==, x, y)
#define CHECK_NE(x, y) DMLC_CHECK_BINARY_OP(_NE, !=, x, y)
#define CHECK_NOTNULL(x) \
  ((x) == nullptr ? (LOG(FATAL) << "Check notnull: " #x << ' ', (x)) : (x))

#ifdef NDEBUG
#define DCHECK(x) \
  while (false) CHECK(x)
#define DCHECK_LT(x, y) \
  while (false) CHECK((x) < (y))
#define DCHECK_GT(x, y) \
  while (false) CHECK((x) > (y))
#define DCHECK_LE(x, y) \
  while (false) CHECK((x) <= (y))
#define DCHECK_GE(x, y) \
  while (false) CHECK((x) >= (y))
#define DCHECK_EQ(x, y) \
  while (false) CHECK((x) == (y))
#define DCHECK_NE(x, y) \
  while (false) CHECK((x) != (y))
#else
#define DCHECK(x) CHECK(x)
#define DCHECK_LT(x, y) CHECK_LT(x, y)
#define DCHECK_GT(x, y) CHECK_GT(x, y)
#define DCHECK_LE(x, y) CHECK_LE(x, y)
#define DCHECK_GE(x, y) CHECK_GE(x, y)
#define DCHECK_EQ(x, y) CHECK_EQ(x, y)
#define DCHECK_NE(x, y) CHECK_NE(x, y)
#endif

#endif  // DMLC_LOGGING_H_
