#include "analyzer/server/settings.h"

#include <algorithm>

#include <fmt/format.h>

namespace sealint::server {

namespace {

void read_string(const Json& object, std::string_view key, std::string& into,
                 std::vector<std::string>& warnings) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return;
  if (!it->is_string()) {
    warnings.push_back(fmt::format("setting `{}` is not a string; ignored", key));
    return;
  }
  into = it->get<std::string>();
}

void read_strings(const Json& object, std::string_view key, std::vector<std::string>& into,
                  std::vector<std::string>& warnings) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return;
  std::vector<std::string> values;
  const bool list = it->is_array() && std::all_of(it->begin(), it->end(), [](const Json& value) {
                      return value.is_string();
                    });
  if (!list) {
    warnings.push_back(fmt::format("setting `{}` is not a list of strings; ignored", key));
    return;
  }
  for (const Json& value : *it) values.push_back(value.get<std::string>());
  into = std::move(values);
}

void read_bool(const Json& object, std::string_view key, bool& into,
               std::vector<std::string>& warnings) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return;
  if (!it->is_boolean()) {
    warnings.push_back(fmt::format("setting `{}` is not true or false; ignored", key));
    return;
  }
  into = it->get<bool>();
}

}  // namespace

ServerSettings read_settings(const Json& json, ServerSettings base,
                             std::vector<std::string>& warnings) {
  const Json* object = member(json, {"sealint"});
  if (object == nullptr) object = &json;
  if (!object->is_object()) return base;
  read_string(*object, "configuration", base.overrides.config_path, warnings);
  read_strings(*object, "select", base.overrides.select, warnings);
  read_strings(*object, "extendSelect", base.overrides.extend_select, warnings);
  read_strings(*object, "ignore", base.overrides.ignore, warnings);
  read_bool(*object, "unsafeFixes", base.unsafe_fixes, warnings);
  read_string(*object, "compileCommands", base.compile_commands, warnings);
  read_string(*object, "cacheDir", base.cache_dir, warnings);
  std::string headers = base.system_headers ? "system" : "model";
  read_string(*object, "torchHeaders", headers, warnings);
  if (headers != "model" && headers != "system") {
    warnings.push_back(
        fmt::format("setting `torchHeaders` is \"{}\", not \"model\" or \"system\"; "
                    "ignored",
                    headers));
  } else {
    base.system_headers = headers == "system";
  }
  return base;
}

}  // namespace sealint::server
