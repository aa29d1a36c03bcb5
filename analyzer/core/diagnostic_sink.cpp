#include "analyzer/core/diagnostic_sink.h"

namespace sealint {

Diagnostic& DiagnosticSink::report(const RuleInfo& rule, ByteRange primary, std::string message,
                                   std::string help, std::vector<Related> related,
                                   std::optional<Fix> fix, std::optional<Severity> severity) {
  Diagnostic diagnostic;
  diagnostic.rule_id = std::string(rule.id);
  diagnostic.rule_name = std::string(rule.name);
  diagnostic.severity = severity.value_or(rule.severity);
  diagnostic.path = std::string(file_.path());
  diagnostic.span = file_.span(primary);
  diagnostic.message = std::move(message);
  diagnostic.help = std::move(help);
  for (Related& note : related)
    diagnostic.related.push_back({file_.span(note.range), std::move(note.message)});
  if (fix) {
    for (Edit& edit : fix->edits) edit.span = file_.span(edit.range);
  }
  diagnostic.fix = std::move(fix);
  return out_.emplace_back(std::move(diagnostic));
}

}  // namespace sealint
