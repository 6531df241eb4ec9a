/*!
 * \file saveload_json.cc
 * \brief Symbol <-> MXNet 1.x JSON. Writes the layout MXNet 1.9.1 writes (nodes, arg_nodes,
 *        node_row_ptr, heads, attrs.mxnet_version); reads that and older files whose nodes keep
 *        attributes under "param" and "attr" and whose hidden keys lack underscores.
 */
#include <dmlc/json.h>
#include <nnvm/op_attr_types.h>
#include <nnvm/symbolic.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <sstream>

#include "../common/utf8.h"

namespace nnvm {

namespace {

void WriteJSONString(std::ostream& os, const std::string& s) {
  os << '"';
  for (char c : s) {
    switch (c) {
      case '"': os << "\\\""; break;
      case '\\': os << "\\\\"; break;
      case '\n': os << "\\n"; break;
      case '\r': os << "\\r"; break;
      case '\t': os << "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          snprintf(buf, sizeof(buf), "\\u%04x", c);
          os << buf;
        } else {
          os << c;
        }
    }
  }
  os << '"';
}

struct JEntry {
  uint32_t node{0}, index{0}, version{0};
  void Load(dmlc::JSONReader* reader) {
    reader->BeginArray();
    uint32_t vals[3] = {0, 0, 0};
    int n = 0;
    while (reader->NextArrayItem()) {
      if (n >= 3) throw dmlc::ValueError("symbol JSON: an entry has more than 3 numbers");
      reader->Read(&vals[n++]);
    }
    if (n < 2) throw dmlc::ValueError("symbol JSON: an entry needs [node, index(, version)]");
    node = vals[0];
    index = vals[1];
    version = vals[2];
  }
};

struct JGraph;

struct JNode {
  std::string op, name;
  std::map<std::string, std::string> attrs;
  std::vector<JEntry> inputs;
  std::vector<uint32_t> control_deps;
  /*! \brief Subgraphs of a control-flow node (_foreach, _while_loop, _cond). */
  std::vector<std::shared_ptr<JGraph>> subgraphs;
  void Load(dmlc::JSONReader* reader);
};

/*! \brief One graph of a file: the top-level one or a node's subgraph. */
struct JGraph {
  std::vector<JNode> nodes;
  std::vector<JEntry> heads;
  std::vector<uint32_t> arg_nodes;
  bool has_nodes{false}, has_heads{false}, has_arg_nodes{false};
  void Load(dmlc::JSONReader* reader) {
    reader->BeginObject();
    std::string key;
    while (reader->NextObjectItem(&key)) {
      if (key == "nodes") {
        reader->Read(&nodes);
        has_nodes = true;
      } else if (key == "heads") {
        reader->Read(&heads);
        has_heads = true;
      } else if (key == "arg_nodes") {
        reader->Read(&arg_nodes);  // recomputed, but checked against the nodes
        has_arg_nodes = true;
      } else {
        reader->SkipValue();  // node_row_ptr and attrs are recomputed
      }
    }
  }
};

void JNode::Load(dmlc::JSONReader* reader) {
    reader->BeginObject();
    std::string key;
    while (reader->NextObjectItem(&key)) {
      if (key == "op") {
        reader->Read(&op);
      } else if (key == "name") {
        reader->Read(&name);
      } else if (key == "attrs" || key == "attr" || key == "param") {
        std::map<std::string, std::string> m;
        reader->Read(&m);
        for (auto& kv : m) attrs[kv.first] = kv.second;
      } else if (key == "inputs") {
        reader->Read(&inputs);
      } else if (key == "control_deps") {
        reader->Read(&control_deps);
      } else if (key == "subgraphs") {
        reader->BeginArray();
        while (reader->NextArrayItem()) {
          auto g = std::make_shared<JGraph>();
          g->Load(reader);
          subgraphs.push_back(std::move(g));
        }
      } else {
        reader->SkipValue();  // backward_source_id, ...
      }
    }
}

/*!
 * \brief dmlc's JSON layout, which MXNet's files have: arrays of more than 10 items and objects
 *        of more than one key go one item per line, indented under their key.
 */
template <typename Item>
void WriteList(std::ostream& os, const std::vector<Item>& items, int indent,
               void (*write_item)(std::ostream&, const Item&)) {
  const bool multi_line = items.size() > 10;
  os << '[';
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) os << ", ";
    if (multi_line) os << '\n' << std::string(indent + 2, ' ');
    write_item(os, items[i]);
  }
  if (multi_line) os << '\n' << std::string(indent, ' ');
  os << ']';
}

void WriteUInt(std::ostream& os, const uint32_t& v) { os << v; }

void WriteTriple(std::ostream& os, const std::array<uint32_t, 3>& t) {
  os << '[' << t[0] << ", " << t[1] << ", " << t[2] << ']';
}

void WriteAttrs(std::ostream& os, const std::unordered_map<std::string, std::string>& dict,
                int indent) {
  std::map<std::string, std::string> sorted(dict.begin(), dict.end());
  const bool multi_line = sorted.size() > 1;
  os << '{';
  bool first = true;
  for (const auto& kv : sorted) {
    if (!first) os << ", ";
    first = false;
    if (multi_line) os << '\n' << std::string(indent + 2, ' ');
    WriteJSONString(os, kv.first);
    os << ": ";
    WriteJSONString(os, kv.second);
  }
  if (multi_line) os << '\n' << std::string(indent, ' ');
  os << '}';
}

}  // namespace

namespace {

/*!
 * \brief Write `sym`'s graph object; `base` is the indentation of its braces (0 at the top,
 *        deeper for a node's subgraphs, which 1.9.1 writes inline under "subgraphs").
 */
void WriteGraph(std::ostream& os, const Symbol& sym, int base, bool top) {
  std::vector<ObjectPtr> nodes;
  std::unordered_map<const Node*, uint32_t> ids;
  DFSVisit(sym.outputs, [&](const ObjectPtr& n) {
    ids[n.get()] = static_cast<uint32_t>(nodes.size());
    nodes.push_back(n);
  });
  auto triple = [&](const NodeEntry& e) {
    return std::array<uint32_t, 3>{ids.at(e.node.get()), e.index, e.version};
  };
  const std::string key_pad(base + 2, ' '), node_pad(base + 4, ' '), field_pad(base + 6, ' ');
  os << "{\n" << key_pad << "\"nodes\": [";
  std::vector<uint32_t> arg_nodes, row_ptr{0};
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node* n = nodes[i].get();
    if (n->is_variable()) arg_nodes.push_back(static_cast<uint32_t>(i));
    row_ptr.push_back(row_ptr.back() + n->num_outputs());
    os << (i ? ", \n" : "\n") << node_pad << "{\n" << field_pad << "\"op\": ";
    WriteJSONString(os, n->is_variable() ? "null" : n->op()->name);
    os << ", \n" << field_pad << "\"name\": ";
    WriteJSONString(os, n->attrs.name);
    os << ", \n";
    if (!n->attrs.dict.empty()) {
      os << field_pad << "\"attrs\": ";
      WriteAttrs(os, n->attrs.dict, base + 6);
      os << ", \n";
    }
    std::vector<std::array<uint32_t, 3>> inputs;
    for (const NodeEntry& e : n->inputs) inputs.push_back(triple(e));
    os << field_pad << "\"inputs\": ";
    WriteList(os, inputs, base + 6, WriteTriple);
    if (!n->control_deps.empty()) {
      std::vector<uint32_t> deps;
      for (const ObjectPtr& d : n->control_deps) deps.push_back(ids.at(d.get()));
      os << ", \n" << field_pad << "\"control_deps\": ";
      WriteList(os, deps, base + 6, WriteUInt);
    }
    if (!n->attrs.subgraphs.empty()) {
      os << ", \n" << field_pad << "\"subgraphs\": [";
      const std::string sub_pad(base + 8, ' ');
      for (size_t k = 0; k < n->attrs.subgraphs.size(); ++k) {
        os << (k ? ", \n" : "\n") << sub_pad;
        WriteGraph(os, *n->attrs.subgraphs[k], base + 8, false);
      }
      os << '\n' << field_pad << ']';
    }
    os << '\n' << node_pad << '}';
  }
  os << '\n' << key_pad << "], \n" << key_pad << "\"arg_nodes\": ";
  WriteList(os, arg_nodes, base + 2, WriteUInt);
  os << ", \n" << key_pad << "\"node_row_ptr\": ";
  WriteList(os, row_ptr, base + 2, WriteUInt);
  std::vector<std::array<uint32_t, 3>> heads;
  for (const NodeEntry& e : sym.outputs) heads.push_back(triple(e));
  os << ", \n" << key_pad << "\"heads\": ";
  WriteList(os, heads, base + 2, WriteTriple);
  if (top) os << ", \n" << key_pad << "\"attrs\": {\"mxnet_version\": [\"int\", 10901]}";
  os << '\n' << std::string(base, ' ') << '}';
}

}  // namespace

std::string SaveJSON(const Symbol& sym) {
  std::ostringstream os;
  WriteGraph(os, sym, 0, true);
  return os.str();
}

namespace {
Symbol BuildGraph(const JGraph& graph);
}  // namespace

Symbol LoadJSON(const std::string& json) {
  const size_t bad_byte = mxnet::common::FindInvalidUtf8(json);
  if (bad_byte != std::string::npos) {
    MX_THROW(dmlc::ValueError) << "Cannot load symbol JSON: byte " << bad_byte
                               << " is not part of valid UTF-8 text";
  }
  std::istringstream is(json);
  dmlc::JSONReader reader(&is);
  JGraph graph;
  try {
    graph.Load(&reader);
  } catch (const dmlc::Error& e) {
    MX_THROW(dmlc::ValueError) << "Cannot load symbol JSON: " << e.what();
  }
  return BuildGraph(graph);
}

namespace {

Symbol BuildGraph(const JGraph& graph) {
  const std::vector<JNode>& jnodes = graph.nodes;
  const std::vector<JEntry>& heads = graph.heads;
  const std::vector<uint32_t>& arg_nodes = graph.arg_nodes;
  const bool has_nodes = graph.has_nodes, has_heads = graph.has_heads;
  const bool has_arg_nodes = graph.has_arg_nodes;
  if (!has_nodes || !has_heads) {
    MX_THROW(dmlc::ValueError) << "Cannot load symbol JSON: no \"" << (has_nodes ? "heads" : "nodes")
                               << "\" field (not a symbol file?)";
  }
  if (heads.empty()) MX_THROW(dmlc::ValueError) << "Cannot load symbol JSON: \"heads\" is empty";
  if (has_arg_nodes) {
    for (uint32_t a : arg_nodes) {
      if (a >= jnodes.size() || !(jnodes[a].op.empty() || jnodes[a].op == "null")) {
        MX_THROW(dmlc::ValueError)
            << "Cannot load symbol JSON: arg_nodes lists " << a << ", which is "
            << (a >= jnodes.size() ? "not a node (there are " + std::to_string(jnodes.size()) +
                                         ")"
                                   : "the operator node " + jnodes[a].name);
      }
    }
  }
  const auto& hidden = HiddenKeys();
  std::vector<ObjectPtr> nodes(jnodes.size());
  for (size_t i = 0; i < jnodes.size(); ++i) {
    const JNode& jn = jnodes[i];
    ObjectPtr n = Node::Create();
    n->attrs.name = jn.name;
    for (auto& kv : jn.attrs) {
      // Old files store hidden attributes without the underscores.
      if (std::find(hidden.begin(), hidden.end(), kv.first) != hidden.end()) {
        n->attrs.dict["__" + kv.first + "__"] = kv.second;
      } else {
        n->attrs.dict[kv.first] = kv.second;
      }
    }
    if (jn.op.empty() || jn.op == "null") {
      n->attrs.op = nullptr;
      n->attrs.parsed = VariableParam();
    } else {
      const Op* op = Op::Find(jn.op);
      if (op == nullptr) {
        MX_THROW(dmlc::ValueError) << "Cannot load symbol JSON: node " << jn.name
                                   << " uses operator " << jn.op << ", which is not registered";
      }
      n->attrs.op = op;
    }
    for (const JEntry& e : jn.inputs) {
      if (e.node >= i) {
        MX_THROW(dmlc::ValueError) << "Cannot load symbol JSON: node " << jn.name
                                   << " reads node " << e.node << ", which does not precede it";
      }
      if (e.index >= nodes[e.node]->num_outputs()) {
        MX_THROW(dmlc::ValueError) << "Cannot load symbol JSON: node " << jn.name << " reads "
                                   << "output " << e.index << " of node "
                                   << nodes[e.node]->attrs.name << ", which has "
                                   << nodes[e.node]->num_outputs();
      }
      n->inputs.emplace_back(nodes[e.node], e.index, e.version);
      if (nodes[e.node]->is_variable()) {
        auto& vp = dmlc::get<VariableParam>(nodes[e.node]->attrs.parsed);
        vp.version = std::max(vp.version, e.version);
      }
    }
    for (uint32_t d : jn.control_deps) {
      if (d >= nodes.size() || !nodes[d]) {
        MX_THROW(dmlc::ValueError) << "Cannot load symbol JSON: bad control dependency of " << jn.name;
      }
      n->control_deps.push_back(nodes[d]);
    }
    for (const auto& sub : jn.subgraphs) {
      n->attrs.subgraphs.push_back(std::make_shared<Symbol>(BuildGraph(*sub)));
    }
    if (n->op() != nullptr && n->op()->attr_parser) {
      try {
        n->op()->attr_parser(&n->attrs);
      } catch (const dmlc::Error& e) {
        MX_THROW(dmlc::ValueError) << "Cannot load symbol JSON: node " << jn.name << " ("
                                   << jn.op << "): " << e.what();
      }
    }
    nodes[i] = n;
  }
  Symbol s;
  for (const JEntry& e : heads) {
    if (e.node >= nodes.size()) {
      MX_THROW(dmlc::ValueError) << "Cannot load symbol JSON: a head names node " << e.node
                                 << ", but there are " << nodes.size() << " nodes";
    }
    if (e.index >= nodes[e.node]->num_outputs()) {
      MX_THROW(dmlc::ValueError) << "Cannot load symbol JSON: a head names output " << e.index
                                 << " of node " << nodes[e.node]->attrs.name << ", which has "
                                 << nodes[e.node]->num_outputs();
    }
    s.outputs.emplace_back(nodes[e.node], e.index, e.version);
  }
  return s;
}

}  // namespace

}  // namespace nnvm
