#pragma once
// The rule interface: a const object shared by every worker; per-file state lives in the
// RuleContext (STYLE.md §6 "No global mutable state").
#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/core/rule_info.h"
#include "analyzer/ir/grad_flow.h"
#include "analyzer/ir/ir.h"

namespace sealint::rules {

struct RuleContext {
  const ir::FileAnalysis& analysis;
};

class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;
  virtual void check(const ir::Module& module, const RuleContext& context,
                     DiagnosticSink& sink) const = 0;
};

}  // namespace sealint::rules
