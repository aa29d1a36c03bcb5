#pragma once
// What an `except` handler catches and does, for SL008: whether an out-of-memory error lands in
// it, whether its body says it is about memory, drops the traceback's frames or re-raises, and
// which of its calls could repeat the work of the `try` body.
#include <functional>
#include <string>
#include <string_view>

#include "analyzer/ir/ir.h"
#include "analyzer/knowledge/exceptions.h"

namespace sealint::rules::sl008 {

// The most specific of the handler's types, as far as an out-of-memory error goes; a bare
// `except:` is broad.
[[nodiscard]] knowledge::MemoryCatch handler_catch(const ir::Module& module,
                                                   const ir::Handler& handler);

// Calls `visit` with the class name of each type the handler catches (`except (A, b.B):` gives
// "A" and "B").
void for_each_caught(const ir::Module& module, const ir::Handler& handler,
                     const std::function<void(std::string_view)>& visit);

// The handler also catches a missing entry (`except (RuntimeError, IndexError):`): a fallback
// for a failed lookup, such as an embedding cache miss, unless it says it is about memory.
[[nodiscard]] bool catches_lookup_error(const ir::Module& module, const ir::Handler& handler);

// "the `except RuntimeError` handler", "the bare `except` handler".
[[nodiscard]] std::string handler_words(const ir::Module& module, const ir::Handler& handler);

// The handler's own body shows it is about memory: it mentions "out of memory" or
// OutOfMemoryError, empties the CUDA cache, or lowers a batch size.
[[nodiscard]] bool handler_mentions_memory(const ir::Module& module, const ir::Handler& handler);

// `traceback.clear_frames(e.__traceback__)`, `e.__traceback__ = None`, `e.with_traceback(None)`:
// the handler drops the failed step's frames itself.
[[nodiscard]] bool handler_clears_frames(const ir::Module& module, const ir::Handler& handler);

// The handler ends by re-raising: it recovers nothing, and the error leaves the frame.
[[nodiscard]] bool ends_in_raise(const ir::Handler& handler);

// The call a statement consists of: `f(x)`, `y = f(x)`, `return f(x)`, `y = await f(x)`.
[[nodiscard]] const ir::Expr* statement_call(const ir::Stmt& stmt);

// The name of a callee whose second call in a handler is a retry: a function (`attempt`,
// `run_model`) or a method of `self`, not a builtin, not bookkeeping (`log_metrics`), and not a
// method of some other object (`x.to("cpu")` after `x.to("cuda")` moves data, it does not retry
// a step). Empty otherwise.
[[nodiscard]] std::string retryable_callee(const ir::Expr& call);

}  // namespace sealint::rules::sl008
