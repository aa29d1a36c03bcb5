#pragma once
// `sealint confirm --report FILE.html`: one self-contained page (no script, no network, charts as
// inline SVG) with, per finding and per watched loop, the verdict, the measured series drawn over
// the steps with the fit and the projection, what holds the growth, the source lines and the fix;
// on CUDA, the blocks at the line and a link to the memory snapshot (docs/confirm.md, "Report").
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/output/reports.h"

namespace sealint::report {

// The text of a source file the findings name; nullopt when it cannot be read.
using SourceReader = std::function<std::optional<std::string>(std::string_view path)>;

struct HtmlReport {
  const output::ConfirmReport& confirm;  // the findings with their verdicts, the watched loops
  const nlohmann::json& result;          // the probe's result the verdicts were read from
  std::vector<size_t> watched_ids;       // the plan id of each of `confirm.watched.loops`
  SourceReader read_source;
  std::string snapshot;  // the CUDA memory snapshot to link to, absolute; empty: none
};

void write_html_report(std::ostream& out, const HtmlReport& report);

}  // namespace sealint::report
