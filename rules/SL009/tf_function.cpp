// `tf.function` made inside a loop: every iteration traces and builds a new graph instead of
// reusing one.
#include <string>

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/tensorflow_api.h"
#include "rules/SL009/checks.h"
#include "rules/support/quote.h"

namespace sealint::rules::sl009 {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

// Is the function `name` called in a loop nested in `loop`? One trace then serves many steps (a
// fresh step function per model of a search is the point).
bool called_in_inner_loop(const Stmt& loop, std::string_view name) {
  bool called = false;
  ir::for_each_nested(loop.body, [&](const Stmt& inner) {
    if (called || inner.kind != StmtKind::Loop) return;
    ir::for_each_nested(inner.body, [&](const Stmt& s) {
      ir::for_each_evaluated_expr(s, [&](const Expr& e) {
        if (e.kind == ExprKind::Call && ir::place_key(e.callee()) == name) called = true;
      });
    });
  });
  return called;
}

// The `@tf.function` decorator or `tf.function(f)` call the statement makes, and the name it
// binds (empty when it binds none).
const Expr* made_function(const ir::Module& module, const Stmt& stmt, std::string& name) {
  if (stmt.kind == StmtKind::FunctionDef && stmt.function != nullptr) {
    for (const Expr* decorator : stmt.function->decorators) {
      if (semantic::is_tf_function(module, decorator)) {
        name = std::string(stmt.function->name);
        return decorator;
      }
    }
    return nullptr;
  }
  const Expr* made = nullptr;
  ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
    if (made != nullptr || e.kind != ExprKind::Call || e.arg_count() == 0) return;
    const semantic::TfApiRef ref = semantic::tf_api_of(module, e.callee());
    if (ref.api != semantic::TfApi::Tf || ref.path != "function") return;
    made = &e;
    if (stmt.kind == StmtKind::Assign && stmt.targets.size() == 1 && stmt.value == &e)
      name = ir::place_key(stmt.targets[0]);
  });
  return made;
}

}  // namespace

void check_tf_functions(const ir::Module& module, DiagnosticSink& sink) {
  ir::walk_statements_in_loops(
      module, [&](const ir::Function&, const Stmt& stmt, const ir::StmtContext& where) {
        const Stmt& loop = *where.loops.back();
        std::string name;
        const Expr* primary = made_function(module, stmt, name);
        // The statement makes nothing of the kind.
        if (primary == nullptr) return;
        // Called in an inner loop: one trace serves many steps.
        if (!name.empty() && called_in_inner_loop(loop, name)) return;
        const std::string what =
            name.empty() ? std::string("a new function") : fmt::format("a new function `{}`", name);
        sink.report(info(), primary->range,
                    fmt::format("`{}` makes {} on every iteration, so every iteration traces and "
                                "builds a new graph instead of reusing one",
                                quote(module, *primary).text, what),
                    "define the `tf.function` once, outside the loop, and call it inside",
                    {{ir::loop_header(loop), "the loop that repeats it"}}, std::nullopt,
                    Severity::Warning);
      });
}

}  // namespace sealint::rules::sl009
