#pragma once
// Escape: does a place (a name, `self.total`, `stats["loss"]`) outlive one iteration of a loop,
// and is it reset inside that loop (then it does not grow: the gradient-accumulation idiom)?
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/ir/ir.h"

namespace sealint::ir {

// A stable key for a place: `total`, `self.total`, `stats["loss"]`, `buf[*]` for a computed
// index; empty when the expression is not a place.
[[nodiscard]] std::string place_key(const Expr* expr);

// The root name of a place key: "stats" for `stats["loss"]`.
[[nodiscard]] std::string_view place_root(std::string_view key);

// True when `body` (nested statements that run every iteration: not `if` branches, not
// `except` handlers; nested defs not) rebinds `key` or its root
// without reading `key` (`total = 0`, `losses = []`), deletes it, clears it (`xs.clear()`,
// `del xs[:]`, `xs[:] = []`), or calls a method listed in `reset_methods` on it. A rebinding
// that reads `key` only through `.detach()` (`hidden = hidden.detach()`) cuts its history, so it
// resets too. `skip` is a statement not to count (a rule's own feedback statement).
[[nodiscard]] bool resets_in(const std::vector<Stmt*>& body, std::string_view key,
                             const std::vector<std::string_view>& reset_methods = {},
                             const Stmt* skip = nullptr);

// True when `key`'s root is bound outside `loop` in `function`: a parameter, `self`, a
// `global`, a binding before or after the loop, or (not bound in the function at all) a
// module-level name.
[[nodiscard]] bool defined_outside(const Function& function, const Stmt& loop,
                                   std::string_view key);

// True when a statement inside `loop` (its target included, nested defs not) binds `name`.
[[nodiscard]] bool bound_in(const Stmt& loop, std::string_view name);

// The last statement binding `key`'s root before `loop` in `function` (for "defined here"
// notes), or nullptr.
[[nodiscard]] const Stmt* binding_before(const Function& function, const Stmt& loop,
                                         std::string_view key);

// Calls `visit` with each place key (non-empty) that `expr` reads and the expression reading it
// (a place before the places inside it), not below a `.detach()` (its result carries no history:
// `gru->forward(x, h.detach())`). `visit` returns true to stop.
void for_each_read_with_history(
    const Expr* expr, const std::function<bool(std::string_view key, const Expr& read)>& visit);

// Does `expr` read the place `key` (or any place below it)?
[[nodiscard]] bool reads_place(const Expr* expr, std::string_view key);

}  // namespace sealint::ir
