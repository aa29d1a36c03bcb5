#include "analyzer/confirm/plan.h"

#include <filesystem>

namespace sealint::confirm {

namespace {

std::string absolute_path(const std::string& path) {
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(path, error);
  return error ? path : absolute.lexically_normal().string();
}

nlohmann::json entry(size_t id, std::string_view rule, const std::string& path, uint32_t line,
                     uint32_t column, const std::optional<ProbeHint>& probe,
                     const std::string& script) {
  const std::string file = absolute_path(path);
  nlohmann::json loop = nullptr;
  nlohmann::json variables = nlohmann::json::array();
  std::string measure = "none";
  if (probe) {
    measure = std::string(probe_measure_name(probe->measure));
    loop = {{"file", file}, {"line", probe->loop_line}, {"end_line", probe->loop_end_line}};
    // A region in a module the script imports may never run (a helper the script does not
    // call): the run does not wait for it unless it is entered.
    if (file != script) loop["optional"] = true;
    if (!probe->length_of.empty()) loop["length_of"] = probe->length_of;
    if (!probe->count_of.empty()) loop["count_of"] = probe->count_of;
    if (probe->count != 0) loop["count"] = probe->count;
    // SL006's claim is the activations each step saves for a backward that never runs.
    if (probe->saved_tensors || probe->measure == ProbeMeasure::Graph) loop["saved_tensors"] = true;
    if (probe->region == ProbeRegion::Calls) {
      loop["counts"] = "calls";
      loop["function"] = probe->function;
    }
    for (const std::string& v : probe->variables) variables.push_back(v);
  }
  return {{"id", id},           {"rule", rule}, {"path", path},
          {"file", file},       {"line", line}, {"column", column},
          {"measure", measure}, {"loop", loop}, {"variables", variables}};
}

}  // namespace

nlohmann::json make_plan(const std::vector<Diagnostic>& findings,
                         const std::vector<WatchedLoop>& watched, const PlanOptions& options) {
  nlohmann::json entries = nlohmann::json::array();
  for (size_t id = 0; id < findings.size(); ++id) {
    const Diagnostic& d = findings[id];
    entries.push_back(entry(id, d.rule_id, d.path, d.span.begin.line, d.span.begin.column, d.probe,
                            options.script));
  }
  for (size_t i = 0; i < watched.size(); ++i) {
    const WatchedLoop& w = watched[i];
    entries.push_back(
        entry(findings.size() + i, "loop", w.path, w.probe.loop_line, 1, w.probe, options.script));
    // A pass that runs a model without training (a validation after each epoch), or a step a
    // framework may never call, holds the run only once it is entered: waiting for it would run
    // a whole epoch of training first, or the script to its end.
    if (!w.trains || w.probe.region == ProbeRegion::Calls)
      entries.back()["loop"]["optional"] = true;
  }
  return {{"format", "sealint-confirm-plan"},
          {"version", 1},
          {"script", options.script},
          {"steps", options.steps},
          {"snapshot", options.snapshot ? nlohmann::json(*options.snapshot) : nlohmann::json()},
          {"findings", entries}};
}

}  // namespace sealint::confirm
