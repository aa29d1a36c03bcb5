#include "analyzer/python/frontend.h"

#include <time.h>

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "analyzer/python/lowering.h"

namespace sealint::python {

namespace {

// Same length in, same length out: offsets into the result are offsets into the original.
void lone_cr_to_lf(std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) text[i] = '\n';
  }
}

// `, *[` / `= *[` / `(*[`: a star that splats a list display rather than multiplying.
bool is_splat_of_list(std::string_view code, size_t star) {
  if (star + 1 >= code.size() || code[star + 1] != '[') return false;
  size_t i = star;
  while (i > 0 && (code[i - 1] == ' ' || code[i - 1] == '\t')) --i;
  return i == 0 || code[i - 1] == ',' || code[i - 1] == '=' || code[i - 1] == '(' ||
         code[i - 1] == '\n';
}

}  // namespace

Result<PythonFrontend> PythonFrontend::create(const PythonGrammar& grammar, ParseBudget budget) {
  install_parse_allocator();
  ts::ParserPtr parser(ts_parser_new());
  if (!ts_parser_set_language(parser.get(), grammar.language())) {
    return make_error(
        fmt::format("cannot load tree-sitter-python (ABI {}) into tree-sitter runtime (ABI {})",
                    ts_language_version(grammar.language()), TREE_SITTER_LANGUAGE_VERSION));
  }
  return PythonFrontend(grammar, std::move(parser), budget);
}

namespace {

// How often a parse stops to compare its CPU time with the budget (wall-clock time).
constexpr uint64_t kBudgetCheckMicros = 100'000;

// The CPU time this thread has used, in microseconds.
uint64_t thread_cpu_micros() {
  timespec now{};
  (void)::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1'000'000 + static_cast<uint64_t>(now.tv_nsec) / 1'000;
}

}  // namespace

Result<ts::TreePtr> PythonFrontend::parse_within_budget(const SourceFile& file,
                                                        std::string_view text) {
  const ParseMeter meter(budget_.memory_bytes);
  const uint64_t time_micros = budget_.time_micros(text.size());
  ts_parser_set_cancellation_flag(parser_.get(), meter.cancellation_flag());
  // tree-sitter's own timeout is wall-clock time, which a loaded machine stretches: the same file
  // would be refused there and analysed on an idle one. It only hands control back every slice
  // instead; the budget is the thread's CPU time, and a parse under it resumes where it stopped.
  ts_parser_set_timeout_micros(parser_.get(), std::min(time_micros, kBudgetCheckMicros));
  const uint64_t started = thread_cpu_micros();
  ts::TreePtr tree;
  do {
    tree.reset(ts_parser_parse_string(parser_.get(), nullptr, text.data(),
                                      static_cast<uint32_t>(text.size())));
  } while (!tree && !meter.over_budget() && thread_cpu_micros() - started < time_micros);
  ts_parser_set_cancellation_flag(parser_.get(), nullptr);
  if (tree) return tree;
  ts_parser_reset(parser_.get());  // a stopped parse would otherwise resume on the next file
  if (meter.over_budget()) {
    return make_error(fmt::format("'{}' needs more than {} MiB to parse; not analysed", file.path(),
                                  budget_.memory_bytes >> 20));
  }
  return make_error(fmt::format("'{}' takes more than {:g} s to parse; not analysed", file.path(),
                                static_cast<double>(time_micros) / 1e6));
}

Result<ts::TreePtr> PythonFrontend::parse(const SourceFile& file) {
  if (!file.has_lone_cr()) return parse_within_budget(file, file.code());
  // tree-sitter-python ends lines at \n only: parse a copy with each lone \r turned into \n
  // (same length, so every offset still points into the original).
  std::string text(file.code());
  lone_cr_to_lf(text);
  return parse_within_budget(file, text);
}

Result<bool> PythonFrontend::parse_only(const SourceFile& file) {
  auto tree = parse(file);
  if (!tree) return make_error(tree.error());
  return true;
}

// tree-sitter-python 0.23.6 misreads a starred list display in a bare tuple (`x = a, *[]`,
// valid Python), and its error recovery swallows the statements after it. Such files are
// parsed again with those stars blanked: byte offsets are unchanged, so the IR still points
// into the original text, and the tree is kept when the error is gone.
Result<ts::TreePtr> PythonFrontend::parse_around_misreads(const SourceFile& file,
                                                          ts::TreePtr tree) {
  if (!ts_node_has_error(ts_tree_root_node(tree.get()))) return tree;
  const std::string_view code = file.code();
  std::string patched;
  for (size_t at = code.find("*["); at != std::string_view::npos; at = code.find("*[", at + 1)) {
    if (!is_splat_of_list(code, at)) continue;
    if (patched.empty()) patched.assign(code);
    patched[at] = ' ';
  }
  if (patched.empty()) return tree;
  if (file.has_lone_cr()) lone_cr_to_lf(patched);
  auto retry = parse_within_budget(file, patched);
  if (!retry || ts_node_has_error(ts_tree_root_node(retry->get()))) return tree;
  return std::move(*retry);
}

Result<LoweredFile> PythonFrontend::lower(std::shared_ptr<const SourceFile> file) {
  auto parsed = parse(*file);
  if (!parsed) return make_error(parsed.error());
  auto tree = parse_around_misreads(*file, std::move(*parsed));
  if (!tree) return make_error(tree.error());
  LoweredFile out;
  out.module = std::make_unique<ir::Module>(file, ir::Language::Python);
  lower_tree(*grammar_, ts_tree_root_node(tree->get()), *out.module, out.problems);
  return out;
}

}  // namespace sealint::python
