#include "analyzer/output/sarif_output.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analyzer/core/rule_metadata.h"
#include "analyzer/output/json_output.h"

namespace sealint::output {

namespace {

using nlohmann::json;

std::string_view level(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "error";
}

// SARIF messages are sentences: they end with a period (our text output's do not).
// A sentence: a capital first letter ("add a number" -> "Add a number") and a final period.
std::string sentence(std::string_view text) {
  std::string out(text);
  if (!out.empty() && out.front() >= 'a' && out.front() <= 'z')
    out.front() = static_cast<char>(out.front() - 'a' + 'A');
  if (!out.empty() && out.back() != '.' && out.back() != '?' && out.back() != '!') out += '.';
  return out;
}

// In a notebook, lines and columns are in the cell the region's property bag names (docs/sarif.md).
json region(const Span& span) {
  json out = {{"startLine", span.begin.line},
              {"startColumn", span.begin.utf16_column},
              {"endLine", span.end.line},
              {"endColumn", span.end.utf16_column}};
  if (span.begin.cell != 0) out["properties"] = {{"cell", span.begin.cell}};
  return out;
}

json artifact(const std::string& path) {
  if (!path.empty() && path.front() == '/') return {{"uri", "file://" + uri_escape(path)}};
  return {{"uri", uri_escape(path)}, {"uriBaseId", "%SRCROOT%"}};
}

json physical(const std::string& path, const Span& span) {
  return {{"artifactLocation", artifact(path)}, {"region", region(span)}};
}

// The docs page without its two title lines, as plain text for viewers that show no markdown.
std::string plain_help(const SarifRule& rule) {
  return fmt::format("{}\nSee {}", sentence(rule.summary), rule_docs_url(rule.id));
}

// The docs page's first paragraph of "Why it leaks", on one line: the mechanism, which the short
// description (the summary) does not give. The summary when the page has no such section.
std::string full_description(const SarifRule& rule) {
  const std::string_view page = rule.help_markdown;
  constexpr std::string_view kHeading = "## Why it leaks\n";
  const size_t heading = page.find(kHeading);
  if (heading == std::string_view::npos) return sentence(rule.summary);
  size_t begin = heading + kHeading.size();
  while (begin < page.size() && page[begin] == '\n') ++begin;
  const size_t end = std::min(page.find("\n\n", begin), page.size());
  std::string text(page.substr(begin, end - begin));
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text.empty() ? sentence(rule.summary) : text;
}

json rule_json(const SarifRule& rule) {
  return {{"id", rule.id},
          {"name", rule.name},
          {"shortDescription", {{"text", sentence(rule.summary)}}},
          {"fullDescription", {{"text", full_description(rule)}}},
          {"help", {{"text", plain_help(rule)}, {"markdown", rule.help_markdown}}},
          {"helpUri", rule_docs_url(rule.id)},
          {"defaultConfiguration", {{"level", level(rule.severity)}}},
          {"properties",
           {{"tags", rule.framework_tag.empty() ? json::array({"memory"})
                                                : json::array({"memory", rule.framework_tag})},
            {"precision", rule.precision}}}};
}

json fix_json(const Diagnostic& d) {
  json replacements = json::array();
  for (const Edit& e : d.fix->edits) {
    replacements.push_back(
        {{"deletedRegion", region(e.span)}, {"insertedContent", {{"text", e.replacement}}}});
  }
  return {
      {"description", {{"text", sentence(d.fix->title)}}},
      {"artifactChanges",
       json::array({{{"artifactLocation", artifact(d.path)}, {"replacements", replacements}}})}};
}

}  // namespace

std::string uri_escape(std::string_view path) {
  std::string out;
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += fmt::format("%{:02X}", byte);
    }
  }
  return out;
}

std::string line_hash(std::string_view rule_id, std::string_view line_text, size_t occurrence) {
  // FNV-1a, 64 bits: stable across runs and platforms (std::hash is neither).
  uint64_t hash = 1469598103934665603ULL;
  auto mix = [&](char c) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  };
  for (const char c : rule_id) mix(c);
  mix('\0');
  for (const char c : line_text) {
    if (!std::isspace(static_cast<unsigned char>(c))) mix(c);
  }
  return fmt::format("{:016x}:{}", hash, occurrence);
}

void write_sarif(std::ostream& out, const std::vector<Diagnostic>& diagnostics,
                 const std::vector<SarifRule>& rules, const LineLookup& lines,
                 const SarifOptions& options) {
  json rules_json = json::array();
  std::map<std::string, size_t> rule_index;
  for (const SarifRule& rule : rules) {
    rule_index.emplace(rule.id, rules_json.size());
    rules_json.push_back(rule_json(rule));
  }
  json results = json::array();
  std::map<std::pair<std::string, std::string>, size_t> occurrences;  // (path, line hash) -> count
  for (const Diagnostic& d : diagnostics) {
    // A viewer of the stored notebook shows its JSON, not its cells: the text names the cell.
    const std::string cell =
        d.span.begin.cell == 0 ? "" : fmt::format("In cell {}: ", d.span.begin.cell);
    json result = {{"ruleId", d.rule_id},
                   {"level", level(d.severity)},
                   {"message", {{"text", cell + sentence(d.message) + " " + sentence(d.help)}}},
                   {"locations", json::array({{{"physicalLocation", physical(d.path, d.span)}}})}};
    if (auto it = rule_index.find(d.rule_id); it != rule_index.end())
      result["ruleIndex"] = it->second;
    const std::string base_hash = line_hash(d.rule_id, lines(d.path, d.span.begin), 0);
    const size_t occurrence = occurrences[{d.path, base_hash}]++;
    result["partialFingerprints"] = {
        {"primaryLocationLineHash",
         line_hash(d.rule_id, lines(d.path, d.span.begin), occurrence + 1)}};
    if (!d.related.empty()) {
      json related = json::array();
      for (size_t i = 0; i < d.related.size(); ++i) {
        related.push_back({{"id", i + 1},
                           {"physicalLocation", physical(d.path, d.related[i].span)},
                           {"message", {{"text", sentence(d.related[i].message)}}}});
      }
      result["relatedLocations"] = related;
    }
    // A SARIF fix replaces regions of the stored file: a notebook's is its JSON, where a cell's
    // line and column are no place, so a notebook's fix is left to `sealint --fix`.
    if (d.fix && d.span.begin.cell == 0) result["fixes"] = json::array({fix_json(d)});
    if (d.suppressed) result["suppressions"] = json::array({{{"kind", "inSource"}}});
    if (d.confirmation) {
      // "... stays alive. Confirmed: `total` grows by ...": the verdict leads its sentence.
      result["message"]["text"] = result["message"]["text"].get<std::string>() + " " +
                                  sentence(confirmation_line(*d.confirmation));
      result["properties"] = {{"confirmation", to_json(*d.confirmation)}};
      if (d.after_fix) {
        result["properties"]["after_fix"] = to_json(*d.after_fix);
        // "After the fix, not confirmed: ...": the verdict in lower case within the sentence.
        std::string after = sentence(confirmation_line(*d.after_fix));
        after.front() = static_cast<char>(std::tolower(static_cast<unsigned char>(after.front())));
        result["message"]["text"] =
            result["message"]["text"].get<std::string>() + " After the fix, " + after;
      }
      // What holds the growth, root first, as a code flow: runtime objects have no source
      // location, so each step is a message-only location (SARIF 2.1.0 §3.38.3).
      if (!d.confirmation->held_by.empty()) {
        json steps = json::array();
        for (const HeldLink& link : d.confirmation->held_by)
          steps.push_back({{"location", {{"message", {{"text", held_link_text(link)}}}}}});
        result["codeFlows"] = json::array(
            {{{"message", {{"text", "What holds the growth, from its root to the graph."}}},
              {"threadFlows", json::array({{{"locations", steps}}})}}});
      }
    }
    results.push_back(std::move(result));
  }
  // The run itself (SARIF 2.1.0 §3.20): whether it read every input, and each input problem as
  // a tool notification, so that code scanning shows an unreadable file instead of nothing.
  json notifications = json::array();
  bool successful = true;
  for (const InputError& error : options.input_errors) {
    successful = successful && error.warning;
    json location = {{"artifactLocation", artifact(error.path)}};
    if (error.at) {
      location["region"] = {{"startLine", error.at->line}, {"startColumn", error.at->utf16_column}};
      if (error.at->cell != 0) location["region"]["properties"] = {{"cell", error.at->cell}};
    }
    notifications.push_back({{"level", error.warning ? "warning" : "error"},
                             {"message", {{"text", sentence(error.message)}}},
                             {"locations", json::array({{{"physicalLocation", location}}})}});
  }
  // Findings left out of test functions are said as the text summary says them, and counted for
  // a machine in the invocation's properties.
  if (const std::string left_out = left_out_tests_line(options.left_out_tests); !left_out.empty())
    notifications.push_back({{"level", "note"}, {"message", {{"text", left_out}}}});
  json invocation = {{"executionSuccessful", successful}};
  if (!options.left_out_tests.empty()) {
    size_t findings = 0;
    for (const LeftOutTest& test : options.left_out_tests) findings += test.rules.size();
    invocation["properties"] = {
        {"leftOutTests",
         {{"testFunctions", options.left_out_tests.size()}, {"findings", findings}}}};
  }
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;
  std::string root = "file://" + uri_escape(options.source_root);
  if (!root.ends_with('/')) root += '/';
  const json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                    {"version", "2.1.0"},
                    {"runs", json::array({{{"tool",
                                            {{"driver",
                                              {{"name", "sealint"},
                                               {"version", options.tool_version},
                                               {"semanticVersion", options.tool_version},
                                               {"informationUri", project_url()},
                                               {"rules", rules_json}}}}},
                                           {"originalUriBaseIds", {{"%SRCROOT%", {{"uri", root}}}}},
                                           {"invocations", json::array({invocation})},
                                           {"columnKind", "utf16CodeUnits"},
                                           {"results", results}}})}};
  // A file name need not be UTF-8: its invalid bytes are written as U+FFFD, never an exception.
  out << log.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace sealint::output
