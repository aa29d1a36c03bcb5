// sealint's model of LibTorch 1.13: <c10/cuda/CUDACachingAllocator.h>, minimal.
// Not checked against the real header (it needs the CUDA toolkit's headers).
#pragma once
// A system header, like the real ATen/c10 headers under /usr/include: no warnings
// from inside the model (the README at the model root covers the real torch/ dir).
#pragma GCC system_header

#include <ATen/ATen.h>

namespace c10 {
namespace cuda {
namespace CUDACachingAllocator {
void* raw_alloc(size_t nbytes);
void raw_delete(void* ptr);
void emptyCache();
void resetPeakStats(int device);
void resetAccumulatedStats(int device);
} // namespace CUDACachingAllocator
} // namespace cuda
} // namespace c10
