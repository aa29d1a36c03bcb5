#pragma once
// The driver's worker threads, each with a large stack. The analysis walks the IR recursively,
// and some nesting is not bounded by the parser's depth limit: an `elif` chain of 32,000
// branches is 32,000 nested `if`s to the walkers, which overflowed the default 8 MiB stack
// (SIGSEGV). Only the pages a walk touches are committed.
#include <cstddef>
#include <functional>

namespace sealint {

// Enough for the deepest chain a file within the input size bound can hold.
inline constexpr size_t kWorkerStackBytes = size_t{1} << 30;

// Runs `work` on `count` threads (at least one) with stacks of `stack_bytes`, and returns when
// all have finished. Falls back to the default stack size when the system refuses the larger one.
void run_on_worker_threads(unsigned count, size_t stack_bytes, const std::function<void()>& work);

}  // namespace sealint
