#pragma once
// Python and torch exceptions, as far as GPU memory goes: which `except` clauses an
// out-of-memory error lands in, and how error text names one.
#include <cstdint>
#include <string_view>

namespace sealint::knowledge {

// What catching an exception class catches of an out-of-memory error, from least to most
// specific (a clause with several types catches the most specific of them).
enum class MemoryCatch : uint8_t {
  Other,        // `ValueError`, `KeyError`: not where an out-of-memory error lands
  Broad,        // `Exception`, `BaseException`, a bare `except:`
  Runtime,      // `RuntimeError`: what torch raised for CUDA OOM before 1.13
  OutOfMemory,  // `torch.cuda.OutOfMemoryError`
};
[[nodiscard]] MemoryCatch memory_catch(std::string_view class_name);

// `IndexError`, `KeyError`, `LookupError`: a missing entry. Caught beside `RuntimeError`
// (`except (RuntimeError, IndexError):`), they make the handler a fallback for a failed lookup
// (an embedding cache miss), not an answer to running out of memory.
[[nodiscard]] bool is_lookup_error(std::string_view class_name);

// Text that names an out-of-memory error: "CUDA out of memory", "OutOfMemoryError", the word
// "OOM" (not inside "room" or "zoom"); any case.
[[nodiscard]] bool mentions_out_of_memory(std::string_view text);

}  // namespace sealint::knowledge
