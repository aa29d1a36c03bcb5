#include "analyzer/notebook/notebook.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include <fmt/format.h>

#include "analyzer/core/utf8.h"
#include "analyzer/notebook/ipython_escapes.h"

namespace sealint::notebook {

namespace {

using Json = nlohmann::ordered_json;

// Writing a notebook back recurses once per level of nesting (nlohmann's dump): a document nested
// deeper than any notebook is refused before it is parsed. Widget state, the deepest part of real
// notebooks, stays under 30.
constexpr int kMaxJsonDepth = 512;

// The deepest nesting of objects and arrays in `bytes`, counted outside strings.
int json_depth(std::string_view bytes) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < bytes.size(); ++i) {
    const char c = bytes[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

std::pair<size_t, size_t> line_and_column(std::string_view bytes, size_t byte) {
  const size_t end = std::min(byte > 0 ? byte - 1 : 0, bytes.size());
  size_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < end; ++i) {
    if (bytes[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, end - line_start + 1};
}

// How the file indents its JSON: the whitespace that starts its second line (Jupyter: one space).
void detect_layout(std::string_view bytes, int& indent, char& indent_char) {
  const size_t newline = bytes.find('\n');
  if (newline == std::string_view::npos || newline + 1 >= bytes.size()) {
    indent = -1;
    return;
  }
  indent_char = bytes[newline + 1] == '\t' ? '\t' : ' ';
  size_t i = newline + 1;
  while (i < bytes.size() && bytes[i] == indent_char) ++i;
  indent = static_cast<int>(i - newline - 1);
}

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

const Json* member(const Json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(std::string(key));
  return it == object.end() ? nullptr : &*it;
}

// The language the notebook's kernel runs, as its metadata says; empty when it says nothing.
std::string kernel_language(const Json& document) {
  const Json* metadata = member(document, "metadata");
  if (metadata == nullptr) return {};
  using Field = std::pair<std::string_view, std::string_view>;
  for (const auto& [object, key] :
       {Field{"language_info", "name"}, Field{"kernelspec", "language"}}) {
    const Json* holder = member(*metadata, object);
    const Json* name = holder == nullptr ? nullptr : member(*holder, key);
    if (name != nullptr && name->is_string()) return lowercase(name->get<std::string>());
  }
  return {};
}

// A cell's `source`: one string, or a list of strings nbformat joins without separators.
std::optional<std::string> source_text(const Json& cell) {
  const Json* source = member(cell, "source");
  if (source == nullptr) return std::nullopt;
  if (source->is_string()) return source->get<std::string>();
  if (!source->is_array()) return std::nullopt;
  std::string text;
  for (const Json& part : *source) {
    if (!part.is_string()) return std::nullopt;
    text += part.get_ref<const std::string&>();
  }
  return text;
}

// VS Code marks a cell of another language in a Python notebook (`metadata.vscode.languageId`).
bool cell_is_python(const Json& cell) {
  const Json* metadata = member(cell, "metadata");
  const Json* vscode = metadata == nullptr ? nullptr : member(*metadata, "vscode");
  const Json* language = vscode == nullptr ? nullptr : member(*vscode, "languageId");
  return language == nullptr || !language->is_string() ||
         lowercase(language->get<std::string>()) == "python";
}

// nbformat's list form: one string per line, each with its line end.
Json source_lines(std::string_view text) {
  Json lines = Json::array();
  size_t start = 0;
  while (start < text.size()) {
    const size_t newline = text.find('\n', start);
    const size_t end = newline == std::string_view::npos ? text.size() : newline + 1;
    lines.push_back(std::string(text.substr(start, end - start)));
    start = end;
  }
  return lines;
}

// Where the line from `start` ends (its text's end) and the next begins: at `\n`, `\r\n` or a lone
// `\r`, as SourceFile counts lines, so that a cell's lines and the parsed source's agree.
std::pair<size_t, size_t> line_end(std::string_view text, size_t start) {
  const size_t end = text.find_first_of("\r\n", start);
  if (end == std::string_view::npos) return {text.size(), text.size()};
  if (text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n') return {end, end + 2};
  return {end, end + 1};
}

uint32_t count_lines(std::string_view text) {
  uint32_t lines = 0;
  for (size_t at = 0; at < text.size(); at = line_end(text, at).second) {
    if (line_end(text, at).first < text.size()) ++lines;
  }
  return lines;
}

}  // namespace

bool is_notebook_path(std::string_view path) {
  return path.ends_with(".ipynb");
}

Result<Notebook> Notebook::parse(std::string_view path, std::string_view bytes) {
  if (json_depth(bytes) > kMaxJsonDepth) {
    return make_error(fmt::format("'{}' is not a notebook: its JSON nests deeper than {} levels",
                                  path, kMaxJsonDepth));
  }
  Notebook notebook;
  try {
    notebook.document_ = Json::parse(bytes);
  } catch (const nlohmann::json::exception& error) {
    const auto* parse_error = dynamic_cast<const nlohmann::json::parse_error*>(&error);
    const size_t byte = parse_error == nullptr ? 0 : parse_error->byte;
    const auto [line, column] = line_and_column(bytes, byte);
    return make_error(fmt::format("'{}' is not a notebook: invalid JSON at line {}, column {}",
                                  path, line, column));
  }
  const Json& document = notebook.document_;
  if (!document.is_object())
    return make_error(fmt::format("'{}' is not a notebook: its JSON is not an object", path));
  const Json* format = member(document, "nbformat");
  if (format == nullptr || !format->is_number_integer())
    return make_error(fmt::format("'{}' is not a notebook: it has no `nbformat` version", path));
  if (format->get<int64_t>() < 4) {
    return make_error(fmt::format(
        "'{}' is an nbformat {} notebook; sealint reads nbformat 4 (saving it in Jupyter upgrades "
        "it)",
        path, format->get<int64_t>()));
  }
  const Json* cells = member(document, "cells");
  if (cells == nullptr || !cells->is_array())
    return make_error(fmt::format("'{}' is not a notebook: it has no `cells` list", path));
  if (const std::string language = kernel_language(document);
      !language.empty() && !language.starts_with("python")) {
    notebook.not_python_ =
        fmt::format("'{}' is a notebook in {}, not Python; not analysed", path, language);
  }
  detect_layout(bytes, notebook.indent_, notebook.indent_char_);
  notebook.bom_ = bytes.starts_with(utf8::kBom);
  notebook.final_newline_ = bytes.ends_with('\n');
  notebook.crlf_ = bytes.find("\r\n") != std::string_view::npos;

  uint32_t line = 1;
  for (size_t index = 0; index < cells->size(); ++index) {
    const Json& cell = (*cells)[index];
    const auto number = static_cast<uint32_t>(index + 1);
    const Json* type = member(cell, "cell_type");
    if (type == nullptr || !type->is_string()) {
      return make_error(
          fmt::format("'{}' is not a notebook: cell {} has no `cell_type`", path, number));
    }
    if (type->get_ref<const std::string&>() != "code") continue;
    std::optional<std::string> source = source_text(cell);
    if (!source) {
      return make_error(
          fmt::format("'{}' is not a notebook: cell {} has no `source` text", path, number));
    }
    if (!cell_is_python(cell)) continue;
    NeutralisedCell neutralised = neutralise_ipython(*source);
    if (!neutralised.python) continue;
    if (!source->ends_with('\n')) {
      neutralised.code += '\n';
      notebook.written_ += *source + '\n';
    } else {
      notebook.written_ += *source;
    }
    notebook.cells_.push_back(
        {number, static_cast<uint32_t>(notebook.code_.size()), line, std::move(*source)});
    line += count_lines(neutralised.code);
    notebook.code_ += neutralised.code;
  }
  return notebook;
}

const CodeCell* Notebook::cell_at(uint32_t offset) const {
  if (cells_.empty()) return nullptr;
  const auto after =
      std::upper_bound(cells_.begin(), cells_.end(), offset,
                       [](uint32_t at, const CodeCell& cell) { return at < cell.begin; });
  return after == cells_.begin() ? &cells_.front() : &*(after - 1);
}

std::string_view Notebook::cell_line(uint32_t number, uint32_t line) const {
  const auto cell = std::find_if(cells_.begin(), cells_.end(),
                                 [&](const CodeCell& c) { return c.number == number; });
  if (cell == cells_.end() || line == 0) return {};
  const std::string_view source = cell->source;
  size_t start = 0;
  for (uint32_t i = 1; i < line; ++i) {
    const auto [end, next] = line_end(source, start);
    if (end == source.size()) return {};
    start = next;
  }
  return source.substr(start, line_end(source, start).first - start);
}

bool Notebook::editable(ByteRange range) const {
  const CodeCell* cell = cell_at(range.begin);
  if (cell == nullptr || range.begin < cell->begin || range.end < range.begin ||
      range.end > cell->begin + cell->source.size())
    return false;
  // The lines the range touches read the same before and after neutralising.
  const size_t line_begin = code_.rfind('\n', range.begin == 0 ? 0 : range.begin - 1);
  const size_t from = line_begin == std::string::npos || range.begin == 0 ? 0 : line_begin + 1;
  size_t to = code_.find('\n', range.end);
  if (to == std::string::npos) to = code_.size();
  return std::string_view(code_).substr(from, to - from) ==
         std::string_view(written_).substr(from, to - from);
}

Result<Rewrite> Notebook::rewrite(std::span<const Edit* const> edits) const {
  Rewrite out;
  Json document = document_;
  Json& cells = document["cells"];
  for (const CodeCell& cell : cells_) {
    std::vector<const Edit*> mine;
    for (const Edit* edit : edits) {
      if (cell_at(edit->range.begin) == &cell) mine.push_back(edit);
    }
    if (mine.empty()) continue;
    std::sort(mine.begin(), mine.end(),
              [](const Edit* a, const Edit* b) { return a->range.begin < b->range.begin; });
    std::string after;
    size_t at = 0;
    for (const Edit* edit : mine) {
      if (!editable(edit->range) || edit->range.begin - cell.begin < at) {
        return make_error(
            fmt::format("a fix for cell {} does not fit in the cell; not fixed", cell.number));
      }
      const size_t begin = edit->range.begin - cell.begin;
      after.append(cell.source, at, begin - at);
      after += edit->replacement;
      at = edit->range.end - cell.begin;
    }
    after.append(cell.source, at);
    if (after == cell.source) continue;
    Json& source = cells[cell.number - 1]["source"];
    source = source.is_array() ? source_lines(after) : Json(after);
    out.changes.push_back({cell.number, cell.source, std::move(after)});
  }
  try {
    out.bytes = document.dump(indent_, indent_char_, false, Json::error_handler_t::strict);
  } catch (const nlohmann::json::exception& error) {
    return make_error(fmt::format("cannot write the notebook back: {}", error.what()));
  }
  if (final_newline_) out.bytes += '\n';
  // nlohmann writes "\n" between lines, and a newline inside a string as the two characters
  // `\n`: every raw newline is layout, given back as the file had it (issue 41: --fix turned a
  // CRLF notebook into LF, a diff of every line).
  if (crlf_) {
    std::string crlf;
    crlf.reserve(out.bytes.size() + out.bytes.size() / 16);
    for (const char c : out.bytes) {
      if (c == '\n') crlf += '\r';
      crlf += c;
    }
    out.bytes = std::move(crlf);
  }
  if (bom_) out.bytes.insert(0, utf8::kBom);
  return out;
}

}  // namespace sealint::notebook
