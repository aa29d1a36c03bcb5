#pragma once
// The tree-sitter-python node kinds and fields the lowering uses, resolved once from the pinned
// grammar into a read-only table shared by every worker.
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "analyzer/core/result.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace sealint::python {

// clang-format off
#define SEALINT_PYTHON_NODE_KINDS(X) \
  X(module) \
  X(block) \
  X(comment) \
  X(expression_statement) \
  X(assignment) \
  X(augmented_assignment) \
  X(return_statement) \
  X(break_statement) \
  X(delete_statement) \
  X(for_statement) \
  X(while_statement) \
  X(if_statement) \
  X(elif_clause) \
  X(else_clause) \
  X(with_statement) \
  X(with_clause) \
  X(with_item) \
  X(as_pattern) \
  X(try_statement) \
  X(except_clause) \
  X(except_group_clause) \
  X(finally_clause) \
  X(function_definition) \
  X(decorated_definition) \
  X(decorator) \
  X(class_definition) \
  X(import_statement) \
  X(import_from_statement) \
  X(future_import_statement) \
  X(aliased_import) \
  X(dotted_name) \
  X(relative_import) \
  X(wildcard_import) \
  X(global_statement) \
  X(nonlocal_statement) \
  X(raise_statement) \
  X(match_statement) \
  X(case_clause) \
  X(parameters) \
  X(lambda_parameters) \
  X(default_parameter) \
  X(typed_parameter) \
  X(typed_default_parameter) \
  X(list_splat_pattern) \
  X(dictionary_splat_pattern) \
  X(identifier) \
  X(attribute) \
  X(call) \
  X(argument_list) \
  X(keyword_argument) \
  X(binary_operator) \
  X(unary_operator) \
  X(not_operator) \
  X(boolean_operator) \
  X(comparison_operator) \
  X(subscript) \
  X(slice) \
  X(integer) \
  X(float) \
  X(string) \
  X(concatenated_string) \
  X(true) \
  X(false) \
  X(none) \
  X(ellipsis) \
  X(list) \
  X(tuple) \
  X(set) \
  X(dictionary) \
  X(pair) \
  X(dictionary_splat) \
  X(list_splat) \
  X(parenthesized_expression) \
  X(expression_list) \
  X(pattern_list) \
  X(tuple_pattern) \
  X(list_pattern) \
  X(list_comprehension) \
  X(set_comprehension) \
  X(dictionary_comprehension) \
  X(generator_expression) \
  X(for_in_clause) \
  X(if_clause) \
  X(lambda) \
  X(conditional_expression) \
  X(await) \
  X(named_expression) \
  X(yield)
// clang-format on

enum class NodeKind {
  Unknown,
#define SEALINT_ENUM(name) k_##name,
  SEALINT_PYTHON_NODE_KINDS(SEALINT_ENUM)
#undef SEALINT_ENUM
};

struct PythonFields {
  TSFieldId left, right, body, condition, consequence, alternative, value, name, alias, function,
      arguments, object, attribute, operator_, operators, subscript, argument, module_name,
      definition, superclasses, parameters, key, type;
};

class PythonGrammar {
 public:
  // Fails when the grammar's ABI does not load in this runtime, or when a node kind or field
  // the lowering switches on is missing from it (a grammar upgrade that renamed one).
  [[nodiscard]] static Result<PythonGrammar> load();

  const TSLanguage* language() const { return language_; }
  NodeKind kind(TSNode node) const {
    const TSSymbol symbol = ts_node_symbol(node);
    return symbol < kinds_.size() ? kinds_[symbol] : NodeKind::Unknown;
  }
  const PythonFields& fields() const { return fields_; }

 private:
  const TSLanguage* language_ = nullptr;
  std::vector<NodeKind> kinds_;  // by symbol id; aliases of a name map to the same kind
  PythonFields fields_{};
};

}  // namespace sealint::python
