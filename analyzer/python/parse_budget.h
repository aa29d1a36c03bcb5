#pragma once
// What one parse of one file may take. tree-sitter's memory grows with the file's tokens, not its
// bytes: a valid 20 MB one-line tuple needs 4.3 GB and 23 s to parse, and when memory runs out its
// default allocator aborts the whole run. A parse past either budget stops and its file becomes an
// input error; the other files are still analysed.
#include "analyzer/core/sanitizer.h"

#include <cstddef>
#include <cstdint>

namespace sealint::python {

// An AddressSanitizer build runs the parser about three times slower: its budget is the code's,
// not the instrumentation's (a 20 MB file took over 50 s of CPU there with another test beside it).
inline constexpr uint64_t kInstrumentationSlowdown = kAddressSanitizer ? 3 : 1;

struct ParseBudget {
  // Ordinary code needs about 50 bytes of parser memory per byte of source. The IR made from the
  // tree is held to the same budget (lowering.h): its nodes and the analysis's facts about them.
  size_t memory_bytes = size_t{2} << 30;
  // The parsing thread's CPU time, not wall-clock time, which a loaded machine stretches.
  // Ordinary code parses at about 5 MB per second; tree-sitter-python's scanner is quadratic in a
  // run of `\` continuation lines (20,000 take 3 s, 70,000 over a minute).
  uint64_t base_micros = 10'000'000;
  uint64_t micros_per_mib = 2'000'000;  // 0.5 MB/s: slow, sanitized builds too

  // A file longer than this is parsed in pieces of about this size (top_level_pieces.h), one
  // piece's tree at a time instead of the whole file's: the memory budget then bounds one piece.
  size_t piece_bytes = size_t{64} << 10;

  [[nodiscard]] uint64_t time_micros(size_t source_bytes) const {
    return (base_micros + micros_per_mib * (source_bytes >> 20)) * kInstrumentationSlowdown;
  }
};

// Counts tree-sitter's allocations on this thread while it lives, and raises the parser's
// cancellation flag once they pass the budget (tree-sitter checks it every 100 operations). The
// allocator hooks are process-wide C function pointers with no context argument, so the meter in
// use is found through a thread-local pointer: each worker thread parses with its own.
class ParseMeter {
 public:
  explicit ParseMeter(size_t memory_bytes);
  ParseMeter(const ParseMeter&) = delete;
  ParseMeter& operator=(const ParseMeter&) = delete;
  ~ParseMeter();

  // The flag to hand to ts_parser_set_cancellation_flag.
  [[nodiscard]] const size_t* cancellation_flag() const { return &cancel_; }
  [[nodiscard]] bool over_budget() const { return cancel_ != 0; }

  // Called by the allocator hooks only.
  void allocated(size_t bytes);
  void freed(size_t bytes);
  // The system is out of memory: give back the reserve so that the parse can reach its next
  // cancellation check. False when there is no reserve left to give.
  bool release_reserve();

 private:
  size_t limit_;
  size_t used_ = 0;
  size_t cancel_ = 0;
  void* reserve_;
  ParseMeter* previous_;
};

// Routes tree-sitter's allocations through the meters; idempotent and thread-safe.
void install_parse_allocator();

}  // namespace sealint::python
