// Flags a training step retried inside the handler of an out-of-memory error, and a caught error
// or its traceback kept past its handler. docs: docs/rules/SL008.md
//
// What a handler catches and does lives in rules/SL008/handlers.cpp, where it keeps the error in
// rules/SL008/kept_errors.cpp, and which calls train in analyzer/semantic/training_calls.
#include <algorithm>
#include <unordered_set>

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/training_calls.h"
#include "rules/SL008/handlers.h"
#include "rules/SL008/held_graphs.h"
#include "rules/SL008/kept_errors.h"
#include "rules/rule.h"
#include "rules/support/quote.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL008",
    .name = "oom-retry-in-except",
    .severity = Severity::Warning,
    .python = true,
    .cpp = true,
    .summary =
        "Flags a training step retried inside the `except` handler of an out-of-memory error, and "
        "a caught error or its traceback kept in a variable that outlives the handler.",
    .fix = FixAvailability::None,
    .fix_safety = FixSafety::Safe,
    .framework = Framework::PyTorch,
    .precision = Precision::Medium,  // 1 of 1 on bench/corpus, too few to say high
    .brief = "a training step retried inside an out-of-memory handler, or a caught error kept",
};

using ir::Expr;
using ir::Handler;
using ir::Stmt;
using ir::StmtKind;
using knowledge::MemoryCatch;
using semantic::is_training_call;
using semantic::step_like_callee;
using sl008::Holds;
using sl008::Kept;

class OomRetryInExcept final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    const ir::FileAnalysis& analysis = context.analysis;
    // Out-of-memory errors of a training step need torch in the file.
    if (!analysis.has_torch()) return;
    for (const ir::Function& function : module.functions()) {
      std::unordered_set<const void*> reported;
      ir::walk_statements(function, analysis.runs_without_grad(function),
                          [&](const Stmt& stmt, const ir::StmtContext& where) {
                            if (stmt.kind != StmtKind::Try) return;
                            for (const Handler& handler : stmt.handlers)
                              check_handler(module, analysis, function, stmt, handler, where.loops,
                                            reported, sink);
                          });
    }
  }

 private:
  void check_handler(const ir::Module& module, const ir::FileAnalysis& analysis,
                     const ir::Function& function, const Stmt& try_stmt, const Handler& handler,
                     const std::vector<const Stmt*>& loops,
                     std::unordered_set<const void*>& reported, DiagnosticSink& sink) const {
    const MemoryCatch catches = sl008::handler_catch(module, handler);
    // ValueError, KeyError, StopIteration...: not where an out-of-memory error lands.
    if (catches == MemoryCatch::Other) return;

    const TryBody body = read_try_body(analysis, function, try_stmt);
    const bool says_memory =
        catches == MemoryCatch::OutOfMemory || sl008::handler_mentions_memory(module, handler);
    // RuntimeError or broader: only about memory when the failed work was a training step or
    // the handler says so; `except RuntimeError` around a file read is something else.
    if (!says_memory && (body.steps.empty() || sl008::catches_lookup_error(module, handler)))
      return;

    if (module.language() == ir::Language::Cpp) {
      check_cpp_handler(module, analysis, function, try_stmt, handler, body, says_memory, reported,
                        sink);
      return;
    }
    // `traceback.clear_frames(...)` first: the retry no longer runs beside the failed step.
    if (!sl008::handler_clears_frames(module, handler)) {
      if (const Expr* retry = find_retry(analysis, function, handler, body, says_memory)) {
        if (reported.insert(retry).second) report_retry(module, handler, *retry, body, sink);
      }
    }
    // A handler that ends by re-raising lets the error, and its traceback, leave the frame.
    if (sl008::ends_in_raise(handler)) return;
    for (const Kept& kept : sl008::kept_errors(module, handler)) {
      const std::string key = ir::place_key(kept.place);
      // `err = e` ... `del err`: dropped before it can hold memory for long.
      if (sl008::dropped_later(function, *kept.stmt, key)) continue;
      // `failure = None` at the top of the loop: the copy lives until the next iteration only.
      if (std::any_of(loops.begin(), loops.end(),
                      [&](const Stmt* loop) { return ir::resets_in(loop->body, key); })) {
        continue;
      }
      if (!reported.insert(kept.stmt).second) continue;
      report_kept(module, handler, kept, body, sink);
    }
  }

  // What the try body runs: its training steps (training calls and calls of step-like
  // functions), and the calls that are whole statements (`result = attempt(size)`).
  struct TryBody {
    std::vector<const Expr*> steps;
    std::vector<const Expr*> statement_calls;
  };

  static TryBody read_try_body(const ir::FileAnalysis& analysis, const ir::Function& function,
                               const Stmt& try_stmt) {
    TryBody body;
    for (const Expr* call : ir::calls_in(try_stmt.body)) {
      if (is_training_call(analysis, function, *call) || !step_like_callee(analysis, *call).empty())
        body.steps.push_back(call);
    }
    ir::for_each_nested(try_stmt.body, [&](const Stmt& stmt) {
      if (const Expr* call = sl008::statement_call(stmt)) body.statement_calls.push_back(call);
    });
    return body;
  }

  // C++ unwinds the `try` block's locals before the handler runs, and a caught c10::Error keeps
  // text, not frames: a retry there runs beside the failed step only through a variable declared
  // before the `try` that the step stored its graph in. A copied error keeps nothing.
  void check_cpp_handler(const ir::Module& module, const ir::FileAnalysis& analysis,
                         const ir::Function& function, const Stmt& try_stmt, const Handler& handler,
                         const TryBody& body, bool says_memory,
                         std::unordered_set<const void*>& reported, DiagnosticSink& sink) const {
    const Stmt* held = sl008::graph_kept_past_try(analysis, try_stmt);
    // Everything the failed step built died with the `try` block.
    if (held == nullptr) return;
    const Expr* retry = find_retry(analysis, function, handler, body, says_memory);
    if (retry == nullptr || !reported.insert(retry).second) return;
    const std::string_view name = held->targets.front()->text;
    // `loss = torch::Tensor();` first: the graph is gone before the retry.
    if (sl008::rebound_before(handler, name, retry->range.begin)) return;
    sink.report(
        kInfo, retry->range,
        fmt::format("`{}` retries the step inside {}, while `{}` still holds the failed "
                    "step's autograd graph",
                    quote_call(module, *retry), sl008::handler_words(module, handler), name),
        fmt::format("declare `{}` inside the `try` block, so that unwinding frees it "
                    "before the handler runs, or reset it first (`{} = torch::Tensor();`)",
                    name, name),
        {{handler.header, fmt::format("{} runs after the `try` block's locals are freed",
                                      sl008::handler_words(module, handler))},
         {held->range, fmt::format("`{}`, declared before the `try`, keeps the graph", name)}});
  }

  // The first call in the handler that runs the step again: a training call; in a handler that
  // says it is about memory, also a call of the step-like function or of the function the try
  // body called, or of the enclosing function itself.
  static const Expr* find_retry(const ir::FileAnalysis& analysis, const ir::Function& function,
                                const Handler& handler, const TryBody& body, bool says_memory) {
    for (const Expr* call : ir::calls_in(handler.body)) {
      if (is_training_call(analysis, function, *call)) return call;
      // `except Exception: trainer.train()` after `trainer.train(resume=True)`: a fallback,
      // not an out-of-memory retry, unless the handler says so.
      if (!says_memory) continue;
      if (analysis.resolve_callee(function, *call) == &function) return call;
      const std::string name = step_like_callee(analysis, *call);
      if (!name.empty()) {
        for (const Expr* step : body.steps) {
          if (step_like_callee(analysis, *step) == name) return call;
        }
      }
      const std::string callee = sl008::retryable_callee(*call);
      if (callee.empty()) continue;
      for (const Expr* tried : body.statement_calls) {
        if (sl008::retryable_callee(*tried) == callee) return call;
      }
    }
    return nullptr;
  }

  // The try body's call that the finding points back at: the one the retry repeats, else the
  // first step, else the first call the try body makes.
  static const Expr* failed_step(const Expr* retry, const TryBody& body) {
    if (retry != nullptr) {
      const std::string name = ir::dotted_name(retry->callee());
      if (!name.empty()) {
        for (const auto* list : {&body.steps, &body.statement_calls}) {
          for (const Expr* call : *list) {
            if (ir::dotted_name(call->callee()) == name) return call;
          }
        }
      }
    }
    if (!body.steps.empty()) return body.steps.front();
    if (!body.statement_calls.empty()) return body.statement_calls.front();
    return nullptr;
  }

  void report_retry(const ir::Module& module, const Handler& handler, const Expr& retry,
                    const TryBody& body, DiagnosticSink& sink) const {
    std::vector<Related> related = {
        {handler.header,
         fmt::format("{} runs while the caught error's traceback holds the failed step's frames",
                     sl008::handler_words(module, handler))}};
    if (const Expr* step = failed_step(&retry, body))
      related.push_back({step->range, "the step that failed"});
    sink.report(kInfo, retry.range,
                fmt::format("`{}` retries the step inside {}, while the caught error's traceback "
                            "keeps the failed step's tensors allocated",
                            quote_call(module, retry), sl008::handler_words(module, handler)),
                "set a flag in the handler (`oom = True`) and retry after the `try` statement, "
                "once the traceback is gone",
                std::move(related));
  }

  void report_kept(const ir::Module& module, const Handler& handler, const Kept& kept,
                   const TryBody& body, DiagnosticSink& sink) const {
    std::vector<Related> related = {{handler.header, "the error is caught here"}};
    if (const Expr* step = failed_step(nullptr, body))
      related.push_back({step->range, "the step whose frames the traceback holds"});
    const std::string place = quote(module, *kept.place).text;
    std::string_view what = "the caught error";
    std::string help;
    switch (kept.holds) {
      case Holds::Error:
        help = handler.name.empty()
                   ? "keep a string instead (`str(e)`), or drop the copy once handled"
                   : fmt::format("keep a string instead (`str({})`), or drop the copy once handled",
                                 handler.name);
        break;
      case Holds::Traceback:
        what = "the traceback of the caught error";
        help = "keep a string instead (`traceback.format_exc()`)";
        break;
      case Holds::ExcInfo:
        what = "`sys.exc_info()` of the caught error";
        help = "keep a string instead (`traceback.format_exc()`)";
        break;
      case Holds::Nothing:
        return;
    }
    sink.report(kInfo, kept.primary,
                fmt::format("`{}` keeps {} after {} ends, so the failed step's frames and every "
                            "tensor they reference stay alive",
                            place, what, sl008::handler_words(module, handler)),
                std::move(help), std::move(related));
  }
};

}  // namespace

std::unique_ptr<const Rule> make_sl008_oom_retry_in_except() {
  return std::make_unique<OomRetryInExcept>();
}

}  // namespace sealint::rules
