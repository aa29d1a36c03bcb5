#include "analyzer/cli/verify_fix.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "analyzer/cli/probe_run.h"
#include "analyzer/confirm/plan.h"
#include "analyzer/confirm/verdict.h"
#include "analyzer/core/fixes.h"
#include "analyzer/core/utf8.h"

namespace sealint::cli {

namespace {

// How many lines an edit adds (negative: removes), and the last line it replaces.
struct LineShift {
  uint32_t after_line = 0;  // lines past this one move
  int64_t delta = 0;
};

std::vector<LineShift> line_shifts(const std::vector<Diagnostic>& findings,
                                   const std::vector<size_t>& fixed) {
  std::vector<LineShift> shifts;
  for (size_t index : fixed) {
    for (const Edit& edit : findings[index].fix->edits) {
      const auto added =
          static_cast<int64_t>(std::count(edit.replacement.begin(), edit.replacement.end(), '\n'));
      const auto removed = static_cast<int64_t>(edit.span.end.line - edit.span.begin.line);
      shifts.push_back({edit.span.end.line, added - removed});
    }
  }
  return shifts;
}

// A line of the script, where it is in the fixed copy.
uint32_t moved(uint32_t line, const std::vector<LineShift>& shifts) {
  int64_t out = line;
  for (const LineShift& shift : shifts)
    if (shift.after_line < line) out += shift.delta;
  return static_cast<uint32_t>(std::max<int64_t>(out, 1));
}

// The fix is judged on the place it fixed: when only the loop's memory still grows and another
// finding in the same loop keeps growing (an SL002 beside the fixed SL001), the growth is that
// finding's, and the verdict says so rather than call the fix a failure.
void judge_on_own_place(Confirmation& after, const Diagnostic& fixed,
                        const std::vector<Diagnostic>& findings) {
  if (after.verdict != Verdict::Confirmed || after.subject != "the loop") return;
  for (const Diagnostic& other : findings) {
    if (&other == &fixed || !other.probe || !other.confirmation || other.path != fixed.path ||
        other.probe->loop_line != fixed.probe->loop_line ||
        other.probe->region != fixed.probe->region ||
        other.confirmation->verdict != Verdict::Confirmed)
      continue;
    const std::string place = fixed.probe->variables.empty()
                                  ? std::string("the fixed line")
                                  : fmt::format("`{}`", fixed.probe->variables.front());
    after.verdict = Verdict::NotConfirmed;
    after.detail = fmt::format(
        "{} no longer grows over {} iterations; the loop still grows through `{}` ({}, line {})",
        place, after.iterations, other.confirmation->subject, other.rule_id, other.span.begin.line);
    return;
  }
}

}  // namespace

Result<size_t> verify_fixes(const ConfirmOptions& options, std::vector<Diagnostic>& findings) {
  std::ifstream in(options.script, std::ios::binary);
  if (!in)
    return make_error(fmt::format("cannot read '{}': {}", options.script, std::strerror(errno)));
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const bool bom = std::string_view(bytes).starts_with(utf8::kBom);
  const std::string_view code = std::string_view(bytes).substr(bom ? utf8::kBom.size() : 0);
  // --verify-fix is how an unsafe fix earns trust: both kinds go in. Only the script is copied:
  // the fixes of findings in the modules it imports stay out (same indices, no fix).
  const std::string script = absolute_path(options.script);
  std::vector<Diagnostic> own = findings;
  for (Diagnostic& d : own)
    if (absolute_path(d.path) != script) d.fix.reset();
  const AppliedFixes applied = apply_fixes(code, own, /*unsafe=*/true);
  std::vector<size_t> measured;
  for (size_t index : applied.fixed)
    if (findings[index].probe) measured.push_back(index);
  if (measured.empty()) return size_t{0};

  const TempDir temp;
  if (temp.path().empty())
    return make_error(fmt::format("cannot create a temporary folder: {}", std::strerror(errno)));
  // The copy keeps the script's name (tracebacks, `__file__`'s basename); its folder is put on
  // the import path, so that modules beside the script are still found.
  const std::string original = absolute_path(options.script);
  const std::string copy =
      (std::filesystem::path(temp.path()) / std::filesystem::path(original).filename()).string();
  std::ofstream(copy, std::ios::binary)
      << (bom ? std::string(utf8::kBom) : std::string()) << applied.text;

  // Each fixed finding's loop, where it is in the copy, measured as a loop without a finding:
  // after the fix, only a graph or tensor memory that still grows counts.
  const std::vector<LineShift> shifts = line_shifts(findings, applied.fixed);
  std::vector<WatchedLoop> loops;
  for (size_t index : measured) {
    ProbeHint probe = *findings[index].probe;
    probe.loop_line = moved(probe.loop_line, shifts);
    probe.loop_end_line = moved(probe.loop_end_line, shifts);
    loops.push_back({copy, probe, true, {}});
  }
  const nlohmann::json plan = confirm::make_plan({}, loops, {copy, options.steps, std::nullopt});
  const std::string plan_path = temp.path() + "/plan.json";
  std::ofstream(plan_path, std::ios::binary) << plan.dump(2) << '\n';
  auto run = run_probe(options, {copy, plan_path, temp.path(),
                                 std::filesystem::path(original).parent_path().string()});
  if (!run)
    return make_error(fmt::format("the run with the fixes applied failed: {}", run.error()));
  for (size_t i = 0; i < measured.size(); ++i) {
    Diagnostic& fixed = findings[measured[i]];
    fixed.after_fix = confirm::judge_watched(loops[i], i, run->result, run->end);
    judge_on_own_place(*fixed.after_fix, fixed, findings);
  }
  return measured.size();
}

}  // namespace sealint::cli
