// Flags a recurrent state fed back into a module call across iterations without being detached.
// docs: docs/rules/SL005.md
#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "rules/loop_growth.h"
#include "rules/rule.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL005",
    .name = "hidden-state-not-detached",
    .severity = Severity::Error,
    .python = true,
    .cpp = true,
    .summary =
        "Flags a recurrent state fed back into a module call across iterations without being "
        "detached, so backward runs through every earlier iteration.",
    .fix = FixAvailability::Sometimes,
};

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

// Names bound by an assignment target: `out, hidden`, `out, (h, c)`.
void bound_names(const Expr* target, std::vector<std::string_view>& out) {
  if (target == nullptr) return;
  if (target->kind == ExprKind::Name) out.push_back(target->text);
  if (target->kind == ExprKind::Collection || target->kind == ExprKind::Starred) {
    for (const Expr* item : target->items) bound_names(item, out);
  }
}

// `model(x, hidden)[1]` is still the model's call.
const Expr* module_call(const ir::FileAnalysis& analysis, const Expr* value) {
  while (value != nullptr && value->kind == ExprKind::Subscript) value = value->base();
  if (value == nullptr || value->kind != ExprKind::Call) return nullptr;
  return is_model_call(analysis, *value) ? value : nullptr;
}

struct FedBack {
  const Expr* argument = nullptr;  // the state as passed: `hidden`, `(h, c)`
  std::string name;                // the state's name (the first one of a tuple)
};

// The argument of `call` that carries a graph and is rebound by the same statement.
std::optional<FedBack> fed_back_state(const ir::FileAnalysis& analysis, const Expr& call,
                                      const std::vector<std::string_view>& rebound) {
  auto is_rebound = [&](const Expr* e) {
    return e->kind == ExprKind::Name &&
           std::find(rebound.begin(), rebound.end(), e->text) != rebound.end();
  };
  auto consider = [&](const Expr* arg) -> std::optional<FedBack> {
    if (is_rebound(arg) && analysis.fact(*arg).grad == ir::Grad::Yes)
      return FedBack{arg, std::string(arg->text)};
    if (arg->kind == ExprKind::Collection) {
      for (const Expr* item : arg->items) {
        if (is_rebound(item) && analysis.fact(*item).grad == ir::Grad::Yes)
          return FedBack{arg, std::string(item->text)};
      }
    }
    return std::nullopt;
  };
  for (size_t i = 0; i < call.arg_count(); ++i) {
    if (auto found = consider(call.arg(i))) return found;
  }
  for (const ir::Keyword& keyword : call.keywords) {
    if (auto found = consider(keyword.value)) return found;
  }
  return std::nullopt;
}

// `for h in hidden: h.detach_()` in the loop: the state is cut in place, element by element.
bool detached_element_wise(const Stmt& loop, std::string_view state) {
  bool found = false;
  ir::for_each_nested(loop.body, [&](const Stmt& inner) {
    if (found || inner.kind != StmtKind::Loop || inner.value == nullptr ||
        inner.value->kind != ExprKind::Name || inner.value->text != state) {
      return;
    }
    ir::for_each_nested(inner.body, [&](const Stmt& s) {
      ir::for_each_expr(s, [&](const Expr& e) {
        if (e.kind == ExprKind::Call && e.callee()->kind == ExprKind::Attr &&
            e.callee()->text == "detach_")
          found = true;
      });
    });
  });
  return found;
}

// Whether `callee` is visibly a GRU/RNN (or their cells), whose state is one tensor: bound by
// `name = nn.GRU(...)` in the function or at module level, or `self.name = nn.GRU(...)` in a
// method of the class. An LSTM's `(h, c)` tuple has no `.detach()`.
bool has_single_tensor_state(const ir::Module& module, const ir::Function& function,
                             const Expr& callee) {
  const std::string key = ir::place_key(&callee);
  if (key.empty()) return false;
  std::vector<const std::vector<Stmt*>*> scopes = {&function.body, &module.top_level().body};
  if (function.parent_class != nullptr) {
    for (const ir::Function* method : function.parent_class->methods)
      scopes.push_back(&method->body);
  }
  bool single = false;
  bool other = false;
  for (const auto* body : scopes) {
    ir::for_each_nested(*body, [&](const Stmt& stmt) {
      if (stmt.kind != StmtKind::Assign || stmt.value == nullptr ||
          stmt.value->kind != ExprKind::Call)
        return;
      for (const Expr* target : stmt.targets) {
        if (ir::place_key(target) != key) continue;
        const std::string q = ir::qualified_name(module, stmt.value->callee());
        const bool gru = q == "torch.nn.GRU" || q == "torch.nn.RNN" || q == "torch.nn.GRUCell" ||
                         q == "torch.nn.RNNCell";
        single = single || gru;
        other = other || !gru;
      }
    });
  }
  return single && !other;
}

class HiddenStateNotDetached final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    const ir::FileAnalysis& analysis = context.analysis;
    // Grad evidence needs torch in the file.
    if (!analysis.has_torch()) return;
    for (const ir::Function& function : module.functions()) {
      ir::walk_statements(function, analysis.runs_without_grad(function),
                          [&](const Stmt& stmt, const ir::StmtContext& where) {
                            // Under no_grad nothing is recorded; outside a loop nothing is fed
                            // back.
                            if (where.no_grad || where.loops.empty()) return;
                            check_statement(module, analysis, function, stmt, where, sink);
                          });
    }
  }

 private:
  void check_statement(const ir::Module& module, const ir::FileAnalysis& analysis,
                       const ir::Function& function, const Stmt& stmt, const ir::StmtContext& where,
                       DiagnosticSink& sink) const {
    if (stmt.kind != StmtKind::Assign) return;
    const Expr* call = module_call(analysis, stmt.value);
    if (call == nullptr) return;
    std::vector<std::string_view> rebound;
    for (const Expr* target : stmt.targets) bound_names(target, rebound);
    const auto state = fed_back_state(analysis, *call, rebound);
    // The argument is detached (or fresh) at the call: its history was cut.
    if (!state) return;
    const Stmt* loop = feedback_loop(analysis, function, where.loops, state->name);
    if (loop == nullptr || detached_element_wise(*loop, state->name)) return;
    const std::string callee = quote(module, *call->callee()).text;
    std::vector<Related> related = growth_evidence(function, *loop, state->name);
    // Safe where the state is one tensor: truncating backpropagation at the batch boundary is
    // what the loop means (truncated BPTT).
    std::optional<Fix> fix;
    if (state->argument->kind == ExprKind::Name &&
        has_single_tensor_state(module, function, *call->callee())) {
      fix = Fix{"detach the state at the call",
                true,
                {{{state->argument->range.end, state->argument->range.end}, {}, ".detach()"}}};
    }
    sink.report(
        kInfo, state->argument->range,
        fmt::format("`{}` is fed back into `{}` with its autograd graph on every iteration, so "
                    "backward runs "
                    "through, and keeps, every earlier iteration",
                    state->name, callee),
        state->argument->kind == ExprKind::Name
            ? fmt::format("detach the state before the call: `{0} = {0}.detach()` (a tuple needs a "
                          "`repackage_hidden`-style helper)",
                          state->name)
            : std::string("detach each part of the state before the call (a "
                          "`repackage_hidden`-style helper)"),
        std::move(related), std::move(fix));
  }

  // The innermost loop that runs training steps, outside of which the state lives, with no loop
  // in between creating the state anew each iteration.
  static const Stmt* feedback_loop(const ir::FileAnalysis& analysis, const ir::Function& function,
                                   const std::vector<const Stmt*>& loops, std::string_view state) {
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
      const Stmt& loop = **it;
      // Re-initialised every iteration (`hidden = model.init_hidden(bs)`): the history is cut.
      if (ir::resets_in(loop.body, state)) return nullptr;
      if ((analysis.loop_trains(loop) || analysis.is_iteration_loop(loop)) &&
          ir::defined_outside(function, loop, state)) {
        return &loop;
      }
    }
    return nullptr;
  }
};

}  // namespace

std::unique_ptr<const Rule> make_sl005_hidden_state_not_detached() {
  return std::make_unique<HiddenStateNotDetached>();
}

}  // namespace sealint::rules
