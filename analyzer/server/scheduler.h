#pragma once
// When each document is analysed, off the main thread: the main thread only records what changed
// and goes back to reading messages, so typing never waits for an analysis (Clang takes 0.3 s on a
// small file with sealint's model of LibTorch, 10 s with the real headers).
//
// As clangd's TUScheduler does, a document is analysed by one worker at a time, in version order,
// and only its newest version: a change replaces the version waiting for its debounce to end, and
// the result of an analysis that a newer version (or a close) overtook is dropped, never
// published. The driver cannot be interrupted half-way, so an analysis that is running when its
// document changes runs to its end; its result is discarded.
//
// One worker is always left for Python: C++ analyses take at most `workers - 1` of them, so a
// Python buffer's diagnostics never wait behind Clang.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace sealint::server {

template <class Job, class Outcome>
class Scheduler {
 public:
  using Clock = std::chrono::steady_clock;
  // Runs on a worker with no lock held.
  using Work = std::function<Outcome(const Job&)>;
  // Runs on a worker, in order with `forget`'s callback for the same key: a result is never
  // published after the document that asked for it was closed.
  using Publish = std::function<void(const Job&, Outcome&&)>;

  Scheduler(unsigned workers, Work work, Publish publish)
      : work_(std::move(work)), publish_(std::move(publish)), workers_(std::max(workers, 2U)) {
    for (unsigned i = 0; i < workers_; ++i) threads_.emplace_back([this] { run(); });
  }
  ~Scheduler() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    // The jthreads join here: an analysis that is running finishes first.
  }
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Analyse `job` for `key` (a document's URI) once `delay` has passed with no newer schedule of
  // the same key. `heavy`: a C++ file.
  void schedule(const std::string& key, Job job, bool heavy, std::chrono::milliseconds delay) {
    {
      const std::lock_guard lock(mutex_);
      Entry& entry = entries_[key];
      entry.newest = ++generation_;
      entry.pending = Pending{std::move(job), heavy, Clock::now() + delay, entry.newest};
    }
    changed_.notify_all();
  }

  // The document is closed: nothing waiting for it runs, and what is running for it is dropped.
  // `then` runs under the same lock as publishing, so nothing is published after it.
  void forget(const std::string& key, const std::function<void()>& then) {
    const std::lock_guard lock(mutex_);
    entries_.erase(key);
    then();
  }

 private:
  struct Pending {
    Job job;
    bool heavy = false;
    Clock::time_point due;
    uint64_t generation = 0;
  };
  struct Entry {
    std::optional<Pending> pending;
    uint64_t running = 0;  // the generation a worker analyses; 0: none
    uint64_t newest = 0;   // the generation of the latest schedule
  };

  // The entry whose pending job is due first among those a worker may take now; entries_.end()
  // when none.
  typename std::map<std::string, Entry>::iterator next_ready() {
    auto best = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      const Entry& entry = it->second;
      if (!entry.pending || entry.running != 0) continue;  // one analysis per document at a time
      if (entry.pending->heavy && heavy_running_ + 1 >= workers_) continue;
      if (best == entries_.end() || entry.pending->due < best->second.pending->due) best = it;
    }
    return best;
  }

  void run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      const auto ready = next_ready();
      if (ready == entries_.end()) {
        changed_.wait(lock);
        continue;
      }
      if (ready->second.pending->due > Clock::now()) {
        changed_.wait_until(lock, ready->second.pending->due);
        continue;
      }
      const std::string key = ready->first;
      Pending pending = std::move(*ready->second.pending);
      ready->second.pending.reset();
      ready->second.running = pending.generation;
      if (pending.heavy) ++heavy_running_;
      lock.unlock();
      Outcome outcome = work_(pending.job);
      lock.lock();
      if (pending.heavy) --heavy_running_;
      if (const auto it = entries_.find(key); it != entries_.end()) {
        if (it->second.running == pending.generation) it->second.running = 0;
        if (it->second.newest == pending.generation) publish_(pending.job, std::move(outcome));
      }
      // A newer version of this document may be waiting for this analysis to end.
      changed_.notify_all();
    }
  }

  Work work_;
  Publish publish_;
  const unsigned workers_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, Entry> entries_;
  uint64_t generation_ = 0;
  unsigned heavy_running_ = 0;
  bool stopping_ = false;
  std::vector<std::jthread> threads_;  // last: joined before the members they use are destroyed
};

}  // namespace sealint::server
