// Loading an operator library: dlopen, interface version, initialize, validation, registration.
#include "extension_library.h"

#include <dlfcn.h>
#include <dmlc/logging.h>
#include <mxnet/base.h>
#include <nnvm/op.h>
#include <elf.h>
#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <unordered_set>

namespace mxnet {
namespace ext_loader {

namespace {

/*! \brief Libraries and operators loaded so far; they live until the process exits. */
struct LoadedState {
  std::mutex mutex;
  std::vector<std::unique_ptr<ExtLibrary>> libraries;
  std::vector<std::unique_ptr<ExtOp>> ops;
  /*! \brief op name -> library path, for ops registered from libraries. */
  std::unordered_map<std::string, std::string> op_owner;
};

LoadedState* State() {
  static LoadedState* state = new LoadedState();  // never destroyed: ops reference it
  return state;
}

bool HasBit(int32_t mask, int dev) { return (mask & (1 << dev)) != 0; }

/*! \brief Why `op` cannot be registered, or "" if it can. */
std::string ValidateOp(const MXExtOpInfo& info) {
  const std::string name = info.name == nullptr ? "" : info.name;
  std::ostringstream os;
  if (name.empty()) return "an operator has an empty name";
  if (info.registration_error != nullptr) {
    os << "Error loading '" << name << "' custom op: " << info.registration_error;
    return os.str();
  }
  if (info.is_subgraph_op) {
    os << "Error loading '" << name
       << "' custom op: subgraph operators (setIsSubgraphOp) are not supported by this MXNet";
    return os.str();
  }
  const char* missing = !info.has_parse_attrs ? "ParseAttrs"
                        : !info.has_infer_type ? "InferType"
                        : !info.has_infer_shape ? "InferShape"
                        : (info.forward_devs == 0 && info.create_state_devs == 0)
                            ? "Forward or CreateOpState"
                            : nullptr;
  if (missing != nullptr) {
    os << "Error loading '" << name << "' custom op, " << missing << " function was not set.";
    return os.str();
  }
  return "";
}

}  // namespace

std::string ExtLibrary::TakeMessages() const {
  const int32_t n = api->message_count();
  if (n <= 0) return "";
  std::ostringstream os;
  os << "\nExtension Traceback:";
  for (int32_t i = 0; i < n; ++i) {
    const char* msg = api->message_get(i);
    os << "\n\t[" << i << "] " << (msg == nullptr ? "" : msg);
  }
  api->message_clear();
  return os.str();
}

std::vector<std::string> ListExtensionOps() {
  LoadedState* st = State();
  std::lock_guard<std::mutex> lock(st->mutex);
  std::vector<std::string> names;
  for (const auto& op : st->ops) names.push_back(op->name);
  return names;
}

namespace {

/*!
 * \brief Refuses a file dlopen would map beyond its end (a truncated library makes the loader
 *        fault on the missing pages with SIGBUS): the ELF header, its program and section
 *        tables and every loaded segment must lie inside the file.
 */
void CheckElfFile(const std::string& path, uint64_t size) {
  std::ifstream in(path, std::ios::binary);
  Elf64_Ehdr eh;
  auto fail = [&](const std::string& why) {
    MX_THROW(ValueError) << "Error loading library: '" << path << "' is not a loadable "
                         << "library: " << why;
  };
  if (!in.read(reinterpret_cast<char*>(&eh), sizeof(eh))) fail("shorter than an ELF header");
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) fail("not an ELF file");
  if (eh.e_ident[EI_CLASS] != ELFCLASS64) fail("not a 64-bit ELF file");
  auto inside = [&](uint64_t offset, uint64_t count, uint64_t entry) {
    return offset <= size && (entry == 0 || count <= (size - offset) / entry);
  };
  if (eh.e_phentsize != sizeof(Elf64_Phdr) || !inside(eh.e_phoff, eh.e_phnum, eh.e_phentsize)) {
    fail("its program header table lies outside the file (truncated?)");
  }
  if (eh.e_shoff != 0 && !inside(eh.e_shoff, eh.e_shnum, eh.e_shentsize)) {
    fail("its section header table lies outside the file (truncated?)");
  }
  for (int i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    in.seekg(static_cast<std::streamoff>(eh.e_phoff + uint64_t(i) * sizeof(ph)));
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof(ph))) fail("unreadable program header");
    if (ph.p_type == PT_LOAD && !inside(ph.p_offset, ph.p_filesz, 1)) {
      fail("segment " + std::to_string(i) + " ends at byte " +
           std::to_string(ph.p_offset + ph.p_filesz) + " of a " + std::to_string(size) +
           "-byte file (truncated)");
    }
  }
}

}  // namespace

void LoadExtensionLibrary(const std::string& path, bool verbose) {
  struct stat sb;
  if (path.empty() || stat(path.c_str(), &sb) != 0) {
    MX_THROW(ValueError) << "Error loading library: '" << path << "' does not exist";
  }
  if (!S_ISREG(sb.st_mode)) {
    MX_THROW(ValueError) << "Error loading library: '" << path << "' is not a file";
  }
  CheckElfFile(path, static_cast<uint64_t>(sb.st_size));
  LoadedState* st = State();
  std::lock_guard<std::mutex> lock(st->mutex);

  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    LOG(FATAL) << "Error loading library: '" << path << "'\n" << (err ? err : "");
  }
  // dlopen is reference counted: drop our reference again unless the library gets used.
  std::unique_ptr<void, int (*)(void*)> close_guard(handle, dlclose);

  ExtLibrary* known = nullptr;
  for (auto& lib : st->libraries) {
    if (lib->handle == handle) known = lib.get();
  }
  auto entry = reinterpret_cast<MXExtGetLibraryFn>(dlsym(handle, MX_EXT_ENTRY_SYMBOL));
  if (entry == nullptr) {
    LOG(FATAL) << "Error loading library: '" << path << "' is not an MXNet extension library (no "
               << MX_EXT_ENTRY_SYMBOL << " symbol: build it with src/lib_api.cc; a library "
               << "built for MXNet 1.9 needs a rebuild against this MXNet's lib_api.h)";
  }
  const MXExtLibrary* api = entry();
  if (api == nullptr || api->abi_version != MX_EXT_ABI_VERSION) {
    LOG(FATAL) << "Error loading library: '" << path << "': library interface version ("
               << (api == nullptr ? -1 : api->abi_version)
               << ") does not match MXNet's extension interface version (" << MX_EXT_ABI_VERSION
               << "); rebuild the library against this MXNet's include/mxnet/lib_api.h";
  }
  if (api->struct_size < static_cast<int32_t>(sizeof(MXExtLibrary))) {
    LOG(FATAL) << "Error loading library: '" << path << "': interface table too small ("
               << api->struct_size << " bytes, expected " << sizeof(MXExtLibrary) << ")";
  }

  ExtLibrary probe;
  probe.path = path;
  probe.handle = handle;
  probe.api = api;
  if (api->initialize(MXNET_VERSION) != MX_EXT_OK) {
    LOG(FATAL) << "Error loading library: '" << path << "': library failed to initialize"
               << probe.TakeMessages();
  }
  probe.TakeMessages();  // anything logged by a successful initialize is not an error

  const int32_t num_ops = api->op_count();
  if (verbose) LOG(INFO) << "Found " << num_ops << " operators in library";
  if (known != nullptr) {
    // Same library again: its operators are registered already.
    if (verbose) LOG(INFO) << "Library '" << path << "' was already loaded";
    return;
  }

  // Validate every operator before registering any, so a bad library registers nothing.
  std::vector<std::unique_ptr<ExtOp>> ops;
  std::unordered_set<std::string> names;
  for (int32_t i = 0; i < num_ops; ++i) {
    auto op = std::make_unique<ExtOp>();
    if (api->op_info(i, &op->info) != MX_EXT_OK) {
      LOG(FATAL) << "Error loading library: '" << path << "': cannot read operator " << i;
    }
    std::string problem = ValidateOp(op->info);
    if (!problem.empty()) LOG(FATAL) << problem << " (library '" << path << "')";
    op->name = op->info.name;
    op->stateful = op->info.create_state_devs != 0;
    if (!names.insert(op->name).second) {
      LOG(FATAL) << "Error loading library: '" << path << "' registers operator '" << op->name
                 << "' twice";
    }
    const bool has_grad = op->stateful || op->info.backward_devs != 0;
    for (const std::string& n : {op->name, "_backward_" + op->name}) {
      if (n != op->name && !has_grad) continue;
      if (nnvm::Op::Find(n) == nullptr) continue;
      auto owner = st->op_owner.find(n);
      if (owner != st->op_owner.end()) {
        LOG(FATAL) << "Error loading library: '" << path << "': operator '" << n
                   << "' is already registered by extension library '" << owner->second << "'";
      }
      LOG(FATAL) << "Error loading library: '" << path << "': operator '" << n
                 << "' clashes with a built-in operator of the same name";
    }
    const int32_t devs = op->info.forward_devs | op->info.create_state_devs;
    if (!MXNET_USE_CUDA && !HasBit(devs, MX_EXT_CPU)) {
      LOG(WARNING) << "Operator '" << op->name << "' of '" << path
                   << "' has no CPU implementation; this MXNet build has no GPU support, so "
                      "calling it will fail";
    }
    ops.push_back(std::move(op));
  }

  auto lib = std::make_unique<ExtLibrary>(probe);
  for (auto& op : ops) {
    op->lib = lib.get();
    RegisterOp(op.get());
    st->op_owner[op->name] = path;
    if (op->stateful || op->info.backward_devs != 0) st->op_owner["_backward_" + op->name] = path;
    if (verbose) LOG(INFO) << "\tOp[" << (&op - &ops[0]) << "] " << op->name;
    st->ops.push_back(std::move(op));
  }
  st->libraries.push_back(std::move(lib));
  close_guard.release();  // keep the library mapped: registered operators call into it
}

}  // namespace ext_loader
}  // namespace mxnet
