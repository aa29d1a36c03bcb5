#pragma once
// Calls that keep something in an object beyond the call: `meter.update(loss)` where the class's
// `update(self, val)` does `self.sum += val`, `logger.log(loss)` where `log` appends to
// `self.history`. The method is the file's own or one another file of the project defines; its
// summary (ir/facts.h SelfEffect) says what it keeps and from which parameters.
#include <functional>
#include <string_view>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

struct EffectCall {
  const ir::Expr& call;          // `meter.update(loss)`
  const ir::Fact& receiver;      // what `meter` is
  const ir::Callee& method;      // `AverageMeter.update`
  const ir::SelfEffect& effect;  // `self.sum += val`

  // The class whose method keeps the value, as a message names it: the override's for
  // `self._update(...)` in a base class (`_BaseRegressionEpoch`), else the receiver's.
  [[nodiscard]] std::string_view owner() const;
};

// Calls `visit` for each effect of kind `kind` of each method call in `stmt` (its own
// expressions, not nested statements'), effects in the method's order. `visit` returns true when
// it is done with the call (it reported), so the call's later effects are skipped.
void for_each_effect_call(const ir::FileAnalysis& analysis, const ir::Stmt& stmt,
                          ir::SelfEffect::Kind kind,
                          const std::function<bool(const EffectCall&)>& visit);

}  // namespace sealint::semantic
