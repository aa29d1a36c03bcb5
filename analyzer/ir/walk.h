#pragma once
// Visits a function's statements in source order with their context: the loops and branches
// around each one (innermost last) and whether autograd is off there. Nested function and class
// bodies are not entered: each Function is walked on its own. Recursion follows statement nesting,
// which lowering bounds (kMaxNestingDepth).
#include <functional>
#include <vector>

#include "analyzer/ir/ir.h"

namespace sealint::ir {

// An `if` or an `except` handler around a statement: rules ask whether it runs once or every
// iteration of the loops outside it.
struct Branch {
  const Stmt* stmt = nullptr;  // the If, or the Try whose handler it is
  size_t loop_depth = 0;       // how many of StmtContext::loops enclose the branch
  bool handler = false;        // inside one of stmt's `except` handlers
};

struct StmtContext {
  const Function* function = nullptr;
  std::vector<const Stmt*> loops;  // enclosing Loop statements, innermost last
  std::vector<Branch> branches;    // enclosing ifs and except handlers, innermost last
  std::vector<const Stmt*>
      guards;  // enclosing `with` statements (C++ guard blocks), innermost last
  const std::vector<Stmt*>* block = nullptr;  // the block the statement itself sits in
  bool no_grad = false;  // inside a no_grad/inference_mode/set_grad_enabled(False) guard
};

using StmtVisitor = std::function<void(const Stmt&, const StmtContext&)>;

void walk_statements(const Function& function, bool starts_without_grad, const StmtVisitor& visit);

// The same walk over a block that is not a function's body (a class body); `function` is null.
void walk_block(const std::vector<Stmt*>& body, const StmtVisitor& visit);

// Calls `visit` on every statement of every function of the module (the top level included)
// that some loop of the same function encloses, with its context.
void walk_statements_in_loops(
    const Module& module,
    const std::function<void(const Function&, const Stmt&, const StmtContext&)>& visit);

// Calls `visit` on every statement nested in `body` with whether a no-grad guard inside `body`
// encloses it (not entering nested defs or classes).
void walk_statements_in(const std::vector<Stmt*>& body,
                        const std::function<void(const Stmt&, bool)>& visit);

// Calls `visit` on every statement nested in `body` (not entering nested defs or classes).
void for_each_nested(const std::vector<Stmt*>& body, const std::function<void(const Stmt&)>& visit);

// Calls `visit` on every expression of a statement's own parts (not its nested statements),
// and on all their subexpressions.
// The statements of `body` and of the branches, `with` and `try` blocks nested in it, not of
// nested loops, functions or classes: what one pass through `body` runs outside its inner loops.
void for_each_outside_loops(const std::vector<Stmt*>& body,
                            const std::function<void(const Stmt&)>& visit);

// The calls in `body` (nested statements, not nested defs), in statement order and, within a
// statement, in source order with an outer call before the calls in its arguments.
[[nodiscard]] std::vector<const Expr*> calls_in(const std::vector<Stmt*>& body);
void for_each_expr(const Stmt& stmt, const std::function<void(const Expr&)>& visit);
void for_each_subexpr(const Expr& expr, const std::function<void(const Expr&)>& visit);

// Like for_each_expr and for_each_subexpr, but only what runs when the statement runs: not a
// lambda's body (it runs when called) and not a comprehension's targets (bound, not read).
void for_each_evaluated_expr(const Stmt& stmt, const std::function<void(const Expr&)>& visit);
void for_each_evaluated_subexpr(const Expr& expr, const std::function<void(const Expr&)>& visit);

// Like for_each_nested, but only the statements that run on every pass through `body`: not the
// branches of an `if` or the handlers of a `try` (nested loops, `with` and `try` bodies are).
void for_each_every_iteration(const std::vector<Stmt*>& body,
                              const std::function<void(const Stmt&)>& visit);

// `stmt` is one of `block`'s statements or nested in one (the `if` side that holds it).
[[nodiscard]] bool block_contains(const std::vector<Stmt*>& block, const Stmt& stmt);

// The statements that run after `stmt` ends, on every path (any depth, in source order): those
// after it in its block and in each enclosing block of `function`. Not the other branch of an
// `if` around it, nor an `except` handler: they run instead of it, not after it.
[[nodiscard]] std::vector<const Stmt*> statements_after(const Function& function, const Stmt& stmt);

}  // namespace sealint::ir
