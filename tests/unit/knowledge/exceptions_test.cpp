#include "analyzer/knowledge/exceptions.h"

#include <gtest/gtest.h>

namespace sealint::knowledge {
namespace {

TEST(ExceptionsTest, ALibTorchCatchOfTheOutOfMemoryErrorOrItsBasesCatchesOutOfMemory) {
  EXPECT_EQ(cpp_memory_catch("torch.OutOfMemoryError"), MemoryCatch::OutOfMemory);
  EXPECT_EQ(cpp_memory_catch("torch.Error"), MemoryCatch::Runtime);
  EXPECT_EQ(cpp_memory_catch("std.exception"), MemoryCatch::Broad);
}

TEST(ExceptionsTest, ALibTorchCatchOfAnotherKindOrOfRuntimeErrorMissesOutOfMemory) {
  // c10::Error derives from std::exception, not std::runtime_error.
  EXPECT_EQ(cpp_memory_catch("std.runtime_error"), MemoryCatch::Other);
  EXPECT_EQ(cpp_memory_catch("torch.IndexError"), MemoryCatch::Other);
  EXPECT_EQ(cpp_memory_catch("Error"), MemoryCatch::Other);
}

TEST(ExceptionsTest, EmptyingTheDeviceCacheIsNamedAsPythonAndLibTorchSpellIt) {
  EXPECT_TRUE(empties_device_cache("torch.cuda.empty_cache"));
  EXPECT_TRUE(empties_device_cache("torch.cuda.CUDACachingAllocator.emptyCache"));
  EXPECT_FALSE(empties_device_cache("torch.cuda.synchronize"));
}

}  // namespace
}  // namespace sealint::knowledge
