#include "analyzer/cli/cli_support.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "analyzer/core/rule_metadata.h"
#include "rules/rule_docs.h"

namespace sealint::cli {

bool use_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  // FORCE_COLOR and CLICOLOR_FORCE ask for colour where there is no terminal (CI logs).
  for (const char* name : {"FORCE_COLOR", "CLICOLOR_FORCE"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0' && std::string_view(value) != "0") return true;
  }
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return isatty(STDOUT_FILENO) != 0 && (no_color == nullptr || *no_color == '\0') &&
         (term == nullptr || std::string_view(term) != "dumb");
}

std::vector<output::SarifRule> sarif_rules(const rules::RuleRegistry& registry) {
  std::vector<output::SarifRule> out;
  for (const auto& rule : registry.rules()) {
    const RuleInfo& info = rule->info();
    out.push_back({std::string(info.id), std::string(info.name), std::string(info.summary),
                   std::string(rules::rule_doc(info.id)), info.severity,
                   std::string(framework_tag(info.framework)),
                   std::string(precision_word(info.precision))});
  }
  return out;
}

std::string LineCache::bytes(const std::string& path) const {
  if (auto s = stdin_.find(path); s != stdin_.end()) return s->second;
  std::ifstream in{path, std::ios::binary};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string LineCache::line(std::string_view path, const Position& at) {
  const std::string key(path);
  if (at.cell != 0) {
    auto it = notebooks_.find(key);
    if (it == notebooks_.end()) {
      auto parsed = notebook::Notebook::parse(key, bytes(key));
      it = notebooks_.emplace(key, parsed ? std::optional(std::move(*parsed)) : std::nullopt).first;
    }
    return it->second ? std::string(it->second->cell_line(at.cell, at.line)) : std::string();
  }
  auto it = files_.find(key);
  if (it == files_.end()) {
    auto file = SourceFile::from_bytes(key, bytes(key));
    it = files_.emplace(key, file ? std::optional(std::move(*file)) : std::nullopt).first;
  }
  if (!it->second) return {};
  return std::string(it->second->line_text(at.line));
}

// The folder of the compile_commands.json that `-p` names: a build folder holding one, or the
// file itself, as clang-tidy accepts. A path that is neither is an error that names it.
Result<std::string> compile_commands_folder(const std::string& given) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path path(given);
  if (fs::is_regular_file(path, error)) {
    if (path.filename() != "compile_commands.json") {
      return make_error(fmt::format(
          "-p '{}': give a build folder or its compile_commands.json, not another file", given));
    }
    return path.has_parent_path() ? path.parent_path().string() : std::string(".");
  }
  if (!fs::is_directory(path, error)) {
    return make_error(fmt::format("-p '{}': no such folder or file", given));
  }
  if (!fs::is_regular_file(path / "compile_commands.json", error)) {
    return make_error(fmt::format("-p '{}': the folder has no compile_commands.json", given));
  }
  return given;
}

}  // namespace sealint::cli
