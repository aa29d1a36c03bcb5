#pragma once
// Where an `except` handler keeps the caught error, its traceback or `sys.exc_info()` in a place
// that outlives the handler (Python deletes the `as` name at the handler's end, not a copy).
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/ir/ir.h"

namespace sealint::rules::sl008 {

// What a stored value holds of the caught error.
enum class Holds { Nothing, Error, Traceback, ExcInfo };

// One place the handler keeps the caught error in.
struct Kept {
  const ir::Expr* place = nullptr;  // the variable, attribute or container
  ByteRange primary;
  Holds holds = Holds::Nothing;
  const ir::Stmt* stmt = nullptr;
};

// The places the handler's body stores the error in: assignments and container stores.
[[nodiscard]] std::vector<Kept> kept_errors(const ir::Module& module, const ir::Handler& handler);

// `del err` or `err = None` in the function after `after`: the copy is dropped before long.
[[nodiscard]] bool dropped_later(const ir::Function& function, const ir::Stmt& after,
                                 std::string_view key);

}  // namespace sealint::rules::sl008
