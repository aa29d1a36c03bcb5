// Flags backward(retain_graph=True) / autograd.grad(create_graph=True) in a loop on a graph that a
// value carried across iterations keeps growing. docs: docs/rules/SL010.md
#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/iteration.h"
#include "rules/rule.h"
#include "rules/support/growth.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL010",
    .name = "retain-graph-in-loop",
    .severity = Severity::Error,
    .python = true,
    .cpp = true,
    .summary =
        "Flags `backward(retain_graph=True)` or `autograd.grad(create_graph=True)` in a loop on a "
        "graph that a value carried across iterations keeps growing.",
    .fix = FixAvailability::None,
    .fix_safety = FixSafety::Safe,
    .framework = Framework::PyTorch,
    .precision = Precision::Medium,  // no finding on bench/corpus yet
    .brief = "`retain_graph=True` on a graph that a carried value keeps growing",
};

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

bool is_true(const Expr* e) {
  return e != nullptr && e->kind == ExprKind::Const && e->text == "True";
}

// `x.backward(retain_graph=True)`, `torch.autograd.backward(x, retain_graph=True)`,
// `torch.autograd.grad(x, params, create_graph=True)` (create_graph retains the graph too).
// Returns the expression whose graph is kept: the receiver or the first argument.
const Expr* retaining_root(const ir::Module& module, const Expr& call) {
  if (call.kind != ExprKind::Call) return nullptr;
  const Expr* callee = call.callee();
  if (callee->kind != ExprKind::Attr) return nullptr;
  const bool retains =
      is_true(call.keyword("retain_graph")) || is_true(call.keyword("create_graph"));
  if (!retains) return nullptr;
  const std::string q = ir::qualified_name(module, callee);
  if (q == "torch.autograd.backward" || q == "torch.autograd.grad") return call.arg(0);
  if (callee->text == "backward" && !q.starts_with("torch.")) return callee->base();
  return nullptr;
}

// Every place read by `expr`, with the expression reading it; not below a `.detach()`.
void reads(const Expr* expr, std::vector<std::pair<std::string, const Expr*>>& out) {
  ir::for_each_read_with_history(expr, [&](std::string_view key, const Expr& read) {
    out.emplace_back(key, &read);
    return false;
  });
}

struct Carried {
  std::string place;
  const Stmt* feedback = nullptr;  // the statement feeding it back into itself
};

class RetainGraphInLoop final : public Rule {
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
                            if (where.loops.empty() || where.no_grad) return;
                            ir::for_each_expr(stmt, [&](const Expr& call) {
                              const Expr* root = retaining_root(module, call);
                              if (root == nullptr) return;
                              check_backward(module, analysis, function, *where.loops.back(), call,
                                             *root, sink);
                            });
                          });
    }
  }

 private:
  void check_backward(const ir::Module& module, const ir::FileAnalysis& analysis,
                      const ir::Function& function, const Stmt& loop, const Expr& call,
                      const Expr& root, DiagnosticSink& sink) const {
    const auto carried = carried_source(analysis, function, loop, root);
    // Built afresh each iteration (a GAN's second backward, a per-step graph): nothing grows.
    if (!carried) return;
    // A written-out handful of passes (`for i in range(4):`) keeps a bounded graph, as for SL005.
    if (semantic::iterates_fixed_handful(module, function, loop)) return;
    std::vector<Related> related;
    related.push_back(
        {carried->feedback->range,
         fmt::format("`{}` carries the graph into the next iteration here", carried->place)});
    const Region region = Region::loop(function, loop);
    related.push_back(region.repetition());
    sink.report(
            kInfo, call.range,
            fmt::format("`{}` keeps the graph of every iteration: it reaches `{}`, which is "
                        "carried from one "
                        "iteration to the next",
                        quote(module, call).text, carried->place),
            module.language() == ir::Language::Cpp
                ? fmt::format("detach `{0}` once per iteration (`{0} = {0}.detach();`), then drop "
                              "`retain_graph`{1}",
                              carried->place,
                              &root == call.callee()->base()
                                  ? fmt::format(" (`{}.backward()`)", quote(module, root).text)
                                  : std::string())
                : fmt::format("detach `{0}` once per iteration (`{0} = {0}.detach()`), then drop "
                              "`retain_graph=True`",
                              carried->place),
            std::move(related))
        .probe = region.probe(module, ProbeMeasure::Growth, {carried->place});
  }

  // Follows what the retained graph is computed from, back through the loop body's assignments,
  // to a place that lives outside the loop and is fed back into itself with a graph.
  static std::optional<Carried> carried_source(const ir::FileAnalysis& analysis,
                                               const ir::Function& function, const Stmt& loop,
                                               const Expr& root) {
    std::vector<const Stmt*> bindings;
    ir::for_each_nested(loop.body, [&](const Stmt& s) {
      if (s.kind == StmtKind::Assign || s.kind == StmtKind::AugAssign) bindings.push_back(&s);
    });
    std::vector<std::pair<std::string, const Expr*>> sources;
    reads(&root, sources);
    for (size_t i = 0; i < sources.size() && i < 256; ++i) {
      const auto [place, use] = sources[i];
      if (auto carried = fed_back(analysis, function, loop, bindings, place, *use)) return carried;
      for (const Stmt* s : bindings) {
        for (const Expr* target : s->targets) {
          std::vector<std::pair<std::string, const Expr*>> bound;
          reads(target, bound);
          const bool binds = std::any_of(bound.begin(), bound.end(),
                                         [&](const auto& b) { return b.first == place; });
          if (!binds) continue;
          std::vector<std::pair<std::string, const Expr*>> more;
          reads(s->value, more);
          for (auto& m : more) {
            const bool seen = std::any_of(sources.begin(), sources.end(),
                                          [&](const auto& x) { return x.first == m.first; });
            if (!seen) sources.push_back(std::move(m));
          }
        }
      }
    }
    return std::nullopt;
  }

  // `place` lives outside the loop, still has a graph where it is used, and a statement in the
  // loop rebinds it from a value that reads it (`total += loss`, `out, h = rnn(x, h)`), or from
  // the result of a call that read it (`auto out = gru->forward(x, h); h = std::get<1>(out);`).
  static std::optional<Carried> fed_back(const ir::FileAnalysis& analysis,
                                         const ir::Function& function, const Stmt& loop,
                                         const std::vector<const Stmt*>& bindings,
                                         const std::string& place, const Expr& use) {
    if (analysis.fact(use).grad != ir::Grad::Yes) return std::nullopt;
    if (!ir::defined_outside(function, loop, place)) return std::nullopt;
    for (const Stmt* s : bindings) {
      if (!binds(*s, place)) continue;
      // `total = total.detach() + loss` starts afresh: the old graph is cut.
      const bool feeds = s->kind == StmtKind::AugAssign || reads_live(s->value, place);
      const bool via_result = !feeds && through_result(bindings, *s, place);
      if (!feeds && !via_result) continue;
      // The statement rebinding the state from the call's result is no reset.
      if (ir::resets_in(loop.body, place, {}, via_result ? s : nullptr)) return std::nullopt;
      return Carried{place, s};
    }
    return std::nullopt;
  }

  // Does `expr` read `place` other than through a `.detach()`?
  static bool reads_live(const Expr* expr, const std::string& place) {
    std::vector<std::pair<std::string, const Expr*>> read;
    reads(expr, read);
    return std::any_of(read.begin(), read.end(), [&](const auto& r) { return r.first == place; });
  }

  static bool binds(const Stmt& s, const std::string& place) {
    for (const Expr* target : s.targets) {
      std::vector<std::pair<std::string, const Expr*>> bound;
      reads(target, bound);
      if (std::any_of(bound.begin(), bound.end(), [&](const auto& b) { return b.first == place; }))
        return true;
    }
    return false;
  }

  // `h = out` or `h = std::get<1>(out)` where an earlier statement of the loop bound `out` from a
  // value reading `h` (`auto out = gru->forward(x, h);`). A declaration of `h` is a new variable.
  static bool through_result(const std::vector<const Stmt*>& bindings, const Stmt& s,
                             const std::string& place) {
    if (s.kind != StmtKind::Assign || s.declaration != ir::Declaration::None) return false;
    const Expr* value = s.value;
    while (value != nullptr && value->kind == ExprKind::Subscript) value = value->base();
    if (value == nullptr || value->kind != ExprKind::Name) return false;
    const std::string result(value->text);
    return std::any_of(bindings.begin(), bindings.end(), [&](const Stmt* earlier) {
      return earlier != &s && earlier->range.end <= s.range.begin && binds(*earlier, result) &&
             reads_live(earlier->value, place);
    });
  }
};

}  // namespace

std::unique_ptr<const Rule> make_sl010_retain_graph_in_loop() {
  return std::make_unique<RetainGraphInLoop>();
}

}  // namespace sealint::rules
