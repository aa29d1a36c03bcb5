#include "analyzer/project/import_scan.h"

namespace sealint::project {

namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// Reads one statement's tokens: dotted names (dots included, as in `..m.x`), and the punctuation
// `,` and `*`; parentheses, comments and line joins are skipped.
class Tokens {
 public:
  explicit Tokens(std::string_view statement) : text_(statement) {}

  // The next token, empty at the end.
  std::string_view next() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\\' || c == '\n' || c == '\r' || c == '(' || c == ')') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
    if (pos_ >= text_.size()) return {};
    const size_t start = pos_;
    if (text_[pos_] == ',' || text_[pos_] == '*') return text_.substr(pos_++, 1);
    while (pos_ < text_.size() && (is_name_char(text_[pos_]) || text_[pos_] == '.')) ++pos_;
    if (pos_ == start) {  // a character no import holds: the statement is not one
      pos_ = text_.size();
      return {};
    }
    return text_.substr(start, pos_ - start);
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// `import a.b as c, d`
void read_import(Tokens& tokens, std::vector<ScannedImport>& out) {
  for (std::string_view name = tokens.next(); !name.empty(); name = tokens.next()) {
    if (name == "," || name == "*") continue;
    if (name == "as") {
      tokens.next();  // the alias
      continue;
    }
    out.push_back({std::string(name), ""});
  }
}

// `from m import x as y, z` / `from . import x` / `from m import *`
void read_from(Tokens& tokens, std::vector<ScannedImport>& out) {
  const std::string_view from = tokens.next();
  if (from.empty() || tokens.next() != "import") return;
  for (std::string_view name = tokens.next(); !name.empty(); name = tokens.next()) {
    if (name == ",") continue;
    if (name == "*") {
      out.push_back({std::string(from), ""});
      continue;
    }
    if (name == "as") {
      tokens.next();
      continue;
    }
    out.push_back({std::string(from), std::string(name)});
  }
}

// Where the statement starting at `begin` ends: past its line, or past the line that closes its
// parenthesis, or the lines a backslash joins.
size_t statement_end(std::string_view code, size_t begin) {
  int depth = 0;
  for (size_t i = begin; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    if (c == '#') {
      while (i < code.size() && code[i] != '\n') ++i;
      if (i >= code.size()) return code.size();
    }
    if (code[i] == '\n' && depth == 0 && (i == begin || code[i - 1] != '\\')) return i;
  }
  return code.size();
}

}  // namespace

std::string ScannedImport::dotted() const {
  if (name.empty()) return module;
  return module.ends_with('.') ? module + name : module + "." + name;
}

std::vector<ScannedImport> scan_imports(std::string_view code) {
  std::vector<ScannedImport> out;
  size_t line = 0;
  while (line < code.size()) {
    size_t start = line;
    while (start < code.size() && (code[start] == ' ' || code[start] == '\t')) ++start;
    const std::string_view rest = code.substr(start);
    const bool is_import = rest.starts_with("import ") || rest.starts_with("import\t");
    const bool is_from = rest.starts_with("from ") || rest.starts_with("from\t");
    if (!is_import && !is_from) {
      const size_t newline = code.find('\n', start);
      line = newline == std::string_view::npos ? code.size() : newline + 1;
      continue;
    }
    const size_t end = statement_end(code, start);
    Tokens tokens(code.substr(start, end - start));
    tokens.next();  // `import` or `from`
    if (is_import) {
      read_import(tokens, out);
    } else {
      read_from(tokens, out);
    }
    line = end + 1;
  }
  return out;
}

}  // namespace sealint::project
