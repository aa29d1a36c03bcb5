#include "analyzer/python/frontend.h"

#include <time.h>

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "analyzer/python/lowering.h"
#include "analyzer/python/top_level_pieces.h"

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
  return parse_within_budget(file, text, text.size(), thread_cpu_micros());
}

Result<ts::TreePtr> PythonFrontend::parse_within_budget(const SourceFile& file,
                                                        std::string_view text, size_t budget_bytes,
                                                        uint64_t started) {
  const ParseMeter meter(budget_.memory_bytes);
  const uint64_t time_micros = budget_.time_micros(budget_bytes);
  ts_parser_set_cancellation_flag(parser_.get(), meter.cancellation_flag());
  // tree-sitter's own timeout is wall-clock time, which a loaded machine stretches: the same file
  // would be refused there and analysed on an idle one. It only hands control back every slice
  // instead; the budget is the thread's CPU time, and a parse under it resumes where it stopped.
  ts_parser_set_timeout_micros(parser_.get(), std::min(time_micros, kBudgetCheckMicros));
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

namespace {

// Parses only `piece` of the text while it lives (offsets and points stay the whole text's), and
// puts the parser back to the whole text after.
class PieceRange {
 public:
  PieceRange(TSParser* parser, const Piece& piece, const Piece* next) : parser_(parser) {
    TSRange range{{piece.row, 0},
                  {UINT32_MAX, UINT32_MAX},
                  piece.begin,
                  UINT32_MAX};  // the last piece: to the end
    if (next != nullptr) {
      range.end_point = {next->row, 0};
      range.end_byte = next->begin;
    }
    (void)ts_parser_set_included_ranges(parser_, &range, 1);
  }
  PieceRange(const PieceRange&) = delete;
  PieceRange& operator=(const PieceRange&) = delete;
  ~PieceRange() { (void)ts_parser_set_included_ranges(parser_, nullptr, 0); }

 private:
  TSParser* parser_;
};

}  // namespace

std::string PythonFrontend::over_memory_budget(const SourceFile& file) const {
  return fmt::format("'{}' needs more than {} MiB to analyse; not analysed", file.path(),
                     budget_.memory_bytes >> 20);
}

std::optional<Result<LoweredFile>> PythonFrontend::lower_in_pieces(
    const std::shared_ptr<const SourceFile>& file) {
  if (file->code().size() <= budget_.piece_bytes) return std::nullopt;
  std::string converted;
  std::string_view text = file->code();
  if (file->has_lone_cr()) {
    converted.assign(text);
    lone_cr_to_lf(converted);
    text = converted;
  }
  const std::vector<Piece> pieces = top_level_pieces(text, budget_.piece_bytes);
  if (pieces.size() < 2) return std::nullopt;
  LoweredFile out;
  out.module = std::make_unique<ir::Module>(file, ir::Language::Python);
  std::optional<PieceLowering> lowering;
  ir::SourceRange whole;
  // The parse budget counts the parser's time over all pieces, not the lowering between them
  // (which the memory budget bounds): a file parsed in pieces gets the time a whole parse gets.
  uint64_t parse_spent = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const uint64_t piece_started = thread_cpu_micros();
    Result<ts::TreePtr> tree = [&] {
      const PieceRange range(parser_.get(), pieces[i],
                             i + 1 < pieces.size() ? &pieces[i + 1] : nullptr);
      return parse_within_budget(*file, text, text.size(), piece_started - parse_spent);
    }();
    parse_spent += thread_cpu_micros() - piece_started;
    if (!tree) return make_error(tree.error());
    const TSNode root = ts_tree_root_node(tree->get());
    if (ts_node_has_error(root)) return std::nullopt;
    if (!lowering) {
      lowering.emplace(*grammar_, root, *out.module, out.problems, budget_.memory_bytes);
      whole.begin = ts_node_start_byte(root);
    }
    lowering->add(root);
    if (lowering->over_budget()) return make_error(over_memory_budget(*file));
    whole.end = ts_node_end_byte(root);
  }
  lowering->finish(whole);
  return out;
}

Result<LoweredFile> PythonFrontend::lower(std::shared_ptr<const SourceFile> file) {
  if (auto in_pieces = lower_in_pieces(file)) return std::move(*in_pieces);
  auto parsed = parse(*file);
  if (!parsed) return make_error(parsed.error());
  auto tree = parse_around_misreads(*file, std::move(*parsed));
  if (!tree) return make_error(tree.error());
  LoweredFile out;
  out.module = std::make_unique<ir::Module>(file, ir::Language::Python);
  if (!lower_tree(*grammar_, ts_tree_root_node(tree->get()), *out.module, out.problems,
                  budget_.memory_bytes))
    return make_error(over_memory_budget(*file));
  return out;
}

}  // namespace sealint::python
