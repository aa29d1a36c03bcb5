#include "analyzer/ir/kinds_from_use.h"

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

}  // namespace

ValueKind kind_from_use(const Function& function, std::string_view name) {
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
  return ValueKind::Unknown;
}

}  // namespace sealint::ir
