// Flags a recurrent state fed back into a module call across iterations without being detached.
// docs: docs/rules/SL005.md
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/iteration.h"
#include "rules/rule.h"
#include "rules/support/growth.h"

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
    .fix_safety = FixSafety::Safe,
    .framework = Framework::PyTorch,
    .precision = Precision::Medium,  // no finding on bench/corpus yet
    .brief = "a recurrent state fed back across iterations without `.detach()`",
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

// The parts of a state passed as a tuple: `(h, c)`, `std::make_tuple(h, c)`,
// `std::tuple<torch::Tensor, torch::Tensor>(h, c)`; empty for anything else.
std::vector<const Expr*> tuple_parts(const ir::Module& module, const Expr* arg) {
  if (arg->kind == ExprKind::Collection) return {arg->items.begin(), arg->items.end()};
  if (arg->kind != ExprKind::Call) return {};
  const std::string q = ir::qualified_name(module, arg->callee());
  if (q != "std.make_tuple" && q != "std.tuple" && q != "std.forward_as_tuple" &&
      q != "std.make_pair" && q != "std.pair") {
    return {};
  }
  return {arg->items.begin() + 1, arg->items.end()};
}

// The argument of `call` that carries a graph and is rebound by the same statement.
std::optional<FedBack> fed_back_state(const ir::Module& module, const ir::FileAnalysis& analysis,
                                      const Expr& call,
                                      const std::vector<std::string_view>& rebound) {
  auto is_rebound = [&](const Expr* e) {
    return e->kind == ExprKind::Name &&
           std::find(rebound.begin(), rebound.end(), e->text) != rebound.end();
  };
  auto consider = [&](const Expr* arg) -> std::optional<FedBack> {
    if (is_rebound(arg) && analysis.fact(*arg).grad == ir::Grad::Yes)
      return FedBack{arg, std::string(arg->text)};
    for (const Expr* item : tuple_parts(module, arg)) {
      if (is_rebound(item) && analysis.fact(*item).grad == ir::Grad::Yes)
        return FedBack{arg, std::string(item->text)};
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

// `out` or `std::get<1>(out)` / `out[1]` for a name `out` among `results`: the value read from a
// call's result.
bool reads_result(const Expr* value, const std::vector<std::string_view>& results) {
  while (value != nullptr && value->kind == ExprKind::Subscript) value = value->base();
  return value != nullptr && value->kind == ExprKind::Name &&
         std::find(results.begin(), results.end(), value->text) != results.end();
}

// Does `target` (a name, or a tuple of them: `std::tie(out, h)`) bind `name`?
bool target_binds(const Expr* target, std::string_view name) {
  std::vector<std::string_view> names;
  bound_names(target, names);
  return std::find(names.begin(), names.end(), name) != names.end();
}

struct LaterFeedback {
  FedBack state;
  const Stmt* rebinding = nullptr;  // `h = std::get<1>(out);`
};

// The state passed into `call` (bound to `results` by `stmt`) that a later statement of the same
// loop body rebinds from those results: `auto out = gru->forward(x, h); h = std::get<1>(out);`.
std::optional<LaterFeedback> fed_back_later(const ir::Module& module,
                                            const ir::FileAnalysis& analysis, const Stmt& loop,
                                            const Stmt& stmt, const Expr& call,
                                            const std::vector<std::string_view>& results) {
  if (results.empty()) return std::nullopt;
  auto rebinding_of = [&](std::string_view name) -> const Stmt* {
    const Stmt* found = nullptr;
    ir::for_each_nested(loop.body, [&](const Stmt& s) {
      // A declaration makes a new variable (C++ block scope): it rebinds nothing carried.
      if (found != nullptr || s.kind != StmtKind::Assign ||
          s.declaration != ir::Declaration::None || s.range.begin < stmt.range.end ||
          !reads_result(s.value, results)) {
        return;
      }
      for (const Expr* target : s.targets) {
        if (target_binds(target, name)) found = &s;
      }
    });
    return found;
  };
  auto consider = [&](const Expr* arg) -> std::optional<LaterFeedback> {
    auto candidate = [&](const Expr* e) {
      return e->kind == ExprKind::Name && analysis.fact(*e).grad == ir::Grad::Yes;
    };
    if (candidate(arg)) {
      if (const Stmt* s = rebinding_of(arg->text))
        return LaterFeedback{{arg, std::string(arg->text)}, s};
    }
    for (const Expr* item : tuple_parts(module, arg)) {
      if (!candidate(item)) continue;
      if (const Stmt* s = rebinding_of(item->text))
        return LaterFeedback{{arg, std::string(item->text)}, s};
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

// `for h in hidden: h.detach_()` in the loop, or (a C++ LSTM state) `std::get<0>(state).detach_();`
// and `std::get<1>(state).detach_();`: the state is cut in place, element by element.
bool detached_element_wise(const ir::Function& function, const Stmt& loop, std::string_view state) {
  bool found = false;
  bool first = false;
  bool second = false;
  ir::for_each_nested(loop.body, [&](const Stmt& inner) {
    if (inner.kind == StmtKind::ExprStmt && inner.value != nullptr &&
        inner.value->kind == ExprKind::Call && inner.value->callee()->kind == ExprKind::Attr &&
        inner.value->callee()->text == "detach_") {
      const Expr* part = inner.value->callee()->base();
      if (part->kind == ExprKind::Subscript && part->items.size() == 2 &&
          part->base()->kind == ExprKind::Name && part->base()->text == state &&
          part->items[1]->kind == ExprKind::Const) {
        first = first || part->items[1]->text == "0";
        second = second || part->items[1]->text == "1";
      }
    }
    if (found || inner.kind != StmtKind::Loop) return;
    // `for h in hidden:`, or `it = iter(hidden)` and `h = next(it)` in a `while`.
    const Expr* parts = semantic::advanced_iterable(function, inner);
    if (parts == nullptr || parts->kind != ExprKind::Name || parts->text != state) return;
    ir::for_each_nested(inner.body, [&](const Stmt& s) {
      ir::for_each_expr(s, [&](const Expr& e) {
        if (e.kind == ExprKind::Call && e.callee()->kind == ExprKind::Attr &&
            e.callee()->text == "detach_")
          found = true;
      });
    });
  });
  return found || (first && second);
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
    std::optional<FedBack> state = fed_back_state(module, analysis, *call, rebound);
    // Or rebound by a later statement from the call's result: `auto out = gru->forward(x, h);`
    // then `h = std::get<1>(out);`.
    const Stmt* rebinding = nullptr;
    if (!state) {
      if (auto later =
              fed_back_later(module, analysis, *where.loops.back(), stmt, *call, rebound)) {
        state = later->state;
        rebinding = later->rebinding;
      }
    }
    // The argument is detached (or fresh) at the call: its history was cut.
    if (!state) return;
    const Stmt* loop = feedback_loop(analysis, function, where.loops, state->name, rebinding);
    if (loop == nullptr || detached_element_wise(function, *loop, state->name)) return;
    const std::string callee = quote(module, *call->callee()).text;
    const Region region = Region::loop(function, *loop);
    std::vector<Related> related = region.growth_evidence(analysis, state->name);
    if (rebinding != nullptr) {
      related.insert(related.end() - 1,
                     {rebinding->range,
                      fmt::format("`{}` is rebound from the call's result here", state->name)});
    }
    const bool cpp = module.language() == ir::Language::Cpp;
    // Safe where the state is one tensor: truncating backpropagation at the batch boundary is
    // what the loop means (truncated BPTT). In C++ the state's type says so.
    const bool one_tensor = state->argument->kind == ExprKind::Name &&
                            (cpp ? state->argument->type_hint == ir::TypeHint::Tensor
                                 : has_single_tensor_state(module, function, *call->callee()));
    std::optional<Fix> fix;
    if (one_tensor) {
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
            help(module, *state), std::move(related), std::move(fix))
        .probe = region.probe(module, ProbeMeasure::Growth, {std::string(state->name)});
  }

  static std::string help(const ir::Module& module, const FedBack& state) {
    const Expr& argument = *state.argument;
    if (module.language() == ir::Language::Cpp) {
      if (argument.kind == ExprKind::Name && argument.type_hint == ir::TypeHint::Tensor) {
        return fmt::format(
            "detach the state before the call: `{0} = {0}.detach();` or `{0}.detach_();`",
            state.name);
      }
      if (argument.kind == ExprKind::Name && argument.type_hint == ir::TypeHint::TensorContainer) {
        return fmt::format(
            "detach each tensor of the state before the call: `for (auto& t : {}) t.detach_();`",
            state.name);
      }
      if (argument.kind == ExprKind::Name) {
        return fmt::format(
            "detach each part of the state before the call: `{0} = "
            "std::make_tuple(std::get<0>({0}).detach(), std::get<1>({0}).detach());`",
            state.name);
      }
      std::vector<std::string> parts;
      for (const Expr* part : tuple_parts(module, &argument)) {
        if (part->kind == ExprKind::Name)
          parts.push_back(fmt::format("`{0} = {0}.detach();`", part->text));
      }
      return fmt::format("detach each part of the state before the call: {}",
                         fmt::join(parts, " "));
    }
    return argument.kind == ExprKind::Name
               ? fmt::format(
                     "detach the state before the call: `{0} = {0}.detach()` (a tuple "
                     "needs a `repackage_hidden`-style helper)",
                     state.name)
               : std::string(
                     "detach each part of the state before the call (a "
                     "`repackage_hidden`-style helper)");
  }

  // The innermost loop that runs training steps, outside of which the state lives, with no loop
  // in between creating the state anew each iteration.
  static const Stmt* feedback_loop(const ir::FileAnalysis& analysis, const ir::Function& function,
                                   const std::vector<const Stmt*>& loops, std::string_view state,
                                   const Stmt* rebinding) {
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
      const Stmt& loop = **it;
      // Re-initialised every iteration (`hidden = model.init_hidden(bs)`): the history is cut.
      // The statement rebinding the state from the call's result is no reset.
      if (ir::resets_in(loop.body, state, {}, rebinding)) return nullptr;
      // A loop that runs a written-out handful of times (`for i in range(4):` stacking a layer
      // four times to plot what it sees, backward included) chains a bounded graph.
      const bool bounded = semantic::iterates_fixed_handful(analysis.module(), function, loop);
      if ((analysis.loop_trains(loop) || analysis.is_iteration_loop(loop)) && !bounded &&
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
