#pragma once
// Folds integer expressions to constants: literals, module-level constants (`HIDDEN = 1024`,
// `FF = 4 * HIDDEN`) and integer arithmetic with Python's semantics. No recursion (an explicit
// stack) and no overflow: a value past 2^62 is "huge", known only to be at least that large.
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "analyzer/ir/ir.h"

namespace sealint::ir {

// An integer the folder knows: exact within [-kMaxExact, kMaxExact], or huge (greater than
// kMaxExact; its exact value is not kept). There is no negative huge: what would be one is
// unknown (nullopt) instead.
struct FoldedInt {
  static constexpr int64_t kMaxExact = int64_t{1} << 62;
  int64_t value = 0;  // 0 when huge
  bool huge = false;

  // `value`, or huge past kMaxExact, or nullopt below -kMaxExact.
  [[nodiscard]] static std::optional<FoldedInt> of(int64_t value);
  [[nodiscard]] static FoldedInt make_huge() { return {0, true}; }
  bool operator==(const FoldedInt&) const = default;
};

// A Python integer literal: `4096`, `1_000_000`, `0x10`, `0o17`, `0b1010`. nullopt for anything
// else (`10j`, `1.0`, `10L`).
[[nodiscard]] std::optional<FoldedInt> parse_int_literal(std::string_view text);

// `lhs op rhs` as Python computes it on ints: `+ - * // % ** << >> & | ^`. nullopt where Python
// raises (division by zero, a negative shift), where the result is not an int (`/`, a negative
// exponent), or where a huge operand leaves the result unknown (`huge - 1`).
[[nodiscard]] std::optional<FoldedInt> fold_binary(std::string_view op, FoldedInt lhs,
                                                   FoldedInt rhs);
// `op operand` for `-`, `+`, `~`.
[[nodiscard]] std::optional<FoldedInt> fold_unary(std::string_view op, FoldedInt operand);

// What a name stands for where it is used: a value, or nullopt when unknown.
using NameLookup = std::function<std::optional<FoldedInt>(const Expr& name)>;

// Folds an integer expression made of int literals, names `lookup` knows, unary and binary
// integer operators (parentheses are already gone in the IR). nullopt when any part is not
// known. A null `lookup` knows no name.
[[nodiscard]] std::optional<FoldedInt> fold_int(const Expr& expr, const NameLookup& lookup = {});

// One integer constant of a module's top level.
struct ModuleConstant {
  FoldedInt value;
  const Stmt* definition = nullptr;  // the `NAME = ...` statement
  const Expr* target = nullptr;      // the NAME in it
};

// The integer constants of a module's top level: names bound exactly once in the whole module
// scope, by a top-level `NAME = <int expr>` (or `NAME: int = <int expr>`) whose value folds with
// literals and constants defined above it. A name rebound anywhere at module scope (a second
// assignment, `+=`, a loop target, an import, a `def`) or declared `global` in a function is not
// a constant.
class ModuleConstants {
 public:
  explicit ModuleConstants(const Module& module);

  [[nodiscard]] const ModuleConstant* find(std::string_view name) const;
  [[nodiscard]] size_t size() const { return constants_.size(); }

 private:
  std::unordered_map<std::string_view, ModuleConstant> constants_;
};

// Names a function binds in its own scope: parameters, assignment/loop/with/except targets,
// imports, nested `def`/`class` names, walrus targets (and, conservatively, comprehension
// variables), minus names it declares `global`. A name in this set does not refer to a module
// constant inside the function.
[[nodiscard]] std::unordered_set<std::string_view> locally_bound_names(const Function& function);
// The same for a class body (its statements, not its methods).
[[nodiscard]] std::unordered_set<std::string_view> locally_bound_names(const ClassDef& cls);

}  // namespace sealint::ir
