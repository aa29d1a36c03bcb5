#pragma once
// The driver's worker threads, each with a large stack (the language server's analyses run on
// them too). The analysis walks the IR recursively, and some nesting is not bounded by the
// parser's depth limit: an `elif` chain of 32,000 branches is 32,000 nested `if`s to the walkers,
// which overflowed the default 8 MiB stack (SIGSEGV). Only the pages a walk touches are committed.
#include <csignal>
#include <cstddef>
#include <functional>

namespace sealint {

// Enough for the deepest chain a file within the input size bound can hold.
inline constexpr size_t kWorkerStackBytes = size_t{1} << 30;

// Runs `work` on `count` threads (at least one) with stacks of `stack_bytes`, and returns when
// all have finished. Falls back to the default stack size when the system refuses the larger one.
// Each thread ends with the alternate signal stack it started with (see KeepsSignalStack).
void run_on_worker_threads(unsigned count, size_t stack_bytes, const std::function<void()>& work);

// Puts the calling thread's alternate signal stack back as it was when constructed. LLVM installs
// one of its own (from malloc, kept reachable by a static) on the first thread that registers its
// crash handlers, which writing a PCH does; the sanitizer runtime unmaps whatever alternate stack
// a thread has when the thread ends, and dies on LLVM's (munmap: EINVAL).
class KeepsSignalStack {
 public:
  KeepsSignalStack();
  ~KeepsSignalStack();
  KeepsSignalStack(const KeepsSignalStack&) = delete;
  KeepsSignalStack& operator=(const KeepsSignalStack&) = delete;

 private:
  stack_t own_{};
  bool known_ = false;
};

}  // namespace sealint
