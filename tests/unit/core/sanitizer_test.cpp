#include "analyzer/core/sanitizer.h"

#include <gtest/gtest.h>

namespace sealint {
namespace {

// CMake passes SEALINT_SANITIZE to this file only: the build knows whether it asked for
// AddressSanitizer, the code must find out from the compiler. clang-19 (the `sanitize` preset)
// defines no __SANITIZE_ADDRESS__, and asking only that kept the parse budget unscaled there.
TEST(SanitizerTest, TheCodeSeesAddressSanitizerExactlyWhenTheBuildAskedForIt) {
  EXPECT_EQ(kAddressSanitizer, SEALINT_BUILT_WITH_SANITIZERS != 0);
}

}  // namespace
}  // namespace sealint
