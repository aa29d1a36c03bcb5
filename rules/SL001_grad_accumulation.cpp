// Flags a tensor that carries an autograd graph accumulated into a variable that outlives the loop
// iteration. docs: docs/rules/SL001.md
#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/torch_api.h"
#include "analyzer/semantic/effect_calls.h"
#include "rules/rule.h"
#include "rules/support/growth.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL001",
    .name = "grad-accumulation",
    .severity = Severity::Error,
    .python = true,
    .cpp = true,
    .summary =
        "Flags a tensor that carries an autograd graph accumulated into a variable that outlives "
        "the loop "
        "iteration.",
    .fix = FixAvailability::Sometimes,
    .fix_safety = FixSafety::Unsafe,
    .framework = Framework::PyTorch,
    .precision = Precision::High,  // 1.00 on bench/corpus (8 of 8)
    .brief =
        "a tensor with an autograd graph summed into something that outlives the loop iteration",
};

using ir::Expr;
using ir::ExprKind;
using ir::Grad;
using ir::Stmt;
using ir::StmtKind;

struct Accumulation {
  const Expr* target = nullptr;
  const Expr* value = nullptr;  // the grad operand
  std::string key;
  // The place is read through a product (`avg = m * avg + (1 - m) * v`, a running average) or
  // updated in place (`avg.mul_(m).add_(v)`): the shape of a statistic kept across calls.
  bool running_statistic = false;
  // One edit of `value` fixes the statement (not so in a conditional expression, whose other
  // branch may keep a graph: `avg = loss if avg is None else 0.9 * avg + 0.1 * loss`).
  bool fixable = true;
};

// The operands of a chain of + and - (`total + loss * n - x` -> total, loss * n, x).
void additive_operands(const Expr* expr, std::vector<const Expr*>& out) {
  std::vector<const Expr*> stack = {expr};
  while (!stack.empty()) {
    const Expr* e = stack.back();
    stack.pop_back();
    if (e->kind == ExprKind::BinOp && (e->text == "+" || e->text == "-")) {
      stack.push_back(e->items[1]);
      stack.push_back(e->items[0]);
    } else {
      out.push_back(e);
    }
  }
}

// `.item()` for a 0-d value (a loss); `.detach()` for a batch, where `.item()` would fail.
std::string_view sanitizer(const ir::Module& module, const Expr& value, bool scalar) {
  return scalar ? item_method(module, value) : "detach()";
}

bool is_graph_value(const ir::FileAnalysis& analysis, const Expr* value) {
  const ir::Fact& fact = analysis.fact(*value);
  return fact.grad == Grad::Yes && fact.kind != ir::ValueKind::Container;
}

// `m * avg`, `avg * m`: the place scaled by a factor.
bool is_scaled_place(const Expr* operand, std::string_view key) {
  if (operand->kind != ExprKind::BinOp || operand->text != "*") return false;
  return ir::place_key(operand->items[0]) == key || ir::place_key(operand->items[1]) == key;
}

// Does a part of `expr` that is not the place `key` carry a graph of its own (a value with grad
// that is no bare leaf)?
bool graph_from_elsewhere(const ir::FileAnalysis& analysis, const Expr& expr,
                          std::string_view key) {
  // A part that does not read the place: its own fact says.
  if (!ir::reads_place(&expr, key)) return ir::holds_graph(analysis.fact(expr));
  if (ir::place_key(&expr) == key) return false;
  for (const Expr* item : expr.items) {
    if (item != nullptr && graph_from_elsewhere(analysis, *item, key)) return true;
  }
  for (const ir::Keyword& keyword : expr.keywords) {
    if (keyword.value != nullptr && graph_from_elsewhere(analysis, *keyword.value, key))
      return true;
  }
  return false;
}

// In-place updates of a place with a grad value: `avg.mul_(m).add_(v)`, `total.add_(loss)`,
// `avg.lerp_(v, w)`, `buf.copy_(f(buf, v))`. The receiver chain of in-place calls leads to the
// place; the update makes the place's history reach every earlier call's graph.
std::optional<Accumulation> match_in_place(const ir::FileAnalysis& analysis, const Stmt& stmt) {
  if (stmt.kind != StmtKind::ExprStmt || stmt.value == nullptr ||
      stmt.value->kind != ExprKind::Call || stmt.value->callee()->kind != ExprKind::Attr) {
    return std::nullopt;
  }
  const Expr* call = stmt.value;
  const Expr* grad_arg = nullptr;
  bool copies = false;
  while (call->kind == ExprKind::Call && call->callee()->kind == ExprKind::Attr &&
         knowledge::kInPlaceUpdates.contains(call->callee()->text)) {
    copies = copies || call->callee()->text == "copy_";
    for (size_t i = 0; i < call->arg_count() && grad_arg == nullptr; ++i) {
      if (is_graph_value(analysis, call->arg(i))) grad_arg = call->arg(i);
    }
    call = call->callee()->base();
  }
  Accumulation acc;
  acc.key = ir::place_key(call);
  if (acc.key.empty() || grad_arg == nullptr || call == stmt.value) return std::nullopt;
  // `buf.copy_(v)` replaces the value: only a copy that reads the place keeps the old history,
  // and only when something else brings a graph in: `p.copy_((p + step).max(floor))` with a
  // number `step` adjusts a buffer by itself.
  if (copies &&
      (!ir::reads_place(grad_arg, acc.key) || !graph_from_elsewhere(analysis, *grad_arg, acc.key)))
    return std::nullopt;
  acc.target = call;
  acc.value = grad_arg;
  acc.running_statistic = true;
  return acc;
}

// `total += loss`, `total -= loss`, `total = total + loss`, `total = loss + total`, and the
// running statistics `avg = 0.9 * avg + 0.1 * loss`, `mean = (mean * i + loss) / (i + 1)`.
std::optional<Accumulation> match(const ir::FileAnalysis& analysis, const Stmt& stmt) {
  if (stmt.targets.size() != 1 || stmt.value == nullptr) return std::nullopt;
  Accumulation acc;
  acc.target = stmt.targets[0];
  acc.key = ir::place_key(acc.target);
  if (acc.key.empty()) return std::nullopt;
  if (stmt.kind == StmtKind::AugAssign) {
    if (stmt.text != "+=" && stmt.text != "-=") return std::nullopt;
    if (!is_graph_value(analysis, stmt.value)) return std::nullopt;
    acc.value = stmt.value;
    return acc;
  }
  if (stmt.kind != StmtKind::Assign) return std::nullopt;
  const Expr* sum = stmt.value;
  // `avg = loss if avg is None else 0.9 * avg + 0.1 * loss`: the branch that reads the place.
  if (sum->kind == ExprKind::IfExp && sum->items.size() == 3) {
    sum = ir::reads_place(sum->items[2], acc.key) ? sum->items[2] : sum->items[0];
    acc.fixable = false;
  }
  // `mean = (mean * i + loss) / (i + 1)`: a running mean, a sum divided by a count.
  while (sum->kind == ExprKind::BinOp && sum->text == "/") {
    sum = sum->items[0];
    acc.running_statistic = true;
  }
  if (sum->kind != ExprKind::BinOp) return std::nullopt;
  std::vector<const Expr*> operands;
  additive_operands(sum, operands);
  bool reads_self = false;
  for (const Expr* operand : operands) {
    if (ir::place_key(operand) == acc.key) {
      reads_self = true;
    } else if (is_scaled_place(operand, acc.key)) {
      reads_self = true;
      acc.running_statistic = true;
    } else if (acc.value == nullptr && is_graph_value(analysis, operand)) {
      acc.value = operand;
    }
  }
  if (!reads_self || acc.value == nullptr) return std::nullopt;
  return acc;
}

class GradAccumulation final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    const ir::FileAnalysis& analysis = context.analysis;
    // Grad evidence needs torch in the file: plain Python with a `loss` is not a training script.
    if (!analysis.has_torch()) return;
    for (const ir::Function& function : module.functions()) {
      // A framework calling the function once per batch repeats it as a loop does.
      const bool repeated = semantic::repeated_by_framework(analysis, function).has_value();
      ir::walk_statements(function, analysis.runs_without_grad(function),
                          [&](const Stmt& stmt, const ir::StmtContext& where) {
                            // Under no_grad the sum records no graph.
                            if (where.no_grad) return;
                            std::optional<Accumulation> acc = match(analysis, stmt);
                            if (!acc) acc = match_in_place(analysis, stmt);
                            if (acc)
                              check_accumulation(module, analysis, function, where, stmt, *acc,
                                                 sink);
                            if (!where.loops.empty() || repeated)
                              check_method_calls(module, analysis, function, where, stmt, sink);
                          });
    }
  }

 private:
  // `total += loss` in a loop; `self.total += loss` in Lightning's `training_step`, or
  // `self.avg = m * self.avg + (1 - m) * v` in `forward()`, which the framework calls once per
  // batch while `self` keeps the sum. In `forward()` only a running statistic counts: a plain sum
  // there is often an auxiliary loss that the training step reads and resets.
  static void check_accumulation(const ir::Module& module, const ir::FileAnalysis& analysis,
                                 const ir::Function& function, const ir::StmtContext& where,
                                 const Stmt& stmt, const Accumulation& acc, DiagnosticSink& sink) {
    const std::optional<Region> region = growth_region(analysis, function, where.loops, acc.key);
    if (!region || (region->is_forward() && !acc.running_statistic)) return;
    const QuotedExpr value = quote(module, *acc.value);
    const std::string target = quote(module, *acc.target).text;
    const bool scalar = analysis.fact(*acc.value).scalar;
    std::optional<Fix> fix;
    if (scalar && acc.fixable) fix = item_fix(module, *acc.value);
    const std::string sanitized =
        method_on(*acc.value, value.text, sanitizer(module, *acc.value, scalar));
    std::string help;
    if (!value.complete) {
      help = fmt::format("add a number instead: call `.{}` on the added value",
                         sanitizer(module, *acc.value, scalar));
    } else if (acc.running_statistic) {
      help = fmt::format("use a value without a graph: `{}`", sanitized);
    } else {
      help = fmt::format("add a {} instead: `{} += {}`", scalar ? "number" : "detached value",
                         target, sanitized);
    }
    sink.report(kInfo, stmt.range,
                fmt::format("`{}` is {} `{}` with its autograd graph{}, so every {}'s graph stays "
                            "alive",
                            value.text, acc.running_statistic ? "folded into" : "added to", target,
                            region->repeats_clause(), region->unit()),
                std::move(help), region->growth_evidence(analysis, acc.key), std::move(fix))
        .probe = region->probe(module, ProbeMeasure::Growth, {acc.key});
  }

  // `meter.update(loss)` where the file's `update(self, val)` does `self.sum += val`.
  void check_method_calls(const ir::Module& module, const ir::FileAnalysis& analysis,
                          const ir::Function& function, const ir::StmtContext& where,
                          const Stmt& stmt, DiagnosticSink& sink) const {
    // The file's own class, or one another file of the project defines (`AverageMeter` from
    // utils/meters.py).
    semantic::for_each_effect_call(
        analysis, stmt, ir::SelfEffect::Kind::Accumulate, [&](const semantic::EffectCall& at) {
          const Expr& call = at.call;
          const ir::Callee& method = at.method;
          const ir::SelfEffect& effect = at.effect;
          bool more = false;
          const Expr* arg = grad_argument(analysis, call, method, effect.params, &more);
          if (arg == nullptr) {
            return effect.local_grad && method.local != nullptr &&
                   !analysis.runs_without_grad(*method.local) &&
                   !arguments_without_graph(analysis, call, method, effect.params) &&
                   report_local_effect(module, analysis, function, where, call, *method.local,
                                       at.receiver, effect, sink);
          }
          const std::string receiver_key = ir::place_key(call.callee()->base());
          if (receiver_key.empty()) return false;
          const std::string key = receiver_key + "." + effect.attr;
          const std::optional<Region> region =
              growth_region(analysis, function, where.loops, key,
                            reset_methods_for(analysis, at.receiver, effect.attr));
          // In `forward()` only a running statistic counts (check_accumulation).
          if (!region || region->is_forward()) return false;
          const QuotedExpr value = quote(module, *arg);
          const std::string_view class_name = at.owner();
          const std::string owner = class_name.empty() ? "" : std::string(class_name) + ".";
          std::vector<Related> related = region->growth_evidence(analysis, receiver_key);
          if (effect.stmt != nullptr) {
            related.insert(
                related.begin(),
                {effect.stmt->range, fmt::format("`{}()` adds its argument to `self.{}` here",
                                                 method.name(), effect.attr)});
          }
          const bool scalar = analysis.fact(*arg).scalar;
          sink.report(kInfo, call.range,
                      fmt::format("`{}` is accumulated into `{}` by `{}{}()`{} with its autograd "
                                  "graph{}, so every {}'s graph stays alive",
                                  value.text, key, owner, method.name(),
                                  defined_elsewhere(sink.file(), at.receiver),
                                  region->repeats_clause(), region->unit()),
                      more             ? fmt::format("pass numbers: call `.{}` on each element",
                                                     sanitizer(module, *arg, scalar))
                      : value.complete ? fmt::format("pass a number: `{}`",
                                                     method_on(*arg, value.text,
                                                               sanitizer(module, *arg, scalar)))
                                       : fmt::format("pass a number: call `.{}` on the argument",
                                                     sanitizer(module, *arg, scalar)),
                      std::move(related),
                      // One edit would leave the other elements' graphs.
                      scalar && !more ? std::optional<Fix>(item_fix(module, *arg)) : std::nullopt)
              .probe = region->probe(module, ProbeMeasure::Growth, {key});
          return true;
        });
  }

  // `self.step(batch)` in a loop where the file's `step()` does `self.total += loss` with a
  // loss it computes itself.
  bool report_local_effect(const ir::Module& module, const ir::FileAnalysis& analysis,
                           const ir::Function& function, const ir::StmtContext& where,
                           const Expr& call, const ir::Function& method,
                           const ir::Fact& receiver_fact, const ir::SelfEffect& effect,
                           DiagnosticSink& sink) const {
    const std::string receiver_key = ir::place_key(call.callee()->base());
    if (receiver_key.empty() || effect.stmt == nullptr || effect.stmt->value == nullptr)
      return false;
    const std::string key = receiver_key + "." + effect.attr;
    const std::optional<Region> region =
        growth_region(analysis, function, where.loops, key,
                      reset_methods_for(analysis, receiver_fact, effect.attr));
    if (!region || region->is_forward()) return false;
    const Expr& value = *effect.stmt->value;
    const QuotedExpr text = quote(module, value);
    std::vector<Related> related = region->growth_evidence(analysis, receiver_key);
    related.insert(related.begin(),
                   {effect.stmt->range, fmt::format("`{}()` adds `{}` to `self.{}` here",
                                                    method.name, text.text, effect.attr)});
    const bool scalar = analysis.fact(value).scalar;
    sink.report(
            kInfo, call.range,
            fmt::format("`{}()` adds `{}` to `{}` with its autograd graph on every call{}, so "
                        "every {}'s graph stays alive",
                        method.name, text.text, key, region->repeats_clause(), region->unit()),
            text.complete
                ? fmt::format("add a number in `{}()`: `self.{} += {}`", method.name, effect.attr,
                              method_on(value, text.text, sanitizer(module, value, scalar)))
                : fmt::format("add a number in `{}()`: call `.{}` on the added value", method.name,
                              sanitizer(module, value, scalar)),
            std::move(related))
        .probe = region->probe(module, ProbeMeasure::Growth, {key});
    return true;
  }

  // The first argument of `call` bound to a parameter in `params` (bit 0 is self) with a graph.
  // The argument (or, in a written-out list or tuple, the element) that carries a graph into
  // the parameters `params`; `more` tells whether another element of that list carries one too.
  static const Expr* grad_argument(const ir::FileAnalysis& analysis, const Expr& call,
                                   const ir::Callee& method, uint32_t params,
                                   bool* more = nullptr) {
    const Expr* found = nullptr;
    ir::for_each_argument_in(call, method, 1, params, [&](const Expr& arg) {
      if (is_graph_value(analysis, &arg)) found = &arg;
      // `meter.update([coarse * 1000, refine * 1000])`: a written-out list of losses, which the
      // method takes apart; the element with a graph is what to turn into a number.
      if (found == nullptr && arg.kind == ExprKind::Collection &&
          (arg.collection_kind == ir::CollectionKind::List ||
           arg.collection_kind == ir::CollectionKind::Tuple)) {
        for (const Expr* item : arg.items) {
          if (!is_graph_value(analysis, item)) continue;
          if (found == nullptr) {
            found = item;
          } else if (more != nullptr) {
            *more = true;
          }
        }
      }
      return found != nullptr;
    });
    return found;
  }
};

}  // namespace

std::unique_ptr<const Rule> make_sl001_grad_accumulation() {
  return std::make_unique<GradAccumulation>();
}

}  // namespace sealint::rules
