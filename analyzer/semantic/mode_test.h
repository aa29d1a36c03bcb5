#pragma once
// A condition that picks the training pass in code shared by training and evaluation: one batch
// loop for `mode` "train", "val" and "test", where the backward runs only under
// `if mode == "train":` (or `if is_train:`, `if optimizer is not None:`) and the forward runs in
// every pass.
#include <cstddef>

#include "analyzer/ir/ir.h"
#include "analyzer/ir/walk.h"

namespace sealint::semantic {

// The part of `condition` that holds only in the training pass (`mode == "train"` in
// `mode == "train" and step % 4 == 0`), or nullptr when the condition is not such a test.
[[nodiscard]] const ir::Expr* training_mode_test(const ir::Expr* condition);

// The innermost `if` around a statement whose training side holds it: its mode test (nullptr
// when none), and how many of the walk's loops enclose that `if`.
struct TrainingBranch {
  const ir::Expr* test = nullptr;
  size_t loop_depth = 0;
};
[[nodiscard]] TrainingBranch training_branch(const ir::StmtContext& where, const ir::Stmt& stmt);

}  // namespace sealint::semantic
