#include "analyzer/confirm/plan.h"

#include <filesystem>

namespace sealint::confirm {

namespace {

std::string absolute_path(const std::string& path) {
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(path, error);
  return error ? path : absolute.lexically_normal().string();
}

}  // namespace

nlohmann::json make_plan(const std::vector<Diagnostic>& findings, const PlanOptions& options) {
  nlohmann::json entries = nlohmann::json::array();
  for (size_t id = 0; id < findings.size(); ++id) {
    const Diagnostic& d = findings[id];
    const std::string file = absolute_path(d.path);
    nlohmann::json loop = nullptr;
    nlohmann::json variables = nlohmann::json::array();
    std::string measure = "none";
    if (d.probe) {
      measure = std::string(probe_measure_name(d.probe->measure));
      loop = {{"file", file}, {"line", d.probe->loop_line}, {"end_line", d.probe->loop_end_line}};
      for (const std::string& v : d.probe->variables) variables.push_back(v);
    }
    entries.push_back({{"id", id},
                       {"rule", d.rule_id},
                       {"path", d.path},
                       {"file", file},
                       {"line", d.span.begin.line},
                       {"column", d.span.begin.column},
                       {"measure", measure},
                       {"loop", loop},
                       {"variables", variables}});
  }
  return {{"format", "sealint-confirm-plan"},
          {"version", 1},
          {"script", options.script},
          {"steps", options.steps},
          {"snapshot", options.snapshot ? nlohmann::json(*options.snapshot) : nlohmann::json()},
          {"findings", entries}};
}

}  // namespace sealint::confirm
