#pragma once
// Whether this translation unit is compiled with AddressSanitizer, for the few places that scale
// a budget or a test input to its slowdown. g++ defines __SANITIZE_ADDRESS__; clang-19 does not
// (the `sanitize` preset), and answers __has_feature(address_sanitizer) instead, which g++ 12
// lacks: both are asked. tests/unit/core/sanitizer_test.cpp checks the answer against the build's
// SEALINT_SANITIZE.

namespace sealint {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace sealint
