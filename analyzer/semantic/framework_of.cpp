#include "analyzer/semantic/framework_of.h"

#include <string>

#include "analyzer/ir/walk.h"

namespace sealint::semantic {

FrameworksUsed frameworks_used(const ir::Module& module, const ir::Function& function) {
  FrameworksUsed used;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    ir::for_each_expr(stmt, [&](const ir::Expr& expr) {
      // Only the roots of chains: `tf.image.resize` is looked at once, as `tf`.
      if (expr.kind != ir::ExprKind::Name || !module.is_import_alias(expr.text)) return;
      const std::string qualified = module.resolve_import(expr.text);
      if (qualified == "torch" || qualified.starts_with("torch.")) used.torch = true;
      if (qualified == "tensorflow" || qualified.starts_with("tensorflow.") ||
          qualified == "keras" || qualified.starts_with("keras.")) {
        used.tensorflow = true;
      }
    });
  });
  return used;
}

}  // namespace sealint::semantic
