#include "analyzer/python/parse_budget.h"

#include <malloc.h>  // malloc_usable_size

#include <cstdio>
#include <cstdlib>
#include <mutex>

#include <tree_sitter/api.h>

namespace sealint::python {

namespace {

// Enough for tree-sitter to reach its next cancellation check once malloc has failed.
constexpr size_t kReserveBytes = size_t{16} << 20;

// The meter of the parse running on this thread, or null (no parse: allocations pass through).
thread_local ParseMeter* active_meter = nullptr;

// malloc failed even after the reserve went back: no way to continue the parse and no memory to
// unwind through C code safely. Exit with the input-error status and a message, never abort.
[[noreturn]] void out_of_memory(size_t bytes) {
  std::fprintf(stderr, "sealint: error: out of memory while parsing (%zu more bytes)\n", bytes);
  std::_Exit(2);
}

void* counted(void* memory) {
  if (memory != nullptr && active_meter != nullptr)
    active_meter->allocated(malloc_usable_size(memory));
  return memory;
}

void* metered_malloc(size_t bytes) {
  void* memory = std::malloc(bytes);
  while (memory == nullptr && bytes > 0) {
    if (active_meter == nullptr || !active_meter->release_reserve()) out_of_memory(bytes);
    memory = std::malloc(bytes);
  }
  return counted(memory);
}

void* metered_calloc(size_t count, size_t bytes) {
  void* memory = std::calloc(count, bytes);
  while (memory == nullptr && count > 0 && bytes > 0) {
    if (active_meter == nullptr || !active_meter->release_reserve()) out_of_memory(count * bytes);
    memory = std::calloc(count, bytes);
  }
  return counted(memory);
}

void* metered_realloc(void* old, size_t bytes) {
  const size_t old_size = old == nullptr ? 0 : malloc_usable_size(old);
  void* memory = std::realloc(old, bytes);
  while (memory == nullptr && bytes > 0) {
    if (active_meter == nullptr || !active_meter->release_reserve()) out_of_memory(bytes);
    memory = std::realloc(old, bytes);
  }
  if (active_meter != nullptr) {
    active_meter->freed(old_size);
    if (memory != nullptr) active_meter->allocated(malloc_usable_size(memory));
  }
  return memory;
}

void metered_free(void* memory) {
  if (memory != nullptr && active_meter != nullptr) active_meter->freed(malloc_usable_size(memory));
  std::free(memory);
}

}  // namespace

ParseMeter::ParseMeter(size_t memory_bytes)
    : limit_(memory_bytes), reserve_(std::malloc(kReserveBytes)), previous_(active_meter) {
  active_meter = this;
}

ParseMeter::~ParseMeter() {
  active_meter = previous_;
  std::free(reserve_);
}

void ParseMeter::allocated(size_t bytes) {
  used_ += bytes;
  if (used_ > limit_) cancel_ = 1;
}

// Memory allocated before this meter and freed under it is not ours to subtract below zero.
void ParseMeter::freed(size_t bytes) {
  used_ -= bytes < used_ ? bytes : used_;
}

bool ParseMeter::release_reserve() {
  cancel_ = 1;
  if (reserve_ == nullptr) return false;
  std::free(reserve_);
  reserve_ = nullptr;
  return true;
}

void install_parse_allocator() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    ts_set_allocator(metered_malloc, metered_calloc, metered_realloc, metered_free);
  });
}

}  // namespace sealint::python
