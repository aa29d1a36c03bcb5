// The worker threads: their stack size, and the alternate signal stack each ends with.
#include "analyzer/driver/worker_threads.h"

#include <pthread.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <vector>

#include <gtest/gtest.h>

namespace sealint {
namespace {

constexpr size_t kAltStackBytes = size_t{1} << 17;

stack_t current_signal_stack() {
  stack_t now{};
  EXPECT_EQ(sigaltstack(nullptr, &now), 0);
  return now;
}

// What LLVM does when it registers its crash handlers: a stack from malloc, kept by the caller.
void* install_malloced_signal_stack() {
  void* memory = std::malloc(kAltStackBytes);
  stack_t stack{};
  stack.ss_sp = memory;
  stack.ss_size = kAltStackBytes;
  EXPECT_EQ(sigaltstack(&stack, nullptr), 0);
  return memory;
}

TEST(WorkerThreadsTest, RunsTheWorkOnEveryThreadWithTheStackAskedFor) {
  constexpr size_t kAsked = size_t{64} << 20;
  std::atomic<int> runs = 0;
  std::atomic<int> large = 0;
  run_on_worker_threads(3, kAsked, [&] {
    ++runs;
    pthread_attr_t attr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstacksize(&attr, &size);
      pthread_attr_destroy(&attr);
    }
    if (size >= kAsked) ++large;
  });
  EXPECT_EQ(runs, 3);
  EXPECT_EQ(large, 3);
}

TEST(WorkerThreadsTest, RunsTheWorkOnceWhenAskedForNoThreads) {
  std::atomic<int> runs = 0;
  run_on_worker_threads(0, kWorkerStackBytes, [&] { ++runs; });
  EXPECT_EQ(runs, 1);
}

TEST(KeepsSignalStackTest, PutsBackTheStackTheThreadHadBefore) {
  const stack_t before = current_signal_stack();
  void* memory = nullptr;
  {
    const KeepsSignalStack keeps;
    memory = install_malloced_signal_stack();
    EXPECT_EQ(current_signal_stack().ss_sp, memory);
  }
  const stack_t after = current_signal_stack();
  EXPECT_EQ(after.ss_sp, before.ss_sp);
  EXPECT_EQ(after.ss_size, before.ss_size);
  EXPECT_EQ(after.ss_flags, before.ss_flags);
  std::free(memory);
}

// Under the sanitizers, a worker that ended with a signal stack from malloc killed the process
// (the runtime unmaps a thread's alternate stack when it ends): the PCH tests failed so in CI.
TEST(WorkerThreadsTest, AWorkerThatGotAMallocedSignalStackEndsCleanly) {
  std::mutex mutex;
  std::vector<void*> stacks;
  run_on_worker_threads(2, kWorkerStackBytes, [&] {
    void* memory = install_malloced_signal_stack();
    const std::lock_guard lock(mutex);
    stacks.push_back(memory);
  });
  EXPECT_EQ(stacks.size(), 2U);
  for (void* memory : stacks) std::free(memory);
}

}  // namespace
}  // namespace sealint
