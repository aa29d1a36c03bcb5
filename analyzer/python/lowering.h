#pragma once
// CST -> IR for one parsed Python file.
#include <memory>
#include <vector>

#include <tree_sitter/api.h>

#include "analyzer/core/diagnostic.h"
#include "analyzer/ir/ir.h"
#include "analyzer/python/grammar.h"

namespace sealint::python {

// Fills `module` (whose top-level Function is created here) from the tree's root, and appends
// the first syntax error and any nesting note to `problems`. False when the IR's nodes and the
// facts the analysis keeps about them would pass `memory_bytes` (the parse's memory budget):
// lowering stopped there, and the file is not to be analysed.
[[nodiscard]] bool lower_tree(const PythonGrammar& grammar, TSNode root, ir::Module& module,
                              std::vector<InputError>& problems, size_t memory_bytes);

class Lowerer;

// The same for a file parsed in pieces (top_level_pieces.h): each piece's tree is added in file
// order and may be freed once added; the IR is the one lower_tree makes of the whole file's tree.
// Syntax errors are not reported: a piece with one is parsed again with the whole file.
class PieceLowering {
 public:
  // `first_root` is the first piece's tree's root (the lowering's cursor starts there).
  PieceLowering(const PythonGrammar& grammar, TSNode first_root, ir::Module& module,
                std::vector<InputError>& problems, size_t memory_bytes);
  PieceLowering(const PieceLowering&) = delete;
  PieceLowering& operator=(const PieceLowering&) = delete;
  ~PieceLowering();

  void add(TSNode root);
  // As lower_tree's false: lowering stopped, past the memory budget.
  [[nodiscard]] bool over_budget() const;
  // `whole`: from the first piece's root's start to the last one's end.
  void finish(ir::SourceRange whole);

 private:
  std::unique_ptr<Lowerer> lowerer_;
};

}  // namespace sealint::python
