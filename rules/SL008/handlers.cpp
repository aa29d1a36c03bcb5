#include "rules/SL008/handlers.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/builtins.h"
#include "analyzer/knowledge/naming.h"
#include "rules/support/quote.h"

namespace sealint::rules::sl008 {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Handler;
using ir::Stmt;
using ir::StmtKind;

// The longest type list a message quotes: `except (RuntimeError, torch.cuda.OutOfMemoryError)`.
constexpr size_t kMaxTypesQuote = 60;

// `batch_size //= 2`, `bs -= 1`, `self.batch_size = max(1, self.batch_size // 2)`.
bool lowers_batch_size(const Stmt& stmt) {
  if (stmt.targets.size() != 1 || stmt.value == nullptr) return false;
  const std::string key = ir::place_key(stmt.targets[0]);
  if (key.empty() || !knowledge::is_batch_size_name(key)) return false;
  if (stmt.kind == StmtKind::AugAssign)
    return stmt.text == "-=" || stmt.text == "//=" || stmt.text == "/=" || stmt.text == ">>=";
  return stmt.kind == StmtKind::Assign && ir::reads_place(stmt.value, key);
}

}  // namespace

knowledge::MemoryCatch handler_catch(const ir::Module& module, const Handler& handler) {
  if (handler.types.empty()) return knowledge::MemoryCatch::Broad;  // `except:`, `catch (...)`
  knowledge::MemoryCatch out = knowledge::MemoryCatch::Other;
  if (module.language() == ir::Language::Cpp) {
    for (const Expr* type : handler.types)
      out = std::max(out, knowledge::cpp_memory_catch(ir::qualified_name(module, type)));
    return out;
  }
  for_each_caught(module, handler, [&](std::string_view name) {
    out = std::max(out, knowledge::memory_catch(name));
  });
  return out;
}

bool catches_lookup_error(const ir::Module& module, const Handler& handler) {
  bool lookup = false;
  for_each_caught(module, handler, [&](std::string_view name) {
    lookup = lookup || knowledge::is_lookup_error(name);
  });
  return lookup;
}

void for_each_caught(const ir::Module& module, const Handler& handler,
                     const std::function<void(std::string_view)>& visit) {
  std::vector<const Expr*> types(handler.types.begin(), handler.types.end());
  for (size_t i = 0; i < types.size(); ++i) {
    const Expr* type = types[i];
    if (type->kind == ExprKind::Collection) {  // `except (RuntimeError, ValueError):`
      types.insert(types.end(), type->items.begin(), type->items.end());
      continue;
    }
    const std::string qualified = ir::qualified_name(module, type);
    visit(knowledge::last_component(qualified));
  }
}

std::string handler_words(const ir::Module& module, const Handler& handler) {
  if (module.language() == ir::Language::Cpp) {
    if (handler.types.empty()) return "the `catch (...)` handler";
    const QuotedExpr type = quote_range(module, handler.types.front()->range, kMaxTypesQuote);
    return type.complete ? fmt::format("the `catch ({})` handler", type.text)
                         : "the `catch` handler";
  }
  if (handler.types.empty()) return "the bare `except` handler";
  const QuotedExpr types =
      quote_range(module, {handler.types.front()->range.begin, handler.types.back()->range.end},
                  kMaxTypesQuote);
  if (!types.complete) return "the `except` handler";
  return fmt::format("the `except {}` handler", types.text);
}

bool handler_mentions_memory(const ir::Module& module, const Handler& handler) {
  bool found = false;
  ir::for_each_nested(handler.body, [&](const Stmt& stmt) {
    if (found) return;
    if (lowers_batch_size(stmt)) found = true;
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (found) return;
      if (expr.kind == ExprKind::Const && expr.const_kind == ir::ConstKind::Str &&
          knowledge::mentions_out_of_memory(expr.text)) {
        found = true;
      }
      if ((expr.kind == ExprKind::Name || expr.kind == ExprKind::Attr) &&
          expr.text == "OutOfMemoryError") {
        found = true;
      }
      if (expr.kind == ExprKind::Call &&
          knowledge::empties_device_cache(ir::qualified_name(module, expr.callee()))) {
        found = true;
      }
    });
  });
  return found;
}

bool handler_clears_frames(const ir::Module& module, const Handler& handler) {
  bool found = false;
  ir::for_each_nested(handler.body, [&](const Stmt& stmt) {
    if (stmt.kind == StmtKind::Assign && ir::is_none_literal(stmt.value)) {
      for (const Expr* target : stmt.targets) {
        if (target->kind == ExprKind::Attr && target->text == "__traceback__") found = true;
      }
    }
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (expr.kind != ExprKind::Call) return;
      const Expr* callee = expr.callee();
      if (ir::qualified_name(module, callee) == "traceback.clear_frames") found = true;
      if (callee->kind == ExprKind::Attr && callee->text == "with_traceback" &&
          expr.arg_count() == 1 && ir::is_none_literal(expr.arg(0))) {
        found = true;
      }
    });
  });
  return found;
}

bool ends_in_raise(const Handler& handler) {
  return !handler.body.empty() && handler.body.back()->kind == StmtKind::Raise;
}

const Expr* statement_call(const Stmt& stmt) {
  if (stmt.kind != StmtKind::ExprStmt && stmt.kind != StmtKind::Assign &&
      stmt.kind != StmtKind::AnnAssign && stmt.kind != StmtKind::AugAssign &&
      stmt.kind != StmtKind::Return) {
    return nullptr;
  }
  const Expr* value = stmt.value;
  if (value != nullptr && value->kind == ExprKind::Await) value = value->base();
  return value != nullptr && value->kind == ExprKind::Call ? value : nullptr;
}

std::string retryable_callee(const Expr& call) {
  const Expr* callee = call.callee();
  const bool self_method = callee->kind == ExprKind::Attr &&
                           callee->base()->kind == ExprKind::Name &&
                           callee->base()->text == ir::kReceiver;
  if ((callee->kind != ExprKind::Name && !self_method) ||
      knowledge::kBuiltinsRunningNoStep.contains(callee->text))
    return {};
  // Bookkeeping a handler repeats on purpose: `log_metrics(...)`, `self.save_state()`; and a
  // call handed only text (`notify("oom")`, `emit(f"failed at {n}")`), whatever it is called:
  // it reports, it runs no step.
  if (knowledge::is_bookkeeping_name(callee->text)) return {};
  bool only_text = call.arg_count() > 0 && call.keywords.empty();
  for (size_t i = 0; i < call.arg_count() && only_text; ++i) {
    only_text =
        call.arg(i)->kind == ExprKind::Const && call.arg(i)->const_kind == ir::ConstKind::Str;
  }
  if (only_text) return {};
  return ir::dotted_name(callee);
}

}  // namespace sealint::rules::sl008
