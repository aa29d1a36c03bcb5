#include "analyzer/core/path_expansion.h"

#include <pwd.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cstdlib>

#include <fmt/format.h>

namespace sealint {

namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

}  // namespace

EnvironmentLookup process_environment() {
  return [](std::string_view name) -> std::optional<std::string> {
    const std::string key(name);
    if (const char* value = std::getenv(key.c_str())) return std::string(value);
    if (key != "HOME") return std::nullopt;
    // A cleared environment (a CI step, `env -i`) still has a user with a home.
    std::array<char, 4096> buffer{};
    struct passwd entry {};
    struct passwd* found = nullptr;
    if (::getpwuid_r(::geteuid(), &entry, buffer.data(), buffer.size(), &found) != 0 ||
        found == nullptr || found->pw_dir == nullptr) {
      return std::nullopt;
    }
    return std::string(found->pw_dir);
  };
}

Result<std::string> expand_path(std::string_view text, const EnvironmentLookup& environment) {
  std::string out;
  size_t at = 0;
  auto value_of = [&](std::string_view name) -> Result<std::string> {
    std::optional<std::string> value = environment(name);
    if (!value) return make_error(fmt::format("'{}' names ${}, which is not set", text, name));
    return *value;
  };
  if (text == "~" || text.starts_with("~/")) {
    auto home = value_of("HOME");
    if (!home) return home;
    out = *home;
    at = 1;
  }
  while (at < text.size()) {
    const char c = text[at];
    if (c != '$' || at + 1 == text.size()) {
      out += c;
      ++at;
      continue;
    }
    std::string_view name;
    if (text[at + 1] == '{') {
      const size_t close = text.find('}', at + 2);
      if (close == std::string_view::npos)
        return make_error(fmt::format("'{}' has a `${{` without its `}}`", text));
      name = text.substr(at + 2, close - at - 2);
      at = close + 1;
    } else {
      size_t end = at + 1;
      while (end < text.size() && name_char(text[end])) ++end;
      if (end == at + 1) {  // a `$` that starts no name stands for itself
        out += c;
        ++at;
        continue;
      }
      name = text.substr(at + 1, end - at - 1);
      at = end;
    }
    auto value = value_of(name);
    if (!value) return value;
    out += *value;
  }
  return out;
}

}  // namespace sealint
