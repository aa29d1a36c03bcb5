#include "analyzer/cache/result_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/unit/scratch_folder.h"

namespace sealint::cache {
namespace {

namespace fs = std::filesystem;

const Identity kIdentity{"0.1.0", "gnu:test-build"};
constexpr Secret kSecret = {7, 7, 7};

class ResultCacheTest : public testing::ScratchFolder {
 protected:
  [[nodiscard]] fs::path folder() const { return root() / ".sealint_cache"; }

  std::unique_ptr<ResultCache> open(Identity identity = kIdentity,
                                    uint64_t max_bytes = kDefaultMaxBytes,
                                    const Result<Secret>& secret = kSecret) const {
    auto cache = ResultCache::open(folder(), std::move(identity), secret, {false, max_bytes});
    EXPECT_TRUE(cache.has_value()) << cache.error();
    return cache ? std::move(*cache) : nullptr;
  }

  [[nodiscard]] EntryKey key(std::string name = "train.py") const {
    return {name, name, (root() / name).string(), 0x1234, 300, 99, true};
  }

  static FileOutcome outcome(std::string message = "`loss` is added to `total`") {
    Diagnostic d;
    d.rule_id = "SL001";
    d.rule_name = "grad-accumulation";
    d.path = "train.py";
    d.span = {{10, 9, 9, 200, 0}, {10, 22, 22, 213, 0}};
    d.message = std::move(message);
    d.fix = Fix{"add a number", false, {{{200, 213}, d.span, "total += loss.item()"}}};
    return {{d}, {{"train.py", Position{}, "a warning", true}}, {}, {}};
  }

  [[nodiscard]] fs::path entry_path(const EntryKey& k) const {
    return folder() / "results" / entry_name(k);
  }

  [[nodiscard]] size_t temporary_files() const {
    size_t count = 0;
    for (const auto& item : fs::directory_iterator(folder() / "results"))
      count += item.path().filename().string().starts_with(".tmp-") ? 1U : 0U;
    return count;
  }
};

TEST_F(ResultCacheTest, MakesATaggedFolderThatGitIgnores) {
  const auto cache = open();
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(read(folder() / "CACHEDIR.TAG"), kCacheDirTag);
  EXPECT_EQ(read(folder() / ".gitignore"), kGitignore);
  EXPECT_TRUE(fs::is_directory(folder() / "results"));
  EXPECT_TRUE(is_cache_folder(folder()));
  EXPECT_FALSE(cache->warning().has_value());
}

TEST_F(ResultCacheTest, FindsWhatItStored) {
  const auto cache = open();
  EXPECT_FALSE(cache->lookup(key()).has_value());
  cache->store(key(), outcome());
  const std::optional<FileOutcome> found = cache->lookup(key());
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(*found, outcome());
  EXPECT_EQ(cache->hits(), 1U);
  EXPECT_EQ(cache->stores(), 1U);
  // Another run (another process) finds it too.
  EXPECT_EQ(open()->lookup(key()), outcome());
}

TEST_F(ResultCacheTest, MissesWhenAnyPartOfTheKeyDiffers) {
  const auto cache = open();
  cache->store(key(), outcome());
  std::vector<EntryKey> others(7, key());
  others[0].path = "./train.py";
  others[1].shown = "proj/train.py";
  others[2].absolute = "/elsewhere/train.py";
  others[3].digest += 1;
  others[4].size += 1;
  others[5].config += 1;
  others[6].project_scope = false;
  for (const EntryKey& other : others) EXPECT_FALSE(cache->lookup(other).has_value());
  EXPECT_TRUE(cache->lookup(key()).has_value());
}

TEST_F(ResultCacheTest, MissesForAnotherVersionOrBuild) {
  open()->store(key(), outcome());
  EXPECT_FALSE(open({"0.1.0", "gnu:rebuilt"})->lookup(key()).has_value());
  EXPECT_FALSE(open({"0.2.0", kIdentity.build})->lookup(key()).has_value());
  EXPECT_TRUE(open()->lookup(key()).has_value());
}

TEST_F(ResultCacheTest, MissesWhenAFileItsAnalysisReadChanges) {
  const fs::path helper = write("helpers.py", "def f(x):\n    return x\n");
  FileOutcome stored = outcome();
  stored.dependencies.files[helper.string()] = project::indexed_digest(helper);
  open()->store(key(), stored);
  EXPECT_EQ(open()->lookup(key()), stored);
  write("helpers.py", "def f(x):\n    return x.item()\n");
  EXPECT_FALSE(open()->lookup(key()).has_value());
  fs::remove(helper);
  EXPECT_FALSE(open()->lookup(key()).has_value());
}

TEST_F(ResultCacheTest, MissesWhenAnImportFindsAnotherFile) {
  const fs::path importer = write("train.py", "from helpers import f\n");
  FileOutcome stored = outcome();
  // When it was analysed, no file of the project defined `helpers.f`.
  stored.dependencies.lookups.insert({importer.string(), "helpers.f", "", ""});
  open()->store(key(), stored);
  EXPECT_TRUE(open()->lookup(key()).has_value());
  write("helpers.py", "def f(x):\n    return x\n");
  EXPECT_FALSE(open()->lookup(key()).has_value());
}

TEST_F(ResultCacheTest, IgnoresACorruptEntryAndRewritesIt) {
  const auto cache = open();
  cache->store(key(), outcome());
  const std::string whole = read(entry_path(key()));
  for (const std::string& damaged : {whole.substr(0, whole.size() / 2), std::string("garbage"),
                                     std::string(), whole + "trailing"}) {
    write(entry_path(key()).lexically_relative(root()), damaged);
    EXPECT_FALSE(cache->lookup(key()).has_value());
    cache->store(key(), outcome());
    EXPECT_EQ(cache->lookup(key()), outcome());
  }
}

// An entry some other user could have written (a shared cache folder) is never trusted.
TEST_F(ResultCacheTest, IgnoresAnEntryAnotherUserCouldHaveWritten) {
  const auto cache = open();
  cache->store(key(), outcome());
  fs::permissions(entry_path(key()), fs::perms::group_write, fs::perm_options::add);
  EXPECT_FALSE(cache->lookup(key()).has_value());
  cache->store(key(), outcome());  // rewritten with its own mode
  EXPECT_TRUE(cache->lookup(key()).has_value());
  if (::geteuid() == 0) {
    ASSERT_EQ(::chown(entry_path(key()).c_str(), 65534, 65534), 0);
    EXPECT_FALSE(cache->lookup(key()).has_value());
  }
}

TEST_F(ResultCacheTest, NeverFollowsALinkPlantedAtAnEntry) {
  const auto cache = open();
  const fs::path victim = write("victim.txt", "keep me\n");
  fs::create_symlink(victim, entry_path(key()));
  EXPECT_FALSE(cache->lookup(key()).has_value());
  cache->store(key(), outcome());
  EXPECT_EQ(read(victim), "keep me\n");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(entry_path(key()))));
  EXPECT_TRUE(cache->lookup(key()).has_value());
}

// A repository can ship `.sealint_cache` as a link to a folder of the user's.
TEST_F(ResultCacheTest, RefusesADefaultFolderThatIsALink) {
  fs::create_directory(root() / "home");
  fs::create_directory_symlink(root() / "home", folder());
  auto cache = ResultCache::open(folder(), kIdentity, kSecret, {false, kDefaultMaxBytes});
  ASSERT_FALSE(cache.has_value());
  EXPECT_EQ(cache.error(), fmt::format("'{}' is a link, not a folder", folder().string()));
  EXPECT_TRUE(fs::is_empty(root() / "home"));
  // A link the user names (--cache-dir) is theirs to follow.
  EXPECT_TRUE(
      ResultCache::open(folder(), kIdentity, kSecret, {true, kDefaultMaxBytes}).has_value());
  EXPECT_TRUE(fs::exists(root() / "home/CACHEDIR.TAG"));
}

TEST_F(ResultCacheTest, NeverFollowsALinkPlantedInTheFolder) {
  write(".sealint_cache/CACHEDIR.TAG", kCacheDirTag);
  const fs::path victim = write("victim.txt", "keep me\n");
  fs::create_symlink(victim, folder() / ".gitignore");
  fs::create_directory(root() / "elsewhere");
  fs::create_directory_symlink(root() / "elsewhere", folder() / "results");
  auto cache = ResultCache::open(folder(), kIdentity, kSecret, {false, kDefaultMaxBytes});
  EXPECT_FALSE(cache.has_value());  // results/ is a link
  EXPECT_EQ(read(victim), "keep me\n");
  EXPECT_TRUE(fs::is_empty(root() / "elsewhere"));
  // A tag that is a link is no tag: the folder holds something else, and is refused.
  fs::remove(folder() / "results");
  fs::remove(folder() / "CACHEDIR.TAG");
  const fs::path tag = write("tag", kCacheDirTag);
  fs::create_symlink(tag, folder() / "CACHEDIR.TAG");
  EXPECT_FALSE(is_cache_folder(folder()));
  EXPECT_FALSE(
      ResultCache::open(folder(), kIdentity, kSecret, {false, kDefaultMaxBytes}).has_value());
}

// `--cache-dir .` must not put a .gitignore of `*` in a project.
TEST_F(ResultCacheTest, RefusesAFolderHoldingOtherFilesAndAdoptsAPchCache) {
  write(".sealint_cache/notes.txt", "mine\n");
  auto refused = ResultCache::open(folder(), kIdentity, kSecret, {true, kDefaultMaxBytes});
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().find("is not a sealint cache folder"), std::string::npos);
  EXPECT_FALSE(fs::exists(folder() / ".gitignore"));
  EXPECT_FALSE(fs::exists(folder() / "results"));
  fs::remove(folder() / "notes.txt");
  write(".sealint_cache/pch/torch.pch", "pch");  // made before the result cache existed
  EXPECT_NE(open(), nullptr);
  EXPECT_TRUE(is_cache_folder(folder()));
}

// A write that fails (here: results/ removed under the run) is kept for one warning, and the
// run stops writing.
TEST_F(ResultCacheTest, AFailedWriteIsOneWarningAndTheLastWrite) {
  const auto cache = open();
  fs::remove_all(folder() / "results");
  cache->store(key(), outcome());
  cache->store(key("other.py"), outcome());
  EXPECT_EQ(cache->stores(), 0U);
  EXPECT_EQ(cache->warning(), fmt::format("cannot write in '{}': No such file or directory",
                                          (folder() / "results").string()));
  EXPECT_FALSE(cache->lookup(key()).has_value());
  EXPECT_EQ(cache->evict(), 0U);
}

TEST_F(ResultCacheTest, KeepsWholeEntriesUnderConcurrentWriters) {
  const FileOutcome first = outcome("first");
  const FileOutcome second = outcome(std::string(5000, 's'));
  std::atomic<bool> torn{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      // One cache per thread, as separate processes have, all opening the folder at once.
      const auto cache = open();
      if (cache == nullptr) return;  // open() failed the test already
      for (int i = 0; i < 150; ++i) {
        if (t % 3 == 2) {
          const auto found = cache->lookup(key());
          if (found && *found != first && *found != second) torn = true;
        } else {
          cache->store(key(), (i + t) % 2 == 0 ? first : second);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_FALSE(torn);
  const auto found = open()->lookup(key());
  ASSERT_TRUE(found.has_value());
  EXPECT_TRUE(*found == first || *found == second);
  EXPECT_EQ(temporary_files(), 0U);
}

TEST_F(ResultCacheTest, EvictsTheLeastRecentlyUsedPastTheBound) {
  constexpr uint64_t kBound = 8 * 1024;
  const auto cache = open(kIdentity, kBound);
  std::vector<EntryKey> keys;
  for (int i = 0; i < 40; ++i) {
    keys.push_back(key("file" + std::to_string(i) + ".py"));
    cache->store(keys.back(), outcome());
  }
  // file0 was used longest ago, file39 last.
  const auto now = fs::file_time_type::clock::now();
  for (size_t i = 0; i < keys.size(); ++i)
    fs::last_write_time(entry_path(keys[i]), now - std::chrono::hours(keys.size() - i));
  EXPECT_GT(cache->evict(), 0U);
  // The bound is on the disk the entries take (issue 41: it counted their lengths, and an entry
  // of a few hundred bytes fills a 4 KiB block).
  uint64_t on_disk = 0;
  for (const auto& item : fs::directory_iterator(folder() / "results")) {
    struct stat info {};
    ASSERT_EQ(::stat(item.path().c_str(), &info), 0);
    on_disk +=
        std::max(static_cast<uint64_t>(info.st_size), static_cast<uint64_t>(info.st_blocks) * 512);
  }
  EXPECT_LE(on_disk, kBound / 4 * 3);
  EXPECT_FALSE(fs::exists(entry_path(keys.front())));
  EXPECT_TRUE(fs::exists(entry_path(keys.back())));
  // Nothing stored, nothing evicted: a warm run does not list the folder.
  EXPECT_EQ(open(kIdentity, 1)->evict(), 0U);
}

TEST_F(ResultCacheTest, RemovesTemporaryFilesAKilledRunLeft) {
  const auto cache = open();
  const fs::path old = write(".sealint_cache/results/.tmp-1-dead", "half");
  const fs::path fresh = write(".sealint_cache/results/.tmp-2-busy", "half");
  fs::last_write_time(old, fs::file_time_type::clock::now() - std::chrono::hours(2));
  cache->store(key(), outcome());
  cache->evict();
  EXPECT_FALSE(fs::exists(old));
  EXPECT_TRUE(fs::exists(fresh));  // another run may be writing it now
}

TEST_F(ResultCacheTest, CleanRemovesOnlyATaggedFolder) {
  EXPECT_EQ(remove_cache_folder(folder()).value(), false);  // nothing there
  ASSERT_NE(open(), nullptr);
  open()->store(key(), outcome());
  fs::create_directory_symlink(folder(), root() / "link");
  EXPECT_FALSE(remove_cache_folder(root() / "link").has_value());
  EXPECT_TRUE(fs::exists(folder() / "results" / entry_name(key())));
  EXPECT_EQ(remove_cache_folder(folder()).value(), true);
  EXPECT_FALSE(fs::exists(folder()));
  write("mine/notes.txt", "keep\n");
  EXPECT_FALSE(remove_cache_folder(root() / "mine").has_value());
  EXPECT_TRUE(fs::exists(root() / "mine/notes.txt"));
}

TEST(ConfigFingerprintTest, ChangesWithEverySettingThatChangesAResult) {
  const Config base;
  EXPECT_EQ(config_fingerprint(nullptr), 0U);
  EXPECT_EQ(config_fingerprint(&base), config_fingerprint(&base));
  std::vector<Config> changed(5, base);
  changed[0].select = {"SL001"};
  changed[1].min_severity = Severity::Error;
  changed[2].rule_options["SL003"]["budget-gib"] = "1";
  changed[3].per_file_ignores = {{"tests/*", {"SL004"}}};
  changed[4].root = "/elsewhere";  // per-file-ignores and test paths are relative to it
  for (const Config& config : changed)
    EXPECT_NE(config_fingerprint(&config), config_fingerprint(&base));
}

// Issue 41: a `.sealint_cache` a repository commits holds entries sealed with another secret (its
// author's), saying its files have no findings. They are misses, and the run writes its own.
TEST_F(ResultCacheTest, AnEntrySealedWithAnotherSecretIsAMissAndIsReplaced) {
  constexpr Secret kTheirs = {6, 6, 6};
  open(kIdentity, kDefaultMaxBytes, kTheirs)->store(key(), FileOutcome{});
  const std::string forged = read(entry_path(key()));
  const auto cache = open();
  EXPECT_FALSE(cache->lookup(key()).has_value());
  cache->store(key(), outcome());
  EXPECT_NE(read(entry_path(key())), forged);
  EXPECT_EQ(cache->lookup(key()), outcome());
}

TEST_F(ResultCacheTest, WithoutASecretNothingIsReadOrWrittenAndAWarningSaysWhy) {
  open()->store(key(), outcome());
  const auto cache = open(kIdentity, kDefaultMaxBytes, make_error("no folder for the cache key"));
  EXPECT_FALSE(cache->lookup(key()).has_value());
  cache->store(key("other.py"), outcome());
  EXPECT_FALSE(fs::exists(entry_path(key("other.py"))));
  EXPECT_EQ(cache->warning(), "no folder for the cache key");
}

}  // namespace
}  // namespace sealint::cache
