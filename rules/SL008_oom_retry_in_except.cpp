// Flags a training step retried inside the handler of an out-of-memory error, and a caught error
// or its traceback kept past its handler. docs: docs/rules/SL008.md
#include <algorithm>
#include <array>
#include <cctype>
#include <unordered_set>

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/containers.h"
#include "analyzer/knowledge/naming.h"
#include "rules/rule.h"
#include "rules/support/growth.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL008",
    .name = "oom-retry-in-except",
    .severity = Severity::Warning,
    .python = true,
    .cpp = false,
    .summary =
        "Flags a training step retried inside the `except` handler of an out-of-memory error, and "
        "a caught error or its traceback kept in a variable that outlives the handler.",
    .fix = FixAvailability::None,
    .fix_safety = FixSafety::Safe,
    .framework = Framework::PyTorch,
    .precision = Precision::Medium,  // no finding on bench/corpus yet
    .brief = "a training step retried inside an out-of-memory handler, or a caught error kept",
};

using ir::Expr;
using ir::ExprKind;
using ir::Handler;
using ir::Stmt;
using ir::StmtKind;
using ir::ValueKind;

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

using knowledge::last_component;

// What an `except` clause catches, as far as memory goes: the most specific of its types.
enum class Catches { Other, Broad, Runtime, OutOfMemory };

Catches classify_handler(const ir::Module& module, const Handler& handler) {
  if (handler.types.empty()) return Catches::Broad;  // bare `except:`
  Catches out = Catches::Other;
  std::vector<const Expr*> types(handler.types.begin(), handler.types.end());
  for (size_t i = 0; i < types.size(); ++i) {
    const Expr* type = types[i];
    if (type->kind == ExprKind::Collection) {  // `except (RuntimeError, ValueError):`
      types.insert(types.end(), type->items.begin(), type->items.end());
      continue;
    }
    const std::string qualified = ir::qualified_name(module, type);
    const std::string_view last = last_component(qualified);
    Catches kind = Catches::Other;
    if (last == "OutOfMemoryError") kind = Catches::OutOfMemory;
    if (last == "RuntimeError") kind = Catches::Runtime;
    if (last == "Exception" || last == "BaseException") kind = Catches::Broad;
    out = std::max(out, kind);
  }
  return out;
}

// "the `except RuntimeError` handler", "the bare `except` handler".
std::string handler_words(const ir::Module& module, const Handler& handler) {
  if (handler.types.empty()) return "the bare `except` handler";
  const uint32_t begin = handler.types.front()->range.begin;
  const uint32_t end = handler.types.back()->range.end;
  const std::string_view text = module.file().code().substr(begin, end - begin);
  if (text.size() > 60 || text.find_first_of("\r\n") != std::string_view::npos)
    return "the `except` handler";
  return fmt::format("the `except {}` handler", text);
}

// A call as messages quote it: its source, or `callee(...)` when that is too long.
std::string call_text(const ir::Module& module, const Expr& call) {
  QuotedExpr text = quote(module, call);
  if (text.complete) return text.text;
  const std::string callee = ir::dotted_name(call.callee());
  if (!callee.empty() && callee.size() <= 40) return callee + "(...)";
  return text.text;
}

// The `except ...` header of a handler: from `except` to its last type (or its `as` name).
ByteRange handler_header(const ir::Module& module, const Handler& handler) {
  uint32_t end = handler.range.begin + 6;  // `except`
  if (!handler.types.empty()) end = std::max(end, handler.types.back()->range.end);
  if (!handler.name.empty()) {
    const char* code = module.file().code().data();
    const auto offset = static_cast<uint32_t>(handler.name.data() - code);
    end = std::max(end, offset + static_cast<uint32_t>(handler.name.size()));
  }
  return {handler.range.begin, std::min(end, handler.range.end)};
}

// "train" as a word of a snake_case or camelCase name: `train`, `train_epoch`, `run_training`,
// `trainEpoch`; not `trainer`, `trainable`, `pretrained`, `constrain`.
bool has_train_word(std::string_view name) {
  const std::string n = lower(name);
  for (size_t i = n.find("train"); i != std::string::npos; i = n.find("train", i + 1)) {
    const bool starts = i == 0 || n[i - 1] == '_' || name[i] == 'T';
    const std::string_view rest = std::string_view(n).substr(i + 5);
    const bool ends = rest.empty() || rest.front() == '_' || rest.starts_with("ing") ||
                      std::isupper(static_cast<unsigned char>(name[i + 5])) ||
                      std::isdigit(static_cast<unsigned char>(name[i + 5]));
    if (starts && ends) return true;
  }
  return false;
}

// The name of a function whose call reads as a whole training step: `train_step`,
// `train_one_epoch`, `trainer.fit`, `forward`, the FAQ's `run_model`; not a getter or a loader
// (`get_train_dataset`, `train_test_split`) and not a bare `step` (`scheduler.step`, `env.step`).
bool is_step_like_name(std::string_view name) {
  const std::string n = lower(name);
  for (std::string_view prefix : {"get_", "load_", "build_", "make_", "create_", "set_", "setup_",
                                  "prepare_", "init_", "save_", "log_"}) {
    if (n.starts_with(prefix)) return false;
  }
  for (std::string_view part : {"split", "data", "loader", "sampler", "transform", "log"}) {
    if (n.find(part) != std::string::npos) return false;
  }
  if (n.find("forward") != std::string::npos || n.find("backward") != std::string::npos)
    return true;
  if (n != "step" && n.ends_with("step")) return true;  // train_step, validation_step
  if (has_train_word(name) || n == "fit" || n.starts_with("fit_")) return true;
  return (n.starts_with("run_") || n.starts_with("process_")) &&
         (n.ends_with("model") || n.ends_with("batch"));
}

bool is_module_or_loss(ValueKind kind) {
  return kind == ValueKind::Module || kind == ValueKind::LossFn;
}

bool is_step_call(const ir::FileAnalysis& analysis, const Expr& call);
bool function_trains(const ir::FileAnalysis& analysis, const ir::Function& function, int depth);

// A call of a function of the file that trains: it calls backward or an optimizer's step,
// itself or through its callees (an optimizer's `zero_grad()` alone does not count).
bool calls_training_function(const ir::FileAnalysis& analysis, const ir::Function& caller,
                             const Expr& call, int depth) {
  const ir::Function* target = analysis.resolve_callee(caller, call);
  if (target == nullptr) {
    const ir::Fact& fact = analysis.fact(*call.callee());
    if (call.callee()->kind == ExprKind::Name && fact.kind == ValueKind::Function)
      target = fact.function;
  }
  return target != nullptr && function_trains(analysis, *target, depth);
}

bool function_trains(const ir::FileAnalysis& analysis, const ir::Function& function, int depth) {
  // The summary's `trains` also counts `zero_grad()`: a first filter, then the calls decide.
  if (depth <= 0 || !analysis.summary(function).trains) return false;
  bool trains = false;
  ir::for_each_nested(function.body, [&](const Stmt& stmt) {
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (trains || expr.kind != ExprKind::Call) return;
      trains = is_step_call(analysis, expr) ||
               calls_training_function(analysis, function, expr, depth - 1);
    });
  });
  return trains;
}

// `.backward()`, or an optimizer's `.step()` (also `scaler.step(optimizer)`).
bool is_step_call(const ir::FileAnalysis& analysis, const Expr& call) {
  const Expr* callee = call.callee();
  if (callee->kind != ExprKind::Attr) return false;
  const std::string_view method = callee->text;
  if (method == "backward" || method == "manual_backward") return true;
  if (method != "step") return false;
  auto is_optimizer = [&](const Expr* expr) {
    return analysis.fact(*expr).kind == ValueKind::Optimizer ||
           knowledge::is_optimizer_like_name(last_component(ir::dotted_name(expr)));
  };
  if (is_optimizer(callee->base())) return true;
  for (size_t i = 0; i < call.arg_count(); ++i) {
    if (is_optimizer(call.arg(i))) return true;
  }
  return false;
}

// A call that runs part of a training step: a model or loss call, `.backward()`, an optimizer's
// `.step()`, or a function of the file that trains.
bool is_training_call(const ir::FileAnalysis& analysis, const ir::Function& function,
                      const Expr& call) {
  constexpr int kCallDepth = 4;
  const Expr* callee = call.callee();
  if (is_step_call(analysis, call)) return true;
  if (callee->kind == ExprKind::Name && (is_module_or_loss(analysis.fact(*callee).kind) ||
                                         knowledge::is_model_running_name(callee->text))) {
    return true;
  }
  if (callee->kind == ExprKind::Attr) {
    const std::string_view method = callee->text;
    const ir::Fact& base = analysis.fact(*callee->base());
    if ((method == "forward" || method == "__call__") && is_module_or_loss(base.kind)) return true;
    // `self.model(x)`, `trainer.criterion(out, y)`: an attribute holding a module.
    if (base.kind == ValueKind::Instance && base.instance_of != nullptr &&
        is_module_or_loss(analysis.class_attr(base.instance_of, method).kind)) {
      return true;
    }
    if ((base.kind == ValueKind::Instance || base.kind == ValueKind::Module ||
         base.kind == ValueKind::Unknown) &&
        (knowledge::is_model_like_name(method) || knowledge::is_loss_fn_like_name(method))) {
      return true;
    }
  }
  const std::string q = ir::qualified_name(analysis.module(), callee);
  if (q.starts_with("torch.nn.functional.")) {
    const std::string_view last = last_component(q);
    if (last.ends_with("loss") || last.ends_with("entropy")) return true;
  }
  return calls_training_function(analysis, function, call, kCallDepth);
}

// The name a step-like call is known by (`train_step`, `self.train_step`, `trainer.train`), or
// empty. `model.train()` switches a module's mode: not a step.
std::string step_like_callee(const ir::FileAnalysis& analysis, const Expr& call) {
  const Expr* callee = call.callee();
  if (callee->kind != ExprKind::Name && callee->kind != ExprKind::Attr) return {};
  if (!is_step_like_name(callee->text)) return {};
  if (callee->kind == ExprKind::Attr && callee->text == "train") {
    const Expr* base = callee->base();
    if (analysis.fact(*base).kind == ValueKind::Module ||
        knowledge::is_model_like_name(last_component(ir::dotted_name(base)))) {
      return {};
    }
  }
  return ir::dotted_name(callee);
}

// Calls in `body` (nested statements, not nested defs), outermost first within a statement.
std::vector<const Expr*> calls_in(const std::vector<Stmt*>& body) {
  std::vector<const Expr*> calls;
  ir::for_each_nested(body, [&](const Stmt& stmt) {
    std::vector<const Expr*> here;
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (expr.kind == ExprKind::Call) here.push_back(&expr);
    });
    std::stable_sort(here.begin(), here.end(), [](const Expr* a, const Expr* b) {
      return a->range.begin != b->range.begin ? a->range.begin < b->range.begin
                                              : a->range.end > b->range.end;
    });
    calls.insert(calls.end(), here.begin(), here.end());
  });
  return calls;
}

bool is_str_mentioning_oom(const Expr& expr) {
  if (expr.kind != ExprKind::Const || expr.const_kind != ir::ConstKind::Str) return false;
  const std::string text = lower(expr.text);
  if (text.find("out of memory") != std::string::npos ||
      text.find("outofmemory") != std::string::npos) {
    return true;
  }
  // The word "oom" on its own ("OOM, skipping"), not inside "room" or "zoom".
  for (size_t i = text.find("oom"); i != std::string::npos; i = text.find("oom", i + 1)) {
    const bool starts = i == 0 || !std::isalpha(static_cast<unsigned char>(text[i - 1]));
    const bool ends =
        i + 3 >= text.size() || !std::isalpha(static_cast<unsigned char>(text[i + 3]));
    if (starts && ends) return true;
  }
  return false;
}

bool is_batch_size_place(std::string_view key) {
  const std::string name = lower(last_component(key));
  return name.find("batch_size") != std::string::npos ||
         name.find("batchsize") != std::string::npos || name == "bs" || name.ends_with("_bs");
}

// `batch_size //= 2`, `bs -= 1`, `self.batch_size = max(1, self.batch_size // 2)`.
bool lowers_batch_size(const Stmt& stmt) {
  if (stmt.targets.size() != 1 || stmt.value == nullptr) return false;
  const std::string key = ir::place_key(stmt.targets[0]);
  if (key.empty() || !is_batch_size_place(key)) return false;
  if (stmt.kind == StmtKind::AugAssign)
    return stmt.text == "-=" || stmt.text == "//=" || stmt.text == "/=" || stmt.text == ">>=";
  return stmt.kind == StmtKind::Assign && ir::reads_place(stmt.value, key);
}

// The handler's own body shows it is about memory: it mentions "out of memory" or
// OutOfMemoryError, empties the CUDA cache, or lowers a batch size.
bool handler_mentions_memory(const ir::Module& module, const Handler& handler) {
  bool found = false;
  ir::for_each_nested(handler.body, [&](const Stmt& stmt) {
    if (found) return;
    if (lowers_batch_size(stmt)) found = true;
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (found) return;
      if (is_str_mentioning_oom(expr)) found = true;
      if ((expr.kind == ExprKind::Name || expr.kind == ExprKind::Attr) &&
          expr.text == "OutOfMemoryError") {
        found = true;
      }
      if (expr.kind == ExprKind::Call &&
          ir::qualified_name(module, expr.callee()).ends_with("cuda.empty_cache")) {
        found = true;
      }
    });
  });
  return found;
}

// `traceback.clear_frames(e.__traceback__)`, `e.__traceback__ = None`, `e.with_traceback(None)`:
// the handler drops the failed step's frames itself.
bool handler_clears_frames(const ir::Module& module, const Handler& handler) {
  bool found = false;
  ir::for_each_nested(handler.body, [&](const Stmt& stmt) {
    if (stmt.kind == StmtKind::Assign && stmt.value != nullptr &&
        stmt.value->kind == ExprKind::Const && stmt.value->const_kind == ir::ConstKind::None) {
      for (const Expr* target : stmt.targets) {
        if (target->kind == ExprKind::Attr && target->text == "__traceback__") found = true;
      }
    }
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (expr.kind != ExprKind::Call) return;
      const Expr* callee = expr.callee();
      if (ir::qualified_name(module, callee) == "traceback.clear_frames") found = true;
      if (callee->kind == ExprKind::Attr && callee->text == "with_traceback" &&
          expr.arg_count() == 1 && expr.arg(0)->kind == ExprKind::Const &&
          expr.arg(0)->const_kind == ir::ConstKind::None) {
        found = true;
      }
    });
  });
  return found;
}

// What a stored value holds of the caught error: the error itself, its traceback, or nothing.
enum class Holds { Nothing, Error, Traceback, ExcInfo };

Holds holds_error(const ir::Module& module, const Handler& handler, const Expr* value) {
  if (value == nullptr) return Holds::Nothing;
  switch (value->kind) {
    case ExprKind::Name:
      return !handler.name.empty() && value->text == handler.name ? Holds::Error : Holds::Nothing;
    case ExprKind::Attr:
      return value->text == "__traceback__" ? Holds::Traceback : Holds::Nothing;
    case ExprKind::Call: {
      const Expr* callee = value->callee();
      if (ir::qualified_name(module, callee) == "sys.exc_info") return Holds::ExcInfo;
      if (callee->kind == ExprKind::Attr && callee->text == "with_traceback")
        return holds_error(module, handler, callee->base());
      return Holds::Nothing;
    }
    case ExprKind::Subscript:  // `sys.exc_info()[2]`
      return holds_error(module, handler, value->base()) == Holds::ExcInfo ? Holds::ExcInfo
                                                                           : Holds::Nothing;
    case ExprKind::Collection:
      for (const Expr* item : value->items) {
        const Holds held = holds_error(module, handler, item);
        if (held != Holds::Nothing) return held;
      }
      return Holds::Nothing;
    default:
      return Holds::Nothing;
  }
}

// One place the handler keeps the caught error in.
struct Kept {
  const Expr* place = nullptr;  // the variable, attribute or container
  ByteRange primary;
  Holds holds = Holds::Nothing;
  const Stmt* stmt = nullptr;
};

std::vector<Kept> kept_errors(const ir::Module& module, const Handler& handler) {
  std::vector<Kept> out;
  ir::for_each_nested(handler.body, [&](const Stmt& stmt) {
    if ((stmt.kind == StmtKind::Assign || stmt.kind == StmtKind::AnnAssign ||
         stmt.kind == StmtKind::AugAssign) &&
        stmt.value != nullptr) {
      const Holds held = holds_error(module, handler, stmt.value);
      if (held != Holds::Nothing) {
        for (const Expr* target : stmt.targets) {
          // `e = e` keeps nothing past the handler: Python deletes the `as` name.
          if (target->kind == ExprKind::Name && target->text == handler.name) continue;
          if (ir::place_key(target).empty()) continue;
          out.push_back({target, stmt.range, held, &stmt});
        }
      }
    }
    ir::for_each_expr(stmt, [&](const Expr& call) {
      if (call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Attr) return;
      const bool store = knowledge::container_store(call.callee()->text) != nullptr;
      if (!store || call.arg_count() == 0) return;
      const Expr* value = call.arg(call.arg_count() - 1);
      const Holds held = holds_error(module, handler, value);
      if (held == Holds::Nothing) return;
      const Expr* container = call.callee()->base();
      if (ir::place_key(container).empty()) return;
      out.push_back({container, call.range, held, &stmt});
    });
  });
  return out;
}

// `del err` or `err = None` in the function after `after`: the copy is dropped before long.
bool dropped_later(const ir::Function& function, const Stmt& after, std::string_view key) {
  bool dropped = false;
  ir::for_each_nested(function.body, [&](const Stmt& stmt) {
    if (dropped || stmt.range.begin <= after.range.begin) return;
    if (stmt.kind == StmtKind::Del) {
      for (const Expr* target : stmt.targets) dropped = dropped || ir::place_key(target) == key;
    }
    if (stmt.kind == StmtKind::Assign && stmt.value != nullptr &&
        stmt.value->kind == ExprKind::Const && stmt.value->const_kind == ir::ConstKind::None) {
      for (const Expr* target : stmt.targets) dropped = dropped || ir::place_key(target) == key;
    }
  });
  return dropped;
}

// The call a statement consists of: `f(x)`, `y = f(x)`, `return f(x)`, `y = await f(x)`.
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

// Builtins that a handler calls again without retrying anything.
bool is_plain_builtin(std::string_view name) {
  static constexpr std::array<std::string_view, 30> kNames = {
      "print",     "len",     "str",     "repr",   "int",        "float",   "bool",   "isinstance",
      "getattr",   "setattr", "hasattr", "range",  "next",       "iter",    "open",   "list",
      "dict",      "tuple",   "set",     "min",    "max",        "sum",     "sorted", "zip",
      "enumerate", "type",    "super",   "format", "issubclass", "callable"};
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

// The name of a callee whose second call in a handler is a retry: a function (`attempt`,
// `run_model`) or a method of `self`, not a builtin and not a method of some other object
// (`x.to("cpu")` after `x.to("cuda")` moves data, it does not retry a step).
std::string retryable_callee(const Expr& call) {
  const Expr* callee = call.callee();
  const bool self_method = callee->kind == ExprKind::Attr &&
                           callee->base()->kind == ExprKind::Name && callee->base()->text == "self";
  if ((callee->kind != ExprKind::Name && !self_method) || is_plain_builtin(callee->text)) return {};
  // Bookkeeping a handler repeats on purpose: `log_metrics(...)`, `self.save_state()`.
  const std::string n = lower(callee->text);
  for (std::string_view part :
       {"log", "print", "warn", "record", "save", "report", "notify", "write", "emit"}) {
    if (n.find(part) != std::string::npos) return {};
  }
  return ir::dotted_name(callee);
}

// The handler ends by re-raising: it recovers nothing, and the error leaves the frame.
bool ends_in_raise(const Handler& handler) {
  return !handler.body.empty() && handler.body.back()->kind == StmtKind::Raise;
}

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
    const Catches catches = classify_handler(module, handler);
    // ValueError, KeyError, StopIteration...: not where an out-of-memory error lands.
    if (catches == Catches::Other) return;

    const TryBody body = read_try_body(analysis, function, try_stmt);
    const bool says_memory =
        catches == Catches::OutOfMemory || handler_mentions_memory(module, handler);
    // RuntimeError or broader: only about memory when the failed work was a training step or
    // the handler says so; `except RuntimeError` around a file read is something else.
    if (!says_memory && body.steps.empty()) return;

    // `traceback.clear_frames(...)` first: the retry no longer runs beside the failed step.
    if (!handler_clears_frames(module, handler)) {
      if (const Expr* retry = find_retry(analysis, function, handler, body, says_memory)) {
        if (reported.insert(retry).second) report_retry(module, handler, *retry, body, sink);
      }
    }
    // A handler that ends by re-raising lets the error, and its traceback, leave the frame.
    if (ends_in_raise(handler)) return;
    for (const Kept& kept : kept_errors(module, handler)) {
      const std::string key = ir::place_key(kept.place);
      // `err = e` ... `del err`: dropped before it can hold memory for long.
      if (dropped_later(function, *kept.stmt, key)) continue;
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
    for (const Expr* call : calls_in(try_stmt.body)) {
      if (is_training_call(analysis, function, *call) || !step_like_callee(analysis, *call).empty())
        body.steps.push_back(call);
    }
    ir::for_each_nested(try_stmt.body, [&](const Stmt& stmt) {
      if (const Expr* call = statement_call(stmt)) body.statement_calls.push_back(call);
    });
    return body;
  }

  // The first call in the handler that runs the step again: a training call; in a handler that
  // says it is about memory, also a call of the step-like function or of the function the try
  // body called, or of the enclosing function itself.
  static const Expr* find_retry(const ir::FileAnalysis& analysis, const ir::Function& function,
                                const Handler& handler, const TryBody& body, bool says_memory) {
    for (const Expr* call : calls_in(handler.body)) {
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
      const std::string callee = retryable_callee(*call);
      if (callee.empty()) continue;
      for (const Expr* tried : body.statement_calls) {
        if (retryable_callee(*tried) == callee) return call;
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
        {handler_header(module, handler),
         fmt::format("{} runs while the caught error's traceback holds the failed step's frames",
                     handler_words(module, handler))}};
    if (const Expr* step = failed_step(&retry, body))
      related.push_back({step->range, "the step that failed"});
    sink.report(kInfo, retry.range,
                fmt::format("`{}` retries the step inside {}, while the caught error's traceback "
                            "keeps the failed step's tensors allocated",
                            call_text(module, retry), handler_words(module, handler)),
                "set a flag in the handler (`oom = True`) and retry after the `try` statement, "
                "once the traceback is gone",
                std::move(related));
  }

  void report_kept(const ir::Module& module, const Handler& handler, const Kept& kept,
                   const TryBody& body, DiagnosticSink& sink) const {
    std::vector<Related> related = {{handler_header(module, handler), "the error is caught here"}};
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
                            place, what, handler_words(module, handler)),
                std::move(help), std::move(related));
  }
};

}  // namespace

std::unique_ptr<const Rule> make_sl008_oom_retry_in_except() {
  return std::make_unique<OomRetryInExcept>();
}

}  // namespace sealint::rules
