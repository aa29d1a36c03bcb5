// SL012: a suppression comment that silences nothing. docs: docs/rules/SL012.md
// Its findings are made by the driver's suppression pass (analyzer/driver/suppression_pass.h),
// after every other rule has run: whether a comment is used depends on all of their findings, so
// this rule's own check has nothing to look at.
#include "rules/rule.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL012",
    .name = "unused-suppression",
    .severity = Severity::Warning,
    .python = true,
    .cpp = true,
    .summary =
        "Flags a suppression comment (`# noqa: SL001`, `// NOLINT(SL001)`, "
        "`# sealint: ignore[...]`) that silences no finding.",
    .fix = FixAvailability::Sometimes,
    .fix_safety = FixSafety::Safe,
    .framework = Framework::Any,
    .precision = Precision::High,  // exact: it compares comments with the run's findings
    .brief = "a suppression comment that silences nothing",
    .on_by_default = false,
    // A suppression in a test is judged against the rules that ran there (those that report in
    // tests), so the check itself runs everywhere.
    .reports_in_tests = true,
};

class UnusedSuppression final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  void check(const ir::Module& /*module*/, const RuleContext& /*context*/,
             DiagnosticSink& /*sink*/) const override {}
};

}  // namespace

std::unique_ptr<const Rule> make_sl012_unused_suppression() {
  return std::make_unique<UnusedSuppression>();
}

}  // namespace sealint::rules
