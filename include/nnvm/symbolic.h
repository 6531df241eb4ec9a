/*!
 * \file nnvm/symbolic.h
 * \brief Symbol: a list of output entries of a node DAG, with composition (what mx.sym
 *        functions and Symbol.__call__ do), input/output listing, attributes and JSON.
 *
 *   Symbol data = Symbol::CreateVariable("data");
 *   Symbol fc = Symbol::CreateFunctor(Op::Get("FullyConnected"), {{"num_hidden", "10"}});
 *   fc.Compose({&data}, {}, "fc1");           // creates fc1_weight, fc1_bias variables
 *   fc.ListInputNames(Symbol::kReadOnlyArgs); // data, fc1_weight, fc1_bias
 *   std::string js = SaveJSON(fc);           // MXNet 1.x format
 *   Symbol back = LoadJSON(js);
 */
#ifndef NNVM_SYMBOLIC_H_
#define NNVM_SYMBOLIC_H_

#include <nnvm/graph.h>
#include <nnvm/node.h>

#include <ostream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nnvm {

/*! \brief Parsed attribute of a variable node: how many times ops mutated it. */
struct VariableParam {
  uint32_t version{0};
};

/*! \brief Keys stored as `__key__` (MXNet's hidden attributes). */
const std::vector<std::string>& HiddenKeys();

class Symbol {
 public:
  enum ListInputOption { kAll = 0, kReadOnlyArgs = 1, kAuxiliaryStates = 2 };
  enum ListAttrOption { kRecursive = 0, kShallow = 1 };

  std::vector<NodeEntry> outputs;

  /*! \brief Deep copy (new nodes, same structure and attributes). */
  Symbol Copy() const;
  /*! \brief MXNet's debug_str text. */
  void Print(std::ostream& os) const;
  /*! \brief The index-th output. */
  Symbol operator[](size_t index) const;
  /*! \brief Variable nodes in DFS order: all, arguments (read-only) or auxiliary states. */
  std::vector<ObjectPtr> ListInputs(ListInputOption option) const;
  std::vector<std::string> ListInputNames(ListInputOption option) const;
  /*! \brief `<node>_output`, `<node>_output<i>` or `<node>_<FListOutputNames name>`. */
  std::vector<std::string> ListOutputNames() const;
  /*!
   * \brief Bind inputs (mutates this symbol). For an un-composed op: positional args fill the
   *        inputs in order, kwargs by input name; missing inputs become `<name>_<input>`
   *        variables carrying the node's attributes. For a graph: args replace the free
   *        variables in ListInputs(kAll) order, kwargs by variable name.
   */
  void Compose(const std::vector<const Symbol*>& args,
               const std::unordered_map<std::string, const Symbol*>& kwargs,
               const std::string& name);
  /*! \brief Every output of every node (visible outputs only), variables included. */
  Symbol GetInternals() const;
  /*! \brief The inputs of the output nodes. */
  Symbol GetChildren() const;
  /*! \brief Set attributes of the single output node ("name" renames it). */
  void SetAttrs(const std::vector<std::pair<std::string, std::string>>& attrs);
  /*! \brief Attribute of the single output node (also "name"); false if absent. */
  bool GetAttr(const std::string& key, std::string* out) const;
  /*! \brief Shallow: the output node's dict; recursive: "<node>$<key>" for every node. */
  std::unordered_map<std::string, std::string> ListAttrs(ListAttrOption option) const;
  /*! \brief (node name, key, value) of every node's attributes, in DFS order. */
  std::vector<std::tuple<std::string, std::string, std::string>> ListAttrsRecursive() const;

  /*! \brief An un-composed op node (attributes parsed now; throws on invalid ones). */
  static Symbol CreateFunctor(const Op* op, std::unordered_map<std::string, std::string> attrs);
  static Symbol CreateVariable(const std::string& name);
  /*! \brief Outputs of all symbols concatenated. */
  static Symbol CreateGroup(const std::vector<Symbol>& symbols);
};

/*! \brief Names of the inputs of an op node (FListInputNames, else registered tensor args). */
std::vector<std::string> ListOpInputNames(const NodeAttrs& attrs, uint32_t num_inputs);

/*! \brief The symbol in MXNet 1.x JSON (pretty-printed like Python's json.dumps(indent=2)). */
std::string SaveJSON(const Symbol& sym);
/*! \brief Read MXNet JSON (1.x, and older files with "param"/"attr" keys). */
Symbol LoadJSON(const std::string& json);

}  // namespace nnvm

#endif  // NNVM_SYMBOLIC_H_
