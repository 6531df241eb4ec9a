// Helpers shared by the libFuzzer targets: inputs become files without touching the disk, and
// every call goes through the public C API, as a user's program would make it.
#ifndef MXNET_TESTS_FUZZ_FUZZ_UTIL_H_
#define MXNET_TESTS_FUZZ_FUZZ_UTIL_H_

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

// The bytes as a file in memory; path() names it for APIs that take a file name.
class MemoryFile {
 public:
  MemoryFile(const uint8_t* data, size_t size) : fd_(memfd_create("fuzz_input", 0)) {
    if (fd_ < 0) abort();
    for (size_t done = 0; done < size;) {
      ssize_t n = write(fd_, data + done, size - done);
      if (n <= 0) abort();
      done += static_cast<size_t>(n);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~MemoryFile() { close(fd_); }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  const char* path() const { return path_.c_str(); }

 private:
  int fd_;
  std::string path_;
};

// A failed call is an expected outcome; an error without a message is a defect.
inline void ExpectMessageOnFailure(int rc, const char* (*last_error)()) {
  if (rc != 0) {
    const char* msg = last_error();
    if (msg == nullptr || msg[0] == '\0') abort();
  }
}

#endif  // MXNET_TESTS_FUZZ_FUZZ_UTIL_H_
