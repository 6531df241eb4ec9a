// Thread-local last-error storage behind MXGetLastError / NNGetLastError.
#include <mxnet/c_api.h>

#include <new>

#include "c_api_common.h"

namespace mxnet {
namespace c_api {

namespace {
thread_local std::string last_error;
thread_local std::string last_error_type;

bool IsTypeNameChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.';
}
}  // namespace

void SetLastError(const std::string& msg) {
  last_error = msg;
  // A frontend sets "<Type>: message" (a callback's exception): keep its type name.
  size_t n = 0;
  while (n < msg.size() && IsTypeNameChar(msg[n])) ++n;
  const bool typed = n > 0 && msg.compare(n, 2, ": ") == 0;
  last_error_type = typed ? msg.substr(0, n) : "MXNetError";
}

void SetLastErrorFromException(const std::exception& e) {
  const char* type = "MXNetError";
  if (auto* err = dynamic_cast<const dmlc::Error*>(&e)) {
    type = err->type_name();
  } else if (dynamic_cast<const std::bad_alloc*>(&e)) {
    type = "MemoryError";
  } else if (dynamic_cast<const std::out_of_range*>(&e)) {
    type = "IndexError";
  } else if (dynamic_cast<const std::invalid_argument*>(&e)) {
    type = "ValueError";
  }
  last_error_type = type;
  std::string msg = e.what();
  // Keep an explicit "Type: " prefix the message already carries (e.g. from a nested wrap).
  const std::string prefix = std::string(type) + ": ";
  if (msg.compare(0, prefix.size(), prefix) == 0) {
    last_error = msg;
  } else {
    last_error = prefix + msg;
  }
}

const char* LastErrorCStr() { return last_error.c_str(); }
const char* LastErrorTypeCStr() { return last_error_type.c_str(); }

namespace {
thread_local const char* current_function = "";
}  // namespace

const char* CurrentFunction() { return current_function; }

FunctionScope::FunctionScope(const char* name) : previous_(current_function) {
  current_function = name;
}

FunctionScope::~FunctionScope() { current_function = previous_; }

void ThrowNullHandle(const std::string& what) {
  const std::string function = current_function;
  throw dmlc::ValueError((function.empty() ? "" : function + ": ") + what + " is NULL");
}

ThreadLocalReturn* GetThreadLocalReturn() {
  static thread_local ThreadLocalReturn ret;
  return &ret;
}

}  // namespace c_api
}  // namespace mxnet

const char* MXGetLastError() { return mxnet::c_api::LastErrorCStr(); }

const char* NNGetLastError() { return mxnet::c_api::LastErrorCStr(); }

const char* MXGetLastErrorType() { return mxnet::c_api::LastErrorTypeCStr(); }

void NNAPISetLastError(const char* msg) { mxnet::c_api::SetLastError(msg ? msg : ""); }

void MXAPISetLastError(const char* msg) { mxnet::c_api::SetLastError(msg ? msg : ""); }
