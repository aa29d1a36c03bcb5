#pragma once
// The rule interface: a const object shared by every worker; per-file state lives in the
// RuleContext (STYLE.md §6 "No global mutable state").
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/core/rule_info.h"
#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::rules {

struct RuleContext {
  const ir::FileAnalysis& analysis;
};

// A rule option's schema: `[tool.sealint.rules.SL003] budget-gib = 1.5`. The registry checks
// every configured option against its rule's schema (unknown names, bad values, each error at its
// own line) before it asks the rule for a configured copy; docs pages document each one.
struct RuleOption {
  std::string_view name;           // "budget-gib"
  std::string_view default_value;  // as TOML writes it: "2.0"
  // Why `value` is not acceptable, or nullopt when it is.
  std::optional<std::string> (*check)(std::string_view value) = nullptr;
};

// Option name to its value's text, as the configuration gives it.
using OptionTable = std::map<std::string, std::string, std::less<>>;

class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;
  virtual std::span<const RuleOption> options() const { return {}; }
  // A copy with `table`'s options, every one of which options() names and its check accepted.
  virtual std::unique_ptr<const Rule> with_options(const OptionTable& /*table*/) const {
    return nullptr;
  }
  virtual void check(const ir::Module& module, const RuleContext& context,
                     DiagnosticSink& sink) const = 0;
};

}  // namespace sealint::rules
