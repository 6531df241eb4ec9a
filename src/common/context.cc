// Context parsing and device queries.
#include <mxnet/base.h>

#include <cctype>
#include <cstdlib>

namespace mxnet {

Context Context::FromString(const std::string& str) {
  const auto open = str.find('(');
  const auto close = str.find(')');
  if (open == std::string::npos || close == std::string::npos || close < open + 2 ||
      close + 1 != str.size()) {
    MX_THROW(ValueError) << "Invalid context string '" << str
                         << "': expected the form cpu(0), gpu(1), cpu_pinned(0) or cpu_shared(0)";
  }
  const std::string type = str.substr(0, open);
  const std::string id = str.substr(open + 1, close - open - 1);
  for (char c : id) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      MX_THROW(ValueError) << "Invalid device id '" << id << "' in context string '" << str << "'";
    }
  }
  const int dev_id = std::atoi(id.c_str());
  if (type == "cpu") return CPU(dev_id);
  if (type == "gpu") return GPU(dev_id);
  if (type == "cpu_pinned") return CPUPinned(dev_id);
  if (type == "cpu_shared") return CPUShared(dev_id);
  throw ValueError("Invalid device type '" + type + "' in context string '" + str +
                   "': expected cpu, gpu, cpu_pinned or cpu_shared");
}

}  // namespace mxnet
