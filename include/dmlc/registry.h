/*!
 * \file dmlc/registry.h
 * \brief A named registry of entries of one type (legacy OperatorProperty factories, data
 *        iterators, ...), filled by static registration macros.
 *
 *   struct IterReg : public dmlc::FunctionRegEntryBase<IterReg, std::function<Iter*()>> {};
 *   DMLC_REGISTRY_ENABLE(IterReg);        // optional; kept for source compatibility
 *   DMLC_REGISTRY_REGISTER(IterReg, IterReg, MNISTIter)
 *       .describe("MNIST images").set_body([]() { return new MNISTIter(); });
 *
 *   const IterReg* r = dmlc::Registry<IterReg>::Find("MNISTIter");   // nullptr if absent
 *
 * Registration, Find and ListAllNames are thread-safe. List() returns the live list of entries
 * (entries are never removed or moved); use it once registration is done.
 */
#ifndef DMLC_REGISTRY_H_
#define DMLC_REGISTRY_H_

#include <dmlc/base.h>
#include <dmlc/logging.h>
#include <dmlc/parameter.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dmlc {

template <typename EntryType>
class Registry {
 public:
  /*! \brief Entries in registration order (aliases not repeated); not synchronised. */
  static const std::vector<const EntryType*>& List() { return Get()->const_list_; }
  /*! \brief Every name, aliases included, sorted. */
  static std::vector<std::string> ListAllNames() {
    Registry* r = Get();
    std::lock_guard<std::mutex> lock(r->mutex_);
    std::vector<std::string> names;
    for (const auto& kv : r->fmap_) names.push_back(kv.first);
    return names;
  }
  /*! \brief Entry by name or alias, or nullptr. */
  static const EntryType* Find(const std::string& name) {
    Registry* r = Get();
    std::lock_guard<std::mutex> lock(r->mutex_);
    auto it = r->fmap_.find(name);
    return it == r->fmap_.end() ? nullptr : it->second;
  }
  /*! \brief Make `alias` another name of the entry `key_name`. */
  void AddAlias(const std::string& key_name, const std::string& alias) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = fmap_.find(key_name);
    CHECK(it != fmap_.end()) << "Cannot add alias " << alias << ": " << key_name
                             << " is not registered";
    auto old = fmap_.find(alias);
    if (old != fmap_.end()) {
      CHECK(old->second == it->second) << "Trying to register alias " << alias << " for key "
                                       << key_name << " but " << alias << " already exists";
      return;
    }
    fmap_[alias] = it->second;
  }
  /*! \brief Create the entry `name`; it must not exist yet. */
  EntryType& __REGISTER__(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    CHECK_EQ(fmap_.count(name), 0U) << name << " already registered";
    return AddLocked(name);
  }
  /*! \brief The entry `name`, created if it does not exist. */
  EntryType& __REGISTER_OR_GET__(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = fmap_.find(name);
    if (it != fmap_.end()) return *it->second;
    return AddLocked(name);
  }
  /*! \brief The process-wide registry of EntryType (never destroyed). */
  static Registry* Get() {
    static Registry* inst = new Registry();
    return inst;
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<EntryType>> entry_list_;
  std::vector<const EntryType*> const_list_;
  std::map<std::string, EntryType*> fmap_;

  Registry() = default;
  EntryType& AddLocked(const std::string& name) {
    entry_list_.emplace_back(new EntryType());
    EntryType* e = entry_list_.back().get();
    e->name = name;
    fmap_[name] = e;
    const_list_.push_back(e);
    return *e;
  }
};

/*!
 * \brief Common base of function registry entries: name, description, documented arguments,
 *        the function itself and a return type.
 */
template <typename EntryType, typename FunctionType>
class FunctionRegEntryBase {
 public:
  std::string name;
  std::string description;
  std::vector<ParamFieldInfo> arguments;
  FunctionType body;
  std::string return_type;

  EntryType& set_body(FunctionType body) {
    this->body = body;
    return this->self();
  }
  EntryType& describe(const std::string& description) {
    this->description = description;
    return this->self();
  }
  EntryType& add_argument(const std::string& name, const std::string& type,
                          const std::string& description) {
    arguments.push_back(ParamFieldInfo{name, type, type, description});
    return this->self();
  }
  EntryType& add_arguments(const std::vector<ParamFieldInfo>& args) {
    arguments.insert(arguments.end(), args.begin(), args.end());
    return this->self();
  }
  EntryType& set_return_type(const std::string& type) {
    return_type = type;
    return this->self();
  }

 protected:
  EntryType& self() { return *static_cast<EntryType*>(this); }
};

/*! \brief Kept for source compatibility: Registry<T>::Get() needs no per-type definition. */
#define DMLC_REGISTRY_ENABLE(EntryType) static_assert(true, "")

/*! \brief Register an entry named Name at static-initialisation time; chain its setters. */
#define DMLC_REGISTRY_REGISTER(EntryType, EntryTypeName, Name)                            \
  static DMLC_ATTRIBUTE_UNUSED EntryType& __make_##EntryTypeName##_##Name##__ =           \
      ::dmlc::Registry<EntryType>::Get()->__REGISTER__(#Name)

/*! \brief Link tags: force a registration-only file to be linked (no-ops in a shared lib). */
#define DMLC_REGISTRY_FILE_TAG(UniqueTag) \
  int __dmlc_registry_file_tag_##UniqueTag##__() { return 0; }
#define DMLC_REGISTRY_LINK_TAG(UniqueTag)              \
  int __dmlc_registry_file_tag_##UniqueTag##__();      \
  static int DMLC_ATTRIBUTE_UNUSED __reg_file_tag_##UniqueTag##__ = \
      __dmlc_registry_file_tag_##UniqueTag##__();

}  // namespace dmlc

#endif  // DMLC_REGISTRY_H_
