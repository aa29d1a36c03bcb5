#include "analyzer/server/scheduler.h"

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace sealint::server {
namespace {

using namespace std::chrono_literals;

// What the workers did, with a way to wait for it. The waits' limit is a safety net for a broken
// scheduler, never a timing assertion: every test waits for an event that must happen.
class Log {
 public:
  void add(std::string entry) {
    const std::lock_guard lock(mutex_);
    entries_.push_back(std::move(entry));
    changed_.notify_all();
  }
  std::vector<std::string> wait_for(size_t count) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, 60s, [&] { return entries_.size() >= count; });
    return entries_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> entries_;
};

// Jobs named "blocked..." wait for `release` before they finish. `stop()` joins the workers, so
// that what they published can be checked whole.
struct Harness {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  Log started;
  Log published;
  std::optional<Scheduler<std::string, std::string>> scheduler{
      std::in_place, 2,
      [this](const std::string& job) {
        started.add(job);
        if (job.starts_with("blocked")) released.wait();
        return job;
      },
      [this](const std::string& job, std::string&&) { published.add(job); }};

  std::vector<std::string> stop() {
    scheduler.reset();
    return published.wait_for(0);
  }
};

TEST(SchedulerTest, RunsAPythonAnalysisWhileACppOneRuns) {
  Harness h;
  h.scheduler->schedule("a.cpp", "blocked cpp", true, 0ms);
  h.started.wait_for(1);
  h.scheduler->schedule("b.py", "py", false, 0ms);
  EXPECT_EQ(h.published.wait_for(1), std::vector<std::string>{"py"});
  h.release.set_value();
  EXPECT_EQ(h.published.wait_for(2), (std::vector<std::string>{"py", "blocked cpp"}));
}

TEST(SchedulerTest, LeavesAWorkerForPythonWhenCppFilesWait) {
  Harness h;
  h.scheduler->schedule("a.cpp", "blocked a", true, 0ms);
  h.started.wait_for(1);
  h.scheduler->schedule("b.cpp", "b", true, 0ms);
  h.scheduler->schedule("c.py", "c", false, 0ms);
  // b.cpp waits for a.cpp although a worker is free: that worker is Python's.
  EXPECT_EQ(h.published.wait_for(1), std::vector<std::string>{"c"});
  h.release.set_value();
  EXPECT_EQ(h.published.wait_for(3), (std::vector<std::string>{"c", "blocked a", "b"}));
}

TEST(SchedulerTest, DropsTheResultOfAnAnalysisANewerVersionOvertook) {
  Harness h;
  h.scheduler->schedule("a.py", "blocked v1", false, 0ms);
  h.started.wait_for(1);
  h.scheduler->schedule("a.py", "v2", false, 0ms);
  h.release.set_value();
  // v2 runs once v1 has ended: one analysis per document at a time.
  EXPECT_EQ(h.published.wait_for(1), std::vector<std::string>{"v2"});
  EXPECT_EQ(h.stop(), std::vector<std::string>{"v2"});
  EXPECT_EQ(h.started.wait_for(2), (std::vector<std::string>{"blocked v1", "v2"}));
}

TEST(SchedulerTest, ReplacesAVersionWaitingForItsDebounce) {
  Harness h;
  h.scheduler->schedule("a.py", "v1", false, 1h);
  h.scheduler->schedule("a.py", "v2", false, 0ms);
  EXPECT_EQ(h.published.wait_for(1), std::vector<std::string>{"v2"});
  EXPECT_EQ(h.stop(), std::vector<std::string>{"v2"});
  EXPECT_EQ(h.started.wait_for(1), std::vector<std::string>{"v2"});
}

TEST(SchedulerTest, PublishesNothingForADocumentClosedDuringItsAnalysis) {
  Harness h;
  h.scheduler->schedule("a.py", "blocked v1", false, 0ms);
  h.started.wait_for(1);
  h.scheduler->forget("a.py", [&] { h.published.add("cleared"); });
  h.release.set_value();
  EXPECT_EQ(h.stop(), std::vector<std::string>{"cleared"});
}

TEST(SchedulerTest, StopsWithoutRunningWhatWaitsForItsDebounce) {
  Harness h;
  h.scheduler->schedule("a.py", "v1", false, 1h);
  EXPECT_EQ(h.stop(), std::vector<std::string>{});
  EXPECT_EQ(h.started.wait_for(0), std::vector<std::string>{});
}

}  // namespace
}  // namespace sealint::server
