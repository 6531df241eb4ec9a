// Reshape's special dimension codes, shared by the Reshape operator and MXNDArrayReshape64.
#include <mxnet/ndarray.h>

#include <algorithm>
#include <sstream>

namespace mxnet {

namespace {

[[noreturn]] void BadReshape(const TShape& src, const TShape& target, const std::string& why) {
  std::ostringstream os;
  os << "Reshape: cannot reshape array of shape " << src << " with shape=" << target << ": "
     << why;
  throw ValueError(os.str());
}

}  // namespace

TShape InferReshapeShape(const TShape& src, const TShape& target, bool reverse) {
  std::vector<int64_t> in(src.begin(), src.end());
  std::vector<int64_t> codes(target.begin(), target.end());
  if (reverse) {
    std::reverse(in.begin(), in.end());
    std::reverse(codes.begin(), codes.end());
  }
  const int64_t ndim = static_cast<int64_t>(in.size());
  std::vector<int64_t> out;
  int64_t src_idx = 0;
  int64_t infer_idx = -1;
  auto next_src = [&](const char* code) {
    if (src_idx >= ndim) {
      BadReshape(src, target, std::string("code ") + code + " refers past the last input dimension");
    }
    return in[src_idx++];
  };
  for (size_t i = 0; i < codes.size(); ++i) {
    const int64_t code = codes[i];
    if (code == 0) {
      out.push_back(next_src("0"));
    } else if (code == -1) {
      if (infer_idx >= 0) BadReshape(src, target, "more than one -1");
      infer_idx = static_cast<int64_t>(out.size());
      out.push_back(1);
      ++src_idx;
    } else if (code == -2) {
      while (src_idx < ndim) out.push_back(in[src_idx++]);
    } else if (code == -3) {
      const int64_t d1 = next_src("-3");
      const int64_t d2 = next_src("-3");
      out.push_back(d1 * d2);
    } else if (code == -4) {
      const int64_t d0 = next_src("-4");
      if (i + 2 >= codes.size()) BadReshape(src, target, "-4 must be followed by two values");
      int64_t d1 = codes[++i];
      int64_t d2 = codes[++i];
      if (d1 == -1 && d2 == -1) BadReshape(src, target, "-4 split with two -1 values");
      if (d1 < -1 || d2 < -1 || d1 == 0 || d2 == 0) {
        BadReshape(src, target, "-4 split values must be positive or -1");
      }
      if (d1 == -1) d1 = d0 / d2;
      if (d2 == -1) d2 = d0 / d1;
      if (d1 * d2 != d0) {
        BadReshape(src, target, "split of dimension " + std::to_string(d0) + " into " +
                                    std::to_string(d1) + " x " + std::to_string(d2));
      }
      out.push_back(d1);
      out.push_back(d2);
    } else if (code > 0) {
      out.push_back(code);
      ++src_idx;
    } else {
      BadReshape(src, target, "invalid code " + std::to_string(code));
    }
  }
  const int64_t total = static_cast<int64_t>(src.Size());
  if (infer_idx >= 0) {
    int64_t known = 1;
    for (size_t i = 0; i < out.size(); ++i) {
      if (static_cast<int64_t>(i) != infer_idx) known *= out[i];
    }
    if (known == 0 || total % known != 0) {
      BadReshape(src, target, "cannot infer the -1 dimension from " + std::to_string(total) +
                                  " elements");
    }
    out[infer_idx] = total / known;
  }
  if (reverse) std::reverse(out.begin(), out.end());
  TShape result(out.begin(), out.end());
  if (static_cast<int64_t>(result.Size()) != total) {
    std::ostringstream os;
    os << "the new shape " << result << " has " << result.Size() << " elements, the array has "
       << total;
    BadReshape(src, target, os.str());
  }
  return result;
}

}  // namespace mxnet
