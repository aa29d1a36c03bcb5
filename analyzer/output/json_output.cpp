#include "analyzer/output/json_output.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "analyzer/core/rule_metadata.h"

namespace sealint::output {

namespace {

// In a notebook, `cell` names the cell the line, columns and offset are in (docs/output-json.md).
nlohmann::json position_json(const Position& p) {
  nlohmann::json out = {{"line", p.line},
                        {"column", p.column},
                        {"utf16_column", p.utf16_column},
                        {"offset", p.offset}};
  if (p.cell != 0) out["cell"] = p.cell;
  return out;
}

nlohmann::json span_json(const Span& span) {
  return {{"start", position_json(span.begin)}, {"end", position_json(span.end)}};
}

nlohmann::json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json();
}

nlohmann::json held_by_json(const std::vector<HeldLink>& links) {
  nlohmann::json out = nlohmann::json::array();
  for (const HeldLink& link : links) {
    out.push_back(
        {{"name", link.name},
         {"type", link.type},
         {"length", link.length ? nlohmann::json(*link.length) : nlohmann::json()},
         {"grad_fn", link.grad_fn.empty() ? nlohmann::json() : nlohmann::json(link.grad_fn)},
         {"where", link.where.empty() ? nlohmann::json() : nlohmann::json(link.where)}});
  }
  return out;
}

}  // namespace

nlohmann::json to_json(const Confirmation& c) {
  return {
      {"verdict", std::string(verdict_name(c.verdict))},
      {"iterations", c.iterations},
      {"subject", c.subject},
      {"metric", c.metric},
      {"nodes_per_iteration", optional_number(c.nodes_per_iteration)},
      {"bytes_per_iteration", optional_number(c.bytes_per_iteration)},
      {"length_per_iteration", optional_number(c.length_per_iteration)},
      {"fit_r_squared", optional_number(c.fit)},
      {"series", c.trend},
      {"cuda_line", c.cuda_line
                        ? nlohmann::json{{"blocks", c.cuda_line->count},
                                         {"bytes", c.cuda_line->bytes},
                                         {"at_end", c.cuda_line->at_end},
                                         {"bytes_per_iteration",
                                          optional_number(c.cuda_line->bytes_per_iteration)}}
                        : nlohmann::json()},
      {"held_by", held_by_json(c.held_by)},
      {"saved_bytes_per_iteration", optional_number(c.saved_bytes_per_iteration)},
      {"runs_out_at_iteration", c.runs_out_at ? nlohmann::json(*c.runs_out_at) : nlohmann::json()},
      {"detail", c.detail}};
}

std::string confirmation_line(const Confirmation& c) {
  return std::string(verdict_name(c.verdict)) + (c.detail.empty() ? "" : ": " + c.detail);
}

nlohmann::json to_json(const Diagnostic& d) {
  nlohmann::json related = nlohmann::json::array();
  for (const RelatedLocation& r : d.related)
    related.push_back({{"message", r.message}, {"range", span_json(r.span)}});
  nlohmann::json fix = nullptr;
  if (d.fix) {
    nlohmann::json edits = nlohmann::json::array();
    for (const Edit& e : d.fix->edits) {
      edits.push_back({{"range", span_json(e.span)}, {"replacement", e.replacement}});
    }
    fix = {{"title", d.fix->title}, {"safe", d.fix->safe}, {"edits", edits}};
  }
  return {{"rule", d.rule_id},
          {"name", d.rule_name},
          {"url", rule_docs_url(d.rule_id)},
          {"severity", std::string(severity_name(d.severity))},
          {"message", d.message},
          {"help", d.help},
          {"path", d.path},
          {"range", span_json(d.span)},
          {"related", related},
          {"fix", fix},
          {"confirmation", d.confirmation ? to_json(*d.confirmation) : nlohmann::json()},
          {"after_fix", d.after_fix ? to_json(*d.after_fix) : nlohmann::json()},
          {"suppressed", d.suppressed}};
}

nlohmann::json to_json(const InputError& error) {
  nlohmann::json range = nullptr;
  if (error.at) range = {{"start", position_json(*error.at)}, {"end", position_json(*error.at)}};
  return {{"rule", nullptr},
          {"name", nullptr},
          {"url", nullptr},
          {"severity", error.warning ? "warning" : "error"},
          {"message", error.message},
          {"help", ""},
          {"path", error.path},
          {"range", range},
          {"related", nlohmann::json::array()},
          {"fix", nullptr},
          {"confirmation", nullptr},
          {"after_fix", nullptr},
          {"suppressed", false}};
}

void write_json(std::ostream& out, const std::vector<Diagnostic>& diagnostics,
                const std::vector<InputError>& errors) {
  // (path, cell, line, column): a problem without a position sorts first in its file.
  using Key = std::tuple<std::string_view, uint32_t, uint32_t, uint32_t>;
  std::vector<std::pair<Key, nlohmann::json>> elements;
  for (const Diagnostic& d : diagnostics) {
    const Position& at = d.span.begin;
    elements.emplace_back(Key{d.path, at.cell, at.line, at.column}, to_json(d));
  }
  for (const InputError& e : errors) {
    elements.emplace_back(
        Key{e.path, e.at ? e.at->cell : 0, e.at ? e.at->line : 0, e.at ? e.at->column : 0},
        to_json(e));
  }
  std::stable_sort(elements.begin(), elements.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  nlohmann::json array = nlohmann::json::array();
  for (auto& element : elements) array.push_back(std::move(element.second));
  // A file name need not be UTF-8: its invalid bytes are written as U+FFFD, never an exception.
  out << array.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace sealint::output
