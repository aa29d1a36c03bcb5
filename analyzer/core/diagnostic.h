#pragma once
// What a rule reports and what the outputs print: plain values, compared whole in tests.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/confirmation.h"

namespace sealint {

enum class Severity { Note, Warning, Error };

[[nodiscard]] std::string_view severity_name(Severity severity);

// A byte range in a file's code (after any BOM).
struct ByteRange {
  uint32_t begin = 0;
  uint32_t end = 0;
  bool operator==(const ByteRange&) const = default;
};

// 1-based line; column counts Unicode code points (as editors and our text output do);
// utf16_column counts UTF-16 code units (SARIF's default column kind).
// In a notebook, `cell` is the 1-based cell number and line, columns and offset are in that cell
// (notebook/cell_positions.h); 0 in any other file.
struct Position {
  uint32_t line = 1;
  uint32_t column = 1;
  uint32_t utf16_column = 1;
  uint32_t offset = 0;
  uint32_t cell = 0;
  bool operator==(const Position&) const = default;
};

struct Span {
  Position begin;
  Position end;
  bool operator==(const Span&) const = default;
};

struct RelatedLocation {
  Span span;
  std::string message;
  bool operator==(const RelatedLocation&) const = default;
};

struct Edit {
  ByteRange range;
  Span span;  // the same range as line/column positions, for the outputs
  std::string replacement;
  bool operator==(const Edit&) const = default;
};

struct Fix {
  std::string title;
  bool safe = false;
  std::vector<Edit> edits;
  bool operator==(const Fix&) const = default;
};

struct Diagnostic {
  std::string rule_id;
  std::string rule_name;
  Severity severity = Severity::Error;
  std::string path;
  Span span;
  std::string message;
  std::string help;
  std::vector<RelatedLocation> related;
  std::optional<Fix> fix;
  // Silenced by an inline comment: kept (counted, shown with --show-suppressed, and marked as
  // such in SARIF) so that a suppression is never silent.
  bool suppressed = false;
  // What `sealint confirm` measures for this finding; absent for rules it cannot show at run time.
  std::optional<ProbeHint> probe;
  // Set by `sealint confirm` only.
  std::optional<Confirmation> confirmation;
  // Set by `sealint confirm --verify-fix`: the verdict on the finding's loop with its fix applied.
  std::optional<Confirmation> after_fix;
  bool operator==(const Diagnostic&) const = default;
};

// Something about an input that kept sealint from analysing all of it: unreadable, binary,
// not UTF-8, a syntax error, nesting past the bound. Always printed, and exit status 2.
struct InputError {
  std::string path;
  std::optional<Position> at;
  std::string message;
  // A statement sealint could not read in valid code (a known grammar limitation): printed as a
  // warning, and it does not make the exit status 2.
  bool warning = false;
  // A note that stands for every file it applies to ("parsed without a precompiled header"):
  // each file says it, the driver keeps the first in sorted order, so any --jobs prints the same.
  bool once_a_run = false;
  // C++: the includes that stayed missing (`opencv2/opencv.hpp`), for the one line the text
  // output prints for every file that lacked headers, in place of a warning per file.
  std::vector<std::string> missing_headers{};
  bool operator==(const InputError&) const = default;
};

// A test function whose findings were left out: rules whose finding needs a long-running loop
// do not report in test code (semantic/test_code.h) unless `analyse-tests` is set. Counted in
// the summary, so that nothing is dropped in silence.
struct LeftOutTest {
  std::string path;                // as the outputs name the file
  std::string function;            // its name
  uint32_t line = 0;               // of its definition
  std::vector<std::string> rules;  // the rule of each finding left out, in finding order
  bool operator==(const LeftOutTest&) const = default;
};

// Total order for deterministic output whatever the job count.
[[nodiscard]] bool diagnostic_less(const Diagnostic& a, const Diagnostic& b);
[[nodiscard]] bool input_error_less(const InputError& a, const InputError& b);

}  // namespace sealint
