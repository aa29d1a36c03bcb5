#include "analyzer/semantic/torch_code.h"

#include "analyzer/knowledge/ecosystem.h"
#include "analyzer/knowledge/naming.h"

namespace sealint::ir {

namespace {

// The name a receiver is known by: `optimizer` for `optimizer`, `self.optimizer`, `opts[0]`.
std::string_view receiver_name(const Expr* receiver) {
  while (receiver != nullptr && receiver->kind == ExprKind::Subscript) receiver = receiver->base();
  if (receiver == nullptr) return {};
  if (receiver->kind == ExprKind::Name || receiver->kind == ExprKind::Attr) return receiver->text;
  return {};
}

// The file calls two of a training step's three verbs: `loss.backward()`, `zero_grad()`, an
// optimizer's `step()` (OpenNMT's trainer steps and clears; its backward is in another module).
bool plainly_trains(const Module& module) {
  bool backward = false;
  bool zero_grad = false;
  bool step = false;
  for (const Expr& expr : module.exprs()) {
    if (expr.kind != ExprKind::Call) continue;
    const Expr* callee = expr.callee();
    if (callee == nullptr || callee->kind != ExprKind::Attr) continue;
    backward = backward || callee->text == "backward";
    zero_grad = zero_grad || callee->text == "zero_grad";
    step = step || (callee->text == "step" &&
                    knowledge::is_optimizer_like_name(receiver_name(callee->base())));
    if (int(backward) + int(zero_grad) + int(step) >= 2) return true;
  }
  return false;
}

}  // namespace

bool is_torch_code(const Module& module) {
  if (module.imports_torch) return true;
  if (module.language() != Language::Python) return false;
  bool torch_library = false;
  for (const ImportAlias& alias : module.imports) {
    switch (knowledge::import_framework(alias.dotted)) {
      case knowledge::ImportFramework::Other:
        return false;
      case knowledge::ImportFramework::Torch:
        torch_library = true;
        break;
      case knowledge::ImportFramework::None:
        break;
    }
  }
  return torch_library || plainly_trains(module);
}

}  // namespace sealint::ir
