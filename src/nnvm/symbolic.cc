/*!
 * \file symbolic.cc
 * \brief Symbol: composition, listing, attributes, copy and printing.
 */
#include <nnvm/op_attr_types.h>
#include <nnvm/symbolic.h>

#include <algorithm>
#include <map>
#include <memory>
#include <sstream>
#include <unordered_set>

#include "./subgraph_cut.h"

namespace nnvm {

const std::vector<std::string>& HiddenKeys() {
  static const std::vector<std::string> keys = {"ctx_group",      "lr_mult",      "wd_mult",
                                                "force_mirroring", "mirror_stage",
                                                "profiler_scope"};
  return keys;
}

namespace {

ObjectPtr CreateVariableNode(const std::string& name) {
  ObjectPtr n = Node::Create();
  n->attrs.op = nullptr;
  n->attrs.name = name;
  n->attrs.parsed = VariableParam();
  return n;
}

uint32_t VisibleOutputs(const Node* n) {
  static auto& fvisible = Op::GetAttr<FNumVisibleOutputs>("FNumVisibleOutputs");
  if (n->is_variable()) return 1;
  if (fvisible.count(n->op())) return fvisible[n->op()](n->attrs);
  return n->num_outputs();
}

/*! \brief Record variable versions on a node's inputs; bump those the op mutates. */
void UpdateNodeVersion(Node* n) {
  static auto& fmutate = Op::GetAttr<FMutateInputs>("FMutateInputs");
  for (NodeEntry& e : n->inputs) {
    if (e.node && e.node->is_variable() && e.node->attrs.parsed.has_value() == false) {
      e.node->attrs.parsed = VariableParam();
    }
    if (e.node && e.node->is_variable()) {
      e.version = dmlc::get<VariableParam>(e.node->attrs.parsed).version;
    }
  }
  if (n->op() != nullptr && fmutate.count(n->op())) {
    for (uint32_t i : fmutate[n->op()](n->attrs)) {
      if (i >= n->inputs.size()) continue;
      NodeEntry& e = n->inputs[i];
      if (e.node && e.node->is_variable()) {
        e.version = ++dmlc::get<VariableParam>(e.node->attrs.parsed).version;
      }
    }
  }
}

std::string DefaultVarName(const std::string& op_name, const std::string& arg_name) {
  return op_name.empty() ? arg_name : op_name + "_" + arg_name;
}

bool IsAtomic(const std::vector<NodeEntry>& outputs) {
  if (outputs.empty()) return false;
  const Node* node = outputs[0].node.get();
  for (const NodeEntry& e : outputs) {
    if (e.node.get() != node) return false;
  }
  return node->inputs.empty() && node->control_deps.empty() && !node->is_variable();
}

std::string CandidateList(const std::vector<std::string>& names) {
  std::ostringstream os;
  os << "Candidate arguments:\n";
  for (size_t i = 0; i < names.size(); ++i) os << "\t[" << i << "]" << names[i] << "\n";
  return os.str();
}

}  // namespace

std::vector<std::string> ListOpInputNames(const NodeAttrs& attrs, uint32_t num_inputs) {
  static auto& flist = Op::GetAttr<FListInputNames>("FListInputNames");
  if (flist.count(attrs.op)) return flist[attrs.op](attrs);
  std::vector<std::string> from_args;
  for (const auto& arg : attrs.op->arguments) {
    if (arg.type_info_str.rfind("NDArray", 0) == 0 || arg.type_info_str.rfind("Symbol", 0) == 0) {
      from_args.push_back(arg.name);
    }
  }
  if (from_args.size() == num_inputs) return from_args;
  if (num_inputs == 1) return {"data"};
  std::vector<std::string> ret;
  for (uint32_t i = 0; i < num_inputs; ++i) ret.push_back("arg" + std::to_string(i));
  return ret;
}

Symbol Symbol::CreateVariable(const std::string& name) {
  Symbol s;
  s.outputs.emplace_back(CreateVariableNode(name), 0, 0);
  return s;
}

Symbol Symbol::CreateFunctor(const Op* op, std::unordered_map<std::string, std::string> attrs) {
  ObjectPtr n = Node::Create();
  n->attrs.op = op;
  n->attrs.dict = std::move(attrs);
  if (op->attr_parser) {
    try {
      op->attr_parser(&n->attrs);
    } catch (const dmlc::Error& e) {
      dmlc::RethrowNamingOperator(e, op->name);
    }
  }
  Symbol s;
  const uint32_t nout = VisibleOutputs(n.get());
  for (uint32_t i = 0; i < nout; ++i) s.outputs.emplace_back(n, i, 0);
  return s;
}

Symbol Symbol::CreateGroup(const std::vector<Symbol>& symbols) {
  Symbol ret;
  for (const Symbol& s : symbols) ret.outputs.insert(ret.outputs.end(), s.outputs.begin(), s.outputs.end());
  return ret;
}

Symbol Symbol::Copy() const {
  std::unordered_map<Node*, ObjectPtr> old_new;
  DFSVisit(outputs, [&](const ObjectPtr& node) {
    ObjectPtr np = Node::Create();
    np->attrs = node->attrs;
    old_new[node.get()] = np;
  });
  for (auto& kv : old_new) {
    for (const NodeEntry& e : kv.first->inputs) {
      kv.second->inputs.emplace_back(old_new.at(e.node.get()), e.index, e.version);
    }
    for (const ObjectPtr& dep : kv.first->control_deps) {
      if (dep) kv.second->control_deps.push_back(old_new.at(dep.get()));
    }
  }
  Symbol ret;
  for (const NodeEntry& e : outputs) ret.outputs.emplace_back(old_new.at(e.node.get()), e.index, e.version);
  return ret;
}

Symbol Symbol::operator[](size_t index) const {
  if (index >= outputs.size()) {
    MX_THROW(dmlc::IndexError) << "Symbol output index " << index << " out of range (the symbol has "
                         << outputs.size() << " outputs)";
  }
  Symbol s;
  s.outputs.push_back(outputs[index]);
  return s;
}

std::vector<ObjectPtr> Symbol::ListInputs(ListInputOption option) const {
  static auto& fmutate = Op::GetAttr<FMutateInputs>("FMutateInputs");
  std::vector<ObjectPtr> ret;
  if (option == kAll) {
    DFSVisit(outputs, [&](const ObjectPtr& n) {
      if (n->is_variable()) ret.push_back(n);
    });
    return ret;
  }
  std::unordered_set<const Node*> mutable_set;
  std::vector<ObjectPtr> vars;
  DFSVisit(outputs, [&](const ObjectPtr& n) {
    if (n->is_variable()) {
      vars.push_back(n);
    } else if (fmutate.count(n->op())) {
      for (uint32_t i : fmutate[n->op()](n->attrs)) {
        if (i < n->inputs.size()) mutable_set.insert(n->inputs[i].node.get());
      }
    }
  });
  for (const ObjectPtr& v : vars) {
    if ((mutable_set.count(v.get()) == 0) == (option == kReadOnlyArgs)) ret.push_back(v);
  }
  return ret;
}

std::vector<std::string> Symbol::ListInputNames(ListInputOption option) const {
  std::vector<std::string> ret;
  for (const ObjectPtr& n : ListInputs(option)) ret.push_back(n->attrs.name);
  return ret;
}

std::vector<std::string> Symbol::ListOutputNames() const {
  static auto& flist = Op::GetAttr<FListOutputNames>("FListOutputNames");
  std::vector<std::string> ret;
  for (const NodeEntry& head : outputs) {
    const Node* n = head.node.get();
    if (n->is_variable()) {
      ret.push_back(n->attrs.name);
      continue;
    }
    std::string rname;
    if (flist.count(n->op())) {
      std::vector<std::string> names = flist[n->op()](n->attrs);
      rname = head.index < names.size() ? names[head.index] : "output" + std::to_string(head.index);
    } else if (n->num_outputs() != 1) {
      rname = "output" + std::to_string(head.index);
    } else {
      rname = "output";
    }
    ret.push_back(n->attrs.name.empty() ? rname : n->attrs.name + "_" + rname);
  }
  return ret;
}

namespace {

void ComposeInputs(Symbol* self, const std::vector<const Symbol*>& args,
                   const std::unordered_map<std::string, const Symbol*>& kwargs,
                   const std::string& name) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i]->outputs.size() != 1) {
      MX_THROW(dmlc::ValueError) << "Compose: argument " << i << " is a group of "
                           << args[i]->outputs.size() << " outputs; a single output is required";
    }
  }
  for (const auto& kv : kwargs) {
    if (kv.second->outputs.size() != 1) {
      MX_THROW(dmlc::ValueError) << "Compose: keyword argument " << kv.first << " is a group of "
                           << kv.second->outputs.size()
                           << " outputs; a single output is required";
    }
  }
  if (IsAtomic(self->outputs)) {
    Node* n = self->outputs[0].node.get();
    if (!name.empty()) n->attrs.name = name;
    const uint32_t n_req = n->op()->get_num_inputs || n->op()->num_inputs != kVarg
                               ? n->num_inputs()
                               : kVarg;
    if (n_req != kVarg) {
      if (args.size() > n_req) {
        MX_THROW(dmlc::ValueError) << "Operator " << n->op()->name << " (" << n->attrs.name
                             << "): incorrect number of arguments, requires " << n_req
                             << ", provided " << args.size();
      }
      std::vector<std::string> arg_names = ListOpInputNames(n->attrs, n_req);
      n->inputs.resize(n_req);
      for (size_t i = 0; i < args.size(); ++i) n->inputs[i] = args[i]->outputs[0];
      size_t nmatched = 0;
      for (size_t i = args.size(); i < n_req; ++i) {
        auto it = kwargs.find(i < arg_names.size() ? arg_names[i] : std::string());
        if (it != kwargs.end() && it->first.size()) {
          n->inputs[i] = it->second->outputs[0];
          ++nmatched;
        } else {
          ObjectPtr var = CreateVariableNode(
              DefaultVarName(n->attrs.name, i < arg_names.size() ? arg_names[i] : "arg" + std::to_string(i)));
          var->attrs.dict = n->attrs.dict;
          n->inputs[i] = NodeEntry(var, 0, 0);
        }
      }
      if (nmatched != kwargs.size()) {
        for (const auto& kv : kwargs) {
          bool found = false;
          for (size_t i = args.size(); i < arg_names.size(); ++i) found |= arg_names[i] == kv.first;
          if (!found) {
            MX_THROW(dmlc::ValueError) << "Operator " << n->op()->name << " (" << n->attrs.name
                                 << "): keyword argument " << kv.first << " not found (or "
                                 << "given positionally too).\n" << CandidateList(arg_names);
          }
        }
      }
    } else {
      if (!kwargs.empty()) {
        MX_THROW(dmlc::ValueError) << "Operator " << n->op()->name
                             << ": a variable-length operator does not accept keyword inputs";
      }
      for (const Symbol* a : args) n->inputs.push_back(a->outputs[0]);
    }
    UpdateNodeVersion(n);
    static auto& fset_var = Op::GetAttr<FSetInputVarAttrOnCompose>("FSetInputVarAttrOnCompose");
    if (fset_var.count(n->op())) {
      for (size_t i = 0; i < n->inputs.size(); ++i) {
        if (n->inputs[i].node->is_variable()) fset_var[n->op()](n->attrs, n->inputs[i].node, i);
      }
    }
    return;
  }
  // General composition: replace free variables.
  std::vector<ObjectPtr> vars = self->ListInputs(Symbol::kAll);
  std::unordered_map<const Node*, const NodeEntry*> replace;
  if (args.size() > vars.size()) {
    const Node* head = self->outputs.size() == 1 ? self->outputs[0].node.get() : nullptr;
    MX_THROW(dmlc::ValueError)
        << (head != nullptr && !head->is_variable() ? "Operator " + head->op()->name : "Compose")
        << ": " << args.size() << " positional arguments for a symbol with " << vars.size()
        << " free variables";
  }
  for (size_t i = 0; i < args.size(); ++i) replace[vars[i].get()] = &args[i]->outputs[0];
  size_t nmatched = 0;
  for (size_t i = args.size(); i < vars.size(); ++i) {
    auto it = kwargs.find(vars[i]->attrs.name);
    if (it != kwargs.end()) {
      replace[vars[i].get()] = &it->second->outputs[0];
      ++nmatched;
    }
  }
  if (nmatched != kwargs.size()) {
    std::vector<std::string> names;
    for (const ObjectPtr& v : vars) names.push_back(v->attrs.name);
    for (const auto& kv : kwargs) {
      bool found = false;
      for (size_t i = args.size(); i < vars.size(); ++i) found |= vars[i]->attrs.name == kv.first;
      if (!found) {
        MX_THROW(dmlc::ValueError) << "Compose: keyword argument " << kv.first << " not found.\n"
                             << CandidateList(names);
      }
    }
  }
  if (replace.empty()) return;
  std::vector<ObjectPtr> nodes;
  DFSVisit(self->outputs, [&](const ObjectPtr& n) { nodes.push_back(n); });
  for (const ObjectPtr& n : nodes) {
    bool changed = false;
    for (NodeEntry& e : n->inputs) {
      auto it = replace.find(e.node.get());
      if (it != replace.end()) {
        e = *it->second;
        changed = true;
      }
    }
    if (changed) UpdateNodeVersion(n.get());
  }
  for (NodeEntry& e : self->outputs) {
    auto it = replace.find(e.node.get());
    if (it != replace.end()) e = *it->second;
  }
}

}  // namespace

void Symbol::Compose(const std::vector<const Symbol*>& args,
                     const std::unordered_map<std::string, const Symbol*>& kwargs,
                     const std::string& name) {
  // Control-flow operators (FInputGraph) take some positional arguments as subgraphs: those
  // become attrs.subgraphs (a group of outputs is allowed), the rest are the data inputs.
  static auto& finput_graph = Op::GetAttr<FInputGraph>("FInputGraph");
  if (IsAtomic(outputs) && finput_graph.count(outputs[0].node->op())) {
    Node* n = outputs[0].node.get();
    const std::vector<uint32_t> graph_pos = finput_graph[n->op()](n->attrs);
    std::vector<const Symbol*> data_args;
    n->attrs.subgraphs.clear();
    for (size_t i = 0; i < args.size(); ++i) {
      if (std::find(graph_pos.begin(), graph_pos.end(), static_cast<uint32_t>(i)) !=
          graph_pos.end()) {
        n->attrs.subgraphs.push_back(std::make_shared<Symbol>(*args[i]));
      } else {
        data_args.push_back(args[i]);
      }
    }
    if (n->attrs.subgraphs.size() != graph_pos.size()) {
      MX_THROW(dmlc::ValueError) << "Operator " << n->op()->name << " expects "
                                 << graph_pos.size() << " subgraph(s) as its first positional "
                                 << "arguments, got " << n->attrs.subgraphs.size();
    }
    ComposeInputs(this, data_args, kwargs, name);
    return;
  }
  ComposeInputs(this, args, kwargs, name);
}

Symbol Symbol::GetInternals() const {
  Symbol ret;
  DFSVisit(outputs, [&](const ObjectPtr& n) {
    if (n->is_variable()) {
      uint32_t version = n->attrs.parsed.has_value() == false ? 0 : dmlc::get<VariableParam>(n->attrs.parsed).version;
      ret.outputs.emplace_back(n, 0, version);
    } else {
      const uint32_t nout = VisibleOutputs(n.get());
      for (uint32_t i = 0; i < nout; ++i) ret.outputs.emplace_back(n, i, 0);
    }
  });
  return ret;
}

Symbol Symbol::GetChildren() const {
  Symbol ret;
  std::unordered_set<const Node*> visited;
  for (const NodeEntry& e : outputs) {
    if (!visited.insert(e.node.get()).second) continue;
    ret.outputs.insert(ret.outputs.end(), e.node->inputs.begin(), e.node->inputs.end());
  }
  return ret;
}

void Symbol::SetAttrs(const std::vector<std::pair<std::string, std::string>>& attrs) {
  if (outputs.empty()) MX_THROW(dmlc::ValueError) << "SetAttr on an empty symbol";
  Node* node = outputs[0].node.get();
  for (const NodeEntry& e : outputs) {
    if (e.node.get() != node) {
      MX_THROW(dmlc::ValueError) << "SetAttr is only supported on a single node, not on a group of "
                           << outputs.size() << " outputs";
    }
  }
  const NodeAttrs saved = node->attrs;
  for (const auto& kv : attrs) {
    if (kv.first == "name") {
      node->attrs.name = kv.second;
    } else {
      node->attrs.dict[kv.first] = kv.second;
    }
  }
  if (node->op() != nullptr && node->op()->attr_parser) {
    try {
      node->op()->attr_parser(&node->attrs);
    } catch (...) {
      node->attrs = saved;  // a rejected attribute leaves the node unchanged
      throw;
    }
  }
}

bool Symbol::GetAttr(const std::string& key, std::string* out) const {
  if (outputs.empty()) return false;
  const Node* node = outputs[0].node.get();
  for (const NodeEntry& e : outputs) {
    if (e.node.get() != node) return false;
  }
  if (key == "name") {
    *out = node->attrs.name;
    return true;
  }
  if (key == "_value_index") {  // which output of its node (MXNet's control-flow naming)
    if (outputs.size() != 1) return false;
    *out = std::to_string(outputs[0].index);
    return true;
  }
  if (key == "op_name") {
    if (node->is_variable()) return false;
    *out = node->op()->name;
    return true;
  }
  auto it = node->attrs.dict.find(key);
  if (it == node->attrs.dict.end()) return false;
  *out = it->second;
  return true;
}

std::unordered_map<std::string, std::string> Symbol::ListAttrs(ListAttrOption option) const {
  if (option == kShallow) {
    if (outputs.empty()) return {};
    return outputs[0].node->attrs.dict;
  }
  std::unordered_map<std::string, std::string> ret;
  DFSVisit(outputs, [&](const ObjectPtr& n) {
    for (const auto& kv : n->attrs.dict) ret[n->attrs.name + "$" + kv.first] = kv.second;
  });
  return ret;
}

std::vector<std::tuple<std::string, std::string, std::string>> Symbol::ListAttrsRecursive() const {
  std::vector<std::tuple<std::string, std::string, std::string>> ret;
  DFSVisit(outputs, [&](const ObjectPtr& n) {
    for (const auto& kv : n->attrs.dict) ret.emplace_back(n->attrs.name, kv.first, kv.second);
  });
  return ret;
}

void Symbol::Print(std::ostream& os) const {
  if (outputs.size() == 1 && outputs[0].node->inputs.empty() &&
      outputs[0].node->control_deps.empty() && !outputs[0].node->is_variable()) {
    os << "AtomicFunctor " << " Op:" << outputs[0].node->op()->name << '\n';
    return;
  }
  os << "Symbol Outputs:\n";
  for (size_t i = 0; i < outputs.size(); ++i) {
    os << "\toutput[" << i << "]=" << outputs[i].node->attrs.name << '(' << outputs[i].index
       << ")\n";
  }
  DFSVisit(outputs, [&](const ObjectPtr& n) {
    if (n->is_variable()) {
      os << "Variable:" << n->attrs.name << '\n';
      return;
    }
    os << "--------------------\n";
    os << "Op:" << n->op()->name << ", Name=" << n->attrs.name << '\n' << "Inputs:\n";
    for (size_t i = 0; i < n->inputs.size(); ++i) {
      const NodeEntry& e = n->inputs[i];
      os << "\targ[" << i << "]=" << e.node->attrs.name << '(' << e.index << ")";
      if (e.node->is_variable()) os << " version=" << e.version;
      os << '\n';
    }
    if (!n->attrs.dict.empty()) {
      os << "Attrs:\n";
      std::map<std::string, std::string> sorted(n->attrs.dict.begin(), n->attrs.dict.end());
      for (const auto& kv : sorted) os << '\t' << kv.first << '=' << kv.second << '\n';
    }
    if (!n->control_deps.empty()) {
      os << "Control deps:\n";
      for (size_t i = 0; i < n->control_deps.size(); ++i) {
        os << "\tcdep[" << i << "]=" << n->control_deps[i]->attrs.name << '\n';
      }
    }
  });
}

}  // namespace nnvm

namespace nnvm {

std::vector<Symbol> CutSubgraphInputs(Symbol* sym) {
  static const std::string kKey = "__subgraph_name__";
  std::vector<Symbol> cut;
  if (sym->outputs.empty()) return cut;
  const auto& head_dict = sym->outputs[0].node->attrs.dict;
  auto it = head_dict.find(kKey);
  if (it == head_dict.end()) return cut;
  const std::string subgraph_name = it->second;
  auto inside = [&](const Node* n) {
    auto a = n->attrs.dict.find(kKey);
    return a != n->attrs.dict.end() && a->second == subgraph_name;
  };
  std::vector<ObjectPtr> nodes;
  DFSVisit(sym->outputs, [&](const ObjectPtr& n) { nodes.push_back(n); });
  std::map<std::pair<const Node*, uint32_t>, NodeEntry> replaced;
  for (const ObjectPtr& n : nodes) {
    if (!inside(n.get())) continue;
    for (NodeEntry& e : n->inputs) {
      if (inside(e.node.get())) continue;
      const auto key = std::make_pair(static_cast<const Node*>(e.node.get()), e.index);
      auto r = replaced.find(key);
      if (r == replaced.end()) {
        Symbol outer;
        outer.outputs.push_back(e);
        const std::string var_name = outer.ListOutputNames()[0];
        cut.push_back(outer);
        r = replaced.emplace(key, Symbol::CreateVariable(var_name).outputs[0]).first;
      }
      e = r->second;
    }
  }
  return cut;
}

}  // namespace nnvm
