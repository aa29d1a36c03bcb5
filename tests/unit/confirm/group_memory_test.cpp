#include "analyzer/confirm/group_memory.h"

#include <unistd.h>

#include <gtest/gtest.h>

namespace sealint::confirm {
namespace {

TEST(GroupMemoryTest, CountsTheResidentMemoryOfOurOwnGroup) {
  // This test process is in its group and resident: at least a megabyte of it.
  EXPECT_GE(group_resident_bytes(::getpgrp()), uint64_t{1} << 20);
}

TEST(GroupMemoryTest, FindsNothingForAGroupNoProcessIsIn) {
  // Process group ids are positive; no live process has a negative one.
  EXPECT_EQ(group_resident_bytes(-12345), 0U);
}

TEST(GroupMemoryTest, DefaultBoundIsHalfThePhysicalMemory) {
  const auto physical = static_cast<uint64_t>(::sysconf(_SC_PHYS_PAGES)) *
                        static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  EXPECT_EQ(default_memory_bound(), physical / 2);
}

}  // namespace
}  // namespace sealint::confirm
