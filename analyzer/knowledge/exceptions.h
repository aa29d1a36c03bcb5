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

// The same for a LibTorch C++ `catch`, by the class's qualified name as the IR spells it (c10 and
// at read as torch): `torch.OutOfMemoryError` (c10::OutOfMemoryError), `torch.Error` (c10::Error,
// its base, which every LibTorch error is), `std.exception` (the base of c10::Error).
// c10::Error is no std::runtime_error, so `catch (const std::runtime_error&)` misses it.
[[nodiscard]] MemoryCatch cpp_memory_catch(std::string_view qualified);

// A call that returns cached device memory to the driver: Python's `torch.cuda.empty_cache()`,
// LibTorch's `c10::cuda::CUDACachingAllocator::emptyCache()` (qualified as the IR spells them).
[[nodiscard]] bool empties_device_cache(std::string_view qualified);

// `IndexError`, `KeyError`, `LookupError`: a missing entry. Caught beside `RuntimeError`
// (`except (RuntimeError, IndexError):`), they make the handler a fallback for a failed lookup
// (an embedding cache miss), not an answer to running out of memory.
[[nodiscard]] bool is_lookup_error(std::string_view class_name);

// Text that names an out-of-memory error: "CUDA out of memory", "OutOfMemoryError", the word
// "OOM" (not inside "room" or "zoom"); any case.
[[nodiscard]] bool mentions_out_of_memory(std::string_view text);

}  // namespace sealint::knowledge
