#pragma once
// The Python frontend: one per worker thread (a TSParser is not thread-safe), sharing the
// read-only grammar table.
#include <memory>
#include <optional>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/result.h"
#include "analyzer/core/source_file.h"
#include "analyzer/ir/ir.h"
#include "analyzer/python/grammar.h"
#include "analyzer/python/parse_budget.h"
#include "analyzer/python/ts.h"

namespace sealint::python {

// Nesting past this many expression or statement levels lowers to ir::Other (and a note), so
// code after lowering may recurse: CPython itself refuses 200 nested parentheses.
inline constexpr int kMaxNestingDepth = 256;

using LoweredFile = ir::LoweredFile;

class PythonFrontend {
 public:
  [[nodiscard]] static Result<PythonFrontend> create(const PythonGrammar& grammar,
                                                     ParseBudget budget = {});

  [[nodiscard]] Result<LoweredFile> lower(std::shared_ptr<const SourceFile> file);
  // The speed floor: parse and free the tree, nothing else (`sealint --parse-only`).
  [[nodiscard]] Result<bool> parse_only(const SourceFile& file);

 private:
  PythonFrontend(const PythonGrammar& grammar, ts::ParserPtr parser, ParseBudget budget)
      : grammar_(&grammar), parser_(std::move(parser)), budget_(budget) {}
  [[nodiscard]] Result<ts::TreePtr> parse(const SourceFile& file);
  // The error of a file whose IR would pass the memory budget.
  [[nodiscard]] std::string over_memory_budget(const SourceFile& file) const;
  // The file lowered piece by piece; nullopt when it is one piece or a piece holds a syntax error
  // (the whole file's parse then says where, as it would have).
  [[nodiscard]] std::optional<Result<LoweredFile>> lower_in_pieces(
      const std::shared_ptr<const SourceFile>& file);
  [[nodiscard]] Result<ts::TreePtr> parse_around_misreads(const SourceFile& file, ts::TreePtr tree);
  // One parse within the budget; null when it stopped, with the reason as the error. The time
  // budget, for `budget_bytes` of code, counts from `started` (this thread's CPU time,
  // microseconds), so that the pieces of one file share one.
  [[nodiscard]] Result<ts::TreePtr> parse_within_budget(const SourceFile& file,
                                                        std::string_view text);
  [[nodiscard]] Result<ts::TreePtr> parse_within_budget(const SourceFile& file,
                                                        std::string_view text, size_t budget_bytes,
                                                        uint64_t started);

  const PythonGrammar* grammar_;
  ts::ParserPtr parser_;
  ParseBudget budget_;
};

}  // namespace sealint::python
