#pragma once
// Folds integer expressions to constants: literals, module-level constants (`HIDDEN = 1024`,
// `FF = 4 * HIDDEN`; in C++ `constexpr int64_t kHidden = 1 << 15;`) and integer arithmetic with
// the file's language's semantics. No recursion (an explicit stack) and no overflow: a value past
// 2^62 is "huge", known only to be at least that large.
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

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
// exponent), or where a huge operand leaves the result unknown (`huge - 1`). In C++ `/` and `%`
// truncate toward zero and there is no `**` or `//`.
[[nodiscard]] std::optional<FoldedInt> fold_binary(std::string_view op, FoldedInt lhs,
                                                   FoldedInt rhs,
                                                   Language language = Language::Python);
// `op operand` for `-`, `+`, `~`.
[[nodiscard]] std::optional<FoldedInt> fold_unary(std::string_view op, FoldedInt operand);

// What a name stands for where it is used: a value, or nullopt when unknown.
using NameLookup = std::function<std::optional<FoldedInt>(const Expr& name)>;

// Folds an integer expression made of int literals, names `lookup` knows, unary and binary
// integer operators (parentheses and C++ casts are already gone in the IR; a C++ braced
// `int64_t{4096}` is its element). nullopt when any part is not known. A null `lookup` knows no
// name.
[[nodiscard]] std::optional<FoldedInt> fold_int(const Expr& expr, const NameLookup& lookup = {},
                                                Language language = Language::Python);

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
// a constant. In C++ (namespace scope, any namespace) only a `const` or `constexpr` declaration
// is: a mutable global may be set by any function, or through a pointer.
class ModuleConstants {
 public:
  explicit ModuleConstants(const Module& module);

  [[nodiscard]] const ModuleConstant* find(std::string_view name) const;
  [[nodiscard]] size_t size() const { return constants_.size(); }

 private:
  std::unordered_map<std::string_view, ModuleConstant> constants_;
};

// C++: the local declarations of a function, each visible from its end to the end of the block
// that holds it (C++ binds no name without declaring it). A `const`/`constexpr` one whose
// initializer folds (`constexpr int64_t kHidden = 1 << 15;`, `const int64_t ff = 4 * kHidden;`)
// has a value; any other (`int64_t n = x.size(0);`, a non-const `int n = 4;`, which a reference
// may change), a parameter, a range-for variable or a structured binding shadows without one.
class LocalConstants {
 public:
  // `outer` folds the names no local declaration binds (the module's constants).
  LocalConstants(const Module& module, const Function& function, const NameLookup& outer);

  struct Declaration {
    std::optional<ModuleConstant> constant;  // set when the declaration is a known constant
    uint32_t visible_from = 0;  // the end of the declaration (a parameter: the function's start)
    uint32_t visible_to = 0;    // the end of its block
  };

  // The innermost declaration of `name` visible at byte `offset`, or nullptr when none is (the
  // name is then the module's).
  [[nodiscard]] const Declaration* visible(std::string_view name, uint32_t offset) const;

 private:
  std::unordered_map<std::string_view, std::vector<Declaration>> declarations_;
};

// C++: is the declaration `stmt` of `target` `const` or `constexpr` (`constexpr int64_t k`,
// `static const int k`, `int64_t const k`)? The IR keeps no qualifiers: this reads the
// declaration's specifiers in the source.
[[nodiscard]] bool declared_const(const Module& module, const Stmt& stmt, const Expr& target);

// Names a function binds in its own scope: parameters, assignment/loop/with/except targets,
// imports, nested `def`/`class` names, walrus targets (and, conservatively, comprehension
// variables), minus names it declares `global`. A name in this set does not refer to a module
// constant inside the function.
[[nodiscard]] std::unordered_set<std::string_view> locally_bound_names(const Function& function);
// The same for a class body (its statements, not its methods).
[[nodiscard]] std::unordered_set<std::string_view> locally_bound_names(const ClassDef& cls);

}  // namespace sealint::ir
