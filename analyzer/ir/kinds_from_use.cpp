#include "analyzer/ir/kinds_from_use.h"

#include <algorithm>

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

// Calls of `name` in `expr`: `top` for one that makes `expr`'s value (the outermost call, through
// arithmetic), `fed` for one nested in another call's arguments or receiver.
void find_calls(const Expr& expr, std::string_view name, bool outermost, bool& top, bool& fed) {
  if (expr.kind == ExprKind::Call) {
    const Expr* callee = expr.callee();
    if (callee->kind == ExprKind::Name && callee->text == name) (outermost ? top : fed) = true;
    for (const Expr* item : expr.items) find_calls(*item, name, false, top, fed);
    for (const Keyword& keyword : expr.keywords) find_calls(*keyword.value, name, false, top, fed);
    return;
  }
  // `loss = a + b`, `loss = -f(x)`: arithmetic keeps the outermost position.
  const bool arithmetic = expr.kind == ExprKind::BinOp || expr.kind == ExprKind::UnaryOp;
  for (const Expr* item : expr.items) find_calls(*item, name, outermost && arithmetic, top, fed);
}

// What the backward says of `name`: LossFn when its call makes the 0-d loss handed to a
// backward, Module when its call feeds a graph a backward consumes, Unknown when it does neither.
ValueKind kind_from_backward(const Function& function, std::string_view name,
                             const BackwardEvidence& backward) {
  const std::vector<std::string>& losses = backward.losses;
  const std::vector<std::string>& graphs = backward.graphs;
  const std::vector<std::string>& sources = backward.sources;
  if (sources.empty() && losses.empty()) return ValueKind::Unknown;
  bool makes = false;
  bool feeds = false;
  for_each_nested(function.body, [&](const Stmt& stmt) {
    if (stmt.kind == StmtKind::Assign && stmt.value != nullptr) {
      for (const Expr* target : stmt.targets) {
        bool top = false;
        bool fed = false;
        if (target->kind == ExprKind::Name) {
          find_calls(*stmt.value, name, true, top, fed);
          if (contains(losses, target->text)) {
            makes = makes || top;
            feeds = feeds || fed;
          } else if (contains(sources, target->text)) {
            feeds = feeds || top || fed;
          }
          continue;
        }
        // `loss, n, logs = f(out, y)`: a call whose results include the loss makes it (a
        // criterion returning counts and logs beside); `out, hidden = g(x, hidden)`: one whose
        // results include a consumed graph feeds it.
        // A result handed to a backward through a wrapper (`opt.backward(loss)`) may be either:
        // no evidence then.
        bool loss = false;
        bool handed = false;
        bool consumed = false;
        for_each_subexpr(*target, [&](const Expr& sub) {
          if (sub.kind != ExprKind::Name) return;
          loss = loss || contains(losses, sub.text);
          handed = handed || contains(graphs, sub.text);
          consumed = consumed || contains(sources, sub.text);
        });
        if (!loss && (handed || !consumed)) continue;
        find_calls(*stmt.value, name, true, top, fed);
        makes = makes || (loss && top);
        feeds = feeds || fed || (!loss && top);
      }
    }
    // `f(g(x), y).backward()`, `g(x).sum().backward()`
    for_each_expr(stmt, [&](const Expr& call) {
      if (call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Attr ||
          call.callee()->text != "backward")
        return;
      bool top = false;
      bool fed = false;
      find_calls(*call.callee()->base(), name, true, top, fed);
      makes = makes || top;
      feeds = feeds || fed;
    });
  });
  if (makes == feeds) return ValueKind::Unknown;  // neither, or both (a recursive step)
  return makes ? ValueKind::LossFn : ValueKind::Module;
}

}  // namespace

ValueKind kind_from_use(const Function& function, std::string_view name,
                        const BackwardEvidence& backward) {
  bool module = false;
  bool zeroed = false;
  bool stepped = false;
  for_each_nested(function.body, [&](const Stmt& stmt) {
    for_each_expr(stmt, [&](const Expr& call) {
      if (call.kind != ExprKind::Call) return;
      const Expr* callee = call.callee();
      if (callee->kind != ExprKind::Attr || callee->base()->kind != ExprKind::Name ||
          callee->base()->text != name)
        return;
      const std::string_view method = callee->text;
      // `df.eval("a + b")`, TF's `tensor.eval(feed_dict=...)`: other libraries' methods of these
      // names take arguments; torch's `train` takes a flag.
      if ((knowledge::kModuleOnlyMethods.contains(method) && call.arg_count() == 0 &&
           call.keywords.empty()) ||
          (method == "train" && is_flag_argument(call)) ||
          (method == "parameters" && call.arg_count() <= 1)) {
        module = true;
      }
      if (method == "zero_grad") zeroed = true;
      if (method == "step" && call.arg_count() == 0 && call.keywords.empty()) stepped = true;
    });
  });
  if (module) return ValueKind::Module;
  if (zeroed && stepped) return ValueKind::Optimizer;
  return kind_from_backward(function, name, backward);
}

}  // namespace sealint::ir
