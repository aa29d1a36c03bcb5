#include "analyzer/core/rule_metadata.h"

#include <fmt/format.h>

namespace sealint {

std::string languages_text(const RuleInfo& info) {
  if (info.python && info.cpp) return "Python, C++";
  return info.cpp ? "C++" : "Python";
}

std::string fix_text(const RuleInfo& info) {
  std::string text;
  switch (info.fix) {
    case FixAvailability::None:
      return "no fix";
    case FixAvailability::Sometimes:
      text = "fix sometimes available";
      break;
    case FixAvailability::Always:
      text = "fix available";
      break;
  }
  if (info.fix_safety == FixSafety::Unsafe) text += " (unsafe)";
  return text;
}

std::string docs_metadata_line(const RuleInfo& info) {
  return fmt::format("{} · {} · {}{}", severity_name(info.severity), languages_text(info),
                     fix_text(info), info.on_by_default ? "" : " · off by default");
}

std::string readme_table_header() {
  return "| id | name | severity | languages | what it flags |\n| --- | --- | --- | --- | --- |\n";
}

std::string readme_table_row(const RuleInfo& info) {
  return fmt::format("| [{0}](docs/rules/{0}.md) | {1} | {2}{5} | {3} | {4} |\n", info.id,
                     info.name, severity_name(info.severity), languages_text(info), info.brief,
                     info.on_by_default ? "" : " (off by default)");
}

std::string_view framework_tag(Framework framework) {
  switch (framework) {
    case Framework::PyTorch:
      return "pytorch";
    case Framework::TensorFlow:
      return "tensorflow";
    case Framework::Any:
      return "";
  }
  return "";
}

std::string_view project_url() {
  return SEALINT_LINK_BASE;
}

std::string rule_docs_url(std::string_view id) {
  // The page as it was when this version was tagged: `main` may have renamed or rewritten it.
  return fmt::format("{}/blob/v{}/docs/rules/{}.md", project_url(), SEALINT_LINK_VERSION, id);
}

std::string_view precision_word(Precision precision) {
  switch (precision) {
    case Precision::Low:
      return "low";
    case Precision::Medium:
      return "medium";
    case Precision::High:
      return "high";
  }
  return "medium";
}

}  // namespace sealint
