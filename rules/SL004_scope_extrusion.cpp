// Flags tensors with a graph bound in a loop body, unused after the loop, still alive while later
// work in the function runs. docs: docs/rules/SL004.md
#include <algorithm>
#include <array>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/containers.h"
#include "analyzer/semantic/stored_values.h"
#include "rules/rule.h"
#include "rules/support/fixes.h"
#include "rules/support/growth.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL004",
    .name = "scope-extrusion",
    .severity = Severity::Note,
    .python = true,
    .cpp = true,
    .summary =
        "Flags tensors with an autograd graph bound in a loop body, unused after the loop, that "
        "stay "
        "alive while later work in the same function runs.",
    .fix = FixAvailability::Sometimes,
    .fix_safety = FixSafety::Unsafe,
    .framework = Framework::PyTorch,
    // 0.09 on bench/corpus (1 of 11) before it was narrowed; off by default (docs say why).
    .precision = Precision::Low,
    .brief = "a loop's last tensors kept alive, with their graph, while later work runs",
    .on_by_default = false,
};

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

struct Extruded {
  std::string_view name;
  const Expr* binding = nullptr;  // the last binding of the name in the loop
  const Stmt* stmt = nullptr;     // the statement that binds it
};

// Names the loop body binds to a value with a graph (the last binding of each wins).
std::vector<Extruded> graph_bindings(const ir::FileAnalysis& analysis, const Stmt& loop) {
  std::vector<Extruded> out;
  ir::walk_statements_in(loop.body, [&](const Stmt& stmt, bool) {
    if (stmt.kind != StmtKind::Assign && stmt.kind != StmtKind::AnnAssign) return;
    // A C++ declaration in the loop body is scoped to the iteration: nothing extrudes.
    if (stmt.declaration != ir::Declaration::None) return;
    for (const Expr* target : stmt.targets) {
      std::vector<const Expr*> names;
      ir::for_each_subexpr(*target, [&](const Expr& e) {
        if (e.kind == ExprKind::Name) names.push_back(&e);
      });
      // Only plain names and tuples of them: `self.x = ...` outlives the function anyway.
      if (target->kind != ExprKind::Name && target->kind != ExprKind::Collection) continue;
      for (const Expr* name : names) {
        const bool graph = stmt.value != nullptr && ir::holds_graph(analysis.fact(*name));
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const Extruded& e) { return e.name == name->text; });
        if (it != out.end()) out.erase(it);
        if (graph) out.push_back({name->text, name, &stmt});
      }
    }
  });
  return out;
}

bool reads_name(const Stmt& stmt, std::string_view name) {
  bool found = false;
  ir::for_each_expr(
      stmt, [&](const Expr& e) { found = found || (e.kind == ExprKind::Name && e.text == name); });
  return found;
}

// A call that does real work while the extruded tensors are alive: a model or loss, a function
// of this file, or anything computing on a tensor with a graph.
const Expr* later_work(const ir::FileAnalysis& analysis, const ir::Function& function,
                       const std::vector<const Stmt*>& after) {
  const Expr* found = nullptr;
  for (const Stmt* stmt : after) {
    ir::for_each_expr(*stmt, [&](const Expr& e) {
      if (found != nullptr || e.kind != ExprKind::Call) return;
      const ir::Fact& callee = analysis.fact(*e.callee());
      const bool model =
          callee.kind == ir::ValueKind::Module || callee.kind == ir::ValueKind::LossFn;
      const bool local = analysis.resolve_callee(function, e) != nullptr;
      bool graph_argument = false;
      for (size_t i = 0; i < e.arg_count(); ++i) {
        graph_argument = graph_argument || analysis.fact(*e.arg(i)).grad == ir::Grad::Yes;
      }
      if (model || local || graph_argument || analysis.fact(e).grad == ir::Grad::Yes) found = &e;
    });
    if (found != nullptr) break;
  }
  return found;
}

// `xs.append(name)`, `xs.append({"params": [name]})`, `d[k] = name`, `self.last = name`,
// `setattr(module, attr, name)` in the loop.
bool stored_elsewhere(const Stmt& loop, std::string_view name) {
  bool found = false;
  auto is_name = [&](const Expr* e) {
    return e != nullptr && e->kind == ExprKind::Name && e->text == name;
  };
  // The name itself, or inside a literal list, tuple, dict or set that is stored.
  auto holds_name = [&](const Expr* e) {
    bool held = false;
    if (e == nullptr) return false;
    if (e->kind != ExprKind::Collection) return is_name(e);
    ir::for_each_subexpr(*e, [&](const Expr& sub) {
      held = held || (sub.kind == ExprKind::Name && sub.text == name);
    });
    return held;
  };
  ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
    if ((stmt.kind == StmtKind::Assign || stmt.kind == StmtKind::AnnAssign) &&
        is_name(stmt.value)) {
      for (const Expr* target : stmt.targets) {
        found = found || target->kind == ExprKind::Attr || target->kind == ExprKind::Subscript;
      }
    }
    ir::for_each_expr(stmt, [&](const Expr& e) {
      if (e.kind != ExprKind::Call) return;
      if (e.callee()->kind == ExprKind::Name && e.callee()->text == "setattr") {
        found = found || is_name(e.arg(2));
        return;
      }
      if (e.callee()->kind != ExprKind::Attr) return;
      if (knowledge::container_store(e.callee()->text) == nullptr) return;
      for (size_t i = 0; i < e.arg_count(); ++i) found = found || holds_name(e.arg(i));
    });
  });
  return found;
}

// C++: `torch::Tensor step = std::move(name);` (or an assignment from it) in the loop after the
// name's last binding: the moved-from tensor holds nothing after the loop.
bool moved_from_after(const ir::Module& module, const Stmt& loop, const Extruded& e) {
  if (module.language() != ir::Language::Cpp) return false;
  bool found = false;
  ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
    if (found || (stmt.kind != StmtKind::Assign && stmt.kind != StmtKind::AnnAssign) ||
        stmt.value == nullptr || stmt.range.begin < e.binding->range.end) {
      return;
    }
    found = stmt.value->kind == ExprKind::Name && stmt.value->text == e.name && stmt.value->moved;
  });
  return found;
}

// C++: a name declared in the function before the loop (`torch::Tensor t;`). A parameter taken
// by reference or a global outlives the function, like Python's `self.x`.
bool declared_locally(const ir::Function& function, const Stmt& loop, std::string_view name) {
  bool found = false;
  ir::for_each_nested(function.body, [&](const Stmt& stmt) {
    if (found || stmt.declaration == ir::Declaration::None ||
        stmt.range.begin >= loop.range.begin ||
        (stmt.kind != StmtKind::Assign && stmt.kind != StmtKind::AnnAssign)) {
      return;
    }
    for (const Expr* target : stmt.targets) {
      found = found || (target->kind == ExprKind::Name && target->text == name);
    }
  });
  return found;
}

bool calls_backward(const std::vector<const Stmt*>& after) {
  bool found = false;
  for (const Stmt* stmt : after) {
    ir::for_each_expr(*stmt, [&](const Expr& e) {
      found = found || (e.kind == ExprKind::Call && e.callee()->kind == ExprKind::Attr &&
                        (e.callee()->text == "backward" || e.callee()->text == "manual_backward"));
    });
  }
  return found;
}

class ScopeExtrusion final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    const ir::FileAnalysis& analysis = context.analysis;
    // Grad evidence needs torch in the file.
    if (!analysis.has_torch()) return;
    for (const ir::Function& function : module.functions()) {
      // At module level every name lives as long as the script: nothing to scope.
      if (function.is_module) continue;
      // In forward() the loop's tensors are part of the graph the caller's backward needs:
      // deleting the names would free nothing.
      if (function.name == "forward" || function.name == "__call__") continue;
      ir::walk_statements(
          function, analysis.runs_without_grad(function),
          [&](const Stmt& stmt, const ir::StmtContext& where) {
            // Outermost loops only: an inner loop's names are rebound by the next outer iteration.
            if (stmt.kind != StmtKind::Loop || !where.loops.empty() || where.no_grad) return;
            check_loop(module, analysis, function, stmt, sink);
          });
    }
  }

 private:
  void check_loop(const ir::Module& module, const ir::FileAnalysis& analysis,
                  const ir::Function& function, const Stmt& loop, DiagnosticSink& sink) const {
    // A loop that calls backward frees each graph's buffers: what outlives it is one batch's
    // tensors, not a graph.
    if (analysis.loop_trains(loop)) return;
    // The function returns a graph: the loop's tensors are most likely part of it (a stage's
    // output, a view in the returned list), and deleting the names would free nothing.
    if (ir::holds_graph(analysis.summary(function).returns)) return;
    std::vector<Extruded> names = graph_bindings(analysis, loop);
    // Also kept in a container or an attribute: deleting the name would free nothing.
    std::erase_if(names, [&](const Extruded& e) { return stored_elsewhere(loop, e.name); });
    if (!names.empty()) {
      const auto feeding = semantic::names_feeding_stores(analysis, loop);
      std::erase_if(names, [&](const Extruded& e) { return feeding.contains(e.name); });
    }
    if (module.language() == ir::Language::Cpp) {
      // Moved from after its binding: it is empty when the loop ends. Not declared in the
      // function: a reference parameter or a global, meant to outlive it.
      std::erase_if(names, [&](const Extruded& e) {
        return moved_from_after(module, loop, e) || !declared_locally(function, loop, e.name);
      });
    }
    if (names.empty()) return;
    const std::vector<const Stmt*> after = ir::statements_after(function, loop);
    // Used or deleted after the loop: the name is meant to live on (or is freed already). So is
    // any name bound with it by one call (`_, hidden = rnn(x, hidden)`): they share a graph.
    auto used_after = [&](std::string_view name) {
      return std::any_of(after.begin(), after.end(),
                         [&](const Stmt* s) { return reads_name(*s, name); });
    };
    auto bound_with_a_used_name = [&](const Extruded& e) {
      bool shared = false;
      for (const Expr* target : e.stmt->targets) {
        ir::for_each_subexpr(*target, [&](const Expr& sub) {
          shared =
              shared || (sub.kind == ExprKind::Name && sub.text != e.name && used_after(sub.text));
        });
      }
      return shared;
    };
    std::erase_if(
        names, [&](const Extruded& e) { return used_after(e.name) || bound_with_a_used_name(e); });
    if (names.empty()) return;
    // A backward after the loop consumes the graph these names belong to (a REINFORCE episode):
    // deleting them would free nothing.
    if (calls_backward(after)) return;
    // The loop is the function's last work: the names go with the frame.
    const Expr* work = later_work(analysis, function, after);
    if (work == nullptr) return;
    std::sort(names.begin(), names.end(), [](const Extruded& a, const Extruded& b) {
      return a.binding->range.begin < b.binding->range.begin;
    });
    std::vector<std::string> quoted;
    std::vector<std::string_view> plain;
    for (const Extruded& e : names) {
      quoted.push_back(fmt::format("`{}`", e.name));
      plain.push_back(e.name);
    }
    const bool one = names.size() == 1;
    std::vector<Related> related;
    related.push_back(
        {work->range, fmt::format("`{}` runs while {} {} alive", quote(module, *work).text,
                                  one ? "it is" : "they are", one ? "still" : "all still")});
    related.push_back({ir::loop_header(loop), "the loop they come from"});
    sink.report(
        kInfo, names.front().binding->range,
        fmt::format(
            "{} from the loop's last iteration {} alive with {} autograd graph after the loop, "
            "while later work runs",
            fmt::join(quoted, ", "), one ? "stays" : "stay", one ? "its" : "their"),
        help(module, plain), std::move(related), del_fix(module, loop, plain));
  }

  static std::string help(const ir::Module& module, const std::vector<std::string_view>& names) {
    const bool one = names.size() == 1;
    if (module.language() == ir::Language::Cpp) {
      std::vector<std::string> resets;
      for (std::string_view name : names) resets.push_back(fmt::format("{}.reset();", name));
      return fmt::format(
          "free {} after the loop: `{}` (or declare {} inside the loop body, where {} scope ends "
          "with each iteration)",
          one ? "it" : "them", fmt::join(resets, " "), one ? "it" : "them", one ? "its" : "their");
    }
    return fmt::format("free {} after the loop: `del {}` (or move the loop body into a function)",
                       one ? "it" : "them", fmt::join(names, ", "));
  }

  // Unsafe: if the loop can run zero times the names are unbound and `del` raises NameError.
  static Fix del_fix(const ir::Module& module, const Stmt& loop,
                     const std::vector<std::string_view>& names) {
    const LinesAfter after = lines_after(module, loop);
    const std::string& indent = after.indent;
    const std::string& newline = after.newline;
    const uint32_t offset = after.offset;
    Fix fix;
    fix.safe = false;
    if (module.language() == ir::Language::Cpp) {
      // Unsafe too: a reference or a lambda's capture may still read the tensor after the loop.
      fix.title = "reset the loop's tensors after it";
      std::string text = newline;
      for (std::string_view name : names) text += fmt::format("{}{}.reset();\n", indent, name);
      fix.edits.push_back({{offset, offset}, {}, std::move(text)});
      return fix;
    }
    fix.title = "delete the loop's names after it";
    fix.edits.push_back({{offset, offset},
                         {},
                         fmt::format("{}{}del {}\n", newline, indent, fmt::join(names, ", "))});
    return fix;
  }
};

}  // namespace

std::unique_ptr<const Rule> make_sl004_scope_extrusion() {
  return std::make_unique<ScopeExtrusion>();
}

}  // namespace sealint::rules
