/*!
 * \file op.cc
 * \brief The operator registry behind nnvm::Op: names and aliases, ops in registration order,
 *        and one attribute table per attribute key.
 *
 * Lookups by name take a shared lock; attribute values are read lock-free through
 * detail::AttrTable. Registration (static or at runtime) takes the exclusive lock.
 */
#include <nnvm/op.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace nnvm {

struct OpRegistry {
  std::shared_mutex mutex;
  /*! \brief Name or alias -> op. */
  std::unordered_map<std::string, Op*> by_name;
  /*! \brief Ops in registration order (owned). */
  std::vector<std::unique_ptr<Op>> ops;
  /*! \brief Attribute key -> table. */
  std::unordered_map<std::string, std::unique_ptr<detail::AttrTable>> attrs;

  /*! \brief Never destroyed: ops and tables are used until the process ends. */
  static OpRegistry* Global() {
    static OpRegistry* inst = new OpRegistry();
    return inst;
  }

  static Op* NewOp(const std::string& name, uint32_t index) {
    Op* op = new Op();
    op->name = name;
    op->index_ = index;
    return op;
  }

  /*! \brief Table of key, created if needed, with its type checked. Lock held exclusively. */
  detail::AttrTable* GetOrCreateTableLocked(const std::string& key, std::type_index type,
                                            const char* type_name, Op::MakeHandleFn make_handle) {
    auto it = attrs.find(key);
    if (it == attrs.end()) {
      std::unique_ptr<detail::AttrTable> table(new detail::AttrTable(key, type));
      table->handle_ = make_handle(table.get());
      it = attrs.emplace(key, std::move(table)).first;
    }
    CheckType(*it->second, type, type_name);
    return it->second.get();
  }

  static void CheckType(const detail::AttrTable& table, std::type_index type,
                        const char* type_name) {
    if (table.type() != type) {
      LOG(FATAL) << "Attribute " << table.key() << " is registered with value type "
                 << table.type().name() << ", but used with type " << type_name;
    }
  }
};

namespace detail {

AttrTable::~AttrTable() {
  for (auto& c : chunks_) delete[] c.load(std::memory_order_relaxed);
}

void AttrTable::Store(uint32_t index, std::unique_ptr<AttrEntryBase> entry) {
  uint32_t c = index >> kChunkBits;
  CHECK_LT(c, kMaxChunks) << "too many operators registered (limit "
                          << kMaxChunks * kChunkSize << ")";
  Slot* chunk = chunks_[c].load(std::memory_order_acquire);
  if (chunk == nullptr) {
    chunk = new Slot[kChunkSize];
    for (uint32_t i = 0; i < kChunkSize; ++i) chunk[i].store(nullptr, std::memory_order_relaxed);
    chunks_[c].store(chunk, std::memory_order_release);
  }
  chunk[index & (kChunkSize - 1)].store(entry.get(), std::memory_order_release);
  owned_.push_back(std::move(entry));
}

}  // namespace detail

Op& Op::describe(const std::string& descr) {
  this->description = descr;
  return *this;
}

Op& Op::add_argument(const std::string& name, const std::string& type,
                     const std::string& description) {
  this->arguments.push_back(ParamFieldInfo{name, type, type, description});
  return *this;
}

Op& Op::add_arguments(const std::vector<ParamFieldInfo>& args) {
  this->arguments.insert(this->arguments.end(), args.begin(), args.end());
  return *this;
}

Op& Op::set_num_inputs(uint32_t n) {
  this->num_inputs = n;
  return *this;
}

Op& Op::set_num_inputs(std::function<uint32_t(const NodeAttrs& attr)> fn) {
  this->get_num_inputs = std::move(fn);
  return *this;
}

Op& Op::set_num_outputs(uint32_t n) {
  this->num_outputs = n;
  return *this;
}

Op& Op::set_num_outputs(std::function<uint32_t(const NodeAttrs& attr)> fn) {
  this->get_num_outputs = std::move(fn);
  return *this;
}

Op& Op::set_support_level(uint32_t level) {
  this->support_level = level;
  return *this;
}

Op& Op::set_attr_parser(std::function<void(NodeAttrs* attrs)> fn) {
  this->attr_parser = std::move(fn);
  return *this;
}

Op& Op::add_alias(const std::string& alias) {
  OpRegistry* reg = OpRegistry::Global();
  std::unique_lock<std::shared_mutex> lock(reg->mutex);
  auto it = reg->by_name.find(alias);
  if (it != reg->by_name.end()) {
    CHECK(it->second == this) << "Cannot add alias '" << alias << "' to operator '" << this->name
                              << "': the name is already used by operator '"
                              << it->second->name << "'";
    return *this;
  }
  reg->by_name.emplace(alias, this);
  return *this;
}

Op& Op::Register(const std::string& name) {
  OpRegistry* reg = OpRegistry::Global();
  std::unique_lock<std::shared_mutex> lock(reg->mutex);
  auto it = reg->by_name.find(name);
  if (it != reg->by_name.end()) return *it->second;
  Op* op = OpRegistry::NewOp(name, static_cast<uint32_t>(reg->ops.size()));
  reg->ops.emplace_back(op);
  reg->by_name.emplace(name, op);
  return *op;
}

const Op* Op::Find(const std::string& name) {
  OpRegistry* reg = OpRegistry::Global();
  std::shared_lock<std::shared_mutex> lock(reg->mutex);
  auto it = reg->by_name.find(name);
  return it == reg->by_name.end() ? nullptr : it->second;
}

const Op* Op::Get(const std::string& name) {
  const Op* op = Find(name);
  if (op == nullptr) LOG(FATAL) << "Operator " << name << " is not registered";
  return op;
}

std::vector<std::string> Op::ListAllNames() {
  OpRegistry* reg = OpRegistry::Global();
  std::vector<std::string> names;
  {
    std::shared_lock<std::shared_mutex> lock(reg->mutex);
    names.reserve(reg->by_name.size());
    for (const auto& kv : reg->by_name) names.push_back(kv.first);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<const Op*> Op::ListAllOps() {
  OpRegistry* reg = OpRegistry::Global();
  std::shared_lock<std::shared_mutex> lock(reg->mutex);
  std::vector<const Op*> ops;
  ops.reserve(reg->ops.size());
  for (const auto& op : reg->ops) ops.push_back(op.get());
  return ops;
}

const detail::AttrTable* Op::GetAttrTable(const std::string& key, std::type_index type,
                                          const char* type_name, MakeHandleFn make_handle) {
  OpRegistry* reg = OpRegistry::Global();
  {
    std::shared_lock<std::shared_mutex> lock(reg->mutex);
    auto it = reg->attrs.find(key);
    if (it != reg->attrs.end()) {
      OpRegistry::CheckType(*it->second, type, type_name);
      return it->second.get();
    }
  }
  std::unique_lock<std::shared_mutex> lock(reg->mutex);
  return reg->GetOrCreateTableLocked(key, type, type_name, make_handle);
}

void Op::SetAttrImpl(const std::string& key, std::type_index type, const char* type_name,
                     MakeHandleFn make_handle, std::unique_ptr<detail::AttrEntryBase> entry,
                     int plevel) {
  OpRegistry* reg = OpRegistry::Global();
  std::unique_lock<std::shared_mutex> lock(reg->mutex);
  detail::AttrTable* table = reg->GetOrCreateTableLocked(key, type, type_name, make_handle);
  const detail::AttrEntryBase* old = table->Lookup(index_);
  if (old != nullptr) {
    CHECK(old->plevel != plevel) << "Attribute " << key << " of operator " << this->name
                                 << " is already registered with same plevel=" << plevel;
    if (old->plevel > plevel) return;  // a higher-priority value stays
  }
  table->Store(index_, std::move(entry));
}

}  // namespace nnvm
