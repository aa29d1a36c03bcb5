#include "analyzer/driver/worker_threads.h"

#include <pthread.h>

#include <vector>

namespace sealint {

namespace {

void* run_work(void* work) {
  const KeepsSignalStack keeps;
  (*static_cast<const std::function<void()>*>(work))();
  return nullptr;
}

}  // namespace

KeepsSignalStack::KeepsSignalStack() : known_(sigaltstack(nullptr, &own_) == 0) {}

KeepsSignalStack::~KeepsSignalStack() {
  if (!known_) return;
  stack_t now{};
  if (sigaltstack(nullptr, &now) != 0 || (now.ss_flags & SS_ONSTACK) != 0) return;
  if (now.ss_sp == own_.ss_sp && now.ss_size == own_.ss_size && now.ss_flags == own_.ss_flags) {
    return;
  }
  sigaltstack(&own_, nullptr);
}

void run_on_worker_threads(unsigned count, size_t stack_bytes, const std::function<void()>& work) {
  if (count == 0) count = 1;
  pthread_attr_t attr;
  const bool sized = pthread_attr_init(&attr) == 0;
  const bool big = sized && pthread_attr_setstacksize(&attr, stack_bytes) == 0;
  std::vector<pthread_t> threads;
  void* argument = const_cast<std::function<void()>*>(&work);
  for (unsigned i = 0; i < count; ++i) {
    pthread_t thread;
    if ((big && pthread_create(&thread, &attr, run_work, argument) == 0) ||
        pthread_create(&thread, nullptr, run_work, argument) == 0) {
      threads.push_back(thread);
    }
  }
  if (sized) pthread_attr_destroy(&attr);
  // No thread could start at all: do the work here rather than not at all.
  if (threads.empty()) work();
  for (pthread_t thread : threads) pthread_join(thread, nullptr);
}

}  // namespace sealint
