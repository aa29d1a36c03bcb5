#include "analyzer/notebook/ipython_escapes.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

namespace sealint::notebook {

namespace {

// Cell magics that run their body as Python in the notebook's namespace, so names bound there are
// seen by later cells (ruff keeps the same list, for the same reason).
constexpr auto kPythonCellMagics = std::to_array<std::string_view>(
    {"capture", "debug", "ipytest", "prun", "pypy", "python", "python3", "time", "timeit"});

// Line magics IPython runs without their `%` (automagic is on by default): `pip install torch`.
// A lone name (`history`, `time`) is not one of them here: IPython shows the variable of that
// name when there is one, and notebooks end cells with such names to display them.
constexpr auto kAutomagics = std::to_array<std::string_view>(
    {"alias", "autoawait", "autocall",   "automagic",  "bookmark", "cd",        "colors",
     "conda", "config",    "dhist",      "dirs",       "env",      "gui",       "history",
     "load",  "load_ext",  "loadpy",     "logstart",   "logstop",  "lsmagic",   "macro",
     "magic", "mamba",     "matplotlib", "micromamba", "pdb",      "pinfo",     "pinfo2",
     "pip",   "popd",      "precision",  "prun",       "psearch",  "pushd",     "pwd",
     "pylab", "rehashx",   "reload_ext", "rerun",      "reset",    "run",       "set_env",
     "sx",    "system",    "time",       "timeit",     "unalias",  "unload_ext"});

// What may follow a name in Python proper: then `time = 3`, `run(x)`, `cd.path` are Python.
constexpr auto kPythonAfterName = std::to_array<std::string_view>(
    {"!=", "%",  "%=",  "&",  "&=",  "*",  "**",  "**=", "*=",  "+",  "+=", "-",  "-=",
     "/",  "//", "//=", "/=", "<",   "<<", "<<=", "<=",  "==",  ">",  ">=", ">>", ">>=",
     "@",  "@=", "^",   "^=", "and", "if", "in",  "is",  "not", "or", "|",  "|="});

enum class Quote { None, Single, Double, TripleSingle, TripleDouble };

// Where the scan stands at the end of a line.
struct ScanState {
  int depth = 0;  // open brackets
  Quote quote = Quote::None;
  bool continued = false;  // the line ended with a backslash
};

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\f';
}
bool is_ascii(char c) {
  return static_cast<unsigned char>(c) < 0x80U;
}
// A character of a dotted name; any non-ASCII byte counts (identifiers may be Unicode).
bool is_name_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte >= 0x80U || std::isalnum(byte) != 0 || c == '_' || c == '.';
}

template <size_t N>
bool contains(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string_view token_at(std::string_view line, size_t at) {
  while (at < line.size() && is_space(line[at])) ++at;
  size_t end = at;
  while (end < line.size() && !is_space(line[end])) ++end;
  return line.substr(at, end - at);
}

// Python's tokens from one line of a cell, only as far as strings, brackets, comments and
// continuations go: enough to know whether the next line starts a statement.
void scan(std::string_view line, ScanState& state) {
  state.continued = false;
  size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    if (state.quote != Quote::None) {
      if (c == '\\') {
        if (i + 1 == line.size()) {
          state.continued = true;
          return;
        }
        i += 2;
        continue;
      }
      const bool triple = state.quote == Quote::TripleSingle || state.quote == Quote::TripleDouble;
      const char quote =
          state.quote == Quote::Single || state.quote == Quote::TripleSingle ? '\'' : '"';
      if (c == quote && (!triple || line.substr(i, 3) == std::string(3, quote))) {
        i += triple ? 3 : 1;
        state.quote = Quote::None;
        continue;
      }
      ++i;
      continue;
    }
    if (c == '#') break;
    if (c == '\\' && i + 1 == line.size()) {
      state.continued = true;
      return;
    }
    if (c == '\'' || c == '"') {
      const bool triple = line.substr(i, 3) == std::string(3, c);
      state.quote = c == '\'' ? (triple ? Quote::TripleSingle : Quote::Single)
                              : (triple ? Quote::TripleDouble : Quote::Double);
      i += triple ? 3 : 1;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++state.depth;
    if ((c == ')' || c == ']' || c == '}') && state.depth > 0) --state.depth;
    ++i;
  }
  // A one-line string left open is a syntax error of that line, not a string of the next.
  if (state.quote == Quote::Single || state.quote == Quote::Double) state.quote = Quote::None;
}

enum class Replace {
  Statement,  // the escape starts a statement: it becomes a comment, or `0#...` in a block
  Value,      // the escape is an assignment's value (`files = !ls`): `files = 0#s`
  Help,       // `torch.nn.Linear?`: the first `?` becomes `#`, the name stays an expression
};

struct Escape {
  size_t at = 0;  // in the line
  Replace replace = Replace::Statement;
};

// `name?`, `name??`, `np.*load*?`, `%time?` from the line's first non-blank byte.
std::optional<Escape> help_at(std::string_view line, size_t indent) {
  size_t end = line.size();
  while (end > indent && is_space(line[end - 1])) --end;
  size_t question = end;
  while (question > indent && line[question - 1] == '?') --question;
  if (question == end || question == indent) return std::nullopt;
  const std::string_view body = line.substr(indent, question - indent);
  if (std::all_of(body.begin(), body.end(), is_name_char)) return Escape{question, Replace::Help};
  const bool wildcard = std::all_of(body.begin(), body.end(), [](char c) {
    return is_name_char(c) || c == '*' || c == '%' || c == '[' || c == ']';
  });
  if (wildcard && is_ascii(body.front())) return Escape{indent, Replace::Statement};
  return std::nullopt;
}

// `files = !ls`, `t = %timeit -o f()`: a plain assignment whose value is an escape.
std::optional<Escape> value_escape_at(std::string_view line, size_t indent) {
  size_t i = indent;
  auto target_char = [](char c) {
    return is_name_char(c) || is_space(c) || c == ',' || c == '[' || c == ']' || c == '(' ||
           c == ')' || c == '*';
  };
  while (i < line.size() && target_char(line[i])) ++i;
  if (i == indent || i >= line.size() || line[i] != '=') return std::nullopt;
  if (i + 1 < line.size() && line[i + 1] == '=') return std::nullopt;
  size_t value = i + 1;
  while (value < line.size() && is_space(line[value])) ++value;
  if (value < line.size() && (line[value] == '!' || line[value] == '%'))
    return Escape{value, Replace::Value};
  return std::nullopt;
}

// `pip install torch` at the top level: an automagic name and a word Python could not follow it
// with.
bool is_automagic(std::string_view line) {
  const std::string_view name = token_at(line, 0);
  if (!contains(kAutomagics, name)) return false;
  const std::string_view next = token_at(line, name.size());
  if (next.empty()) return false;
  const char first = next.front();
  if (first == '(' || first == '[' || first == '.' || first == '=' || first == ':' ||
      first == ',' || first == ';' || first == '#')
    return false;
  return !contains(kPythonAfterName, next);
}

std::optional<Escape> escape_at(std::string_view line, size_t indent) {
  const char c = line[indent];
  if (c == '!' || c == '%' || c == '?' || c == ',' || c == ';' || c == '/')
    return Escape{indent, Replace::Statement};
  if (auto help = help_at(line, indent)) return help;
  if (auto value = value_escape_at(line, indent)) return value;
  if (indent == 0 && is_automagic(line)) return Escape{0, Replace::Statement};
  return std::nullopt;
}

// Only ASCII bytes are overwritten, and only with ASCII: the result stays valid UTF-8 and every
// column after the escape keeps its place.
void neutralise(std::string& code, size_t line_begin, std::string_view line, const Escape& escape,
                bool indented) {
  const size_t at = line_begin + escape.at;
  const bool room = escape.at + 1 < line.size() && is_ascii(line[escape.at + 1]);
  switch (escape.replace) {
    case Replace::Help:
      code[at] = '#';
      return;
    case Replace::Value:
      code[at] = '0';
      if (room) code[at + 1] = '#';
      return;
    case Replace::Statement:
      // A comment alone cannot be a block's body: in a block the line becomes the statement `0`.
      if (indented && room) {
        code[at] = '0';
        code[at + 1] = '#';
      } else {
        code[at] = '#';
      }
      return;
  }
}

// The next physical line of an escape that ended with a backslash: a comment, at any indentation.
void comment_out(std::string& code, size_t line_begin, std::string_view line) {
  size_t indent = 0;
  while (indent < line.size() && is_space(line[indent])) ++indent;
  if (indent < line.size() && is_ascii(line[indent])) code[line_begin + indent] = '#';
}

}  // namespace

NeutralisedCell neutralise_ipython(std::string_view source) {
  NeutralisedCell out{std::string(source), true};
  ScanState state;
  bool first_code_line = true;    // where a cell magic may stand
  bool escape_continues = false;  // the line before was an escape ending with a backslash
  size_t begin = 0;
  while (begin < source.size()) {
    const size_t newline = source.find('\n', begin);
    const size_t next = newline == std::string_view::npos ? source.size() : newline + 1;
    size_t end = newline == std::string_view::npos ? source.size() : newline;
    if (end > begin && source[end - 1] == '\r') --end;
    const std::string_view line = source.substr(begin, end - begin);
    const bool backslash = !line.empty() && line.back() == '\\';
    const bool starts_statement =
        state.quote == Quote::None && state.depth == 0 && !state.continued;
    size_t indent = 0;
    while (indent < line.size() && is_space(line[indent])) ++indent;
    if (escape_continues) {
      comment_out(out.code, begin, line);
      escape_continues = backslash;
    } else if (starts_statement && indent < line.size()) {
      const std::string_view rest = line.substr(indent);
      if (first_code_line && rest.starts_with("%%")) {
        if (!contains(kPythonCellMagics, token_at(rest.substr(2), 0))) {
          out.python = false;
          return out;
        }
        out.code[begin + indent] = '#';
        escape_continues = backslash;
      } else if (auto escape = escape_at(line, indent)) {
        neutralise(out.code, begin, line, *escape, indent > 0);
        escape_continues = backslash;
      } else {
        scan(line, state);
      }
      first_code_line = false;
    } else {
      scan(line, state);
    }
    begin = next;
  }
  return out;
}

}  // namespace sealint::notebook
