// libFuzzer target: any bytes as a result cache entry (docs/cache.md), as they are read from a
// cache folder a repository may ship: decoded as they stand and behind a valid magic and
// seal (which random bytes never have), and what decodes goes through every output writer
// and the fixes, as a hit's findings do.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "analyzer/cache/entry.h"
#include "analyzer/cache/hmac.h"
#include "analyzer/core/fixes.h"
#include "analyzer/output/github_output.h"
#include "analyzer/output/json_output.h"
#include "analyzer/output/sarif_output.h"
#include "analyzer/output/text_output.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

// The fuzz run's secret: the user's secret seals every entry sealint writes (secret.h).
constexpr sealint::cache::Secret kSecret = {0x5e, 0xa1, 0x17};

// The entry file for `payload` with a correct magic and seal.
std::string wrapped(std::string_view payload) {
  std::string out(sealint::cache::kEntryMagic);
  const sealint::cache::Digest seal = sealint::cache::hmac_sha256(kSecret, payload);
  out.append(reinterpret_cast<const char*>(seal.data()), seal.size());
  return out.append(payload);
}

void use(const sealint::cache::Entry& entry) {
  using namespace sealint;
  // Encoding what was decoded gives it back: nothing is decoded that encode could not write.
  if (cache::decode_entry(cache::encode_entry(entry, kSecret), kSecret) != entry) __builtin_trap();
  const cache::FileOutcome& outcome = entry.outcome;
  const output::LineLookup lines = [](std::string_view, const Position&) {
    return std::string("    total += loss");
  };
  std::ostringstream out;
  output::write_text(out, outcome.diagnostics, lines, {.color = true});
  output::write_input_errors(out, outcome.errors, {});
  output::write_json(out, outcome.diagnostics, outcome.errors);
  output::write_github(out, outcome.diagnostics, outcome.errors);
  output::SarifOptions sarif;
  sarif.input_errors = outcome.errors;
  output::write_sarif(out, outcome.diagnostics, fuzz::Lint::get().sarif_rules(), lines, sarif);
  // A lookup uses an entry only when its edits lie inside the file (result_cache.cpp).
  const std::string code(entry.key.size, 'x');
  for (const Diagnostic& d : outcome.diagnostics) {
    if (!d.fix) continue;
    for (const Edit& e : d.fix->edits) {
      if (e.range.end > code.size()) return;
    }
  }
  (void)apply_fixes(code, outcome.diagnostics, /*unsafe=*/true);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // The key's size bounds the fixes' code; a fuzzed size could ask for terabytes.
  constexpr uint64_t kMaxCode = 1U << 20;
  for (const std::string& candidate : {std::string(bytes), wrapped(bytes)}) {
    if (auto entry = sealint::cache::decode_entry(candidate, kSecret);
        entry && entry->key.size <= kMaxCode)
      use(*entry);
  }
  return 0;
}
