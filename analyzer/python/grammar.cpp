#include "analyzer/python/grammar.h"

#include <array>
#include <cstring>
#include <utility>

#include <fmt/format.h>

namespace sealint::python {

namespace {

constexpr std::array kKindNames = {
#define SEALINT_NAME(name) std::pair{std::string_view(#name), NodeKind::k_##name},
    SEALINT_PYTHON_NODE_KINDS(SEALINT_NAME)
#undef SEALINT_NAME
};

}  // namespace

Result<PythonGrammar> PythonGrammar::load() {
  PythonGrammar grammar;
  grammar.language_ = tree_sitter_python();
  const uint32_t abi = ts_language_version(grammar.language_);
  if (abi < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION || abi > TREE_SITTER_LANGUAGE_VERSION) {
    return make_error(
        fmt::format("tree-sitter-python has ABI {}, this tree-sitter runtime loads {} to {}", abi,
                    TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION, TREE_SITTER_LANGUAGE_VERSION));
  }
  const uint32_t symbol_count = ts_language_symbol_count(grammar.language_);
  grammar.kinds_.assign(symbol_count, NodeKind::Unknown);
  std::vector<bool> seen(kKindNames.size(), false);
  for (uint32_t symbol = 0; symbol < symbol_count; ++symbol) {
    const auto id = static_cast<TSSymbol>(symbol);
    if (ts_language_symbol_type(grammar.language_, id) != TSSymbolTypeRegular) continue;
    const std::string_view name = ts_language_symbol_name(grammar.language_, id);
    for (size_t k = 0; k < kKindNames.size(); ++k) {
      if (kKindNames[k].first == name) {
        grammar.kinds_[symbol] = kKindNames[k].second;
        seen[k] = true;
      }
    }
  }
  for (size_t k = 0; k < kKindNames.size(); ++k) {
    if (!seen[k])
      return make_error(
          fmt::format("tree-sitter-python lacks node kind '{}'", kKindNames[k].first));
  }

  std::string missing;
  auto field = [&](const char* name) {
    const TSFieldId id = ts_language_field_id_for_name(grammar.language_, name,
                                                       static_cast<uint32_t>(std::strlen(name)));
    if (id == 0) missing = name;
    return id;
  };
  PythonFields& f = grammar.fields_;
  f.left = field("left");
  f.right = field("right");
  f.body = field("body");
  f.condition = field("condition");
  f.consequence = field("consequence");
  f.alternative = field("alternative");
  f.value = field("value");
  f.name = field("name");
  f.alias = field("alias");
  f.function = field("function");
  f.arguments = field("arguments");
  f.object = field("object");
  f.attribute = field("attribute");
  f.operator_ = field("operator");
  f.operators = field("operators");
  f.subscript = field("subscript");
  f.argument = field("argument");
  f.module_name = field("module_name");
  f.definition = field("definition");
  f.superclasses = field("superclasses");
  f.parameters = field("parameters");
  f.key = field("key");
  f.type = field("type");
  if (!missing.empty())
    return make_error(fmt::format("tree-sitter-python lacks field '{}'", missing));
  return grammar;
}

}  // namespace sealint::python
