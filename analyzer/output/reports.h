#pragma once
// What a command hands the writer of the output format it was asked for: a lint run's findings
// and summary, a confirm run's findings with their verdicts. Every format's writer reads the same
// report (analyzer/output/formats.h), each taking what it prints.
#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/confirmation.h"
#include "analyzer/core/diagnostic.h"
#include "analyzer/output/sarif_output.h"
#include "analyzer/output/text_output.h"

namespace sealint::output {

struct LintReport {
  const std::vector<Diagnostic>& diagnostics;  // every finding, suppressed ones included
  const std::vector<Diagnostic>& shown;   // what is printed: `active`, or all (--show-suppressed)
  const std::vector<Diagnostic>& active;  // not suppressed: what fails the run
  const std::vector<Diagnostic>& fixed;   // what --fix fixed
  const std::vector<InputError>& errors;
  const std::vector<SarifRule>& rules;
  const LineLookup& lines;
  std::string tool_version;
  std::string source_root;  // the working directory, for SARIF's %SRCROOT%
  size_t files = 0;
  TextOptions text;
  bool parse_only = false;  // --parse-only: the text format prints nothing
  bool statistics = false;  // --statistics: counts per rule instead of the findings
  bool fixing = false;      // --fix was given
  bool show_fixes = false;  // --show-fixes
  // Test functions whose findings were left out (analyse-tests off): the summary counts them.
  std::vector<LeftOutTest> left_out_tests = {};
};

// The training loops a confirm run measured without a finding in them.
struct WatchedVerdicts {
  std::vector<WatchedLoop> loops;
  std::vector<Confirmation> verdicts;
  // Per loop, the measured steps it calls ("the code of the finding at fwd.py:13", "`forward()`
  // at net.py:11"): its growth is theirs. Empty when it calls none.
  std::vector<std::string> runs_flagged;
};

struct ConfirmReport {
  const std::vector<Diagnostic>& findings;  // each with its verdict
  const WatchedVerdicts& watched;
  const std::vector<SarifRule>& rules;
  const LineLookup& lines;
  std::string tool_version;
  std::string source_root;  // the working directory, for SARIF's %SRCROOT%
  bool color = false;
  std::string script;             // as the command line named it
  std::string found_in;           // "train.py", or "train.py and 2 modules it imports"
  std::string run_summary;        // how the run ended
  std::optional<double> seconds;  // how long it ran, when the probe said
};

}  // namespace sealint::output
