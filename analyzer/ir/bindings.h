#pragma once
// Which places a statement binds, and to what: the assignments, loop and `with` targets,
// imports, definitions, `except ... as e` names and walrus targets of the statement itself (not
// of the statements nested in it), as place keys (`total`, `self.loss`, `stats["loss"]`).
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/ir/ir.h"

namespace sealint::ir {

// Appends the place keys `stmt` itself binds (a tuple target gives each of its places).
void bound_keys(const Stmt& stmt, std::vector<std::string>& out);

// Appends the place keys an assignment target binds: the place, or each place of a tuple or
// starred target.
void target_keys(const Expr* target, std::vector<std::string>& out);

// Does `stmt` itself bind `key`?
[[nodiscard]] bool stmt_binds(const Stmt& stmt, std::string_view key);

// Does the target (a place, or a tuple or starred target holding one) bind `key`?
[[nodiscard]] bool target_binds(const Expr* target, std::string_view key);

// The value `stmt` assigns to `key`, when it is a plain assignment of one value to it; else null.
[[nodiscard]] const Expr* assigned_value(const Stmt& stmt, std::string_view key);

// Where a binding statement points to in a related location: a `with` statement's header
// (`with tf.Session() as sess`), not its whole body; any other statement whole.
[[nodiscard]] SourceRange binding_range(const Stmt& stmt);

}  // namespace sealint::ir
