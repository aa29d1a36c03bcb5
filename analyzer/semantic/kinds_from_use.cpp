#include "analyzer/semantic/kinds_from_use.h"

#include <algorithm>
#include <utility>

#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/torch_api.h"

namespace sealint::ir {
namespace {

// `net.train(mode == "train")`, `net.train(False)`, `net.train(is_training)`: a flag, not a
// corpus (gensim's `model.train(sentences, ...)` takes more).
bool is_flag_argument(const Expr& call) {
  if (!call.keywords.empty() || call.arg_count() > 1) return false;
  if (call.arg_count() == 0) return true;
  const Expr* arg = call.arg(0);
  return arg->kind == ExprKind::Compare || arg->kind == ExprKind::Name ||
         (arg->kind == ExprKind::Const && arg->const_kind == ConstKind::Bool) ||
         (arg->kind == ExprKind::UnaryOp && arg->text == "not");
}

bool contains(const std::vector<std::string>& sorted, std::string_view key) {
  return std::binary_search(sorted.begin(), sorted.end(), key);
}

// Every call of a plain name in `expr`: `visit(name, top)` with `top` for one that makes
// `expr`'s value (the outermost call, through arithmetic), false for one nested in another
// call's arguments or receiver.
template <typename Visit>
void find_calls(const Expr& expr, bool outermost, const Visit& visit) {
  if (expr.kind == ExprKind::Call) {
    const Expr* callee = expr.callee();
    if (callee->kind == ExprKind::Name) visit(callee->text, outermost);
    for (const Expr* item : expr.items) find_calls(*item, false, visit);
    for (const Keyword& keyword : expr.keywords) find_calls(*keyword.value, false, visit);
    return;
  }
  // `loss = a + b`, `loss = -f(x)`: arithmetic keeps the outermost position.
  const bool arithmetic = expr.kind == ExprKind::BinOp || expr.kind == ExprKind::UnaryOp;
  for (const Expr* item : expr.items) find_calls(*item, outermost && arithmetic, visit);
}

// What the function does with one parameter.
struct Uses {
  bool module = false;   // `.eval()`, `.train(flag)`, `.parameters()`
  bool zeroed = false;   // `.zero_grad()`
  bool stepped = false;  // `.step()`
  bool makes = false;    // its call makes the 0-d loss handed to a backward
  bool feeds = false;    // its call feeds a graph a backward consumes

  [[nodiscard]] ValueKind kind() const {
    if (module) return ValueKind::Module;
    if (zeroed && stepped) return ValueKind::Optimizer;
    if (makes == feeds) return ValueKind::Unknown;  // neither, or both (a recursive step)
    return makes ? ValueKind::LossFn : ValueKind::Module;
  }
};

}  // namespace

std::vector<ValueKind> param_kinds_from_use(const Function& function,
                                            const BackwardEvidence& backward) {
  std::vector<Uses> uses(function.params.size());
  auto param = [&](std::string_view name) -> Uses* {
    for (size_t i = 0; i < function.params.size(); ++i) {
      if (function.params[i].name == name) return &uses[i];
    }
    return nullptr;
  };
  const auto& losses = backward.losses;
  const auto& graphs = backward.graphs;
  const auto& sources = backward.sources;
  const bool any_backward = !losses.empty() || !sources.empty();
  // The calls in `value`, assigned to what a backward consumes: the outermost makes the loss
  // when `loss` (the value is a loss handed to it), every other one feeds the graph.
  auto record = [&](const Expr& value, bool loss) {
    find_calls(value, true, [&](std::string_view name, bool top) {
      Uses* u = param(name);
      if (u == nullptr) return;
      if (loss && top)
        u->makes = true;
      else
        u->feeds = true;
    });
  };
  // `out = f(x)`, `_, out = f(x)`: the parameter whose call made a local, for the losses below.
  std::vector<std::pair<std::string_view, Uses*>> made_by;
  for_each_nested(function.body, [&](const Stmt& stmt) {
    if (stmt.kind != StmtKind::Assign || stmt.value == nullptr ||
        stmt.value->kind != ExprKind::Call || stmt.value->callee()->kind != ExprKind::Name)
      return;
    Uses* u = param(stmt.value->callee()->text);
    if (u == nullptr) return;
    for (const Expr* target : stmt.targets) {
      if (target->kind == ExprKind::Name) made_by.emplace_back(target->text, u);
      if (target->kind != ExprKind::Collection) continue;
      for (const Expr* item : target->items) {
        if (item->kind == ExprKind::Name) made_by.emplace_back(item->text, u);
      }
    }
  });
  for_each_nested(function.body, [&](const Stmt& stmt) {
    for_each_expr(stmt, [&](const Expr& call) {
      if (call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Attr) return;
      // `F.cross_entropy(f(x), y)`, `out = f(x); F.mse_loss(out, y)`: torch's functional losses
      // take a model's output first (the name is the API).
      if (knowledge::kLossFunctions.contains(call.callee()->text) && call.arg(0) != nullptr) {
        const Expr* prediction = call.arg(0);
        if (prediction->kind == ExprKind::Call && prediction->callee()->kind == ExprKind::Name) {
          if (Uses* u = param(prediction->callee()->text)) u->feeds = true;
        } else if (prediction->kind == ExprKind::Name) {
          for (const auto& [local, u] : made_by) {
            if (local == prediction->text) u->feeds = true;
          }
        }
      }
      const Expr* receiver = call.callee()->base();
      const std::string_view method = call.callee()->text;
      // `f(g(x), y).backward()`, `g(x).sum().backward()`
      if (method == "backward" && any_backward) {
        find_calls(*receiver, true, [&](std::string_view name, bool top) {
          if (Uses* u = param(name)) (top ? u->makes : u->feeds) = true;
        });
      }
      if (receiver->kind != ExprKind::Name) return;
      Uses* u = param(receiver->text);
      if (u == nullptr) return;
      // `df.eval("a + b")`, TF's `tensor.eval(feed_dict=...)`: other libraries' methods of these
      // names take arguments; torch's `train` takes a flag.
      if ((knowledge::kModuleOnlyMethods.contains(method) && call.arg_count() == 0 &&
           call.keywords.empty()) ||
          (method == "train" && is_flag_argument(call)) ||
          (method == "parameters" && call.arg_count() <= 1)) {
        u->module = true;
      }
      if (method == "zero_grad") u->zeroed = true;
      if (method == "step" && call.arg_count() == 0 && call.keywords.empty()) u->stepped = true;
    });
    if (!any_backward || stmt.kind != StmtKind::Assign || stmt.value == nullptr) return;
    for (const Expr* target : stmt.targets) {
      if (target->kind == ExprKind::Name) {
        const bool loss = contains(losses, target->text);
        const bool source = contains(sources, target->text);
        if (loss || source) record(*stmt.value, loss);
        continue;
      }
      // `loss, n, logs = f(out, y)`: a call whose results include the loss makes it (a
      // criterion returning counts and logs beside); `out, hidden = g(x, hidden)`: one whose
      // results include a consumed graph feeds it. A result handed to a backward through a
      // wrapper (`opt.backward(loss)`) may be either: no evidence then.
      bool loss = false;
      bool handed = false;
      bool consumed = false;
      for_each_subexpr(*target, [&](const Expr& sub) {
        if (sub.kind != ExprKind::Name) return;
        loss = loss || contains(losses, sub.text);
        handed = handed || contains(graphs, sub.text);
        consumed = consumed || contains(sources, sub.text);
      });
      if (loss || (consumed && !handed)) record(*stmt.value, loss);
    }
  });
  std::vector<ValueKind> kinds;
  kinds.reserve(uses.size());
  for (const Uses& u : uses) kinds.push_back(u.kind());
  return kinds;
}

}  // namespace sealint::ir
