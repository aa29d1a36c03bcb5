#include "analyzer/python/frontend.h"

#include <fmt/format.h>

#include "analyzer/python/lowering.h"

namespace sealint::python {

Result<PythonFrontend> PythonFrontend::create(const PythonGrammar& grammar) {
  ts::ParserPtr parser(ts_parser_new());
  if (!ts_parser_set_language(parser.get(), grammar.language())) {
    return make_error(fmt::format("cannot load tree-sitter-python (ABI {}) into tree-sitter runtime (ABI {})",
                                  ts_language_version(grammar.language()), TREE_SITTER_LANGUAGE_VERSION));
  }
  return PythonFrontend(grammar, std::move(parser));
}

Result<ts::TreePtr> PythonFrontend::parse(const SourceFile& file) {
  const std::string_view code = file.code();
  ts::TreePtr tree(ts_parser_parse_string(parser_.get(), nullptr, code.data(), static_cast<uint32_t>(code.size())));
  if (!tree) {
    ts_parser_reset(parser_.get());
    return make_error(fmt::format("'{}': the parser gave up on this file", file.path()));
  }
  return tree;
}

Result<bool> PythonFrontend::parse_only(const SourceFile& file) {
  auto tree = parse(file);
  if (!tree) return make_error(tree.error());
  return true;
}

Result<LoweredFile> PythonFrontend::lower(std::shared_ptr<const SourceFile> file) {
  auto tree = parse(*file);
  if (!tree) return make_error(tree.error());
  LoweredFile out;
  out.module = std::make_unique<ir::Module>(file, ir::Language::Python);
  lower_tree(*grammar_, ts_tree_root_node(tree->get()), *out.module, out.problems);
  return out;
}

}  // namespace sealint::python
