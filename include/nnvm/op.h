/*!
 * \file nnvm/op.h
 * \brief The operator registry: every operator is an nnvm::Op with a name, docs, argument list,
 *        input/output counts, an attribute parser and named, typed attributes.
 *
 *   NNVM_REGISTER_OP(quadratic)
 *   .describe("f(x) = ax^2+bx+c" ADD_FILELINE)
 *   .set_attr_parser(ParamParser<QuadraticParam>)
 *   .set_num_inputs(1)
 *   .set_num_outputs(1)
 *   .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
 *   .set_attr<FCompute>("FCompute<cpu>", QuadraticForward<cpu>)
 *   .add_argument("data", "NDArray-or-Symbol", "Input ndarray")
 *   .add_arguments(QuadraticParam::__FIELDS__());
 *
 *   const nnvm::Op* op = nnvm::Op::Get("quadratic");          // throws if not registered
 *   static auto& ftype = nnvm::Op::GetAttr<nnvm::FInferType>("FInferType");
 *   if (ftype.count(op)) ftype[op](attrs, &in, &out);
 *
 * Attribute priority: set_attr(key, v, plevel) with a higher plevel overrides a lower one, a
 * lower one is ignored, the same plevel twice is an error naming the op and the key.
 *
 * Threading: ops register at static-initialisation time, and may also register later (e.g. ops
 * of a library loaded by MXLoadLib): Get/Find/ListAllNames/GetAttr and OpMap lookups are safe
 * from any thread while other ops are being registered. An op must be fully set up (its
 * builder calls done) before it is used.
 */
#ifndef NNVM_OP_H_
#define NNVM_OP_H_

#include <dmlc/base.h>
#include <dmlc/logging.h>
#include <dmlc/parameter.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

namespace nnvm {

struct NodeAttrs;
class Op;
struct OpRegistry;
template <typename ValueType>
class OpMap;

using dmlc::ParamFieldInfo;

/*! \brief set_num_inputs(kVarg): the op takes a variable number of inputs. */
static const uint32_t kVarg = std::numeric_limits<uint32_t>::max();

namespace detail {

/*! \brief One attribute value of one op, with the priority it was set at. */
struct AttrEntryBase {
  int plevel{0};
  virtual ~AttrEntryBase() = default;
};
template <typename ValueType>
struct AttrEntry : public AttrEntryBase {
  ValueType value;
  AttrEntry(const ValueType& v, int p) : value(v) { plevel = p; }
};

/*!
 * \brief The values of one attribute key for all ops, indexed by op index. Reads are lock-free
 *        (chunks and slots are published with release stores and never freed); writes happen
 *        under the registry lock.
 */
class AttrTable {
 public:
  static constexpr uint32_t kChunkBits = 9;
  static constexpr uint32_t kChunkSize = 1u << kChunkBits;
  static constexpr uint32_t kMaxChunks = 128;  // up to 65536 ops

  AttrTable(std::string key, std::type_index type) : key_(std::move(key)), type_(type) {
    for (auto& c : chunks_) c.store(nullptr, std::memory_order_relaxed);
  }
  AttrTable(const AttrTable&) = delete;
  AttrTable& operator=(const AttrTable&) = delete;
  ~AttrTable();

  /*! \brief The entry of op index `index`, or nullptr. */
  const AttrEntryBase* Lookup(uint32_t index) const {
    uint32_t c = index >> kChunkBits;
    if (c >= kMaxChunks) return nullptr;
    const Slot* chunk = chunks_[c].load(std::memory_order_acquire);
    if (chunk == nullptr) return nullptr;
    return chunk[index & (kChunkSize - 1)].load(std::memory_order_acquire);
  }
  const std::string& key() const { return key_; }
  std::type_index type() const { return type_; }

 private:
  friend class nnvm::Op;
  friend struct nnvm::OpRegistry;
  typedef std::atomic<const AttrEntryBase*> Slot;
  std::string key_;
  std::type_index type_;
  std::atomic<Slot*> chunks_[kMaxChunks];
  /*! \brief Every entry ever stored (replaced ones are kept alive for concurrent readers). */
  std::vector<std::unique_ptr<AttrEntryBase>> owned_;
  /*! \brief The OpMap<T> handle GetAttr returns a reference to. */
  std::shared_ptr<void> handle_;
  /*! \brief Store entry for op index (registry lock held). */
  void Store(uint32_t index, std::unique_ptr<AttrEntryBase> entry);
};

}  // namespace detail

/*!
 * \brief A registered operator. Fields are set through the chained builder methods of
 *        NNVM_REGISTER_OP(name) and are read-only afterwards.
 */
class Op {
 public:
  /*! \brief Canonical name. */
  std::string name;
  /*! \brief Documentation (usually ends with ADD_FILELINE's "Defined in file:Lline"). */
  std::string description;
  /*! \brief Documented arguments: tensor inputs (add_argument) then parameters. */
  std::vector<ParamFieldInfo> arguments;
  /*! \brief Fixed number of inputs (kVarg for variadic); see get_num_inputs. */
  uint32_t num_inputs = 1;
  /*! \brief Fixed number of outputs; see get_num_outputs. */
  uint32_t num_outputs = 1;
  /*! \brief Support level (lower is more basic). */
  uint32_t support_level = 10;
  /*! \brief If set, the number of inputs given the node's attributes (overrides num_inputs). */
  std::function<uint32_t(const NodeAttrs& attrs)> get_num_inputs = nullptr;
  /*! \brief If set, the number of outputs given the node's attributes. */
  std::function<uint32_t(const NodeAttrs& attrs)> get_num_outputs = nullptr;
  /*! \brief Parses attrs->dict into attrs->parsed; throws on invalid parameters. */
  std::function<void(NodeAttrs* attrs)> attr_parser = nullptr;
  /*!
   * \brief Name of the parameter that carries the input count of a variadic op (e.g.
   *        "num_args"), or "". Mirrors the "key_var_num_args" string attribute.
   */
  std::string key_var_num_args;

  /*! \brief Set the description. */
  Op& describe(const std::string& descr);
  /*! \brief Document a tensor input (type usually "NDArray-or-Symbol" or "NDArray-or-Symbol[]"). */
  Op& add_argument(const std::string& name, const std::string& type,
                   const std::string& description);
  /*! \brief Document parameters, typically Param::__FIELDS__(). */
  Op& add_arguments(const std::vector<ParamFieldInfo>& args);
  Op& set_num_inputs(uint32_t n);
  Op& set_num_inputs(std::function<uint32_t(const NodeAttrs& attr)> fn);
  Op& set_num_outputs(uint32_t n);
  Op& set_num_outputs(std::function<uint32_t(const NodeAttrs& attr)> fn);
  Op& set_support_level(uint32_t level);
  Op& set_attr_parser(std::function<void(NodeAttrs* attrs)> fn);
  /*! \brief Make `alias` another name of this op (Get(alias) returns this op). */
  Op& add_alias(const std::string& alias);
  /*!
   * \brief Set attribute attr_name to value for this op.
   * \param plevel priority: higher overrides lower; the same plevel twice is an error.
   */
  template <typename ValueType>
  Op& set_attr(const std::string& attr_name, const ValueType& value, int plevel = 10);

  /*! \brief The op named name (or alias); throws dmlc::Error "Operator X is not registered". */
  static const Op* Get(const std::string& op_name);
  /*! \brief The op named name (or alias), or nullptr. */
  static const Op* Find(const std::string& op_name);
  /*! \brief The attribute map of attr_name (empty if no op set it). */
  template <typename ValueType>
  static const OpMap<ValueType>& GetAttr(const std::string& attr_name);
  /*! \brief Every registered name, aliases included, sorted. */
  static std::vector<std::string> ListAllNames();
  /*! \brief Every op once (aliases collapsed), in registration order. */
  static std::vector<const Op*> ListAllOps();
  /*! \brief Register op `name`, or return it if it (or an alias of that name) exists. */
  static Op& Register(const std::string& name);

  /*! \brief Dense index of this op (used by OpMap). */
  uint32_t index() const { return index_; }

 private:
  template <typename ValueType>
  friend class OpMap;
  friend struct OpRegistry;
  uint32_t index_{0};

  Op() = default;
  Op(const Op&) = delete;
  Op& operator=(const Op&) = delete;

  typedef std::shared_ptr<void> (*MakeHandleFn)(const detail::AttrTable* table);
  /*! \brief Find or create the table of key, checking its value type. */
  static const detail::AttrTable* GetAttrTable(const std::string& key, std::type_index type,
                                               const char* type_name, MakeHandleFn make_handle);
  /*! \brief Store an entry into the table of key for this op, honouring plevel. */
  void SetAttrImpl(const std::string& key, std::type_index type, const char* type_name,
                   MakeHandleFn make_handle, std::unique_ptr<detail::AttrEntryBase> entry,
                   int plevel);
};

/*!
 * \brief A live view of one attribute across ops: ops registered later show up too.
 *        Copies are cheap views of the same table.
 */
template <typename ValueType>
class OpMap {
 public:
  explicit OpMap(const detail::AttrTable* table) : table_(table) {}
  /*! \brief The value for op; throws if op has no value. */
  const ValueType& operator[](const Op* op) const {
    const detail::AttrEntryBase* e = op == nullptr ? nullptr : table_->Lookup(op->index_);
    CHECK(e != nullptr) << "Attribute " << table_->key() << " has not been registered for "
                        << (op == nullptr ? std::string("a null operator")
                                          : "Operator " + op->name);
    return static_cast<const detail::AttrEntry<ValueType>*>(e)->value;
  }
  /*! \brief The value for op, or def_value. */
  const ValueType& get(const Op* op, const ValueType& def_value) const {
    if (op == nullptr) return def_value;
    const detail::AttrEntryBase* e = table_->Lookup(op->index_);
    return e == nullptr ? def_value : static_cast<const detail::AttrEntry<ValueType>*>(e)->value;
  }
  /*! \brief 1 if op has a value, else 0. */
  int count(const Op* op) const {
    return (op != nullptr && table_->Lookup(op->index_) != nullptr) ? 1 : 0;
  }
  bool contains(const Op* op) const { return count(op) != 0; }
  const std::string& attr_name() const { return table_->key(); }

 private:
  const detail::AttrTable* table_;
};

namespace detail {
template <typename ValueType>
std::shared_ptr<void> MakeOpMapHandle(const AttrTable* table) {
  return std::make_shared<OpMap<ValueType>>(table);
}
}  // namespace detail

template <typename ValueType>
inline Op& Op::set_attr(const std::string& attr_name, const ValueType& value, int plevel) {
  CHECK_GT(plevel, 0) << "plevel in set_attr must be greater than 0";
  if constexpr (std::is_same<ValueType, std::string>::value) {
    if (attr_name == "key_var_num_args") this->key_var_num_args = value;
  }
  SetAttrImpl(attr_name, std::type_index(typeid(ValueType)), typeid(ValueType).name(),
              &detail::MakeOpMapHandle<ValueType>,
              std::unique_ptr<detail::AttrEntryBase>(new detail::AttrEntry<ValueType>(value, plevel)),
              plevel);
  return *this;
}

template <typename ValueType>
inline const OpMap<ValueType>& Op::GetAttr(const std::string& attr_name) {
  const detail::AttrTable* table =
      GetAttrTable(attr_name, std::type_index(typeid(ValueType)), typeid(ValueType).name(),
                   &detail::MakeOpMapHandle<ValueType>);
  return *static_cast<const OpMap<ValueType>*>(table->handle_.get());
}

#define NNVM_REGISTER_VAR_DEF(OpName) \
  static DMLC_ATTRIBUTE_UNUSED ::nnvm::Op& __make_##NnvmOp##_##OpName

/*!
 * \brief Register (or re-open) the op OpName at static-initialisation time; chain builder
 *        calls. May appear several times for one op (e.g. in .cc and .cu).
 */
#define NNVM_REGISTER_OP(OpName)                                    \
  DMLC_STR_CONCAT(NNVM_REGISTER_VAR_DEF(OpName), __COUNTER__) =     \
      ::nnvm::Op::Register(#OpName)

}  // namespace nnvm

#endif  // NNVM_OP_H_
