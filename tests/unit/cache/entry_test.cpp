#include "analyzer/cache/entry.h"

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "analyzer/cache/hmac.h"
#include "analyzer/core/fixes.h"
#include "analyzer/driver/driver.h"
#include "analyzer/notebook/notebook.h"

namespace sealint::cache {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// Every field set, none at its default: a codec that forgets one fails the round trip.
Entry sample_entry() {
  Entry entry;
  entry.identity = {"0.1.0", "gnu:0123abcd"};
  entry.key = {"./nb.ipynb", "nb.ipynb", "/home/me/proj/nb.ipynb", 0xfedcba9876543210ULL, 4096,
               42,           false};
  Diagnostic d;
  d.rule_id = "SL001";
  d.rule_name = "grad-accumulation";
  d.severity = Severity::Warning;
  d.path = "nb.ipynb";
  d.span = {{3, 9, 8, 120, 4}, {3, 22, 21, 133, 4}};
  d.message = "`loss` is added to `total` \xe2\x80\x94 caf\xc3\xa9";
  d.help = "add a number instead";
  d.related = {{{{1, 5, 5, 10, 2}, {1, 10, 10, 15, 2}}, "`total` is created here"}};
  d.fix = Fix{"use `.item()`",
              true,
              {{{120, 133}, {{3, 9, 8, 120, 4}, {3, 22, 21, 133, 4}}, "total += loss.item()"},
               {{0, 0}, {{1, 1, 1, 0, 1}, {1, 1, 1, 0, 1}}, ""}}};
  d.suppressed = true;
  ProbeHint probe;
  probe.measure = ProbeMeasure::Graph;
  probe.loop_line = 7;
  probe.loop_end_line = 12;
  probe.variables = {"total", "self.meter.sum"};
  probe.region = ProbeRegion::Calls;
  probe.function = "training_step";
  probe.length_of = "loader";
  probe.count_of = "steps";
  probe.count = 1ULL << 40;
  probe.loop_repeats = false;
  d.probe = probe;
  entry.outcome.diagnostics = {d, Diagnostic{}};
  entry.outcome.errors = {{"nb.ipynb", Position{2, 3, 3, 40, 1}, "syntax error", false},
                          {"nb.ipynb", std::nullopt, "not Python", true}};
  entry.outcome.dependencies.lookups = {{"/p/train.py", ".helpers.f", "/p/helpers.py", "f"},
                                        {"/p/train.py", "missing.g", "", ""}};
  entry.outcome.dependencies.files = {{"/p/helpers.py", 77}, {"/p/big.py", std::nullopt}};
  entry.outcome.left_out_tests = {{"nb.ipynb", "test_converges", 5, {"SL001", "SL002", "SL001"}}};
  return entry;
}

// The user's secret in these tests, and another user's.
constexpr Secret kSecret = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                            17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
constexpr Secret kOtherSecret = {9};

// The entry file for a CBOR `payload` with a correct magic and seal: what only a deliberate
// writer holding the secret makes, so that decoding has to judge the content itself.
std::string wrapped(const std::vector<uint8_t>& payload, const Secret& secret = kSecret) {
  const std::string_view body(reinterpret_cast<const char*>(payload.data()), payload.size());
  std::string out(kEntryMagic);
  const Digest seal = hmac_sha256(secret, body);
  out.append(reinterpret_cast<const char*>(seal.data()), seal.size());
  return out.append(body);
}

// The sample entry's document, to damage one field at a time.
Json sample_document() {
  const std::string bytes = encode_entry(sample_entry(), kSecret);
  return Json::from_cbor(bytes.substr(kEntryMagic.size() + sizeof(Digest)));
}

TEST(EntryTest, RoundTripsEveryField) {
  const Entry entry = sample_entry();
  const std::optional<Entry> decoded = decode_entry(encode_entry(entry, kSecret), kSecret);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(*decoded, entry);
}

TEST(EntryTest, NamesAnEntryByTheFilesPathsOnly) {
  EntryKey key = sample_entry().key;
  const std::string name = entry_name(key);
  EXPECT_EQ(name.size(), 16U);
  key.digest += 1;  // a new version of the file replaces its entry
  EXPECT_EQ(entry_name(key), name);
  key.shown = "sub/nb.ipynb";  // seen from another working directory: another entry
  EXPECT_NE(entry_name(key), name);
}

// Every diagnostic and input error the rules make of the fixtures and example notebooks comes
// back equal: no field a rule sets is lost.
TEST(EntryTest, RoundTripsTheResultsOfEveryFixture) {
  auto grammar = python::PythonGrammar::load();
  ASSERT_TRUE(grammar.has_value());
  const rules::RuleRegistry registry;
  const Driver driver(registry, *grammar);
  std::vector<FileInput> inputs;
  const fs::path source(SEALINT_SOURCE_DIR);
  for (const fs::path& folder : {source / "fixtures/python", source / "examples"}) {
    for (const auto& item : fs::recursive_directory_iterator(folder)) {
      const fs::path& path = item.path();
      if (path.extension() == ".py" || notebook::is_notebook_path(path.string()))
        inputs.push_back({path.string(), std::nullopt});
    }
  }
  ASSERT_GT(inputs.size(), 50U);
  DriverOptions options;
  options.jobs = 1;
  const RunResult result = driver.run(inputs, options);
  ASSERT_GT(result.diagnostics.size(), 100U);
  Entry entry = sample_entry();
  ASSERT_FALSE(result.left_out_tests.empty());  // fixtures/python/tests/, unittest_classes.py
  entry.outcome = {result.diagnostics, result.errors, {}, result.left_out_tests};
  const std::optional<Entry> decoded = decode_entry(encode_entry(entry, kSecret), kSecret);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->outcome.diagnostics, result.diagnostics);
  EXPECT_EQ(decoded->outcome.errors, result.errors);
  EXPECT_EQ(decoded->outcome.left_out_tests, result.left_out_tests);
}

TEST(EntryTest, RejectsEveryTruncation) {
  const std::string bytes = encode_entry(sample_entry(), kSecret);
  for (size_t size = 0; size < bytes.size(); ++size)
    EXPECT_FALSE(decode_entry(bytes.substr(0, size), kSecret).has_value()) << "cut at " << size;
}

TEST(EntryTest, RejectsEveryFlippedBit) {
  const std::string bytes = encode_entry(sample_entry(), kSecret);
  for (size_t at = 0; at < bytes.size(); ++at) {
    for (int bit = 0; bit < 8; bit += 3) {
      std::string damaged = bytes;
      damaged[at] = static_cast<char>(damaged[at] ^ (1 << bit));
      EXPECT_FALSE(decode_entry(damaged, kSecret).has_value()) << "byte " << at << " bit " << bit;
    }
  }
}

TEST(EntryTest, RejectsForeignFiles) {
  EXPECT_FALSE(decode_entry("", kSecret).has_value());
  EXPECT_FALSE(decode_entry("{\"version\": \"0.1.0\"}", kSecret).has_value());
  EXPECT_FALSE(decode_entry(std::string("SQLite format 3\0", 16), kSecret).has_value());
  EXPECT_FALSE(decode_entry(kEntryMagic, kSecret).has_value());
  std::string other_format = encode_entry(sample_entry(), kSecret);
  other_format[kEntryMagic.size() - 1] = '\x04';  // a later format's entry
  EXPECT_FALSE(decode_entry(other_format, kSecret).has_value());
}

// Issue 41: a repository that commits `.sealint_cache` with entries saying its files have no
// findings. Whoever wrote them, with the old public checksum or a secret of their own, cannot
// seal them with this user's secret.
TEST(EntryTest, RejectsAForgedEntrySealedWithoutTheUsersSecret) {
  Entry forged = sample_entry();
  forged.outcome = {};  // "no findings"
  EXPECT_TRUE(decode_entry(encode_entry(forged, kSecret), kSecret).has_value());
  EXPECT_FALSE(decode_entry(encode_entry(forged, kOtherSecret), kSecret).has_value());
  const std::vector<uint8_t> payload = Json::to_cbor(sample_document());
  EXPECT_FALSE(decode_entry(wrapped(payload, kOtherSecret), kSecret).has_value());
  // The format before the seal: magic, then the payload's unkeyed FNV-1a digest.
  const std::string_view body(reinterpret_cast<const char*>(payload.data()), payload.size());
  std::string unkeyed(kEntryMagic);
  const uint64_t digest = content_digest(body);
  for (int i = 0; i < 8; ++i) unkeyed += static_cast<char>((digest >> (8 * i)) & 0xFFU);
  unkeyed.append(body);
  EXPECT_FALSE(decode_entry(unkeyed, kSecret).has_value());
}

// Entries with a valid seal whose content encode_entry could not have written.
TEST(EntryTest, RejectsWellFormedEntriesOfAnotherShape) {
  EXPECT_TRUE(decode_entry(wrapped(Json::to_cbor(sample_document())), kSecret).has_value());
  const auto rejected = [](const Json& document) {
    return !decode_entry(wrapped(Json::to_cbor(document)), kSecret).has_value();
  };
  EXPECT_TRUE(rejected(Json::array()));
  EXPECT_TRUE(rejected(Json(7)));
  Json document = sample_document();
  document.erase("key");
  EXPECT_TRUE(rejected(document));
  document = sample_document();
  document["diagnostics"][0]["severity"] = 3;  // past Severity::Error
  EXPECT_TRUE(rejected(document));
  document = sample_document();
  document["diagnostics"][0]["severity"] = -1;
  EXPECT_TRUE(rejected(document));
  document = sample_document();
  document["diagnostics"][0]["probe"]["measure"] = 2;
  EXPECT_TRUE(rejected(document));
  document = sample_document();
  document["diagnostics"][0]["span"][0][0] = 1ULL << 32;  // a line past uint32_t
  EXPECT_TRUE(rejected(document));
  document = sample_document();
  document["diagnostics"][0]["span"][0] = Json::array({1, 2, 3});
  EXPECT_TRUE(rejected(document));
  document = sample_document();
  document["diagnostics"][0]["fix"]["edits"][0]["range"] = Json::array({9, 3});  // begin > end
  EXPECT_TRUE(rejected(document));
  document = sample_document();
  document["diagnostics"][0]["message"] = 5;
  EXPECT_TRUE(rejected(document));
  document = sample_document();
  document["errors"][0]["warning"] = "no";
  EXPECT_TRUE(rejected(document));
  document = sample_document();
  document["dependencies"]["files"][0] = Json::array({"/p/a.py", "digest"});
  EXPECT_TRUE(rejected(document));
  document = sample_document();
  document["key"]["digest"] = 1.5;
  EXPECT_TRUE(rejected(document));
}

// A million nested arrays and maps: nlohmann's CBOR reader recurses per level, so the parse
// must stop at a bound long before the stack does.
TEST(EntryTest, RejectsDeepNestingWithoutRecursingIntoIt) {
  constexpr size_t kDepth = 1'000'000;
  std::vector<uint8_t> arrays(kDepth, 0x81);  // an array of one element, a million times
  arrays.push_back(0x00);
  EXPECT_FALSE(decode_entry(wrapped(arrays), kSecret).has_value());
  std::vector<uint8_t> maps;
  for (size_t i = 0; i < kDepth; ++i) {
    maps.push_back(0xA1);  // a map of one pair
    maps.push_back(0x61);  // whose key is a one-byte string
    maps.push_back('k');
  }
  maps.push_back(0x00);
  EXPECT_FALSE(decode_entry(wrapped(maps), kSecret).has_value());
}

// Random payloads, and random damage to a real one, behind a valid checksum: decoding returns,
// whatever it returns (the sanitizer build checks that it does so cleanly).
TEST(EntryTest, SurvivesRandomPayloads) {
  std::mt19937 random(18);  // fixed: a failure repeats
  const std::vector<uint8_t> real = Json::to_cbor(sample_document());
  for (int round = 0; round < 3000; ++round) {
    std::vector<uint8_t> payload;
    if (round % 2 == 0) {
      payload.resize(random() % 64);
      for (uint8_t& byte : payload) byte = static_cast<uint8_t>(random());
    } else {
      payload = real;
      for (unsigned changes = 1 + random() % 4; changes > 0; --changes)
        payload[random() % payload.size()] = static_cast<uint8_t>(random());
    }
    const std::optional<Entry> decoded = decode_entry(wrapped(payload), kSecret);
    if (decoded) {  // whatever it says, it says it in the shape encode_entry writes
      EXPECT_EQ(decode_entry(encode_entry(*decoded, kSecret), kSecret), decoded);
    }
  }
}

}  // namespace
}  // namespace sealint::cache
