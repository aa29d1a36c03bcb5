#pragma once
// Applying fixes to a file's text (core/unified_diff.h shows them).
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/result.h"

namespace sealint {

struct AppliedFixes {
  std::string text;  // the code after the fixes
  // Indices (into the diagnostics given) of the findings whose fixes went in; one whose edits
  // overlap another's is left out.
  std::vector<size_t> fixed;
};

// Applies the fixes of `diagnostics` (safe ones, and unsafe ones too when `unsafe`) to `code`
// (the text after any BOM; edit offsets are into it). Suppressed findings are not fixed.
[[nodiscard]] AppliedFixes apply_fixes(std::string_view code,
                                       const std::vector<Diagnostic>& diagnostics, bool unsafe);

// FNV-1a 64 of a file's bytes: `--fix` never writes a file whose content changed since it was read.
// A file read in pieces: pass each piece the digest of those before it.
inline constexpr uint64_t kEmptyDigest = 1469598103934665603ULL;
[[nodiscard]] uint64_t content_digest(std::string_view bytes, uint64_t before = kEmptyDigest);

}  // namespace sealint
