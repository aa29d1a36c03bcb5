#include "analyzer/core/config.h"

#include <algorithm>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "analyzer/core/glob.h"
#include "analyzer/core/path_expansion.h"

namespace sealint {

namespace fs = std::filesystem;

namespace {

std::string where(const fs::path& file, const toml::node& node) {
  const auto& begin = node.source().begin;
  return begin ? fmt::format("{}:{}", file.string(), begin.line) : file.string();
}

Result<std::vector<std::string>> string_array(const fs::path& file, const toml::node& node,
                                              std::string_view key) {
  const toml::array* array = node.as_array();
  if (array == nullptr)
    return make_error(fmt::format("{}: `{}` must be an array of strings", where(file, node), key));
  std::vector<std::string> out;
  for (const toml::node& item : *array) {
    const auto* text = item.as_string();
    if (text == nullptr)
      return make_error(
          fmt::format("{}: `{}` must be an array of strings", where(file, item), key));
    out.push_back(text->get());
  }
  return out;
}

Result<std::vector<std::string>> rule_ids(const fs::path& file, const toml::node& node,
                                          std::string_view key, const RuleIdCheck& is_rule) {
  auto selectors = string_array(file, node, key);
  if (!selectors) return selectors;
  std::vector<std::string> ids;
  for (const std::string& selector : *selectors) {
    std::vector<std::string> named = is_rule(selector);
    if (named.empty())
      return make_error(
          fmt::format("{}: `{}` names an unknown rule '{}'", where(file, node), key, selector));
    ids.insert(ids.end(), named.begin(), named.end());
  }
  return ids;
}

std::string value_text(const toml::node& node) {
  if (const auto* s = node.as_string()) return s->get();
  if (const auto* i = node.as_integer()) return std::to_string(i->get());
  if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
  // Shortest text that reads back as the same double: no digit of a budget is lost.
  if (const auto* f = node.as_floating_point()) return fmt::format("{}", f->get());
  return {};
}

// Each rule once, in the order first named: `select = ["SL001", "grad-accumulation"]` is SL001.
void append_unique(std::vector<std::string>& into, const std::vector<std::string>& ids) {
  for (const std::string& id : ids)
    if (std::find(into.begin(), into.end(), id) == into.end()) into.push_back(id);
}

// The keys of `table` set on `config`, which holds what was set before (the defaults, a base that
// `extend` named, or the configuration file that `--config KEY=VALUE` overrides). `extend_read`:
// read_table() has already read the base `extend` names.
Result<bool> apply_table(Config& config, const fs::path& file, const toml::table& table,
                         const RuleIdCheck& is_rule, bool extend_read = false) {
  for (const auto& [key, node] : table) {
    const std::string_view name = key.str();
    if (name == "extend" && extend_read) continue;
    if (name == "select" || name == "extend-select" || name == "ignore" ||
        name == "extend-ignore") {
      auto ids = rule_ids(file, node, name, is_rule);
      if (!ids) return make_error(ids.error());
      if (name == "select") {
        config.select.clear();
        append_unique(config.select, *ids);
      } else if (name == "extend-select") {
        config.extend_select.clear();
        append_unique(config.extend_select, *ids);
      } else {
        // `extend-ignore` is ruff's older name for adding to `ignore`: both add.
        append_unique(config.ignore, *ids);
      }
    } else if (name == "force-exclude" || name == "respect-gitignore" || name == "analyse-tests") {
      const auto* flag = node.as_boolean();
      if (flag == nullptr)
        return make_error(fmt::format("{}: `{}` must be true or false", where(file, node), name));
      bool& setting = name == "force-exclude"       ? config.force_exclude
                      : name == "respect-gitignore" ? config.respect_gitignore
                                                    : config.analyse_tests;
      setting = flag->get();
    } else if (name == "exclude" || name == "extend-exclude") {
      // ruff's `extend-exclude` adds to its default excludes; sealint always skips its own
      // (tool folders, docs/configuration.md), so both add to the globs.
      auto globs = string_array(file, node, name);
      if (!globs) return make_error(globs.error());
      if (name == "exclude") {  // replaces what a base configuration excluded too, as ruff's
        config.exclude.clear();
        config.base_exclude.clear();
      }
      for (std::string& glob : *globs)
        if (std::find(config.exclude.begin(), config.exclude.end(), glob) == config.exclude.end())
          config.exclude.push_back(std::move(glob));
    } else if (name == "severity") {
      const auto* text = node.as_string();
      const std::string value = text ? text->get() : "";
      if (value == "note")
        config.min_severity = Severity::Note;
      else if (value == "warning")
        config.min_severity = Severity::Warning;
      else if (value == "error")
        config.min_severity = Severity::Error;
      else
        return make_error(fmt::format("{}: `severity` must be \"note\", \"warning\" or \"error\"",
                                      where(file, node)));
    } else if (name == "per-file-ignores") {
      const toml::table* globs = node.as_table();
      if (globs == nullptr)
        return make_error(fmt::format("{}: `per-file-ignores` must be a table of glob = [rule ids]",
                                      where(file, node)));
      for (const auto& [glob, ids_node] : *globs) {
        auto ids = rule_ids(file, ids_node, "per-file-ignores", is_rule);
        if (!ids) return make_error(ids.error());
        std::vector<std::string> unique;
        append_unique(unique, *ids);
        config.per_file_ignores.push_back({std::string(glob.str()), std::move(unique)});
      }
    } else if (name == "rules") {
      const toml::table* rules = node.as_table();
      if (rules == nullptr)
        return make_error(
            fmt::format("{}: `rules` must be a table of rule tables", where(file, node)));
      for (const auto& [written, options] : *rules) {
        const std::vector<std::string> named = is_rule(written.str());
        if (named.empty())
          return make_error(
              fmt::format("{}: unknown rule '{}' in `rules`", where(file, options), written.str()));
        if (named.size() != 1)
          return make_error(fmt::format("{}: `rules.{}` must name one rule, not several",
                                        where(file, options), written.str()));
        const std::string_view id = named.front();
        const toml::table* table_of_options = options.as_table();
        if (table_of_options == nullptr)
          return make_error(
              fmt::format("{}: `rules.{}` must be a table", where(file, options), id));
        RuleOptionTable& out = config.rule_options[std::string(id)];
        for (const auto& [option, value] : *table_of_options) {
          const std::string text = value_text(value);
          if (text.empty())
            return make_error(fmt::format("{}: `rules.{}.{}` must be a number, string or boolean",
                                          where(file, value), id, option.str()));
          out[std::string(option.str())] = text;
          if (value.source().begin) {
            config.rule_option_lines[fmt::format("{}.{}", id, option.str())] =
                value.source().begin.line;
          }
        }
      }
    } else if (name == "tool" && file.filename() != "pyproject.toml") {
      // `[tool.sealint]` copied from a pyproject.toml into .sealint.toml: say what to write.
      return make_error(fmt::format(
          "{}: `[tool.sealint]` belongs in pyproject.toml; in {} write the keys at the top level "
          "(`select = [...]`, `[rules.SL003]`), as ruff.toml does",
          where(file, node), file.filename().string()));
    } else if (name == "extend") {
      // read_table() reads it before the other keys; a `--config 'extend = ...'` setting has no
      // file of its own for the base to be set under.
      return make_error(fmt::format(
          "{}: `extend` names a base configuration: write it in a configuration file, or name "
          "the base with --config",
          where(file, node)));
    } else {
      return make_error(fmt::format("{}: unknown key `{}` in the sealint configuration",
                                    where(file, node), name));
    }
  }
  return true;
}

// The files being read through `extend`, outermost first: a file met again is a cycle.
using ExtendChain = std::vector<fs::path>;

Result<std::optional<Config>> load_in_chain(const fs::path& file, const RuleIdCheck& is_rule,
                                            ExtendChain& chain);

// The configuration `extend` names, made a base: its globs keep its own folder as their root.
Result<Config> base_configuration(const fs::path& file, const toml::node& node,
                                  const RuleIdCheck& is_rule, ExtendChain& chain) {
  const auto* written = node.as_string();
  if (written == nullptr)
    return make_error(fmt::format("{}: `extend` must be a path (a string)", where(file, node)));
  auto expanded = expand_path(written->get(), process_environment());
  if (!expanded)
    return make_error(fmt::format("{}: `extend`: {}", where(file, node), expanded.error()));
  std::error_code error;
  const fs::path folder = fs::absolute(file, error).parent_path();
  const fs::path path = (folder / *expanded).lexically_normal();
  const fs::path identity = fs::weakly_canonical(path, error);
  for (const fs::path& seen : chain) {
    if (seen != identity) continue;
    std::string cycle;
    for (const fs::path& link : chain) cycle += link.string() + " -> ";
    return make_error(fmt::format("{}: `extend` makes a cycle: {}{}", where(file, node), cycle,
                                  identity.string()));
  }
  if (!fs::is_regular_file(path, error))
    return make_error(fmt::format("{}: `extend` names '{}', which is not a file", where(file, node),
                                  path.string()));
  auto loaded = load_in_chain(path, is_rule, chain);
  if (!loaded) return make_error(loaded.error());
  if (!*loaded)
    return make_error(fmt::format("{}: `extend` names '{}', which has no [tool.sealint] table",
                                  where(file, node), path.string()));
  Config base = std::move(**loaded);
  for (std::string& glob : base.exclude) base.base_exclude.push_back({std::move(glob), base.root});
  base.exclude.clear();
  for (PerFileIgnore& entry : base.per_file_ignores)
    if (entry.root.empty()) entry.root = base.root;
  base.extends.insert(base.extends.begin(), base.path);
  return base;
}

Result<Config> read_table(const fs::path& file, const toml::table& table,
                          const RuleIdCheck& is_rule, ExtendChain& chain) {
  Config config;
  std::error_code error;
  chain.push_back(fs::weakly_canonical(fs::absolute(file, error), error));
  if (const toml::node* extend = table.get("extend")) {
    auto base = base_configuration(file, *extend, is_rule, chain);
    if (!base) return make_error(base.error());
    config = std::move(*base);
  }
  chain.pop_back();
  config.path = file.string();
  config.root =
      fs::absolute(file, error).parent_path();  // `--config other.toml` has no folder part
  if (auto applied = apply_table(config, file, table, is_rule, /*extend_read=*/true); !applied)
    return make_error(applied.error());
  return config;
}

std::string relative_to(const fs::path& file, const fs::path& root) {
  std::error_code error;
  const fs::path absolute = fs::absolute(file, error).lexically_normal();
  const fs::path base = fs::absolute(root, error).lexically_normal();
  return absolute.lexically_relative(base).generic_string();
}

}  // namespace

// A path below `root`, or nullopt for a file outside it (globs only apply below their config).
static std::optional<std::string> below(const fs::path& file, const fs::path& root) {
  std::string relative = relative_to(file, root);
  if (relative.empty() || relative == ".." || relative.starts_with("../")) return std::nullopt;
  return relative;
}

bool Config::enabled(std::string_view rule_id, bool on_by_default, const fs::path& file) const {
  auto named_in = [&](const std::vector<std::string>& ids) {
    return std::find(ids.begin(), ids.end(), rule_id) != ids.end();
  };
  const bool selected =
      (select.empty() ? on_by_default : named_in(select)) || named_in(extend_select);
  if (!selected) return false;
  if (std::find(ignore.begin(), ignore.end(), rule_id) != ignore.end()) return false;
  if (per_file_ignores.empty()) return true;
  for (const PerFileIgnore& entry : per_file_ignores) {
    const auto relative = below(file, entry.root.empty() ? root : entry.root);
    if (!relative || !path_matches_glob(entry.glob, *relative)) continue;
    if (entry.rules.empty() ||
        std::find(entry.rules.begin(), entry.rules.end(), rule_id) != entry.rules.end()) {
      return false;
    }
  }
  return true;
}

bool Config::excludes(const fs::path& file) const {
  const auto relative = below(file, root);
  const bool own =
      relative && std::any_of(exclude.begin(), exclude.end(), [&](const std::string& g) {
        return path_matches_glob(g, *relative);
      });
  return own || std::any_of(base_exclude.begin(), base_exclude.end(), [&](const BaseGlob& g) {
           const auto below_base = below(file, g.root);
           return below_base && path_matches_glob(g.glob, *below_base);
         });
}

std::string Config::to_toml() const {
  auto quote = [](std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  };
  auto list = [&](const std::vector<std::string>& items) {
    std::vector<std::string> quoted;
    for (const std::string& item : items) quoted.push_back(quote(item));
    return fmt::format("[{}]", fmt::join(quoted, ", "));
  };
  // In the form of the file it came from: pyproject.toml (and the defaults) under
  // `[tool.sealint]`, a .sealint.toml at the top level, so that the output pastes back as it is.
  const bool pyproject = path.empty() || fs::path(path).filename() == "pyproject.toml";
  const std::string table = pyproject ? "tool.sealint." : "";
  std::string out =
      fmt::format("# {}\n", path.empty() ? "defaults (no configuration file found); for "
                                           "pyproject.toml (in .sealint.toml, the keys without "
                                           "`[tool.sealint]`)"
                                         : path);
  if (pyproject) out += "[tool.sealint]\n";
  // An empty `select` means the rules that are on by default (`sealint rules`), not none.
  if (select.empty())
    out += "# select: not set, so every rule that is on by default (`sealint rules`)\n";
  else
    out += fmt::format("select = {}\n", list(select));
  out += fmt::format("extend-select = {}\n", list(extend_select));
  out += fmt::format("ignore = {}\n", list(ignore));
  out += fmt::format("severity = \"{}\"\n", severity_name(min_severity));
  for (const std::string& base : extends)
    out += fmt::format("# extends {} (its keys below, under this file's)\n", base);
  out += fmt::format("exclude = {}\n", list(exclude));
  // A base's globs are relative to its own folder: said, since this file cannot write them so.
  for (const BaseGlob& glob : base_exclude)
    out += fmt::format("# exclude from a base, relative to '{}': {}\n", glob.root.string(),
                       quote(glob.glob));
  out += fmt::format("force-exclude = {}\n", force_exclude ? "true" : "false");
  out += fmt::format("respect-gitignore = {}\n", respect_gitignore ? "true" : "false");
  out += fmt::format("analyse-tests = {}\n", analyse_tests ? "true" : "false");
  if (!per_file_ignores.empty()) out += fmt::format("\n[{}per-file-ignores]\n", table);
  for (const PerFileIgnore& entry : per_file_ignores) {
    if (!entry.root.empty() && entry.root != root)
      out += fmt::format("# from a base, relative to '{}':\n", entry.root.string());
    out += fmt::format("{} = {}\n", quote(entry.glob), list(entry.rules));
  }
  for (const auto& [id, options] : rule_options) {
    out += fmt::format("\n[{}rules.{}]\n", table, id);
    for (const auto& [option, value] : options)
      out += fmt::format("{} = {}\n", option, quote(value));
  }
  return out;
}

Result<Config> parse_config_text(std::string_view toml, const fs::path& name,
                                 const RuleIdCheck& is_rule) {
  toml::table root;
  try {
    root = toml::parse(toml, name.string());
  } catch (const toml::parse_error& error) {
    const auto& begin = error.source().begin;
    return make_error(fmt::format("{}:{}:{}: invalid TOML: {}", name.string(), begin.line,
                                  begin.column, error.description()));
  }
  ExtendChain chain;
  return read_table(name, root, is_rule, chain);
}

Result<bool> apply_config_text(Config& config, std::string_view toml, std::string_view name,
                               const RuleIdCheck& is_rule) {
  toml::table root;
  try {
    root = toml::parse(toml, std::string(name));
  } catch (const toml::parse_error& error) {
    return make_error(
        fmt::format("{}: not a TOML `KEY = VALUE` setting: {}", name, error.description()));
  }
  return apply_table(config, fs::path(name), root, is_rule);
}

Result<std::optional<Config>> load_config(const fs::path& file, const RuleIdCheck& is_rule) {
  ExtendChain chain;
  return load_in_chain(file, is_rule, chain);
}

namespace {

// A chain longer than this is a mistake, and every file in it is read on each run.
constexpr size_t kMaxExtendDepth = 32;

Result<std::optional<Config>> load_in_chain(const fs::path& file, const RuleIdCheck& is_rule,
                                            ExtendChain& chain) {
  if (chain.size() >= kMaxExtendDepth)
    return make_error(
        fmt::format("{}: `extend` chains more than {} files", file.string(), kMaxExtendDepth));
  toml::table root;
  try {
    root = toml::parse_file(file.string());
  } catch (const toml::parse_error& error) {
    const auto& begin = error.source().begin;
    return make_error(fmt::format("{}:{}:{}: invalid TOML: {}", file.string(), begin.line,
                                  begin.column, error.description()));
  }
  if (file.filename() == "pyproject.toml") {
    const toml::node_view<toml::node> section = root["tool"]["sealint"];
    if (!section) return std::optional<Config>();
    // `[tool] sealint = 5` is a configuration that cannot mean anything: say so, never ignore it.
    const toml::table* table = section.as_table();
    if (table == nullptr)
      return make_error(
          fmt::format("{}: `tool.sealint` must be a table", where(file, *section.node())));
    auto config = read_table(file, *table, is_rule, chain);
    if (!config) return make_error(config.error());
    return std::optional<Config>(std::move(*config));
  }
  auto config = read_table(file, root, is_rule, chain);
  if (!config) return make_error(config.error());
  return std::optional<Config>(std::move(*config));
}

}  // namespace

Result<const Config*> ConfigFinder::find(const fs::path& start) {
  std::error_code error;
  fs::path folder = fs::absolute(start, error).lexically_normal();
  if (!fs::is_directory(folder, error)) folder = folder.parent_path();
  const Config* found = &defaults_;
  for (fs::path current = folder;; current = current.parent_path()) {
    if (auto e = errors_.find(current); e != errors_.end()) return make_error(e->second);
    if (auto it = by_folder_.find(current); it != by_folder_.end()) {
      if (it->second)
        found = &*it->second;
      else if (current.has_parent_path() && current != current.parent_path()) {
        continue;
      }
      break;
    }
    if (stops_.contains(current)) break;
    if (std::optional<std::string> why = trust_.distrust(current)) {
      stops_.insert(current);
      for (const char* name : {".sealint.toml", "pyproject.toml"}) {
        if (fs::exists(current / name, error))
          passed_over_.push_back(
              fmt::format("'{}' is not read: {}", (current / name).string(), *why));
      }
      break;
    }
    std::optional<Config> here;
    for (const char* name : {".sealint.toml", "pyproject.toml"}) {
      const fs::path candidate = current / name;
      if (!fs::is_regular_file(candidate, error)) continue;
      auto loaded = load_config(candidate, is_rule_);
      if (!loaded) {
        errors_[current] = loaded.error();
        return make_error(loaded.error());
      }
      if (*loaded) {
        here = std::move(*loaded);
        break;
      }
    }
    auto& slot = by_folder_[current];
    slot = std::move(here);
    if (slot) {
      found = &*slot;
      break;
    }
    if (!current.has_parent_path() || current == current.parent_path()) break;
  }
  return found;
}

}  // namespace sealint
