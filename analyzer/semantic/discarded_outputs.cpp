#include "analyzer/semantic/discarded_outputs.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/builtins.h"
#include "analyzer/knowledge/torch_api.h"
#include "analyzer/semantic/iteration.h"

namespace sealint::semantic {
namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

// Builtins that read a value and keep no tensor: `int(top_i)`, `print(out)`, `len(out)`.
bool reads_as_value(std::string_view builtin) {
  return knowledge::kBuiltinsWithPlainResult.contains(builtin);
}

// What an expression does with the values being followed (a model run's result and the names
// bound from it), from the least to the most that can keep its graph.
enum class Use : uint8_t {
  None,     // does not touch them
  Value,    // reads them as values only: `out.item()`, `out.argmax(1)`, `out.data`, `out == y`
  Flows,    // its own value may carry their graph: `out[0]`, `torch.max(out, 1)`, `out * 2`
  Escapes,  // hands them where they may be kept: `outs.append(out)`, `log(out)`, a lambda
};

Use worst(Use a, Use b) {
  return a > b ? a : b;
}

// Where the values are followed: the function whose statements are read, and how many calls of
// the file's own functions deep (a helper the result is handed to, `self.save_grid(out, path)`).
struct Follow {
  const ir::FileAnalysis& analysis;
  const ir::Function& function;
  int depth = 0;
};
constexpr int kFollowDepth = 2;

enum class Fate : uint8_t { Values, Returned, Kept };
Fate follow_names(const Follow& at, std::vector<std::string_view> followed, const Stmt* skip);

// What a function of the file does with the argument `arg` of `call`: reads it as values (Value),
// returns it (Flows: the call's result carries it on), or may keep it (Escapes).
Use handed_to_function(const Follow& at, const Expr& call, const Expr& arg) {
  if (at.depth >= kFollowDepth) return Use::Escapes;
  const ir::Function* callee = at.analysis.resolve_callee(at.function, call);
  if (callee == nullptr || callee == &at.function) return Use::Escapes;
  // A method called on an object takes it as its first parameter.
  const size_t offset = !callee->params.empty() && callee->params[0].name == ir::kReceiver &&
                                call.callee()->kind == ExprKind::Attr
                            ? 1
                            : 0;
  std::string_view param;
  for (size_t i = 0; i < call.arg_count(); ++i) {
    if (call.arg(i) == &arg && i + offset < callee->params.size())
      param = callee->params[i + offset].name;
  }
  for (const ir::Keyword& keyword : call.keywords) {
    if (keyword.value == &arg && callee->has_param(keyword.name)) param = keyword.name;
  }
  if (param.empty()) return Use::Escapes;
  switch (follow_names({at.analysis, *callee, at.depth + 1}, {param}, nullptr)) {
    case Fate::Values:
      return Use::Value;
    case Fate::Returned:
      return Use::Flows;
    default:
      return Use::Escapes;
  }
}

// `picked` says which expressions are the followed values (a name, or the run itself).
template <typename Pick>
Use use_in(const Follow& at, const Expr& expr, const Pick& picked) {
  if (picked(expr)) return Use::Flows;
  // Each part's use, read once (a call's case below reads its callee's and arguments' again).
  std::vector<Use> item_uses(expr.items.size(), Use::None);
  std::vector<Use> keyword_uses(expr.keywords.size(), Use::None);
  Use inner = Use::None;
  for (size_t i = 0; i < expr.items.size(); ++i) {
    if (expr.items[i] != nullptr) item_uses[i] = use_in(at, *expr.items[i], picked);
    inner = worst(inner, item_uses[i]);
  }
  for (size_t i = 0; i < expr.keywords.size(); ++i) {
    if (expr.keywords[i].value != nullptr)
      keyword_uses[i] = use_in(at, *expr.keywords[i].value, picked);
    inner = worst(inner, keyword_uses[i]);
  }
  if (inner != Use::Flows) return inner;
  switch (expr.kind) {
    case ExprKind::Attr:
      // `loss.backward()`: the graph is used.
      if (expr.text == "backward") return Use::Escapes;
      // `out.data`, `out.shape`, and `out.argmax` (the callee of `out.argmax(1)`).
      return expr.text == "data" || expr.text == "detach" ||
                     knowledge::kTensorAttributesWithoutGraph.contains(expr.text) ||
                     knowledge::kTensorMethodsWithoutGraph.contains(expr.text)
                 ? Use::Value
                 : Use::Flows;
    case ExprKind::Compare:
      return Use::Value;
    case ExprKind::Call: {
      const Expr& callee = *expr.callee();
      // A method of the value itself (`out.softmax(1)`): its result carries the graph on.
      if (item_uses[0] == Use::Flows) return Use::Flows;
      // An argument of a builtin that reads a value (`int(x)`, `print(out)`).
      if (callee.kind == ExprKind::Name && reads_as_value(callee.text)) return Use::Value;
      // torch's own functions compute a new tensor and keep nothing (`torch.max(out, 1)`), but
      // `torch.autograd.grad(out, ...)` and `dist_autograd.backward(ctx, [loss])` use the graph.
      const std::string qualified = ir::qualified_name(at.analysis.module(), &callee);
      if (qualified.starts_with("torch.") && qualified.find("autograd") == std::string::npos &&
          !qualified.ends_with(".backward"))
        return Use::Flows;
      // Handed to a function of the file: what it does with each argument that carries them.
      Use use = Use::None;
      const auto hand = [&](const Expr* arg, Use carried) {
        if (arg == nullptr) return;
        use = worst(use, carried == Use::Flows ? handed_to_function(at, expr, *arg) : carried);
      };
      for (size_t i = 1; i < expr.items.size(); ++i) hand(expr.items[i], item_uses[i]);
      for (size_t i = 0; i < expr.keywords.size(); ++i)
        hand(expr.keywords[i].value, keyword_uses[i]);
      return use;
    }
    case ExprKind::Subscript:
    case ExprKind::BinOp:
    case ExprKind::UnaryOp:
    case ExprKind::BoolOp:
    case ExprKind::IfExp:
    case ExprKind::Collection:
    case ExprKind::Starred:
    case ExprKind::Slice:
      return Use::Flows;
    default:
      return Use::Escapes;
  }
}

// Does `expr`, evaluated in an iteration of `loop`, take something of that iteration: a loop
// target, what `next(...)` yields, the model run's own result carried to the next iteration
// (`hidden`, a sampled token), or a name the body binds from one of those? Names the body binds
// only from loop-invariant values and tensor factories (`x = torch.randn(2, 8)`) do not count:
// a run on the same or random input every time is a smoke test or a warm-up, not a pass over
// data. `depth` bounds the chase through the body's bindings, and `seen` (the names chased
// already) keeps it linear in the names of the body.
bool takes_iteration(const ir::FileAnalysis& analysis, const ir::Function& function,
                     const Expr& expr, const Stmt& loop, const Expr& run, int depth,
                     std::vector<std::string_view>& seen) {
  if (depth > 6) return false;
  bool takes = false;
  ir::for_each_subexpr(expr, [&](const Expr& sub) {
    if (takes) return;
    if (&sub == &run) {
      takes = true;
      return;
    }
    if (is_next_call(sub) || analysis.draws_next_item(function, sub)) {
      takes = true;
      return;
    }
    if (sub.kind != ExprKind::Name) return;
    if (std::find(seen.begin(), seen.end(), sub.text) != seen.end()) return;
    seen.push_back(sub.text);
    for (const Expr* target : loop.targets) {
      ir::for_each_subexpr(*target, [&](const Expr& t) {
        takes = takes || (t.kind == ExprKind::Name && t.text == sub.text);
      });
    }
    if (takes) return;
    ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
      if (takes || stmt.value == nullptr ||
          (stmt.kind != StmtKind::Assign && stmt.kind != StmtKind::AugAssign))
        return;
      bool binds = false;
      for (const Expr* target : stmt.targets) {
        ir::for_each_subexpr(*target, [&](const Expr& t) {
          binds = binds || (t.kind == ExprKind::Name && t.text == sub.text);
        });
      }
      if (binds && stmt.value != &expr &&
          takes_iteration(analysis, function, *stmt.value, loop, run, depth + 1, seen))
        takes = true;
    });
  });
  return takes;
}

// `for layer in self.layers: x = layer(x)`, `self.convs[i](x)` over `enumerate(self.convs)`: the
// loop walks the layers of one model, so the runs are one forward pass, not a pass per iteration.
bool walks_layers(const Stmt& loop, const Expr& call) {
  const Expr* callee = call.callee();
  bool by_target = false;
  const auto is_target = [&](const Expr& e) {
    if (e.kind != ExprKind::Name) return;
    for (const Expr* target : loop.targets) {
      ir::for_each_subexpr(*target, [&](const Expr& t) {
        by_target = by_target || (t.kind == ExprKind::Name && t.text == e.text);
      });
    }
  };
  if (callee->kind == ExprKind::Name) is_target(*callee);
  if (callee->kind == ExprKind::Subscript) {
    for (size_t i = 1; i < callee->items.size(); ++i) {
      if (callee->items[i] != nullptr) ir::for_each_subexpr(*callee->items[i], is_target);
    }
  }
  return by_target;
}

// The statement of `body` (at any depth) that holds `call`, or nullptr.
const Stmt* statement_of(const std::vector<Stmt*>& body, const Expr& call) {
  const Stmt* found = nullptr;
  ir::for_each_nested(body, [&](const Stmt& stmt) {
    if (found != nullptr) return;
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (&expr == &call) found = &stmt;
    });
  });
  return found;
}

// The plain names `stmt` binds (`out, hidden = ...`), or empty when a target is an attribute or
// an element (`self.out = ...`, `outs[i] = ...`): the value is kept where the function's end
// does not release it.
std::vector<std::string_view> plain_targets(const Stmt& stmt) {
  std::vector<std::string_view> names;
  bool plain = true;
  for (const Expr* target : stmt.targets) {
    ir::for_each_subexpr(*target, [&](const Expr& sub) {
      if (sub.kind == ExprKind::Name) names.push_back(sub.text);
      if (sub.kind == ExprKind::Attr || sub.kind == ExprKind::Subscript) plain = false;
    });
  }
  if (!plain) names.clear();
  return names;
}

// What `at.function` does with the values of the names `followed` (bound by `skip`, which is not
// read): reads them only as values, returns them (or values that carry their graph), or may keep
// them. They are followed through the names bound from them, through torch's functions and tensor
// arithmetic (`pred = torch.max(out, 1)[1]`) and into the file's functions they are handed to, to
// where each use ends: read as a value, dropped, or kept (stored, appended, handed to a function
// of unknown effect, accumulated).
Fate follow_names(const Follow& at, std::vector<std::string_view> followed, const Stmt* skip) {
  const auto is_followed = [&](std::string_view name) {
    return std::find(followed.begin(), followed.end(), name) != followed.end();
  };
  const auto picked = [&](const Expr& e) {
    return e.kind == ExprKind::Name && is_followed(e.text);
  };
  bool returned = false;
  // Names bound from the followed values join them; each pass reads the function once, and a
  // pass that adds no name ends the chase.
  for (size_t before = 0; before != followed.size();) {
    before = followed.size();
    bool keeps = false;
    ir::for_each_nested(at.function.body, [&](const Stmt& other) {
      if (keeps || &other == skip) return;
      for (const Expr* item : other.items) {
        if (use_in(at, *item, picked) > Use::Value) keeps = true;
      }
      // Rebinding a name is no use of it (`_, out = f(x)`); storing into a followed value's
      // element or attribute is (`out[i] = ...`).
      for (const Expr* target : other.targets) {
        const std::vector<const Expr*> parts =
            target->kind == ExprKind::Collection
                ? std::vector<const Expr*>(target->items.begin(), target->items.end())
                : std::vector<const Expr*>{target};
        for (const Expr* part : parts) {
          if (part->kind != ExprKind::Name && use_in(at, *part, picked) > Use::Value) keeps = true;
        }
      }
      if (other.value == nullptr) return;
      const Use use = use_in(at, *other.value, picked);
      if (use <= Use::Value) return;
      if (use == Use::Escapes) {
        keeps = true;
        return;
      }
      switch (other.kind) {
        case StmtKind::ExprStmt:
          return;  // computed and dropped
        case StmtKind::Return:
          returned = true;  // handed to the caller, whose use is judged there
          return;
        case StmtKind::If:
          return;  // a condition: read as a truth value
        case StmtKind::Loop:
          // A `while` condition is read as a truth value; a `for` iterates the tensor.
          keeps = keeps || other.loop_kind == ir::LoopKind::For;
          return;
        case StmtKind::Assign: {
          const std::vector<std::string_view> bound = plain_targets(other);
          if (bound.empty()) keeps = true;
          for (const std::string_view name : bound) {
            if (!is_followed(name)) followed.push_back(name);
          }
          return;
        }
        default:
          keeps = true;  // accumulated (`total += out`), iterated, yielded...
      }
    });
    if (keeps) return Fate::Kept;
  }
  return returned ? Fate::Returned : Fate::Values;
}

// What `function` does with the result of `call` (in `stmt`) keeps no graph: drops it, reads it
// as values, or (`returned`: a helper whose caller's use is judged there) returns it.
bool keeps_no_graph(const ir::FileAnalysis& analysis, const ir::Function& function,
                    const Stmt& stmt, const Expr& call, bool returned) {
  const Follow at{analysis, function};
  // `model(x)`, `print(model(x).shape)` as a statement: the result is dropped, or read as a
  // value and dropped.
  const auto is_run = [&](const Expr& e) { return &e == &call; };
  if (stmt.kind == StmtKind::ExprStmt)
    return stmt.value != nullptr && use_in(at, *stmt.value, is_run) <= Use::Flows;
  // `return model(x).argmax().item()`: what goes back is read from the result as values.
  if (stmt.kind == StmtKind::Return)
    return stmt.value != nullptr &&
           (stmt.value == &call ? returned : use_in(at, *stmt.value, is_run) == Use::Value);
  // `hits += (model(x).argmax(1) == y).sum().item()`: what is stored is read from the result as
  // values.
  if ((stmt.kind == StmtKind::Assign || stmt.kind == StmtKind::AugAssign) &&
      stmt.value != nullptr && stmt.value != &call)
    return use_in(at, *stmt.value, is_run) == Use::Value;
  // `out, hidden = model(x, hidden)`: names bound to the result, every later use of which
  // (anywhere in the function) reads a value; the run's own statement may feed them back.
  if (stmt.kind != StmtKind::Assign || stmt.value != &call) return false;
  const std::vector<std::string_view> followed = plain_targets(stmt);
  if (followed.empty()) return false;
  // A parameter bound to the result may be the caller's (a C++ output reference, `Tensor& last`).
  for (const std::string_view name : followed) {
    if (function.has_param(name)) return false;
  }
  const Fate fate = follow_names(at, followed, &stmt);
  return fate == Fate::Values || (returned && fate == Fate::Returned);
}

}  // namespace

bool graph_is_discarded(const ir::FileAnalysis& analysis, const ir::Function& function,
                        const Stmt& loop, const Expr& call, bool values_only) {
  if (analysis.loop_trains(loop)) return false;
  // A few written-out items (`for u in [a, b]`, `range(2)`): a demonstration or a warm-up.
  if (iterates_fixed_handful(analysis.module(), function, loop) || walks_layers(loop, call))
    return false;
  const Stmt* stmt = statement_of(loop.body, call);
  if (stmt == nullptr) return false;
  // The run's input must change with the iteration (the data of the pass), not a warm-up on one
  // tensor or a smoke test on random ones.
  bool takes = false;
  std::vector<std::string_view> seen;
  for (size_t i = 0; i < call.arg_count() && !takes; ++i)
    takes = takes_iteration(analysis, function, *call.arg(i), loop, call, 0, seen);
  for (const ir::Keyword& keyword : call.keywords) {
    if (!takes && keyword.value != nullptr)
      takes = takes_iteration(analysis, function, *keyword.value, loop, call, 0, seen);
  }
  if (!takes) return false;
  return values_only || keeps_no_graph(analysis, function, *stmt, call, false);
}

bool helper_keeps_no_graph(const ir::FileAnalysis& analysis, const ir::Function& helper,
                           const Expr& call, bool returns_it) {
  const Stmt* stmt = statement_of(helper.body, call);
  return stmt != nullptr && keeps_no_graph(analysis, helper, *stmt, call, returns_it);
}

namespace {

// `stmt` of `body_of` binds the run's result or hands it to a call, and keeps no graph of it.
bool result_kept_as_values(const ir::FileAnalysis& analysis, const ir::Function& body_of,
                           const Stmt& stmt, const Expr& call) {
  const bool bound = stmt.kind == StmtKind::Assign && stmt.value == &call;
  const bool handed = stmt.kind == StmtKind::ExprStmt && stmt.value != &call;
  return (bound || handed) && keeps_no_graph(analysis, body_of, stmt, call, false);
}

bool trains_over_data(const ir::FileAnalysis& analysis, const ir::Function& function,
                      const Stmt& loop) {
  return analysis.loop_trains(loop) && !iterates_fixed_handful(analysis.module(), function, loop);
}

}  // namespace

bool graph_unused_in_training(const ir::FileAnalysis& analysis, const ir::Function& function,
                              const Stmt& loop, const Expr& call) {
  if (!trains_over_data(analysis, function, loop)) return false;
  const Stmt* stmt = statement_of(loop.body, call);
  return stmt != nullptr && result_kept_as_values(analysis, function, *stmt, call);
}

bool graph_unused_in_step(const ir::FileAnalysis& analysis, const ir::Function& function,
                          const Stmt& loop, const ir::Function& step, const Stmt& stmt,
                          const Expr& call) {
  return trains_over_data(analysis, function, loop) &&
         result_kept_as_values(analysis, step, stmt, call);
}

}  // namespace sealint::semantic
