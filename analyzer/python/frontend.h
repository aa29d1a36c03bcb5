#pragma once
// The Python frontend: one per worker thread (a TSParser is not thread-safe), sharing the
// read-only grammar table.
#include <memory>
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
  [[nodiscard]] Result<ts::TreePtr> parse_around_misreads(const SourceFile& file, ts::TreePtr tree);
  // One parse within the budget; null when it stopped, with the reason as the error.
  [[nodiscard]] Result<ts::TreePtr> parse_within_budget(const SourceFile& file,
                                                        std::string_view text);

  const PythonGrammar* grammar_;
  ts::ParserPtr parser_;
  ParseBudget budget_;
};

}  // namespace sealint::python
