#include "rules/SL002/kept_outputs.h"

#include <fmt/format.h>

#include "analyzer/ir/walk.h"
#include "rules/support/fixes.h"
#include "rules/support/quote.h"

namespace sealint::rules::sl002 {

namespace {

// `"loss"` or `'loss'`: a string literal spelling `key`.
bool is_string_key(const ir::Expr* expr, std::string_view key) {
  if (expr == nullptr || expr->kind != ir::ExprKind::Const ||
      expr->const_kind != ir::ConstKind::Str)
    return false;
  const std::string_view literal = expr->text;
  return literal.size() == key.size() + 2 && literal.substr(1, key.size()) == key &&
         (literal.front() == '"' || literal.front() == '\'');
}

}  // namespace

void check_kept_outputs(const ir::Module& module, const ir::FileAnalysis& analysis,
                        const ir::Function& function, const semantic::RepeatedCall& repeated,
                        const RuleInfo& info, DiagnosticSink& sink) {
  if (repeated.hook == nullptr || !repeated.autograd_on ||
      repeated.hook->outputs_kept_for.empty() || function.parent_class == nullptr)
    return;
  const knowledge::FrameworkHook& hook = *repeated.hook;
  const ir::Function* receiver = analysis.method_of(*function.parent_class, hook.outputs_kept_for);
  if (receiver == nullptr) return;
  ir::walk_statements(function, false, [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
    if (where.no_grad || stmt.kind != ir::StmtKind::Return || stmt.value == nullptr) return;
    const ir::Expr& dict = *stmt.value;
    if (dict.kind != ir::ExprKind::Collection || dict.collection_kind != ir::CollectionKind::Dict)
      return;
    for (size_t i = 0; i + 1 < dict.items.size(); i += 2) {
      const ir::Expr* key = dict.items[i];
      const ir::Expr* value = dict.items[i + 1];
      if (key == value || is_string_key(key, hook.detached_key)) continue;  // `**extra`
      const ir::Fact& fact = analysis.fact(*value);
      if (!ir::holds_graph(fact) || fact.kind == ir::ValueKind::Container) continue;
      const QuotedExpr text = quote(module, *value);
      sink.report(info, value->range,
                  fmt::format("`{}` is returned from `{}()` with its autograd graph, and {} keeps "
                              "every batch's output for `{}()`, so every batch's graph stays "
                              "alive until the epoch ends",
                              text.text, function.name, hook.framework, hook.outputs_kept_for),
                  text.complete ? fmt::format("return a detached copy: `{}`",
                                              method_on(*value, text.text, "detach()"))
                                : std::string("return a detached copy (`.detach()`)"),
                  {{receiver->name_range,
                    fmt::format("`{}()` receives every batch's output", receiver->name)},
                   {function.name_range,
                    fmt::format("{} calls `{}()` once per batch", hook.framework, function.name)}});
    }
  });
}

}  // namespace sealint::rules::sl002
